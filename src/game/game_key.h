/*
 * game_key.h - a game's identity for --dedupe and the API's dedupe option (its variant,
 * start position and mainline moves) as a 128-bit key, and the set of keys already seen.
 *
 * 128 bits: among 10^9 distinct games the chance that two share a key is about 10^-21,
 * so equal keys are taken as equal games without keeping the games.  The set costs 16
 * bytes per distinct game in a table kept at most half full: 32 to 64 bytes per game.
 * A set is not thread-safe: its user (the CLI's run, an API reader) keeps one and fills
 * it in input order.
 */
#ifndef PGNKIT_GAME_KEY_H
#define PGNKIT_GAME_KEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

struct game_key {
    uint64_t hi, lo;
};

/* The key of rec's variant, start position (its FEN) and mainline moves.  False for a
 * game whose mainline is not fully known (it has errors, or was not set up): such a game
 * is never called a duplicate, since two different broken games may share the moves
 * replayed. */
bool game_key_of(const struct game_record *rec, struct game_key *key);

struct game_key_set {
    struct game_key *slots; /* {0, 0} marks a free slot (a real key of 0 is nudged) */
    size_t count, cap;
};

/* Add k; true when it was not in the set yet. */
bool game_key_set_add(struct game_key_set *s, struct game_key k);
void game_key_set_release(struct game_key_set *s);

#endif
