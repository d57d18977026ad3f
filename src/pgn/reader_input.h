/*
 * reader_input.h - the streaming reader's input: the one growing buffer and where it
 * stands in the file (struct reader_input, r->in of struct pgn_reader, reader_state.h).
 *
 * Written by reader_buffer.c alone (reads, a file's mapped window or a producer's blocks,
 * compaction, growth, the end of input, an I/O error), but for its setting up in
 * pgn_reader.c (memory readers point data at the caller's bytes; a restart sets
 * base_off).  Every other reader file only reads it: data and len to scan, eof to know whether more can come, base_off and shift to turn indices
 * into file offsets and back (a part read again narrows len to its end: pgn_parts.c).
 */
#ifndef PGNKIT_READER_INPUT_H
#define PGNKIT_READER_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgn/pgn_reader_types.h"

/*
 * A regular file read by mapping it a window at a time (pgn_reader_new_mapped) instead of
 * copying it into buf: the window holds the current game and the bytes read ahead, and
 * data points into it.  Written by reader_buffer.c alone, like the rest.
 */
struct reader_map {
    bool on;
    int fd;
    size_t page;    /* the system's page size: windows start on a page */
    size_t step;    /* bytes mapped ahead at least (pgn_file_map.step) */
    char *base;     /* the window (NULL: none yet) */
    size_t len;     /* its length */
    uint64_t size;  /* the file's size, as last asked */
    void (*mapped)(void *ctx, uint64_t bytes); /* told after each window (may be NULL) */
    void *ctx;
};

/* Blocks from a producer, parsed in place (pgn_reader_new_blocks): data points into the
 * newest block held, or into buf while a game is longer than a block's room. */
struct reader_blocks {
    bool on;
    unsigned held; /* taken and not released: the block data is in, and during a take
                    * the one before it */
    struct pgn_block_source src;
};

/* The current line's bytes that went with a fill (the line started before data[0], its
 * ls negative): whether one of them was neither a blank nor a BOM, so that "only blanks
 * before this on its line" is still known (pgn_lexer.c, first_on_line).  line_off: the
 * file offset of that line's first byte. */
struct dropped_head {
    uint64_t line_off;
    bool nonblank;
};

struct reader_input {
    /* The hot four first: the scan reads them per construct. */
    const char *data;  /* buf, or the caller's memory */
    size_t len;        /* valid bytes in data */
    bool eof;
    bool memory;       /* data is the caller's: nothing is read */
    bool bom_done;
    bool failed;
    uint64_t base_off; /* file offset of data[0] */
    size_t shift;      /* how far the last reader_fill() moved the data to the left */
    char *buf;         /* owned buffer; NULL for memory readers */
    size_t cap;
    int err_no;
    struct pgn_source src;
    struct reader_map map;
    struct reader_blocks blocks;
    struct dropped_head head;
};

#endif
