/* range.h - --range START:END: open one regular file so that its reader starts where the
 * games of the range can be read exactly as the whole-file reader reads them. */
#ifndef PGNKIT_CLI_RANGE_H
#define PGNKIT_CLI_RANGE_H

#include <stdint.h>

#include "cli/config.h"
#include "cli/input.h"

/*
 * Open path for the range cfg->range: a regular, uncompressed file, START not past its
 * end.  Its reader starts at the last sync point (pgn_split.h) at or before START, with
 * the line count of the bytes before it (game indexes unknown unless that is byte 0).
 * Returns 0, or 2 after printing a one-line reason (a usage error or an I/O failure).
 */
int range_open(struct input *in, const char *path, const struct config *cfg);

/*
 * Parse "START:END" (bytes, K/M/G suffixes: powers of 1024; END may be empty: to the end
 * of the file) into *r.  Returns 0, or -1 with a reason in why (why_len bytes).
 */
int range_parse(const char *arg, struct byte_range *r, char *why, size_t why_len);

#endif
