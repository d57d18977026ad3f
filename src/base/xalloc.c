/* xalloc.c - the one out-of-memory policy: print, then end as the program chose. */
#include "base/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void (*failure_end)(void);

void xalloc_on_failure(void (*end)(void))
{
    failure_end = end;
}

_Noreturn void xalloc_fail(const char *what, size_t size)
{
    /* Formatted on the stack and written at once: stdio may want memory there is not. */
    char msg[160];
    int n = what ? snprintf(msg, sizeof msg, "pgnkit: out of memory (%s)\n", what)
                 : snprintf(msg, sizeof msg, "pgnkit: out of memory (%zu bytes)\n", size);
    if (n > 0)
        fwrite(msg, 1, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1, stderr);
    if (failure_end)
        failure_end();
    abort();
}

static _Noreturn void out_of_memory(size_t size)
{
    xalloc_fail(NULL, size);
}

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory(count * size);
    return p;
}

void *xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

void xgrow(void **ptr, size_t *cap, size_t need, size_t elem_size)
{
    if (need <= *cap)
        return;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    *ptr = xrealloc(*ptr, n * elem_size);
    *cap = n;
}

char *xstrndup(const char *s, size_t len)
{
    char *p = xmalloc(len + 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}
