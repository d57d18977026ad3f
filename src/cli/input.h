/* input.h - open a named input ("-" = standard input) as a pgn_reader. */
#ifndef PGNKIT_CLI_INPUT_H
#define PGNKIT_CLI_INPUT_H

#include <stdint.h>

#include "pgnkit/pgn_reader.h"

struct input {
    const char *name;
    int fd;
    uint64_t size; /* 0 when unknown (pipes) */
    struct pgn_reader *reader;
};

/* Returns 0, or -1 after printing why (no such file, a directory, unreadable). */
int input_open(struct input *in, const char *path, const struct pgn_limits *limits);
void input_close(struct input *in);

#endif
