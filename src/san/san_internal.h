/*
 * san_internal.h - the SAN token cache's layout and keys, inline for the replay loop:
 * game.c finds a move token's key once, when it prefetches the token's cache slot one
 * move ahead, and decodes the token with that key a move later (san_decode_keyed).
 * Private to src/.
 */
#ifndef PGNKIT_SAN_INTERNAL_H
#define PGNKIT_SAN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/inline_hints.h"
#include "san/san.h"

/*
 * The cache: open addressing over CACHE_SLOTS home slots, linear probing over a window
 * of CACHE_PROBES slots from the home on (into the slots past the last home, CACHE_ROOM,
 * rather than round to the first).  A slot's first 16 bytes are the key (san_cache_key:
 * two words that hold the token's bytes and its length), compared in full, so collisions
 * are harmless.  It never grows (4096 slots of 32 bytes, 128 KiB per matcher, one
 * matcher a --jobs thread): when the window is full one of its slots is overwritten.
 * Real files hold 2,000-5,500 distinct move tokens (TWIC, Lichess, TCEC samples in
 * /work/shared/bench).  A miss costs little since decode_plain (no regex for the usual
 * spellings).  A token in its home slot costs one compare (san_cache_find), past it a
 * call of san_cache_probe (~30 instructions): one look-up in eight on lichess.  8192
 * slots would be 5 instructions a ply fewer there (1-4 elsewhere; callgrind, uci), but
 * 128 KiB more a thread put uci --with opening -j32 over tests/cli/jobs.sh's 16 MB;
 * 2048 cost 2-3% more than 4096.  Length 0 marks an empty slot (the empty token is
 * rejected before the cache).  A syntax error is cached too (NEG_KIND).
 */
enum { CACHE_SLOTS = 4096, CACHE_BITS = 12, CACHE_KEY_MAX = 15, CACHE_PROBES = 8 };
/* The slots allocated: a home slot's window never wraps, it runs into the room past
 * CACHE_SLOTS (no index masked per probe). */
enum { CACHE_ROOM = CACHE_SLOTS + CACHE_PROBES - 1 };
enum { NEG_KIND = 0xff };

struct san_cache_slot {
    uint64_t key[2];
    struct san san;
};

/* What a key and a prefetch need of a matcher (san_matcher_cache_ref): its slots, and
 * the longest token cached (0: no cache). */
struct san_cache_ref {
    const struct san_cache_slot *slots;
    size_t key_max;
};

struct san_cache_ref san_matcher_cache_ref(const struct san_matcher *m);

/* A token's cache key and home slot; word[1] == 0: the token bypasses the cache (empty,
 * too long, or a matcher without one), and slot is san_no_slot.  The slot's address, not
 * its index: san_cache_find() reads it as it is. */
struct san_key {
    uint64_t word[2];
    const struct san_cache_slot *slot;
};

/* The slot of the keys that bypass the cache: its key (~0, 0) is no key's (a key's low
 * byte is its length, 1 to CACHE_KEY_MAX), nor the bypass key's (0, 0), and it reads as
 * an empty slot, which ends a probe. */
extern const struct san_cache_slot san_no_slot;

static inline uint64_t san_load64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static inline uint64_t san_load32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static inline uint64_t san_load16(const unsigned char *p)
{
    uint16_t v;
    memcpy(&v, p, sizeof(v));
    return v;
}

/*
 * The cache key of tok[0..len), 1 <= len <= CACHE_KEY_MAX, as two words: key[1]'s low
 * byte is the length, so the rest only has to tell apart tokens of one length.  Built
 * from loads that stay inside tok[0..len) (the token may end the reader's buffer): up
 * to 8 bytes, the first and the last w bytes (w = 2 or 4, overlapping) side by side in
 * key[0], which holds them all since len <= 2w; longer, the first 8 in key[0] and the
 * rest (a last-8 load shifted down) above the length in key[1].  Runs once per ply
 * (game.c keeps the key from the prefetch for the decode): no variable shift and no
 * second word to build for the usual 2-8 byte move.
 */
static inline void san_cache_key(const unsigned char *tok, size_t len, uint64_t key[2])
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    unsigned char bytes[16] = {0};
    memcpy(bytes, tok, len < 8 ? len : 8); /* any injective layout will do */
    key[0] = san_load64(bytes);
    memset(bytes, 0, sizeof bytes);
    bytes[0] = (unsigned char)len;
    if (len > 8)
        memcpy(bytes + 1, tok + 8, len - 8);
    key[1] = san_load64(bytes);
#else
    key[1] = len;
    if (len >= 4) {
        if (len <= 8) {
            key[0] = san_load32(tok) | san_load32(tok + len - 4) << 32;
        } else {
            key[0] = san_load64(tok);
            key[1] |= san_load64(tok + len - 8) >> (8 * (16 - len)) << 8; /* tok[8..len) */
        }
    } else if (len >= 2) {
        key[0] = san_load16(tok) | san_load16(tok + len - 2) << 16;
    } else {
        key[0] = tok[0];
    }
#endif
}

static inline size_t san_cache_home(const uint64_t key[2])
{
    /* The top bits of an odd-constant product depend on every bit below them.  key[0]
     * alone: key[1] is the length (and the bytes past 8 of a long token), which tells
     * apart tokens of one key[0], rare enough to share a home; mixing it in cost two
     * instructions a ply. */
    uint64_t h = key[0] * 0x9e3779b97f4a7c15u;
    return (size_t)(h >> (64 - CACHE_BITS));
}

/* san_key_of() for the keys of 1 or 9 to 15 bytes and the tokens that bypass the cache
 * (san.c): out of line, the per-ply path keeps only the usual move's few instructions. */
void san_key_rare(struct san_cache_ref c, const char *tok, size_t len, struct san_key *key);

/*
 * The key of a token that goes through the cache, or word[1] == 0 for one that does not.
 * A move of 2 to 8 bytes (nearly every one: e4, Nf3, exd5, Nbxd7+) takes one range test
 * and san_cache_key()'s loads for its length, two thirds of lichess's tokens the 2-3 byte
 * ones; c.key_max is a constant in the replay (its test folds away), 0 for a matcher
 * without a cache.
 */
static inline PGNKIT_HOT void san_key_of(struct san_cache_ref c, const char *tok, size_t len,
                           struct san_key *key)
{
    const unsigned char *t = (const unsigned char *)tok;
    if (__builtin_expect(c.key_max != CACHE_KEY_MAX || len - 2 > 6, 0)) {
        san_key_rare(c, tok, len, key);
        return;
    }
    /* san_cache_key()'s words (any injective layout would do: a key is only ever compared
     * with keys made here or by san_key_rare, whose lengths are others). */
    if (__builtin_expect(len < 4, 1)) /* the commonest: e4, Nf3, O-O */
        key->word[0] = san_load16(t) | san_load16(t + len - 2) << 16;
    else
        key->word[0] = san_load32(t) | san_load32(t + len - 4) << 32;
    key->word[1] = len;
    key->slot = &c.slots[san_cache_home(key->word)];
}

/* The key, and the token's cache slot starts loading: inline, since gcc drops a call
 * to a function whose only effect is a prefetch (callgrind saw none). */
static inline PGNKIT_HOT void san_key_prefetch(struct san_cache_ref c, const char *tok, size_t len,
                                 struct san_key *key)
{
    san_key_of(c, tok, len, key);
    __builtin_prefetch(key->slot); /* san_no_slot for a token that bypasses: harmless */
}

/* The rest of san_cache_find()'s probe, past the home slot (san.c). */
const struct san *san_cache_probe(const struct san_key *key);

/* The cached SAN of the token of that key, or NULL: a miss (san_decode_keyed decodes
 * it then), or a token the cache does not take.  A syntax error comes back as its slot's
 * san, whose kind is NEG_KIND and plain 0 (san_quick_move() takes no such san).  Inline,
 * for the replay's usual move, which reads the slot in place (valid until the next
 * decode): a token in its home slot costs one compare of the key, and no test of the
 * key, of an empty slot or of the kind.  It does not count in san_matcher_cache_stats(). */
static inline PGNKIT_HOT const struct san *san_cache_find(struct san_cache_ref c, const struct san_key *key)
{
    const struct san_cache_slot *slot = key->slot;
    if (__builtin_expect(slot->key[0] == key->word[0], 1) &&
        __builtin_expect(slot->key[1] == key->word[1], 1))
        return &slot->san;
    (void)c;
    return san_cache_probe(key);
}

/** san_decode() of tok[0..len) with its key from san_key_of() for the same matcher. */
int san_decode_keyed(struct san_matcher *m, const char *tok, size_t len,
                     const struct san_key *key, struct san *out);

#endif
