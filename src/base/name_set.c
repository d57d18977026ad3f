/* name_set.c - a set of name hashes for the reader's duplicate-tag rule (name_set.h). */
#include "base/name_set.h"

#include <stdlib.h>
#include <string.h>

#include "base/inline_hints.h"
#include "base/xalloc.h"

uint64_t name_set_hash(const char *p, size_t len)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t k = 0; k < len; k++)
        h = (h ^ (unsigned char)p[k]) * 0x100000001b3u;
    return h ? h : 1; /* 0 marks an empty slot */
}

bool name_set_has(const struct name_set *s, uint64_t h)
{
    if (!s->cap)
        return false;
    for (size_t k = (size_t)h & (s->cap - 1);; k = (k + 1) & (s->cap - 1)) {
        if (s->slots[k] == h)
            return true;
        if (!s->slots[k])
            return false;
    }
}

static PGNKIT_COLD void grow(struct name_set *s)
{
    uint64_t *old = s->slots;
    size_t old_cap = s->cap;
    s->cap = old_cap ? 2 * old_cap : 64;
    s->slots = xcalloc(s->cap, sizeof *s->slots);
    s->count = 0;
    for (size_t k = 0; k < old_cap; k++)
        if (old[k])
            name_set_put(s, old[k]);
    free(old);
}

void name_set_put(struct name_set *s, uint64_t h)
{
    if (2 * (s->count + 1) > s->cap)
        grow(s);
    size_t k = (size_t)h & (s->cap - 1);
    while (s->slots[k] && s->slots[k] != h)
        k = (k + 1) & (s->cap - 1);
    if (!s->slots[k]) {
        s->slots[k] = h;
        s->count++;
    }
}

void name_set_clear(struct name_set *s)
{
    if (s->count)
        memset(s->slots, 0, s->cap * sizeof *s->slots);
    s->count = 0;
}

void name_set_release(struct name_set *s)
{
    free(s->slots);
    *s = (struct name_set){NULL, 0, 0};
}
