/* game_key.c - game keys and the set of keys seen (game_key.h). */
#include "game/game_key.h"

#include <stdlib.h>
#include <string.h>

#include "board/fen.h"
#include "base/xalloc.h"

/* splitmix64's finalizer: every input bit reaches every output bit. */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Two independent 64-bit chains over the same words: a 128-bit key. */
struct key_state {
    uint64_t a, b;
};

static void absorb(struct key_state *s, uint64_t word)
{
    s->a = mix(s->a ^ word) + 0x9e3779b97f4a7c15ULL;
    s->b = mix(s->b + word * 0xff51afd7ed558ccdULL) ^ 0xc4ceb9fe1a85ec53ULL;
}

static void absorb_bytes(struct key_state *s, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i += 8) {
        uint64_t w = 0;
        memcpy(&w, p + i, n - i < 8 ? n - i : 8);
        absorb(s, w);
    }
    absorb(s, n);
}

bool game_key_of(const struct game_record *rec, struct game_key *key)
{
    if (!rec->started || rec->status >= GAME_ERRORS)
        return false;
    char fen[FEN_MAX];
    size_t len = fen_write(&rec->start, fen, sizeof fen, 0);
    struct key_state s = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL};
    absorb_bytes(&s, fen, len);
    /* The variant is part of the game: an Atomic or King of the Hill start FEN reads like
     * the standard one.  (Standard games keep the keys they had.) */
    if (rec->start.variant)
        absorb(&s, UINT64_C(0x76617269616e7400) | rec->start.variant);
    for (size_t i = 0; i < rec->mainline_count; i++) {
        const struct move *m = &rec->mainline[i];
        absorb(&s, (uint64_t)m->from | (uint64_t)m->to << 8 | (uint64_t)m->promo << 16 |
                       (uint64_t)m->flags << 24 | (uint64_t)i << 32);
    }
    absorb(&s, rec->mainline_count);
    key->hi = mix(s.a);
    key->lo = mix(s.b);
    if (!key->hi && !key->lo)
        key->lo = 1;
    return true;
}

static bool is_free(const struct game_key *k) { return !k->hi && !k->lo; }

/* Insert without growing; true when new. */
static bool place(struct game_key *slots, size_t cap, struct game_key k)
{
    for (size_t i = k.lo & (cap - 1);; i = (i + 1) & (cap - 1)) {
        if (is_free(&slots[i])) {
            slots[i] = k;
            return true;
        }
        if (slots[i].hi == k.hi && slots[i].lo == k.lo)
            return false;
    }
}

static void grow(struct game_key_set *s)
{
    size_t cap = s->cap ? s->cap * 2 : 1024;
    struct game_key *slots = xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < s->cap; i++)
        if (!is_free(&s->slots[i]))
            place(slots, cap, s->slots[i]);
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
}

bool game_key_set_add(struct game_key_set *s, struct game_key k)
{
    if ((s->count + 1) * 2 > s->cap)
        grow(s);
    if (!place(s->slots, s->cap, k))
        return false;
    s->count++;
    return true;
}

void game_key_set_release(struct game_key_set *s)
{
    free(s->slots);
    memset(s, 0, sizeof *s);
}
