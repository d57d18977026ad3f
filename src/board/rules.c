/*
 * rules.c - the rules questions that are not asked per ply: standard chess by movegen.c
 * and position.c, a variant by variant.c.  The per-ply ones are inline in rules.h.
 */
#include "board/rules.h"

int rules_legal_moves(const struct position *pos, struct move *out)
{
    if (pos->variant)
        return variant_legal_moves(pos, out);
    return movegen_legal(pos, out);
}

bool rules_castle(const struct position *pos, enum castle_side side, struct move *m,
                  const char **why)
{
    if (pos->variant)
        return variant_castle(pos, side, m, why);
    return movegen_castle(pos, side, m, why);
}

bool rules_is_legal(const struct position *pos, struct move m)
{
    if (pos->variant && !(m.flags & MOVE_NULL))
        return variant_is_legal(pos, m);
    return movegen_is_legal(pos, m); /* a null move: the same test in every variant */
}

void rules_update_checkers(struct position *pos)
{
    if (pos->variant)
        variant_update_checkers(pos);
    else
        position_update_checkers(pos);
}

uint64_t rules_perft(const struct position *pos, int depth)
{
    if (pos->variant)
        return variant_perft(pos, depth);
    return movegen_perft(pos, depth);
}

enum ending rules_ending(const struct position *pos, int *winner)
{
    int w = -1;
    enum ending e = ENDING_NONE;
    if (pos->variant) {
        struct variant_end v = variant_end_of(pos);
        w = v.winner;
        e = v.ending;
    } else if (!position_has_legal_move(pos)) {
        e = position_in_check(pos) ? ENDING_CHECKMATE : ENDING_STALEMATE;
        w = e == ENDING_CHECKMATE ? pos->side_to_move ^ 1 : -1;
    }
    if (winner)
        *winner = w;
    return e;
}

static bool has_promoted_mark(const struct position *pos)
{
    for (int sq = 0; sq < SQUARE_COUNT; sq++)
        if (pos->board[sq] != PIECE_NONE && (pos->board[sq] & PIECE_PROMOTED))
            return true;
    return false;
}

bool rules_position_ok(const struct position *pos)
{
    if (!pos->variant)
        return position_ok(pos);
    if (!position_board_ok(pos) || (pos->variant != VARIANT_CRAZYHOUSE && has_promoted_mark(pos)))
        return false;
    return pos->variant < VARIANT_COUNT && pos->side_to_move <= BLACK; /* kings: any */
}
