/*
 * reader_parts.h - a game in parts as the streaming reader keeps it (struct
 * reader_parts, r->parts of struct pgn_reader, reader_state.h; struct part_cut).
 *
 * Written by pgn_parts.c: the cuts, the part being read, the limit on its tokens
 * (part_stop), the game handed out last and a part's second reading (relex).  Others
 * only read it, but for three writes: the lexer's result tokens set result_off and
 * result_len, reader_buffer.c drops the cuts of a skipped game (ncut, win, cut_waits)
 * and moves cut_last with the data, and a part read again that overruns its tokens sets
 * relex_broken (tokens_over_limit).  pgn_lexer_fast.c stops at part_stop; relex tells
 * every file that a part is read again (no diagnostic, tag, boundary or read).
 */
#ifndef PGNKIT_READER_PARTS_H
#define PGNKIT_READER_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgn/pgn_reader_types.h"
#include "pgn/reader_scan.h"

/*
 * Where a part of a game in parts starts (pgn_reader.h, struct pgn_part): the scan's
 * state between two steps, which is all that reading on from there needs (the tags, the
 * tag names and the limits' flags decide only diagnostics, tags and game boundaries,
 * which a second reading neither makes nor takes: the first reading found none inside
 * the part).  File offsets, not indices: the data moves under a streaming reader.
 */
struct part_cut {
    uint64_t off;      /* where the scan resumes */
    uint64_t ls_off;   /* its line's first byte */
    uint64_t line;
    uint64_t eols;
    uint64_t depth;
    uint64_t open_line, open_col;
    size_t first;      /* the part's first token: its index among the game's tokens */
    enum game_phase phase; /* before the movetext, a '[' is a tag pair's */
};

struct reader_parts {
    /* The game's tokens in parts: part 0 is toks[tok0, win) once cut, and the part being
     * read is toks[win, ntok), its tokens counted from part_base (the game's tokens
     * before it).  Before the first cut win is tok0. */
    size_t win;
    size_t part_base;
    size_t part_stop; /* toks index where the part being read is due for a cut */
    bool relex;           /* reading a part again: no diagnostic, tag, boundary or read */
    bool relex_broken;    /* ... and it read otherwise than the first time (a bug) */
    /* A cut after a move waits for the next token: no cut before a promotion piece that
     * joins the move (e8(Q)) or an en passant mark (e.p.). */
    bool cut_waits;
    uint32_t wait_len;   /* the move's length at the wait */
    size_t wait_ntok;    /* ntok at the wait */
    struct part_cut wait_at;
    struct part_cut *cuts; /* cuts[k]: where part k + 1 starts */
    size_t ncut, cut_cap;
    struct pgn_token cut_last; /* the token before the last cut */
    uint64_t result_off;  /* the last result token kept: its file offset (UINT64_MAX: none) */
    uint32_t result_len;
    /* The game handed out last, for loading its parts (pgn_reader.c's load_part). */
    uint64_t game_end;    /* file offset after its last byte */
    size_t part_count;
    struct pgn_part_source part_src;
};

#endif
