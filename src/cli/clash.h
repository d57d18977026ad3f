/*
 * clash.h - outputs that would destroy each other or an input.
 *
 * Each output is written under a temporary name and renamed at the end, so two outputs
 * naming one file (-o X --invalid-to X) silently keep whichever is renamed last, and an
 * output naming an input (check --invalid-to games.pgn games.pgn) replaces what was
 * read; standard output redirected into an input (-o /dev/stdout >> in.pgn) reads its
 * own output until killed.  Such a run is refused before anything is written.
 *
 * One file means: the same device and inode where the file exists (through symbolic and
 * hard links; /dev/stdout is the file standard output is), the same resolved path (the
 * directory's real path and the name) where it does not yet.  Only regular files, or
 * names not there yet, can clash: a FIFO, a device or a socket is written in place and
 * replaces nothing.  Standard output counts when it is a regular file and the run
 * writes its output there; standard input when it is a regular file read as "-".
 */
#ifndef PGNKIT_CLI_CLASH_H
#define PGNKIT_CLI_CLASH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cli/config.h"

struct clash_file {
    const char *what;  /* "-o", "--invalid-to", "an input", "standard output", ... */
    const char *path;  /* as given; NULL for standard input or output */
    bool exists;
    dev_t dev;
    ino_t ino;
    char *resolved;    /* !exists: the real directory and the name */
};

struct clash {
    struct clash_file *files; /* the inputs, then the outputs */
    size_t input_count, count;
};

/* The files cfg reads and writes (-o too, unless it is a --split pattern). */
void clash_collect(struct clash *c, const struct config *cfg);
/* 0, or 2 after printing the first pair that names one file. */
int clash_check(const struct clash *c);
/* A --split file about to be created at path: 0, or -1 after printing which input or
 * output it is too. */
int clash_check_part(const struct clash *c, const char *path);
void clash_release(struct clash *c);

#endif
