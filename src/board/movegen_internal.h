/*
 * movegen_internal.h - the pin test the SAN resolver shares with the generator, inline
 * for its hot path.  Private to src/.
 */
#ifndef PGNKIT_MOVEGEN_INTERNAL_H
#define PGNKIT_MOVEGEN_INTERNAL_H

#include "board/movegen.h"
#include "base/inline_hints.h"
#include "board/position_internal.h"

/** Is `from` (ours) pinned to our king on ksq by an enemy slider on `line`, the line
 * through both?  The rare, slow half of pinned_away(). */
bool movegen_pinned_on_line(const struct position *pos, int ksq, int from, bitboard occ,
                            bitboard enemy, bitboard line);

/*
 * Would moving `from` (ours) to `to` expose our king on ksq to a pinning slider?  For
 * the SAN paths, which ask about one or two pieces and should not pay for the whole
 * pinned set.  Inline because the answer is nearly always settled by the line table
 * alone: no line through king and piece, a move along that line, or no enemy slider on
 * it (enemy_sliders: the caller's, as stores into a move list may alias the position).
 */
static inline PGNKIT_HOT bool pinned_away(const struct position *pos, int ksq, int from, int to, bitboard occ,
                            bitboard enemy, bitboard enemy_sliders)
{
    bitboard line = att_line(ksq, from);
    if (!(line & enemy_sliders) || bb_has(line, to))
        return false;
    return movegen_pinned_on_line(pos, ksq, from, occ, enemy, line);
}

/* The enemy's bishops, rooks and queens: what pinned_away() looks for. */
static inline PGNKIT_HOT bitboard sliders_of(const struct position *pos, bitboard enemy)
{
    return enemy & (pos->by_type[BISHOP] | pos->by_type[ROOK] | pos->by_type[QUEEN]);
}

#endif
