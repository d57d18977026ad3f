/*
 * position.c - the board value by standard chess's rules: start position, attack
 * queries, making a move and the invariant checks.  Move generation (and so
 * position_has_legal_move and position_ep_legal) lives in movegen.c; FEN text in fen.c;
 * the variants' moves in variant.c, chosen by rules.c.
 */
#include "board/position.h"

#include <string.h>

#include "board/position_internal.h"

void position_set_start(struct position *pos)
{
    static const enum piece_type back[8] = {ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK};

    attacks_init();
    memset(pos, 0, sizeof *pos);
    memset(pos->board, PIECE_NONE, sizeof pos->board);
    for (int f = 0; f < 8; f++) {
        pos_put(pos, square_make(f, 0), piece_make(WHITE, back[f]));
        pos_put(pos, square_make(f, 1), piece_make(WHITE, PAWN));
        pos_put(pos, square_make(f, 6), piece_make(BLACK, PAWN));
        pos_put(pos, square_make(f, 7), piece_make(BLACK, back[f]));
    }
    pos->side_to_move = WHITE;
    pos->ep_square = SQ_NONE;
    pos->castle_rook[WHITE][CASTLE_KING_SIDE] = (uint8_t)square_make(7, 0);
    pos->castle_rook[WHITE][CASTLE_QUEEN_SIDE] = (uint8_t)square_make(0, 0);
    pos->castle_rook[BLACK][CASTLE_KING_SIDE] = (uint8_t)square_make(7, 7);
    pos->castle_rook[BLACK][CASTLE_QUEEN_SIDE] = (uint8_t)square_make(0, 7);
    pos->king_square[WHITE] = (uint8_t)square_make(4, 0);
    pos->king_square[BLACK] = (uint8_t)square_make(4, 7);
    pos->chess960 = false;
    pos->halfmove_clock = 0;
    pos->fullmove_number = 1;
}

bitboard position_attackers(const struct position *pos, int sq, enum color by, bitboard occ)
{
    return pos_attackers(pos, sq, by, occ);
}

void position_update_checkers(struct position *pos)
{
    int us = pos->side_to_move;
    pos->checkers = pos_attackers(pos, pos->king_square[us], us ^ 1, position_occupied(pos));
}

void position_do_move(struct position *pos, struct move m) { pos_do_move(pos, m); }

/*
 * A legal castling m (king takes own rook) with the king on its e-file square and the
 * rook in its corner: the four squares known apart, and the check it gives only the
 * rook's.  No discovered check: the king leaves e1 (e8), an edge square whose lines
 * beyond it lead off the board but along the rank, where the rook and the king now
 * stand; the rook leaves a corner.  And the king gives none (castling never lands it
 * next to the other).  pos_do_move() asks every attacker of the king and moves the
 * pieces one by one: 160 instructions a castling, against about 40.
 */
static void castle_on_usual_squares(struct position *pos, struct move m)
{
    int us = pos->side_to_move, k = m.from, r = m.to;
    int step = r > k ? 1 : -1, kdst = k + 2 * step, rdst = k + step;
    bitboard kk = bb_square(k) | bb_square(kdst), rr = bb_square(r) | bb_square(rdst);
    pos->board[k] = pos->board[r] = PIECE_NONE;
    pos->board[kdst] = piece_make((enum color)us, KING);
    pos->board[rdst] = piece_make((enum color)us, ROOK);
    pos->by_type[KING] ^= kk;
    pos->by_type[ROOK] ^= rr;
    pos->by_color[us] ^= kk | rr;
    pos->king_square[us] = (uint8_t)kdst;
    pos->castle_rook[us][0] = pos->castle_rook[us][1] = SQ_NONE;
    pos->ep_square = SQ_NONE;
    pos->halfmove_clock++;
    pos->fullmove_number += (uint32_t)us; /* after Black's move */
    pos->side_to_move = (uint8_t)(us ^ 1);
    bool check = bb_has(att_rook(rdst, pos->by_color[WHITE] | pos->by_color[BLACK]),
                        pos->king_square[us ^ 1]);
    pos->checkers = check ? bb_square(rdst) : 0;
}

void position_do_castle(struct position *pos, struct move m)
{
    if ((m.from & 7) == 4 && ((m.to & 7) == 7 || (m.to & 7) == 0))
        castle_on_usual_squares(pos, m);
    else
        pos_do_move(pos, m); /* Chess960's other squares */
}

static bool castle_rights_ok(const struct position *pos, int c)
{
    int k = pos->king_square[c];
    for (int side = 0; side < 2; side++) {
        int r = pos->castle_rook[c][side];
        if (r == SQ_NONE)
            continue;
        if (r >= SQUARE_COUNT || pos->board[r] != piece_make((enum color)c, ROOK) ||
            square_rank(r) != square_rank(k) || square_rank(k) != (c == WHITE ? 0 : 7) ||
            (side == CASTLE_KING_SIDE) != (r > k))
            return false;
    }
    return true;
}

bool position_board_ok(const struct position *pos)
{
    bitboard all = 0;
    for (int t = 0; t < PIECE_TYPE_COUNT; t++) {
        if (all & pos->by_type[t])
            return false;
        all |= pos->by_type[t];
    }
    if ((pos->by_color[WHITE] & pos->by_color[BLACK]) ||
        (pos->by_color[WHITE] | pos->by_color[BLACK]) != all)
        return false;
    for (int sq = 0; sq < SQUARE_COUNT; sq++) {
        uint8_t p = pos->board[sq];
        if (p == PIECE_NONE) {
            if (bb_has(all, sq))
                return false;
        } else if ((p & PIECE_PROMOTED &&
                    (piece_type_of(p) == PAWN || piece_type_of(p) == KING)) ||
                   (p & (uint8_t)~PIECE_PROMOTED) > piece_make(BLACK, KING) || piece_type_of(p) > KING ||
                   !bb_has(pos->by_type[piece_type_of(p)], sq) ||
                   !bb_has(pos->by_color[piece_color_of(p)], sq)) {
            return false;
        }
    }
    return true;
}

static bool has_promoted_mark(const struct position *pos)
{
    for (int sq = 0; sq < SQUARE_COUNT; sq++)
        if (pos->board[sq] != PIECE_NONE && (pos->board[sq] & PIECE_PROMOTED))
            return true;
    return false;
}

bool position_ok(const struct position *pos)
{
    if (!position_board_ok(pos) || has_promoted_mark(pos))
        return false;
    for (int c = 0; c < COLOR_COUNT; c++) {
        bitboard kings = position_pieces(pos, (enum color)c, KING);
        if (bb_count(kings) != 1 || bb_lsb(kings) != pos->king_square[c] ||
            !castle_rights_ok(pos, c))
            return false;
    }
    if (pos->by_type[PAWN] & (bb_rank(0) | bb_rank(7)))
        return false;
    if (pos->side_to_move > BLACK)
        return false;
    if (pos->ep_square != SQ_NONE) {
        int us = pos->side_to_move, ep = pos->ep_square;
        int victim = ep + (us == WHITE ? -8 : 8);
        if (ep >= SQUARE_COUNT || square_rank(ep) != (us == WHITE ? 5 : 2) ||
            pos->board[ep] != PIECE_NONE ||
            pos->board[victim] != piece_make((enum color)(us ^ 1), PAWN))
            return false;
    }
    int us = pos->side_to_move;
    if (pos->checkers != pos_attackers(pos, pos->king_square[us], us ^ 1, position_occupied(pos)))
        return false;
    return true;
}
