/**
 * poskey.h - a 64-bit Zobrist key of a position, for "is this the same position".
 *
 * Two positions get the same key when they have the same pieces on the same squares, the
 * same side to move, the same castling rights and the same en passant capture; the move
 * counters do not count.  En passant counts only when a capture onto the square is legal
 * (position_ep_legal: the FIDE rule for repeated positions), so 1. e4 e5 2. Nf3 and
 * 1. Nf3 e5 2. e4 reach the same key.  Castling rights are keyed by the rook squares that
 * keep them, so Chess960 positions are told apart too.  A variant's state counts as the
 * variants' rules have it for repetitions: Crazyhouse's pockets and promoted marks,
 * Three-check's checks left (en passant by the variant's rules).  The variant itself
 * does not: a caller that compares games of several variants keys it apart.  Different positions share a key with probability about 2^-64 per
 * pair.
 *
 * The keys are a pure function of the position (no table to initialise, no state): a
 * build-time tool and the program agree on them.  A key can be carried from move to move
 * (struct poskey_carry), which touches only the squares a move changed.
 * Nothing here allocates.
 */
#ifndef PGNKIT_POSKEY_H
#define PGNKIT_POSKEY_H

#include <stdint.h>

#include "board/position.h"

/** The key of pos: poskey_pieces(pos) ^ poskey_state(pos). */
uint64_t poskey_of(const struct position *pos);

/** The part of the key that the pieces on the board make. */
uint64_t poskey_pieces(const struct position *pos);

/** The part that side to move, castling rights, a legal en passant capture and a
 * variant's pockets or checks left make. */
uint64_t poskey_state(const struct position *pos);

/** The part of the key that a variant's state makes (pockets, checks left, promoted
 * marks; 0 in standard chess): key ^ poskey_variant(pos) keys the board alone. */
uint64_t poskey_variant(const struct position *pos);

/**
 * A key carried along a line of moves: poskey_carry_init() on the first position, then
 * for each move poskey_carry_move() with the positions before and after it returns
 * poskey_of(after), touching only what the move changed (the squares whose occupant
 * differs, the castling rights when they change).
 */
struct poskey_carry {
    uint64_t pieces;
    uint64_t castling;
};
void poskey_carry_init(struct poskey_carry *c, const struct position *pos);
uint64_t poskey_carry_move(struct poskey_carry *c, const struct position *before,
                           const struct position *after);

#endif
