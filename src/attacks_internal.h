/*
 * attacks_internal.h - the attack tables as inline lookups for the hot paths of
 * position.c and movegen.c (the public attacks.h functions are out-of-line copies).
 * Private: never installed, never included outside src/.
 */
#ifndef PGNKIT_ATTACKS_INTERNAL_H
#define PGNKIT_ATTACKS_INTERNAL_H

#include "pgnkit/attacks.h"
#include "pgnkit/bitboard.h"

/* With BMI2 (the release build's -march=native, x86-64-v3) the slider index is PEXT of
 * the occupancy under the mask, one instruction; otherwise the magic multiply.  This
 * and the table fill in attacks.c are the only places that differ. */
#if defined(__BMI2__)
#include <immintrin.h>
#define PGNKIT_ATTACKS_PEXT 1
#else
#define PGNKIT_ATTACKS_PEXT 0
#endif

struct attacks_magic {
    bitboard mask;
    bitboard magic;
    const bitboard *attacks;
    unsigned shift;
};

/* Filled once by attacks_init(); read-only afterwards. */
extern bitboard attacks_pawn_table[COLOR_COUNT][SQUARE_COUNT];
extern bitboard attacks_knight_table[SQUARE_COUNT];
extern bitboard attacks_king_table[SQUARE_COUNT];
extern bitboard attacks_between_table[SQUARE_COUNT][SQUARE_COUNT];
extern bitboard attacks_line_table[SQUARE_COUNT][SQUARE_COUNT];
extern struct attacks_magic attacks_rook_magics[SQUARE_COUNT];
extern struct attacks_magic attacks_bishop_magics[SQUARE_COUNT];

static inline bitboard att_magic(const struct attacks_magic *m, bitboard occ)
{
#if PGNKIT_ATTACKS_PEXT
    return m->attacks[_pext_u64(occ, m->mask)];
#else
    return m->attacks[((occ & m->mask) * m->magic) >> m->shift];
#endif
}
static inline bitboard att_pawn(int c, int sq) { return attacks_pawn_table[c][sq]; }
static inline bitboard att_knight(int sq) { return attacks_knight_table[sq]; }
static inline bitboard att_king(int sq) { return attacks_king_table[sq]; }
static inline bitboard att_bishop(int sq, bitboard occ)
{
    return att_magic(&attacks_bishop_magics[sq], occ);
}
static inline bitboard att_rook(int sq, bitboard occ)
{
    return att_magic(&attacks_rook_magics[sq], occ);
}
static inline bitboard att_queen(int sq, bitboard occ)
{
    return att_bishop(sq, occ) | att_rook(sq, occ);
}
static inline bitboard att_piece(enum piece_type t, int sq, bitboard occ)
{
    switch (t) {
    case KNIGHT: return att_knight(sq);
    case BISHOP: return att_bishop(sq, occ);
    case ROOK: return att_rook(sq, occ);
    case QUEEN: return att_queen(sq, occ);
    case KING: return att_king(sq);
    default: return 0;
    }
}
static inline bitboard att_between(int a, int b) { return attacks_between_table[a][b]; }
static inline bitboard att_line(int a, int b) { return attacks_line_table[a][b]; }

#endif
