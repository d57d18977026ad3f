/*
 * opening.c - classify a game's opening by the last mainline position in a book.
 *
 * The key is carried from ply to ply (poskey_pieces_update: only the squares the move
 * changed), and the walk stops as soon as the book has no position left with as few
 * pieces and home-rank pawns as the game has: those counts never go up again.
 */
#include "pgnkit/opening.h"

#include "pgnkit/bitboard.h"
#include "pgnkit/poskey.h"

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

enum { RANK_2 = 0xff00ULL, RANK_7 = 0xff000000000000ULL };

/* Whether some position of the book can still come after pos. */
static bool book_reachable(const struct opening_book *book, const struct position *pos)
{
    bitboard pawns = pos->by_type[PAWN];
    int pieces = __builtin_popcountll(position_occupied(pos));
    int white_home = __builtin_popcountll(pawns & pos->by_color[WHITE] & RANK_2);
    int black_home = __builtin_popcountll(pawns & pos->by_color[BLACK] & RANK_7);
    return book->reachable[OPENING_REACH_INDEX(pieces, white_home, black_home)];
}

const struct opening *opening_classify(const struct opening_book *book,
                                       const struct position *start, const struct move *moves,
                                       size_t count)
{
    if (start->variant || start->chess960)
        return NULL;
    uint64_t pieces = poskey_pieces(start);
    if ((pieces ^ poskey_state(start)) != book->start_key)
        return NULL;
    const struct opening *found = NULL;
    struct position pos[2];
    pos[0] = *start;
    int cur = 0;
    for (size_t i = 0; i < count && book_reachable(book, &pos[cur]); i++) {
        const struct position *before = &pos[cur];
        struct position *after = &pos[cur ^ 1];
        *after = *before;
        position_do_move(after, moves[i]);
        pieces = poskey_pieces_update(pieces, before, after);
        const struct opening *o = opening_lookup(book, pieces ^ poskey_state(after));
        if (o)
            found = o;
        cur ^= 1;
    }
    return found;
}
