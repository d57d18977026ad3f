/*
 * attacks_internal.h - the attack tables as inline lookups for the hot paths of
 * position.c and movegen.c (the public attacks.h functions are out-of-line copies).
 * Private: never installed, never included outside src/.
 */
#ifndef PGNKIT_ATTACKS_INTERNAL_H
#define PGNKIT_ATTACKS_INTERNAL_H

#include "board/attacks.h"
#include "board/bitboard.h"

/* With BMI2 in the build's baseline (ARCH=-march=native on such a CPU) the slider index
 * is PEXT of the occupancy under the mask, one instruction; otherwise (the default
 * x86-64-v2 build: these lookups are inlined into every move's code, too deep for the
 * run-time dispatch of base/cpu.h, 1.5% of the instructions) the magic multiply.  This
 * and the table fill in attacks.c are the only places that differ.  AMD before Zen 3
 * has BMI2 but runs PEXT/PDEP in microcode (tens of cycles): magics there. */
#if defined(__BMI2__) && !defined(__znver1__) && !defined(__znver2__)
#include <immintrin.h>
#define PGNKIT_ATTACKS_PEXT 1
#else
#define PGNKIT_ATTACKS_PEXT 0
#endif

struct attacks_magic {
    bitboard mask;
    bitboard magic;
    const bitboard *attacks;  /* magic builds: the attack set per slot */
    unsigned shift;
    /* PEXT builds: per slot the attack set packed (PEXT) under `reach`, the attacks on an
     * empty board, in 2 bytes instead of 8.  The rook table shrinks from 800 KiB to
     * 200 KiB, so it and the SAN cache stay in L2: the lookup after every move (is the
     * king in check?) missed there often enough to show in profiles. */
    bitboard reach;
    const uint16_t *packed;
};

/* Filled once by attacks_init(); read-only afterwards. */
extern bitboard attacks_pawn_table[COLOR_COUNT][SQUARE_COUNT];
extern bitboard attacks_knight_table[SQUARE_COUNT];
extern bitboard attacks_king_table[SQUARE_COUNT];
extern bitboard attacks_between_table[SQUARE_COUNT][SQUARE_COUNT];
extern bitboard attacks_line_table[SQUARE_COUNT][SQUARE_COUNT];
/* [type][sq]: the attacks on an empty board (the pawn row is empty: pawns have colour). */
extern bitboard attacks_reach_table[PIECE_TYPE_COUNT][SQUARE_COUNT];
extern struct attacks_magic attacks_rook_magics[SQUARE_COUNT];
extern struct attacks_magic attacks_bishop_magics[SQUARE_COUNT];

static inline bitboard att_magic(const struct attacks_magic *m, bitboard occ)
{
#if PGNKIT_ATTACKS_PEXT
    return _pdep_u64(m->packed[_pext_u64(occ, m->mask)], m->reach);
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
static inline bitboard att_reach(int t, int sq) { return attacks_reach_table[t][sq]; }
static inline bitboard att_between(int a, int b) { return attacks_between_table[a][b]; }
static inline bitboard att_line(int a, int b) { return attacks_line_table[a][b]; }

#endif
