/*
 * reader_state.h - the streaming reader's whole state, struct pgn_reader, made of one
 * part per owner.  Private to the reader: the library's API is include/pgnkit/pgn_reader.h.
 *
 * The reader is seven files, whose calls go one way (down this list), each with a header
 * of what it offers the files above it:
 *   pgn_reader.c      the game splitter and the public API: a game's start and end
 *                     (SPEC §2), its limits, the view handed out, construction, the
 *                     second reading of a part;
 *   pgn_parts.c       a game in parts (pgn_parts_internal.h);
 *   pgn_lexer_fast.c  bytes to tokens, the fast path (pgn_lexer_fast_internal.h);
 *   pgn_lexer.c       bytes to tokens, one at a time (pgn_lexer_internal.h);
 *   pgn_comments.c    {comments} (pgn_comments_internal.h);
 *   pgn_tags.c        tag pairs (pgn_tags_internal.h);
 *   reader_buffer.c   the input buffer, streaming skips, the growable per-game arrays,
 *                     diagnostics (reader_buffer.h, with the inline emit() and push_tag());
 * over name_set.{c,h} (the tag names seen) and pgn_bytes.h (byte classes, vector scans).
 *
 * The state's parts, each declared in a header of its own that says who writes it and
 * who only reads it: r->in (reader_input.h), r->scan (reader_scan.h), r->tok
 * (reader_tokens.h), r->tag (reader_tags.h), r->parts (reader_parts.h).  The rest,
 * below, is pgn_reader.c's.  The state is here, apart from the files' function headers,
 * because each of the seven files reads the whole struct: were a part declared in its
 * owner's function header, that header and this one would include each other.
 */
#ifndef PGNKIT_READER_STATE_H
#define PGNKIT_READER_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgn/pgn_reader_types.h"
#include "pgn/reader_input.h"
#include "pgn/reader_parts.h"
#include "pgn/reader_scan.h"
#include "pgn/reader_tags.h"
#include "pgn/reader_tokens.h"

/* Out of line and cold, across the reader's files (PGNKIT_COLD is for one file). */
#define READER_COLD __attribute__((noinline, cold))

#define NEED_MORE SIZE_MAX /* a scanner ran out of bytes before the end of its construct */

/*
 * The parts the scan touches per byte or per token come first (in, scan, tok, then the
 * flags emit() reads and the limits), so that they share the first cache lines; the
 * per-game and per-part bookkeeping follows.
 */
struct pgn_reader {
    struct reader_input in;
    struct reader_scan scan;
    struct reader_tokens tok;

    /* pgn_reader.c's, but for skipping and too_many_tokens, which reader_buffer.c sets
     * when a game passes a limit (start_skipping, tokens_over_limit). */
    bool started;
    bool skipping;     /* over max_game_bytes: scanned for its end, nothing kept */
    bool too_many_tokens; /* skipping since the game passed max_game_tokens */
    bool has_result;
    bool finished;
    bool stop_crossed; /* stop_at was no clean place between games */
    bool games_unknown; /* game indexes are not known: each game gets index 0 */
    bool keep_tokens;
    struct pgn_limits lim; /* read by all; set at construction */
    unsigned char cpu; /* enum cpu_level: which scan_fast runs; cpu_level() at
                        * construction, pgn_reader_set_cpu() (the tests) after */
    size_t game_start; /* index in data of its first byte (only while !skipping; moved
                        * with the data by reader_buffer.c) */
    uint64_t game_off;
    uint64_t game_line;
    uint64_t game_col;
    uint64_t games;
    size_t stop_at;    /* games starting at this index or later are not read (restart) */
    size_t kept;      /* tokens of the games returned since the restart, when keep_tokens */
    const char *name;
    struct diag_list diags; /* pushed by reader_buffer.c's add_diag() */

    struct reader_tags tag;
    struct reader_parts parts;
};

/* The 1-based column of index i on the scan's line. */
static inline uint64_t col_at(const struct pgn_reader *r, size_t i)
{
    return col_of(i, r->scan.ls);
}

/* a + b, or SIZE_MAX when that overflows. */
static inline size_t add_sat(size_t a, size_t b) { return b > SIZE_MAX - a ? SIZE_MAX : a + b; }

#endif
