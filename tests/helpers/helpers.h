/* helpers.h - what several test suites share. */
#ifndef PGNKIT_TEST_HELPERS_H
#define PGNKIT_TEST_HELPERS_H

#include <stddef.h>

/** The whole file, NUL-terminated, in malloc'd memory (free it); fails the test if it
 * cannot be read.  *len gets its size. */
char *th_slurp(const char *path, size_t *len);

#endif
