/*
 * position_internal.h - the hot parts of position.c as inline functions, so that
 * movegen.c (perft) can apply moves without a call per node.  Private to src/.
 */
#ifndef PGNKIT_POSITION_INTERNAL_H
#define PGNKIT_POSITION_INTERNAL_H

#include "attacks_internal.h"
#include "inline_hints.h"
#include "pgnkit/position.h"

/* Making a move is the inner loop of SAN resolution and perft: PGNKIT_HOT. */

/* Pieces of colour `by` attacking sq through occupancy occ. */
PGNKIT_HOT bitboard pos_attackers(const struct position *pos, int sq, int by, bitboard occ)
{
    bitboard them = pos->by_color[by];
    bitboard rq = pos->by_type[ROOK] | pos->by_type[QUEEN];
    bitboard bq = pos->by_type[BISHOP] | pos->by_type[QUEEN];
    return them & ((att_pawn(by ^ 1, sq) & pos->by_type[PAWN]) |
                   (att_knight(sq) & pos->by_type[KNIGHT]) | (att_king(sq) & pos->by_type[KING]) |
                   (att_rook(sq, occ) & rq) | (att_bishop(sq, occ) & bq));
}

static inline void pos_put(struct position *pos, int sq, uint8_t piece)
{
    bitboard b = bb_square(sq);
    pos->board[sq] = piece;
    pos->by_type[piece_type_of(piece)] |= b;
    pos->by_color[piece_color_of(piece)] |= b;
}

static inline void pos_remove(struct position *pos, int sq)
{
    bitboard b = bb_square(sq);
    uint8_t piece = pos->board[sq];
    pos->board[sq] = PIECE_NONE;
    pos->by_type[piece_type_of(piece)] &= ~b;
    pos->by_color[piece_color_of(piece)] &= ~b;
}

/* Castling: the king and rook swap to their g/f (king side) or c/d (queen side) files. */
static inline void pos_castle(struct position *pos, int us, int k, int r)
{
    int rank = square_rank(k);
    bool king_side = r > k;
    int kdst = square_make(king_side ? 6 : 2, rank), rdst = square_make(king_side ? 5 : 3, rank);
    pos_remove(pos, k);
    pos_remove(pos, r);
    pos_put(pos, kdst, piece_make((enum color)us, KING));
    pos_put(pos, rdst, piece_make((enum color)us, ROOK));
    pos->king_square[us] = (uint8_t)kdst;
    pos->castle_rook[us][0] = pos->castle_rook[us][1] = SQ_NONE;
}

/* Play m's piece moves, clocks and rights (no checks).  Returns the type of the piece
 * standing on m.to afterwards (the promotion piece for a promotion), or -1 for a move
 * that moved more than that one piece: castling, en passant, a null move.
 * pos_do_move() finds the checks of the plain ones from that alone. */
PGNKIT_HOT int pos_move_pieces(struct position *pos, struct move m)
{
    int us = pos->side_to_move, them = us ^ 1;
    int old_ep = pos->ep_square;

    pos->ep_square = SQ_NONE;
    pos->halfmove_clock++;
    pos->fullmove_number += (uint32_t)us; /* after Black's move */
    pos->side_to_move = (uint8_t)them;
    if (m.flags & MOVE_NULL)
        return -1;

    int from = m.from, to = m.to;
    uint8_t piece = pos->board[from];
    enum piece_type pt = piece_type_of(piece);
    uint8_t victim = pos->board[to];

    if (victim != PIECE_NONE && (int)piece_color_of(victim) == us) {
        /* King takes own rook: castling (the board decides, whatever the flags say). */
        pos_castle(pos, us, from, to);
        return -1;
    }
    if (victim != PIECE_NONE) {
        pos_remove(pos, to);
        pos->halfmove_clock = 0;
    }
    bitboard ft = bb_square(from) | bb_square(to);
    pos->board[from] = PIECE_NONE;
    pos->board[to] = piece;
    pos->by_type[pt] ^= ft;
    pos->by_color[us] ^= ft;

    int placed = (int)pt;
    if (pt == PAWN) {
        pos->halfmove_clock = 0;
        int diff = to - from;
        if (diff == 16 || diff == -16) {
            pos->ep_square = (uint8_t)((from + to) / 2);
        } else if (to == old_ep && victim == PIECE_NONE) {
            /* En passant: the captured pawn stands behind the target square. */
            pos_remove(pos, to + (us == WHITE ? -8 : 8));
            placed = -1;
        } else if (m.promo) {
            pos_remove(pos, to);
            pos_put(pos, to, piece_make((enum color)us, (enum piece_type)m.promo));
            placed = m.promo;
        }
    } else if (pt == KING) {
        pos->king_square[us] = (uint8_t)to;
        pos->castle_rook[us][0] = pos->castle_rook[us][1] = SQ_NONE;
    }
    /* A castling right names a square holding that side's rook (position_ok), so only
     * a rook leaving it or a capture on it can lose one: skip the scan otherwise. */
    if (pt == ROOK)
        for (int side = 0; side < 2; side++)
            if (pos->castle_rook[us][side] == from)
                pos->castle_rook[us][side] = SQ_NONE;
    if (victim != PIECE_NONE)
        for (int side = 0; side < 2; side++)
            if (pos->castle_rook[them][side] == to)
                pos->castle_rook[them][side] = SQ_NONE;
    return placed;
}

/*
 * The checks a plain move (one piece from `from` to `to`, now a `placed`) gives, from
 * what the move changed: the piece's own attack on the king from `to`, and a slider of
 * the mover uncovered on the line from the king through `from`.  Exact for standard
 * chess, where the side that just moved was not giving check before (a legal position:
 * fen_parse refuses one with the side not to move in check), so no other check exists.
 */
PGNKIT_HOT bitboard pos_checks_given(const struct position *pos, int from, int to, int placed)
{
    int mover = pos->side_to_move ^ 1, ksq = pos->king_square[mover ^ 1];
    bitboard occ = pos->by_color[WHITE] | pos->by_color[BLACK];
    bitboard mine = pos->by_color[mover];
    /* A king never reaches the other king's reach: the kings' row checks nothing. */
    bitboard reach = placed == PAWN ? att_pawn(mover, to) : att_reach(placed, to);
    bitboard checkers = 0;
    if (bb_has(reach, ksq) && !(att_between(to, ksq) & occ))
        checkers = bb_square(to);
    bitboard line = att_line(ksq, from);
    bitboard rq = pos->by_type[ROOK] | pos->by_type[QUEEN];
    bitboard bq = pos->by_type[BISHOP] | pos->by_type[QUEEN];
    /* A piece moving along the line still blocks it (it cannot pass the king or one of
     * its own pieces there). */
    if ((line & mine & (rq | bq)) && !bb_has(line, to)) {
        bitboard rays = bb_has(att_reach(ROOK, ksq), from) ? att_rook(ksq, occ) & rq
                                                            : att_bishop(ksq, occ) & bq;
        checkers |= rays & line & mine;
    }
    return checkers;
}

/* The move, then the checks it gives: every caller (SAN claims, the next move's
 * generator) needs them, so they are found once here.  Standard chess only. */
PGNKIT_HOT void pos_do_move(struct position *pos, struct move m)
{
    int placed = pos_move_pieces(pos, m);
    if (placed >= 0) {
        pos->checkers = pos_checks_given(pos, m.from, m.to, placed);
        return;
    }
    int us = pos->side_to_move;
    pos->checkers = pos_attackers(pos, pos->king_square[us], us ^ 1,
                                  pos->by_color[WHITE] | pos->by_color[BLACK]);
}

#endif
