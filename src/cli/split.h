/*
 * split.h - --split N and --split-by TAG: the games written spread over files named by
 * the -o pattern.
 *
 * --split N: N games per file, the pattern's one %d (with an optional 0 and width,
 * like %04d, at most SPLIT_WIDTH_MAX: wider is refused, not cut) is the file's number
 * from 1.  --split-by TAG: one file per value of the
 * tag, the pattern's one %s is the value made safe for a file name (bytes other than
 * letters, digits, '.', '-', '+' and '_' become '_', a leading '.' too; an absent or
 * empty tag is "unknown"; at most 100 bytes); values are found by hash.
 *
 * Every file is written under a temporary name and renamed only when the whole run
 * succeeds, as -o is: a failed or interrupted run leaves none of them (--split's full
 * files included).  A name that exists already, a dangling symbolic link included, is
 * an error unless --force; a name that is an input or another output always is
 * (clash.h).  At most half of `ulimit -n` files (and 512) are open at once: the least
 * recently written one is closed, and reopened to append when its value comes again.
 */
#ifndef PGNKIT_CLI_SPLIT_H
#define PGNKIT_CLI_SPLIT_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/config.h"

/* Whether pattern has exactly one conversion of that kind ('d' or 's'; %% is a '%'). */
bool split_pattern_ok(const char *pattern, char conversion);

/* The widest %d: the digits of the largest file number (2^64 - 1). */
enum { SPLIT_WIDTH_MAX = 20 };
/* The width of a pattern's %d (0 for none given); the pattern is split_pattern_ok. */
int split_number_width(const char *pattern);

struct split;

/* The files cfg asks for (none opened yet), or NULL after printing why. */
struct split *split_new(const struct config *cfg);
/* One game's bytes; value is its --split-by tag (NULL: absent).  0, or -1 after
 * printing why (an existing file without --force, a write error). */
int split_write(struct split *s, const char *value, size_t value_len, const char *bytes,
                size_t len);
/* Rename every file into place (ok) or remove them; frees s.  0 or -1. */
int split_finish(struct split *s, bool ok);

#endif
