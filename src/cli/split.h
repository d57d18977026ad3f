/*
 * split.h - --split N and --split-by TAG: the games written spread over files named by
 * the -o pattern.
 *
 * --split N: N games per file, the pattern's one %d (with an optional 0 and width,
 * like %04d) is the file's number from 1.  --split-by TAG: one file per value of the
 * tag, the pattern's one %s is the value made safe for a file name (bytes other than
 * letters, digits, '.', '-', '+' and '_' become '_', a leading '.' too; an absent or
 * empty tag is "unknown"; at most 100 bytes).  Every file is written under a temporary
 * name and renamed at the end, as -o is; a file that exists already is an error unless
 * --force.  Each --split-by file stays open to the end.
 */
#ifndef PGNKIT_CLI_SPLIT_H
#define PGNKIT_CLI_SPLIT_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/config.h"

/* Whether pattern has exactly one conversion of that kind ('d' or 's'; %% is a '%'). */
bool split_pattern_ok(const char *pattern, char conversion);

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
