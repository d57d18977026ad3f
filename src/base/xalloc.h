/**
 * xalloc.h - allocation that never returns NULL.
 *
 * Out of memory is not a condition the tool can report usefully per game, so these
 * abort with a message, as pgn-extract and samurai do.  Callers never check for NULL.
 */
#ifndef PGNKIT_XALLOC_H
#define PGNKIT_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
/** Grow *ptr (of *cap elements of elem_size) to hold at least need elements. */
void xgrow(void **ptr, size_t *cap, size_t need, size_t elem_size);
char *xstrndup(const char *s, size_t len);

#endif
