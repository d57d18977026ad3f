/*
 * reader_scan.h - where the streaming reader's scan is (struct reader_scan, r->scan of
 * struct pgn_reader, reader_state.h): its index, line and column counting, the variation
 * depth, the once-per-game reports.
 *
 * Written by the lexers (pgn_lexer_fast.c, pgn_lexer.c) and pgn_comments.c as they step
 * over bytes; reset for each game by pgn_reader.c, which also sets phase to PHASE_TAGS
 * (a tag pair) where the lexer sets PHASE_MOVETEXT; saved at a cut and restored for a
 * part read again by pgn_parts.c.  reader_buffer.c only moves pos and ls with the data
 * (make_room).  pos is shared: whichever file calls reader_fill() sets it first.
 */
#ifndef PGNKIT_READER_SCAN_H
#define PGNKIT_READER_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum game_phase {
    PHASE_BEFORE = 0, /* nothing yet but whitespace, comments or junk */
    PHASE_TAGS,       /* in the tag section */
    PHASE_MOVETEXT,   /* a movetext token was seen */
};

/* File offsets [from, to) that hold no byte of some value. */
struct absent {
    uint64_t from, to;
};

struct reader_scan {
    size_t pos;        /* where scanning resumes; the restart point handed to reader_fill() */
    ptrdiff_t ls;      /* index of the current line's first byte (negative once discarded) */
    uint64_t line;
    uint64_t eols;     /* line ends since the last byte that was not whitespace */
    uint64_t depth;    /* of variations: '(' not yet closed */
    enum game_phase phase;
    bool ctrl_reported;
    bool deep_reported;
    bool reserved_reported; /* a <...> reserved token was reported in this game */
    bool unbraced_reported; /* a [%...] comment without braces was reported in this game */
    uint64_t open_line; /* where the outermost open '(' is */
    uint64_t open_col;
    /* Stretches of the file known to hold no '}' (no '{'): an unterminated comment
     * searched them, and the next one does not search them again (else each costs the
     * rest of the buffer, or the tag line rule's lookahead).  pgn_comments.c's; cleared
     * by pgn_reader.c for a restart. */
    struct absent no_close, no_open;
};

/* The 1-based column of index i on the line that starts at index ls. */
static inline uint64_t col_of(size_t i, ptrdiff_t ls) { return (uint64_t)((ptrdiff_t)i - ls + 1); }

#endif
