/*
 * opening.c - classify a game's opening by the last mainline position in a book.
 *
 * The key is carried from ply to ply (poskey_carry_move: only the squares the move
 * changed), and the walk stops as soon as the book has no position left that the game
 * can still reach: one whose home-rank pawns are all still home in the game, with no
 * more pieces than the game has (neither ever comes back).
 */
#include "game/opening.h"

#include "board/bitboard.h"
#include "board/poskey.h"

const struct opening *opening_lookup(const struct opening_book *book, uint64_t key)
{
    for (uint32_t i = (uint32_t)key & book->slot_mask;; i = (i + 1) & book->slot_mask) {
        uint16_t slot = book->slots[i];
        if (!slot)
            return NULL;
        if (book->keys[i] == key)
            return &book->openings[slot - 1];
    }
}

/* Whether some position of the book can still come after pos. */
static inline bool book_reachable(const struct opening_book *book, const struct position *pos)
{
    return __builtin_popcountll(position_occupied(pos)) >= book->reach[opening_home_pawns(pos)];
}

/* Standard chess from the standard start position (the counters aside; no en passant
 * capture is possible there). */
static bool standard_start(const struct position *pos)
{
    static const bitboard types[PIECE_TYPE_COUNT] = {
        [PAWN] = 0x00ff00000000ff00ULL,   [KNIGHT] = 0x4200000000000042ULL,
        [BISHOP] = 0x2400000000000024ULL, [ROOK] = 0x8100000000000081ULL,
        [QUEEN] = 0x0800000000000008ULL,  [KING] = 0x1000000000000010ULL,
    };
    if (pos->variant || pos->chess960 || pos->side_to_move != WHITE ||
        pos->by_color[WHITE] != 0xffffULL || pos->by_color[BLACK] != 0xffff000000000000ULL)
        return false;
    for (int t = 0; t < PIECE_TYPE_COUNT; t++)
        if (pos->by_type[t] != types[t])
            return false;
    return pos->castle_rook[WHITE][CASTLE_KING_SIDE] == 7 &&
           pos->castle_rook[WHITE][CASTLE_QUEEN_SIDE] == 0 &&
           pos->castle_rook[BLACK][CASTLE_KING_SIDE] == 63 &&
           pos->castle_rook[BLACK][CASTLE_QUEEN_SIDE] == 56;
}

/* The same moves, in the same order: the game followed the line move for move. */
static bool same_moves(const struct move *a, const struct move *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i].from != b[i].from || a[i].to != b[i].to || a[i].promo != b[i].promo)
            return false;
    return true;
}

/* An ECO file's book (opening.h, struct opening_lines): of the lines at the position the
 * game reached after plies moves[0, plies), the one it followed move for move, else the
 * first in file order; only lines at most OPENING_LINE_SLACK plies shorter count.  NULL
 * when none does. */
static const struct opening *pick_line(const struct opening_book *book, const struct opening *o,
                                       const struct move *moves, size_t plies)
{
    const struct opening_lines *l = book->lines;
    const struct opening *first = NULL;
    for (uint32_t i = (uint32_t)(o - book->openings) + 1; i; i = l->next[i - 1]) {
        uint32_t k = i - 1;
        if (plies > (size_t)l->plies[k] + OPENING_LINE_SLACK)
            continue;
        if (l->plies[k] == plies && same_moves(l->moves + l->first[k], moves, plies))
            return &book->openings[k];
        if (!first)
            first = &book->openings[k];
    }
    return first;
}

const struct opening *opening_classify(const struct opening_book *book,
                                       const struct position *start, const struct move *moves,
                                       size_t count)
{
    if (!standard_start(start))
        return NULL;
    struct poskey_carry key = book->start;
    const struct opening *found = NULL;
    struct position pos[2];
    pos[0] = *start;
    int cur = 0;
    for (size_t i = 0; i < count && book_reachable(book, &pos[cur]); i++) {
        const struct position *before = &pos[cur];
        struct position *after = &pos[cur ^ 1];
        *after = *before;
        position_do_move(after, moves[i]);
        const struct opening *o = opening_lookup(book, poskey_carry_move(&key, before, after));
        if (o && book->lines)
            o = pick_line(book, o, moves, i + 1);
        if (o)
            found = o;
        cur ^= 1;
    }
    return found;
}
