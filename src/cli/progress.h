/* progress.h - the progress line on stderr (progress.c); told of bytes and games. */
#ifndef PGNKIT_CLI_PROGRESS_H
#define PGNKIT_CLI_PROGRESS_H

#include <stdint.h>

#include "cli/config.h"

/* Progress on stderr: the input ("file k of n" when several), bytes, games, MB/s, and
 * the percentage and ETA when the size is known: of the decoded bytes for plain text,
 * of the bytes taken from the file for compressed input and archives. */
struct progress {
    int enabled;
    const char *name;
    uint64_t size;      /* plain text: its size (0: not known) */
    uint64_t base_games;
    uint64_t games;     /* the last count given to progress_update */
    double start, last;
    size_t input, inputs;     /* the input's number (from 1) and how many; 0 0: not said */
    const uint64_t *raw;      /* compressed: bytes taken from the file (__atomic), or NULL */
    uint64_t raw_size;        /* ... against its size on disk */
    double raw_start;         /* when the input was opened: the rate of raw bytes */
};
void progress_init(struct progress *p, const struct config *cfg);
/* Input k of n (from 1); raw: for a compressed input of file_size bytes on disk, the
 * count of bytes taken from it (input.h), else NULL. */
void progress_start_input(struct progress *p, size_t k, size_t n, const uint64_t *raw,
                          uint64_t file_size);
void progress_start_file(struct progress *p, const char *name, uint64_t size);
void progress_update(struct progress *p, uint64_t bytes, uint64_t games);
/** Bytes read, with the games counted so far: called by every read of the input. */
void progress_bytes(struct progress *p, uint64_t bytes);
void progress_finish(struct progress *p);

#endif
