/**
 * pgn_text.h - every game's text as UTF-8, whatever the 8-bit encoding of its file.
 *
 * PGN declares no encoding.  Files in the wild are UTF-8, or Latin-1 / Windows-1252
 * (ICCF, pgnmentor, old database exports), sometimes both in one file.  So the encoding
 * is decided per game: pgn_text_utf8() looks at one game's bytes as the reader gave them.
 * Valid UTF-8 (or ASCII: the fast path, 8 bytes at a time) is returned as it is.
 * Anything else is decoded as CP1252 (Latin-1 with the printable characters Windows puts
 * in 0x80-0x9F; its five unassigned bytes as the C1 controls, as WHATWG does): the result
 * is a copy of the game whose tag names and values, token texts and reader diagnostics
 * point at UTF-8 text, with one ENCODING warning first in its diagnostics, saying where
 * the first byte that is not UTF-8 is.
 *
 * Forced encodings (--encoding): PGN_ENCODING_UTF8 keeps UTF-8 games as they are and
 * replaces each byte that is no part of a UTF-8 character with U+FFFD (with the warning);
 * PGN_ENCODING_LATIN1 and PGN_ENCODING_CP1252 decode every game that has a byte >= 0x80
 * that way, without a warning (the user said so).
 *
 * The copy's token texts no longer point into game->text (game->text and the offsets
 * still describe the bytes as read).  Memory: struct pgn_text's buffers, grown to the
 * largest converted game and reused; nothing is allocated for a UTF-8 game.  A game in
 * parts (pgn_reader.h) is converted part by part: the copy's part 0 at once, each other
 * part when it is loaded through the copy's parts (into a buffer of its own, reused by
 * the next load).
 * Not thread-safe: one struct pgn_text per thread.
 */
#ifndef PGNKIT_PGN_TEXT_H
#define PGNKIT_PGN_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cpu.h"
#include "pgn/pgn_reader.h"

enum pgn_encoding {
    PGN_ENCODING_AUTO = 0, /* UTF-8 when it is valid UTF-8, else CP1252, per game */
    PGN_ENCODING_UTF8,
    PGN_ENCODING_LATIN1,
    PGN_ENCODING_CP1252,
};

/** A thread's scratch for converted games.  Zeroed is ready (or pgn_text_init). */
struct pgn_text {
    struct pgn_game game;
    struct pgn_tag *tags;
    size_t tag_cap;
    struct pgn_token *tokens;
    size_t token_cap;
    struct diag *diags;
    size_t diag_cap;
    char *text;
    size_t text_len, text_cap;
    /* The copy's parts: the source game's, each converted when loaded. */
    struct pgn_part_source parts;
    const struct pgn_part_source *inner;
    enum pgn_encoding part_encoding;
    struct pgn_token *part_tokens;
    size_t part_token_cap;
    char *part_text;
    size_t part_text_cap;
};

void pgn_text_init(struct pgn_text *t);
void pgn_text_release(struct pgn_text *t);

/**
 * g itself when its text needs no change, else t's converted copy of it (valid until the
 * next call with t).  g must stay valid as long as the copy is used (the copy shares its
 * file name and game text).
 */
const struct pgn_game *pgn_text_utf8(struct pgn_text *t, const struct pgn_game *g,
                                     enum pgn_encoding encoding);

/** Whether p[0, n) is valid UTF-8 (shortest forms, no surrogates, at most U+10FFFF). */
bool pgn_text_is_utf8(const char *p, size_t n);

/** The index of the first byte of p[0, n) that is no part of a UTF-8 character, or n,
 * found by the path of `level` (cpu.h), which this CPU must run: the tests hold each
 * path to the others. */
size_t pgn_text_first_non_utf8_at(const char *p, size_t n, enum cpu_level level);

/** "auto", "utf-8", "latin1" or "cp1252" -> *out; false for any other name. */
bool pgn_text_encoding_by_name(const char *name, enum pgn_encoding *out);

#endif
