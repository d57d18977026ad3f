/*
 * eco_file.h - an opening book read from an ECO file in pgn-extract's eco.pgn format.
 *
 * Each game of the file is one line of an opening: its tags name it (ECO and Opening,
 * which it must have; Variation and SubVariation, which it may have) and its mainline,
 * played from the standard start position, is the line.  The book is the same kind the
 * built-in one is (opening.h: keyed by the position each line reaches, so that games
 * that transpose into a line are named by it), with pgn-extract -e's rules for lines
 * that share a position and for games that reach a line's position late
 * (struct opening_lines).
 *
 * Reading checks every entry and stops at the first bad one, saying where it is (line
 * and column in the file) and what is wrong; nothing is half-read.  The book owns its
 * strings and tables; it is constant once read and may be shared by threads.
 */
#ifndef PGNKIT_GAME_ECO_FILE_H
#define PGNKIT_GAME_ECO_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "game/opening.h"

struct eco_book;

struct eco_error {
    uint64_t line, col; /* 1-based, in the ECO file */
    char message[256];
};

/** The book of the ECO file whose bytes are text[0, len) (name: for the entries'
 *  diagnostics), or NULL with *err saying which entry is bad and why. */
struct eco_book *eco_book_read(const char *text, size_t len, const char *name,
                               struct eco_error *err);

/** The book to classify with (game_options.openings); valid while b is. */
const struct opening_book *eco_book_openings(const struct eco_book *b);

/** How many lines the file had. */
uint32_t eco_book_count(const struct eco_book *b);

void eco_book_free(struct eco_book *b);

#endif
