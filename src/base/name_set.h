/*
 * name_set.h - a set of names kept as 64-bit FNV-1a hashes (open addressing, grown at
 * half full): the reader's record of a game's tag names, for its duplicate-tag rule
 * (a tag line after a blank line that repeats a name starts a new game).  A set, not a
 * list: a tag section of n tags each after a blank line costs n, not n * n (230,000 such
 * tags took 4 minutes).  Two names with the same hash count as the same: at 64 bits,
 * never seen in practice.  Private to src/.
 */
#ifndef PGNKIT_NAME_SET_H
#define PGNKIT_NAME_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct name_set {
    uint64_t *slots; /* 0 marks an empty slot; NULL until the first put */
    size_t cap, count;
};

/* The hash of the name p[0, len): never 0. */
uint64_t name_set_hash(const char *p, size_t len);

bool name_set_has(const struct name_set *s, uint64_t h);
void name_set_put(struct name_set *s, uint64_t h);
/* Empty the set, keeping its memory for the next game. */
void name_set_clear(struct name_set *s);
void name_set_release(struct name_set *s);

#endif
