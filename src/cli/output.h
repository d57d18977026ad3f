/*
 * output.h - where stdout-bound bytes go: standard output, or -o FILE written to a
 * temporary name in the same directory and renamed at the end, so a failed run
 * never leaves a half file.
 */
#ifndef PGNKIT_CLI_OUTPUT_H
#define PGNKIT_CLI_OUTPUT_H

#include <stdbool.h>

#include "pgnkit/buf.h"

enum { OUTPUT_FLUSH_BYTES = 1 << 16 };

struct output {
    int fd;
    const char *path;  /* NULL for standard output */
    char *tmp_path;
    bool failed;       /* a write failed (reported once): later flushes drop their bytes */
};

int output_open(struct output *out, const char *path);
/* Write and clear b; returns 0, or -1 after printing the error (then exit status 2).
 * The error is printed once; a closed pipe (EPIPE: pgnkit uci | head -1) is not
 * printed at all, since the reader chose to stop. */
int output_flush(struct output *out, struct buf *b);
/* Write len bytes (same errors as output_flush). */
int output_write(struct output *out, const char *bytes, size_t len);
/* Finish: fsync-free close and rename into place.  0 or -1. */
int output_commit(struct output *out);
/* Remove the temporary file after a failure. */
void output_abort(struct output *out);
/* Write b to standard error and clear it (errors there are ignored). */
void output_flush_stderr(struct buf *b);

#endif
