/**
 * movegen.h - standard chess's legal move generation and legality tests.
 *
 * Every function plays by standard chess's rules whatever pos->variant says (one king
 * per side); rules.h offers the same questions for a position of any variant.
 *
 * Pins, checks, double checks, en passant (including the capture that uncovers a
 * rook or queen along the rank), promotions, castling (standard and Chess960: no
 * castling out of, through or into check; king and rook squares must be free except
 * for each other).  Castling moves are king-takes-rook (see types.h).
 * Reentrant; no allocation.
 */
#ifndef PGNKIT_MOVEGEN_H
#define PGNKIT_MOVEGEN_H

#include <stdbool.h>

#include "board/position.h"

/** Write every legal move of the side to move into out[MAX_MOVES]; return the count. */
int movegen_legal(const struct position *pos, struct move *out);

/**
 * Legal moves of piece type t (for KING excluding castling) of the side to move that
 * land on `to`, restricted to origins in from_mask.  Promotions are generated once per
 * promotion piece.  Writes into out[MAX_MOVES]; returns the count.  This is what SAN
 * resolution asks.
 */
int movegen_legal_to(const struct position *pos, enum piece_type t, int to, bitboard from_mask,
                     struct move *out);

/**
 * The castling move of the side to move on that side, if legal: fills *m and
 * returns true.  Otherwise returns false and, if why is not NULL, sets *why to a
 * static English reason ("no castling right", "king is in check", "path is
 * blocked", "king passes through an attacked square", ...).
 */
bool movegen_castle(const struct position *pos, enum castle_side side, struct move *m,
                    const char **why);

/**
 * True when m (any well-formed move) is legal in pos.  Only from, to, promo and the
 * MOVE_NULL / MOVE_CASTLE bits are consulted, so a move built from long algebraic
 * text (e2e4, flags 0) is enough; a king moving onto its own castling rook is castling.
 */
bool movegen_is_legal(const struct position *pos, struct move m);

/** Leaf-counting perft. */
uint64_t movegen_perft(const struct position *pos, int depth);

#endif
