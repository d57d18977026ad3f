/**
 * polyglot.h - the Polyglot opening-book key of a position (the Polyglot book format's
 * Zobrist hash), as other chess programs print it: pgn-extract's --addhashcode, engines'
 * book lookups.
 *
 * The key XORs one entry of the format's fixed 781-entry Random64 table per piece on
 * its square, per castling right kept, for the en passant file, and for White to move.
 * Polyglot's en passant rule: the file counts only when a pawn of the side to move
 * stands beside the pawn that just made a double push (pseudo-legal: a pinned pawn
 * still counts), unlike poskey.h's legal-capture rule.  Castling counts the rights kept
 * (in Chess960 by side, not by rook square).  Variant state (pockets, checks) does not
 * count.  A pure function: no table to initialise, nothing allocated.
 */
#ifndef PGNKIT_POLYGLOT_H
#define PGNKIT_POLYGLOT_H

#include <stdint.h>

#include "board/position.h"

/** The Polyglot key of pos. */
uint64_t polyglot_key(const struct position *pos);

#endif
