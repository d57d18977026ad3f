/*
 * position_internal.h - the hot parts of position.c as inline functions, so that
 * movegen.c (perft) can apply moves without a call per node.  Private to src/.
 */
#ifndef PGNKIT_POSITION_INTERNAL_H
#define PGNKIT_POSITION_INTERNAL_H

#include "board/attacks_internal.h"
#include "base/inline_hints.h"
#include "board/position.h"

/* Making a move is the inner loop of SAN resolution and perft: PGNKIT_HOT. */

/* Pieces of colour `by` attacking sq through occupancy occ. */
static inline PGNKIT_HOT bitboard pos_attackers(const struct position *pos, int sq, int by, bitboard occ)
{
    bitboard them = pos->by_color[by];
    bitboard rq = pos->by_type[ROOK] | pos->by_type[QUEEN];
    bitboard bq = pos->by_type[BISHOP] | pos->by_type[QUEEN];
    return them & ((att_pawn(by ^ 1, sq) & pos->by_type[PAWN]) |
                   (att_knight(sq) & pos->by_type[KNIGHT]) | (att_king(sq) & pos->by_type[KING]) |
                   (att_rook(sq, occ) & rq) | (att_bishop(sq, occ) & bq));
}

/* The helpers below take `bitboards`, a constant at every call: false keeps only what a
 * FEN reads (the mailbox, rights, e.p. square, clocks, kings' squares; fen --every's
 * replay, pos_move_board), true everything (pos_move_pieces).  One body for both, so
 * the two cannot drift apart. */
static inline PGNKIT_HOT void pos_put_bb(struct position *pos, int sq, uint8_t piece, bool bitboards)
{
    bitboard b = bb_square(sq);
    pos->board[sq] = piece;
    if (bitboards) {
        pos->by_type[piece_type_of(piece)] |= b;
        pos->by_color[piece_color_of(piece)] |= b;
    }
}

static inline PGNKIT_HOT void pos_remove_bb(struct position *pos, int sq, bool bitboards)
{
    bitboard b = bb_square(sq);
    uint8_t piece = pos->board[sq];
    pos->board[sq] = PIECE_NONE;
    if (bitboards) {
        pos->by_type[piece_type_of(piece)] &= ~b;
        pos->by_color[piece_color_of(piece)] &= ~b;
    }
}

static inline void pos_put(struct position *pos, int sq, uint8_t piece)
{
    pos_put_bb(pos, sq, piece, true);
}

static inline void pos_remove(struct position *pos, int sq)
{
    pos_remove_bb(pos, sq, true);
}

/* Castling: the king and rook swap to their g/f (king side) or c/d (queen side) files. */
static inline PGNKIT_HOT void pos_castle_bb(struct position *pos, int us, int k, int r, bool bitboards)
{
    int rank = square_rank(k);
    bool king_side = r > k;
    int kdst = square_make(king_side ? 6 : 2, rank), rdst = square_make(king_side ? 5 : 3, rank);
    pos_remove_bb(pos, k, bitboards);
    pos_remove_bb(pos, r, bitboards);
    pos_put_bb(pos, kdst, piece_make((enum color)us, KING), bitboards);
    pos_put_bb(pos, rdst, piece_make((enum color)us, ROOK), bitboards);
    pos->king_square[us] = (uint8_t)kdst;
    pos->castle_rook[us][0] = pos->castle_rook[us][1] = SQ_NONE;
}

static inline void pos_castle(struct position *pos, int us, int k, int r)
{
    pos_castle_bb(pos, us, k, r, true);
}

/* Play m's piece moves, clocks and rights (no checks; the bitboards only if
 * `bitboards`).  Returns the type of the piece standing on m.to afterwards (the
 * promotion piece for a promotion), or -1 for a move that moved more than that one
 * piece: castling, en passant, a null move. */
static inline PGNKIT_HOT int pos_move_core(struct position *pos, struct move m, bool bitboards)
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
        pos_castle_bb(pos, us, from, to, bitboards);
        return -1;
    }
    if (victim != PIECE_NONE) {
        if (bitboards)
            pos_remove_bb(pos, to, true);
        pos->halfmove_clock = 0;
    }
    pos->board[from] = PIECE_NONE;
    pos->board[to] = piece;
    if (bitboards) {
        bitboard ft = bb_square(from) | bb_square(to);
        pos->by_type[pt] ^= ft;
        pos->by_color[us] ^= ft;
    }

    int placed = (int)pt;
    if (pt == PAWN) {
        pos->halfmove_clock = 0;
        int diff = to - from;
        if (diff == 16 || diff == -16) {
            pos->ep_square = (uint8_t)((from + to) / 2);
        } else if (to == old_ep && victim == PIECE_NONE) {
            /* En passant: the captured pawn stands behind the target square. */
            pos_remove_bb(pos, to + (us == WHITE ? -8 : 8), bitboards);
            placed = -1;
        } else if (m.promo) {
            pos_remove_bb(pos, to, bitboards);
            pos_put_bb(pos, to, piece_make((enum color)us, (enum piece_type)m.promo), bitboards);
            placed = m.promo;
        }
    } else if (pt == KING) {
        pos->king_square[us] = (uint8_t)to;
        pos->castle_rook[us][0] = pos->castle_rook[us][1] = SQ_NONE;
    }
    /* A castling right names a square holding that side's rook (position_ok), so only
     * a rook leaving it or that rook taken can lose one: skip the scan otherwise. */
    if (pt == ROOK)
        for (int side = 0; side < 2; side++)
            if (pos->castle_rook[us][side] == from)
                pos->castle_rook[us][side] = SQ_NONE;
    if (victim != PIECE_NONE && piece_type_of(victim) == ROOK)
        for (int side = 0; side < 2; side++)
            if (pos->castle_rook[them][side] == to)
                pos->castle_rook[them][side] = SQ_NONE;
    return placed;
}

/* The whole move but the checks.  pos_do_move() finds the checks of the plain ones from
 * the returned type alone. */
static inline PGNKIT_HOT int pos_move_pieces(struct position *pos, struct move m)
{
    return pos_move_core(pos, m, true);
}

/* Only what a FEN reads: the bitboards and checkers are left stale, so the result is
 * for fen_rank_text(), fen_write_castling() and the clocks, nothing else. */
static inline PGNKIT_HOT void pos_move_board(struct position *pos, struct move m)
{
    (void)pos_move_core(pos, m, false);
}

/*
 * pos_move_board for a plain move, its callers' fast path (fen --every: writer_fen.c):
 * plays m into pos if it is one, off the squares in `slow` (the castling kings' and
 * rooks'), not a promotion nor an e.p. capture nor a null move.  The mailbox, clocks and
 * e.p. square then, with the same result as pos_move_board (tests/test_writer_fen.c:
 * every line equals fen_write's); the rest is the caller's to play by pos_move_board.
 * m must be legal: a king takes its own rook only castling, from a castling square.  The
 * kings' squares are not moved: they are read only while their side has a right
 * (castle_letter), and then they are in `slow`.  False: nothing done.
 */
static inline PGNKIT_HOT bool pos_move_board_plain(struct position *pos, struct move m, bitboard slow)
{
    int from = m.from, to = m.to;
    if ((m.flags & MOVE_NULL) || m.promo || ((slow >> from | slow >> to) & 1))
        return false;
    uint8_t piece = pos->board[from], victim = pos->board[to];
    uint32_t half = pos->halfmove_clock + 1;
    uint8_t ep = SQ_NONE;
    if (victim != PIECE_NONE)
        half = 0;
    if (piece_type_of(piece) == PAWN) {
        if (victim == PIECE_NONE && ((from ^ to) & 7))
            return false; /* e.p. */
        half = 0;
        if (to - from == 16 || to - from == -16)
            ep = (uint8_t)((from + to) / 2);
    }
    int us = pos->side_to_move;
    pos->board[from] = PIECE_NONE;
    pos->board[to] = piece;
    pos->halfmove_clock = half;
    pos->ep_square = ep;
    pos->fullmove_number += (uint32_t)us;
    pos->side_to_move = (uint8_t)(us ^ 1);
    return true;
}

/*
 * The checks a plain move (one piece from `from` to `to`, now a `placed`) gives, from
 * what the move changed: the piece's own attack on the king from `to`, and a slider of
 * the mover uncovered on the line from the king through `from`.  Exact for standard
 * chess, where the side that just moved was not giving check before (a legal position:
 * fen_parse refuses one with the side not to move in check), so no other check exists.
 */
static inline PGNKIT_HOT bitboard pos_checks_given(const struct position *pos, int from, int to, int placed)
{
    int mover = pos->side_to_move ^ 1, ksq = pos->king_square[mover ^ 1];
    bitboard occ = pos->by_color[WHITE] | pos->by_color[BLACK];
    bitboard mine = pos->by_color[mover];
    /* A king never reaches the other king's reach: the kings' row checks nothing. */
    bitboard reach = placed == PAWN ? att_pawn(mover, to) : att_reach(placed, to);
    bitboard checkers = 0;
    if (bb_has(reach, ksq) && !(att_between(to, ksq) & occ))
        checkers = bb_square(to);
    /* A piece moving along the line still blocks it (it cannot pass the king or one of
     * its own pieces there).  Most moves leave no line to the king at all: the sliders
     * are looked at only when they do. */
    bitboard full = att_line(ksq, from), line = full & mine;
    if (!line || bb_has(full, to))
        return checkers;
    bitboard rq = pos->by_type[ROOK] | pos->by_type[QUEEN];
    bitboard bq = pos->by_type[BISHOP] | pos->by_type[QUEEN];
    if (line & (rq | bq)) {
        bitboard rays = bb_has(att_reach(ROOK, ksq), from) ? att_rook(ksq, occ) & rq
                                                            : att_bishop(ksq, occ) & bq;
        checkers |= rays & line;
    }
    return checkers;
}

/* The move, then the checks it gives: every caller (SAN claims, the next move's
 * generator) needs them, so they are found once here.  Standard chess only. */
static inline PGNKIT_HOT void pos_do_move(struct position *pos, struct move m)
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

/*
 * pos_do_move() for a plain move: the side to move's piece from m.from to m.to, taking
 * the enemy piece there if any; not castling, en passant, a promotion nor a null move,
 * and a pawn's double step flagged MOVE_DOUBLE_PUSH (the caller knows all that: the SAN
 * quick path, san_resolve.c).  The same position after it, without pos_move_core()'s
 * tests for the moves it leaves out.
 */
static inline PGNKIT_HOT void pos_do_plain(struct position *pos, struct move m)
{
    int us = pos->side_to_move, them = us ^ 1, from = m.from, to = m.to;
    uint8_t piece = pos->board[from], victim = pos->board[to];
    enum piece_type pt = piece_type_of(piece);
    bitboard ft = bb_square(from) | bb_square(to);

    pos->ep_square = SQ_NONE;
    pos->halfmove_clock++;
    pos->fullmove_number += (uint32_t)us; /* after Black's move */
    pos->side_to_move = (uint8_t)them;
    if (victim != PIECE_NONE) {
        pos->by_type[piece_type_of(victim)] &= ~bb_square(to);
        pos->by_color[them] &= ~bb_square(to);
        pos->halfmove_clock = 0;
        /* A right names a square with its side's rook (position_ok): that rook taken. */
        if (piece_type_of(victim) == ROOK)
            for (int side = 0; side < 2; side++)
                if (pos->castle_rook[them][side] == to)
                    pos->castle_rook[them][side] = SQ_NONE;
    }
    pos->board[from] = PIECE_NONE;
    pos->board[to] = piece;
    pos->by_type[pt] ^= ft;
    pos->by_color[us] ^= ft;
    if (pt == PAWN) {
        pos->halfmove_clock = 0;
        if (m.flags & MOVE_DOUBLE_PUSH)
            pos->ep_square = (uint8_t)((from + to) / 2);
    } else if (pt == KING) {
        pos->king_square[us] = (uint8_t)to;
        pos->castle_rook[us][0] = pos->castle_rook[us][1] = SQ_NONE;
    } else if (pt == ROOK) {
        for (int side = 0; side < 2; side++)
            if (pos->castle_rook[us][side] == from)
                pos->castle_rook[us][side] = SQ_NONE;
    }
    pos->checkers = pos_checks_given(pos, from, to, (int)pt);
}

#endif
