/**
 * poskey.h - a 64-bit Zobrist key of a position, for "is this the same position".
 *
 * Two positions get the same key when they have the same pieces on the same squares, the
 * same side to move, the same castling rights and the same en passant capture; the move
 * counters do not count.  En passant counts only when a capture onto the square is legal
 * (position_ep_legal: the FIDE rule for repeated positions), so 1. e4 e5 2. Nf3 and
 * 1. Nf3 e5 2. e4 reach the same key.  Castling rights are keyed by the rook squares that
 * keep them, so Chess960 positions are told apart too.  Variant state (pockets, checks
 * left) is not keyed.  Different positions share a key with probability about 2^-64 per
 * pair.
 *
 * The keys are a pure function of the position (no table to initialise, no state): a
 * build-time tool and the program agree on them.  The pieces part can be carried from
 * move to move (poskey_pieces_update), which touches only the squares a move changed.
 * Nothing here allocates.
 */
#ifndef PGNKIT_POSKEY_H
#define PGNKIT_POSKEY_H

#include <stdint.h>

#include "pgnkit/position.h"

/** The key of pos: poskey_pieces(pos) ^ poskey_state(pos). */
uint64_t poskey_of(const struct position *pos);

/** The part of the key that the pieces on the board make. */
uint64_t poskey_pieces(const struct position *pos);

/** The part that side to move, castling rights and a legal en passant capture make. */
uint64_t poskey_state(const struct position *pos);

/**
 * The pieces part of after, from pieces (the pieces part of before) and the squares
 * that differ between the two: for after = before with one move played, a few squares.
 */
uint64_t poskey_pieces_update(uint64_t pieces, const struct position *before,
                              const struct position *after);

#endif
