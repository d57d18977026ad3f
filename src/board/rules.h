/**
 * rules.h - the rules a position is played by: standard chess, or the lichess variant
 * its pos->variant names.
 *
 * The one place that switches on the variant for move generation, legality, making
 * moves, checkers and en passant: a standard position goes to movegen.h / position.h,
 * a variant one to variant.h, with one test of pos->variant per call.  Callers that may
 * hold a variant position ask here; code that knows it has standard chess (a resolver
 * specialised for it, perft of a standard FEN) may call movegen.h / position.h directly.
 * The per-ply questions are inline so that standard chess pays the test and nothing
 * more.  Reentrant; no allocation.
 */
#ifndef PGNKIT_RULES_H
#define PGNKIT_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "board/movegen.h"
#include "board/position.h"
#include "board/variant.h"

/** Every legal move of the side to move into out[MAX_MOVES]; the count (0 when the game
 * is over by a variant's rule). */
int rules_legal_moves(const struct position *pos, struct move *out);

/** The legal moves of piece type t (no castling, no drops) landing on `to` from a square
 * of from_mask (movegen_legal_to() in standard chess): what SAN resolution asks. */
static inline int rules_legal_to(const struct position *pos, enum piece_type t, int to,
                                 bitboard from_mask, struct move *out)
{
    if (__builtin_expect(pos->variant != VARIANT_STANDARD, 0))
        return variant_legal_to(pos, t, to, from_mask, out);
    return movegen_legal_to(pos, t, to, from_mask, out);
}

/** The castling move on that side if legal; otherwise false and, if why is not NULL, a
 * static English reason in *why (movegen_castle()). */
bool rules_castle(const struct position *pos, enum castle_side side, struct move *m,
                  const char **why);

/** True when m (from, to, promo; the MOVE_NULL, MOVE_DROP and MOVE_CASTLE bits) is legal
 * in pos (movegen_is_legal()); a null move is legal when the side to move is not in check. */
bool rules_is_legal(const struct position *pos, struct move m);

/** True when the side to move has a legal move (mate and stalemate tests ask per ply). */
static inline bool rules_has_legal_move(const struct position *pos)
{
    if (__builtin_expect(pos->variant != VARIANT_STANDARD, 0))
        return variant_has_legal_move(pos);
    return position_has_legal_move(pos);
}

/** True when an en passant capture onto pos->ep_square is legal right now. */
static inline bool rules_ep_legal(const struct position *pos)
{
    if (__builtin_expect(pos->variant != VARIANT_STANDARD, 0))
        return variant_ep_legal(pos);
    return position_ep_legal(pos);
}

/** Play m, legal in pos by its rules: pockets, explosions and check counters in a variant,
 * and the checkers the move leaves. */
static inline void rules_do_move(struct position *pos, struct move m)
{
    if (__builtin_expect(pos->variant != VARIANT_STANDARD, 0))
        variant_do_move(pos, m);
    else
        position_do_move(pos, m);
}

/** Recompute king squares (in a variant) and checkers after building a position by hand. */
void rules_update_checkers(struct position *pos);

/** Leaf-counting perft by the position's rules. */
uint64_t rules_perft(const struct position *pos, int depth);

/** How pos ends the game by its rules (enum ending): checkmate or a drawn stalemate in
 * standard chess, and in a variant also its own ending or its draw by material; the
 * winner, if any, in *winner (WHITE, BLACK, -1; may be NULL). */
enum ending rules_ending(const struct position *pos, int *winner);

/** Debug invariant check by the position's rules (position_ok() in standard chess; in a
 * variant the board's consistency, promoted marks only in Crazyhouse, kings: any). */
bool rules_position_ok(const struct position *pos);

#endif
