/* progress.h - the progress line on stderr (progress.c); told of bytes and games. */
#ifndef PGNKIT_CLI_PROGRESS_H
#define PGNKIT_CLI_PROGRESS_H

#include <stdint.h>

#include "cli/config.h"

/* Progress on stderr: bytes, games, MB/s, ETA when the size is known. */
struct progress {
    int enabled;
    const char *name;
    uint64_t size;
    uint64_t base_games;
    uint64_t games;     /* the last count given to progress_update */
    double start, last;
};
void progress_init(struct progress *p, const struct config *cfg);
void progress_start_file(struct progress *p, const char *name, uint64_t size);
void progress_update(struct progress *p, uint64_t bytes, uint64_t games);
/** Bytes read, with the games counted so far: called by every read of the input. */
void progress_bytes(struct progress *p, uint64_t bytes);
void progress_finish(struct progress *p);

#endif
