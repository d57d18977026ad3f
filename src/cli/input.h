/* input.h - open a named input ("-" = standard input) as a pgn_reader. */
#ifndef PGNKIT_CLI_INPUT_H
#define PGNKIT_CLI_INPUT_H

#include <stdint.h>

#include "pgnkit/pgn_reader.h"
#include "pgnkit/source.h"

struct input {
    const char *name;
    int fd;
    uint64_t size;      /* 0 when unknown (pipes, compressed input) */
    struct source *src; /* undoes gzip/zstd, found by content; reads fd */
    struct pgn_reader *reader;
    uint64_t bytes_read; /* bytes read as PGN (decompressed), once the run is over */
};

/*
 * Returns 0, or -1 after printing why (no such file, a directory, unreadable).  *in must
 * stay where it is until input_close: the reader refers to it.
 */
int input_open(struct input *in, const char *path, const struct pgn_limits *limits);
void input_close(struct input *in);

/* Why the last read failed, in one line (e.g. "gzip data is truncated"), or NULL. */
const char *input_error(const struct input *in);

#endif
