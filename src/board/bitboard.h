/**
 * bitboard.h - small inline helpers on 64-bit square sets (a1 = bit 0, h8 = bit 63).
 *
 * Header-only; no tables (see attacks.h for those).  Every helper is pure.
 */
#ifndef PGNKIT_BITBOARD_H
#define PGNKIT_BITBOARD_H

#include <stdbool.h>

#include "board/types.h"

#define PGNKIT_BB_FILE_A UINT64_C(0x0101010101010101)
#define PGNKIT_BB_FILE_H UINT64_C(0x8080808080808080)
#define PGNKIT_BB_RANK_1 UINT64_C(0x00000000000000ff)

/** The set holding only sq (0..63). */
static inline bitboard bb_square(int sq) { return (bitboard)1 << sq; }
/** All squares of a file (0..7) or rank (0..7). */
static inline bitboard bb_file(int file) { return PGNKIT_BB_FILE_A << file; }
static inline bitboard bb_rank(int rank) { return PGNKIT_BB_RANK_1 << (8 * rank); }
static inline bool bb_has(bitboard b, int sq) { return (b >> sq) & 1; }
static inline int bb_count(bitboard b) { return __builtin_popcountll(b); }
/** Lowest square of a non-empty set. */
static inline int bb_lsb(bitboard b) { return __builtin_ctzll(b); }
/** Remove and return the lowest square of a non-empty set. */
static inline int bb_pop(bitboard *b)
{
    int sq = __builtin_ctzll(*b);
    *b &= *b - 1;
    return sq;
}
/** More than one square in the set. */
static inline bool bb_many(bitboard b) { return (b & (b - 1)) != 0; }

static inline bitboard bb_north(bitboard b) { return b << 8; }
static inline bitboard bb_south(bitboard b) { return b >> 8; }
static inline bitboard bb_east(bitboard b) { return (b << 1) & ~PGNKIT_BB_FILE_A; }
static inline bitboard bb_west(bitboard b) { return (b >> 1) & ~PGNKIT_BB_FILE_H; }

#endif
