/*
 * attacks_internal.h - the attack tables as inline lookups for the hot paths of
 * position.c and movegen.c (the public attacks.h functions are out-of-line copies).
 * Private: never installed, never included outside src/.
 */
#ifndef PGNKIT_ATTACKS_INTERNAL_H
#define PGNKIT_ATTACKS_INTERNAL_H

#include "board/attacks.h"
#include "board/bitboard.h"

/* The slider index: PEXT of the occupancy under the mask (one instruction, and a table a
 * quarter the size: below), or the magic multiply.  Three builds:
 *   - BMI2 in the build's baseline (ARCH=-march=native on such a CPU): PEXT always, by
 *     the compiler's intrinsics (PGNKIT_ATTACKS_PEXT_ALWAYS);
 *   - x86-64 without it (the default x86-64-v2 build): both forms, chosen at run time
 *     (PGNKIT_ATTACKS_PEXT_DISPATCH).  These lookups are inlined into every move's code,
 *     so the choice is a branch on the table itself: attacks_init() fills `packed` only
 *     where base/cpu.h's cpu_fast_pext() says PEXT is fast, and leaves it NULL elsewhere.
 *     The pointer is read-only after init, so the branch always goes one way and is
 *     predicted; PEXT/PDEP are inline asm, since an intrinsic needs the caller compiled
 *     with -mbmi2 (then the compiler could use BMI2 anywhere, and the binary would die
 *     on a CPU without it);
 *   - anything else: the magic multiply.
 * AMD before Zen 3 has BMI2 but runs PEXT/PDEP in microcode (tens of cycles): magics
 * there, in both kinds of build. */
#if defined(__BMI2__) && !defined(__znver1__) && !defined(__znver2__)
#include <immintrin.h>
#define PGNKIT_ATTACKS_PEXT_ALWAYS 1
#define PGNKIT_ATTACKS_PEXT_DISPATCH 0
#elif defined(__x86_64__) && defined(__GNUC__) && !defined(__BMI2__)
#define PGNKIT_ATTACKS_PEXT_ALWAYS 0
#define PGNKIT_ATTACKS_PEXT_DISPATCH 1
#else
#define PGNKIT_ATTACKS_PEXT_ALWAYS 0
#define PGNKIT_ATTACKS_PEXT_DISPATCH 0
#endif

struct attacks_magic {
    bitboard mask;
    bitboard magic;
    /* The attack set per magic slot; NULL in PEXT_ALWAYS builds.  Where `packed` is set
     * its slots are filled only when attacks_form_built() asks (attacks.c). */
    const bitboard *attacks;
    unsigned shift;
    /* Where PEXT runs: per slot the attack set packed (PEXT) under `reach`, the attacks
     * on an empty board, in 2 bytes instead of 8.  The rook table shrinks from 800 KiB
     * to 200 KiB, so it and the SAN cache stay in L2: the lookup after every move (is
     * the king in check?) missed there often enough to show in profiles.  NULL where
     * the CPU has no fast PEXT (then `attacks` serves). */
    bitboard reach;
    const uint16_t *packed;
};

#if PGNKIT_ATTACKS_PEXT_ALWAYS
static inline uint64_t att_pext(uint64_t src, uint64_t mask) { return _pext_u64(src, mask); }
static inline uint64_t att_pdep(uint64_t src, uint64_t mask) { return _pdep_u64(src, mask); }
#elif PGNKIT_ATTACKS_PEXT_DISPATCH
/* Not volatile: pure functions of their operands, which the compiler may merge or drop.
 * AT&T order: mask, source, destination. */
static inline uint64_t att_pext(uint64_t src, uint64_t mask)
{
    uint64_t out;
    __asm__("pextq %2, %1, %0" : "=r"(out) : "r"(src), "rm"(mask));
    return out;
}
static inline uint64_t att_pdep(uint64_t src, uint64_t mask)
{
    uint64_t out;
    __asm__("pdepq %2, %1, %0" : "=r"(out) : "r"(src), "rm"(mask));
    return out;
}
#endif

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

/* The two forms; att_magic picks one.  Each requires its table (see above). */
static inline bitboard att_magic_mul(const struct attacks_magic *m, bitboard occ)
{
    return m->attacks[((occ & m->mask) * m->magic) >> m->shift];
}
#if PGNKIT_ATTACKS_PEXT_ALWAYS || PGNKIT_ATTACKS_PEXT_DISPATCH
static inline bitboard att_magic_pext(const struct attacks_magic *m, bitboard occ)
{
    return att_pdep(m->packed[att_pext(occ, m->mask)], m->reach);
}
#endif

static inline bitboard att_magic(const struct attacks_magic *m, bitboard occ)
{
#if PGNKIT_ATTACKS_PEXT_ALWAYS
    return att_magic_pext(m, occ);
#elif PGNKIT_ATTACKS_PEXT_DISPATCH
    return m->packed ? att_magic_pext(m, occ) : att_magic_mul(m, occ);
#else
    return att_magic_mul(m, occ);
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
