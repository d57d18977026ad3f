/**
 * xalloc.h - allocation that never returns NULL.
 *
 * Out of memory is not a condition the tool can report usefully per game, so these
 * end the process with a message, as pgn-extract and samurai do.  Callers never check
 * for NULL.  By default the end is abort(); a program sets its own (the CLI: its
 * temporary files removed, exit status 2) with xalloc_on_failure.
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

/** What every allocation failure comes to, here or in a library that reports one
 *  (PCRE2's match data): "pgnkit: out of memory (WHAT)", or "(SIZE bytes)" when what
 *  is NULL, on stderr, then the
 *  end set by xalloc_on_failure (abort by default).  Never returns. */
_Noreturn void xalloc_fail(const char *what, size_t size);

/** Set once, before any thread starts (the one setting of this module, read on any
 *  thread after): end() ends the process after the message and must not return. */
void xalloc_on_failure(void (*end)(void));

#endif
