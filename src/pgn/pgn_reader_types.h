/**
 * pgn_reader_types.h - what the streaming reader (pgn_reader.h) hands out and takes: a
 * game's tokens, tags and parts, the limits a reader keeps to, and the source it reads.
 * Types only (and their inline accessors), apart from the reader's functions, so that the
 * reader's own files (reader_state.h) can hold them without the public API's header,
 * which pgn_reader.c implements above them.
 */
#ifndef PGNKIT_PGN_READER_TYPES_H
#define PGNKIT_PGN_READER_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/diag.h"
#include "board/types.h" /* struct slice */

enum pgn_token_kind {
    PGN_TOK_MOVE = 0,        /* a move (SAN or other notation), suffix !? included */
    PGN_TOK_MOVE_NUMBER,     /* 12. or 12... or 12 (digits then dots) */
    PGN_TOK_NAG,             /* $n (text includes the $) */
    PGN_TOK_COMMENT,         /* {...}: text is the inside, without the braces */
    PGN_TOK_LINE_COMMENT,    /* ;... to end of line: text without the ; */
    PGN_TOK_VARIATION_START, /* ( */
    PGN_TOK_VARIATION_END,   /* ) */
    PGN_TOK_RESULT,          /* 1-0 0-1 1/2-1/2 * */
};

/*
 * A token stays 24 bytes (there is one per input byte at worst), so its position is
 * kept in 32 bits: line holds the low 32 bits of its line number, which
 * pgn_token_line() makes whole again from its game's 64-bit first line (exact while the
 * token is less than 2^32 lines into its game: a game is at most max_game_bytes); col
 * is clamped at UINT32_MAX (a line over 4 GiB).  Diagnostics, tags and games carry
 * 64-bit lines and columns.
 */
struct pgn_token {
    const char *text; /* into the reader's buffer: valid until the next pgn_reader_next() */
    uint32_t len;
    uint32_t line;    /* low 32 bits: use pgn_token_line() */
    uint32_t col;
    uint8_t kind;     /* enum pgn_token_kind */
    uint8_t pad[3];
};

struct pgn_tag {
    struct slice name;
    struct slice value; /* escapes \" and \\ already undone */
    uint64_t line;
    uint64_t col;
};

/** One game as read.  All pointers are owned by the reader, valid until the next call. */
/*
 * A game of more than pgn_limits.part_tokens tokens is handed out in parts, so that its
 * tokens never take more than a part's room however many there are (at 24 bytes a token
 * and up to one token per input byte, a whole game's tokens could take 24 times its
 * bytes; its text is kept whole, ~1 time).  The game's text, tags, diagnostics, bytes and
 * last_result are whole as for any game; tokens/token_count hold part 0, and
 * pgn_game_part() gives part k, read again from the game's text (so a part costs a second
 * tokenizing, and only games over part_tokens pay it).  The concatenation of the parts is
 * exactly the token list the game would have had whole.  A part never ends between two
 * tokens one of which changes the reading of the other: not after a move token directly
 * followed by '(' (e8(Q)), nor between a move token (itself no such mark) and an
 * en-passant mark ("e.p.", "ep", "e.p", "ep.") that follows it.  A part may end before
 * the movetext too (after a comment: the only tokens there), so comments before the first
 * move come in parts like any others.  No part is empty.  Every part, part 0 included,
 * holds at most part_tokens + 2 tokens.  Loads are valid while the game is the reader's
 * last one (until its next pgn_reader_next or restart); with pgn_reader_keep_tokens,
 * part 0 is the game's kept tokens and the parts after it are not kept.
 */
struct pgn_part {
    const struct pgn_token *tokens;
    size_t count;
};

/* How a game's parts are loaded: the reader's own, or a wrapper's that changes the
 * tokens it hands on (pgn_text.c decodes them).  load(src, k) for 1 <= k < part_count;
 * valid until the next load from the same source or the reader's next pgn_reader_next(). */
struct pgn_part_source {
    struct pgn_part (*load)(const struct pgn_part_source *src, size_t k);
};

struct pgn_game {
    uint64_t index;              /* 1-based index of the game in its file; 0 when not known
                                  * (a reader resumed with games_unknown) */
    const char *file;            /* the name given to pgn_reader_new */
    uint64_t line;               /* first line of the game */
    uint64_t offset;             /* byte offset of its first byte in the file */
    uint64_t bytes;              /* bytes the game spans */
    const char *text;            /* its first byte in the reader's buffer (bytes long, unless
                                  * skipped); token texts and unescaped tag values point
                                  * into it, escaped tag values elsewhere */
    const struct pgn_tag *tags;
    size_t tag_count;
    const struct pgn_token *tokens; /* all of them, or part 0 when part_count > 1 */
    size_t token_count;
    size_t part_count;           /* 1: whole; more: in parts; 0: no tokens (skipped too) */
    const struct pgn_part_source *parts; /* loads parts 1.. when part_count > 1, else NULL */
    /* The last result token of the movetext, at any depth, as written ({NULL, 0}: none):
     * the termination marker when the game has one.  It is the last PGN_TOK_RESULT of the
     * game's tokens (a result inside variations nested past max_depth is none). */
    struct slice last_result;
    /* Problems the reader found: unterminated comment, bad tag, control bytes, size
     * limits, ...  A game with an error here may still have usable tokens. */
    struct diag_list diags;
    bool skipped;                /* too large or unreadable: no tags/tokens given */
    /* The reader found text[0, bytes) plain ASCII (no byte >= 0x80, no control byte) in
     * its pass for control bytes; false when it did not (pgn_text_utf8 then looks). */
    bool ascii;
    /* Its first byte is not the first of its line (a game that starts after another's
     * result on the same line, or after blanks): read again alone (pgn_limits.mid_line),
     * a '%' there opens no escape line. */
    bool mid_line;
};

/** The whole line of a line's low 32 bits `low`, at most 2^32 - 1 lines after `base`. */
static inline uint64_t pgn_line_from32(uint64_t base, uint32_t low)
{
    return base + (uint32_t)(low - (uint32_t)base);
}

/** The 1-based line of a token of game g. */
static inline uint64_t pgn_token_line(const struct pgn_game *g, const struct pgn_token *t)
{
    return pgn_line_from32(g->line, t->line);
}

/** Limits; 0 in a field means the default.  Going past one is a diagnostic, not an abort. */
struct pgn_limits {
    size_t max_game_bytes;    /* default 64 MiB */
    size_t max_token_bytes;   /* a move/NAG/number/tag name token; default 255 */
    size_t max_comment_bytes; /* default 32 MiB */
    uint32_t max_depth;       /* variation nesting; default 1024 */
    size_t max_diagnostics;   /* kept per game (then counted: diag_list); default 1000 */
    size_t max_game_tokens;   /* tokens in one game: more and the game is skipped; default
                               * none (SIZE_MAX): parts bound the memory they take */
    size_t part_tokens;       /* a game of more tokens comes in parts (struct pgn_part);
                               * default 64 Ki; SIZE_MAX: every game whole */
    bool drop_comments;       /* for callers that read no comment: some comments on the
                               * line of the move before them (lichess's clocks: those the
                               * lexer's fast path reads) may be left out of the tokens.
                               * Nothing else changes (the other tokens, their lines and
                               * columns, tags, diagnostics, game ends); ignored under a
                               * max_game_tokens, which counts comments. */
    bool mid_line;            /* the data starts inside a line (a game's bytes read again
                               * alone, pgn_game.mid_line): byte 0 opens no escape line
                               * and is no byte-order mark, as in the file it came from */
};

/** Part k (< g->part_count, or 0) of g's tokens: part 0 is g's own tokens, the others
 *  are loaded through g->parts. */
static inline struct pgn_part pgn_game_part(const struct pgn_game *g, size_t k)
{
    if (k == 0 || !g->parts)
        return (struct pgn_part){g->tokens, g->token_count};
    return g->parts->load(g->parts, k);
}

/** Where bytes come from: read(2)-like, returns bytes read, 0 at end, -1 on error (errno). */
struct pgn_source {
    ssize_t (*read)(void *ctx, char *buf, size_t cap);
    void *ctx;
};

/**
 * Bytes handed over a block at a time and parsed where they lie (pgn_reader_new_blocks):
 * a producer (a thread reading a pipe or decoding) fills blocks, the reader copies none
 * of them, only the few bytes of a game that runs from one block into the next.
 * take: the next block, *len > 0 bytes at *data, with *room writable bytes before them
 * where the reader puts the bytes it keeps of the block before; 1, 0 at the end, -1 on
 * an error (errno set).  The reader holds at most two blocks; release hands back the
 * oldest it holds.
 */
struct pgn_block_source {
    int (*take)(void *ctx, char **data, size_t *len, size_t *room);
    void (*release)(void *ctx);
    void *ctx;
};

/** A regular file read by mapping it (pgn_reader_new_mapped). */
struct pgn_file_map {
    int fd; /* open for reading; retained (it must outlive the reader), never closed */
    /* Told the file offset mapped up to after each window (NULL: nobody), as a source's
     * reads would tell it: progress within a long game. */
    void (*mapped)(void *ctx, uint64_t bytes);
    void *ctx;
    /* Bytes mapped ahead of the scan at least, each time it needs more (0: 4 MiB).  The
     * tests make it small, so that windows end everywhere in their inputs. */
    size_t step;
};

#endif
