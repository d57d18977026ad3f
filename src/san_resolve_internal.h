/*
 * san_resolve_internal.h - the replay's per-ply path into san_resolve.c: the usual move
 * played on the position itself, not on a copy.  Private to src/ (game.c).
 */
#ifndef PGNKIT_SAN_RESOLVE_INTERNAL_H
#define PGNKIT_SAN_RESOLVE_INTERNAL_H

#include <stdbool.h>

#include "pgnkit/san_resolve.h"

/* A plain move (a piece or pawn moving, no castling, en passant or promotion) played in
 * place, and what it overwrote that the position after it cannot tell: enough to
 * rebuild the position before it (san_unplay_quick). */
struct quick_undo {
    bitboard checkers;
    uint32_t halfmove_clock;
    struct move move;
    uint8_t victim;     /* the piece taken on move.to, or PIECE_NONE */
    uint8_t ep_square;
    uint8_t castle_rook[COLOR_COUNT][2];
};

/*
 * san_resolve()'s usual case, played on *pos itself: standard chess, a move token
 * written plainly (no lenient spelling, no --strict, no full origin square) whose one
 * legal candidate resolve_quick() finds and whose capture mark is right.  Fills *out as
 * san_resolve() would (ok, the move, what it gives, the claims' problems; out->after is
 * not used) and *undo.  Returns false with *pos untouched for anything else: then
 * san_resolve() decides, from the same position.
 */
bool san_play_quick(struct position *pos, const struct san *san, const struct san_options *opts,
                    struct quick_undo *undo, struct san_outcome *out);

/* The position before the move san_play_quick() played, into *before, from the one
 * after it (*after, unchanged since) and its undo. */
void san_unplay_quick(struct position *before, const struct position *after,
                      const struct quick_undo *undo);

#endif
