/*
 * uci.c - a move to its UCI text.  Only writes; parsing UCI text is the SAN
 * resolver's business (long algebraic) and not done here.
 */
#include "pgnkit/uci.h"

static size_t put_square(char *dst, int sq)
{
    dst[0] = (char)('a' + square_file(sq));
    dst[1] = (char)('1' + square_rank(sq));
    return 2;
}

size_t uci_write_move(const struct position *pos_before, struct move m,
                      bool chess960_king_takes_rook, char *dst)
{
    static const char promo_letters[] = " nbrqk";
    size_t n = 0;

    if (m.flags & MOVE_NULL) {
        for (n = 0; n < 4; n++)
            dst[n] = '0';
        dst[n] = '\0';
        return n;
    }
    int to = m.to;
    /* Only the flag says castling: callers may pass any position of the same game
     * (the chess960 flag is all that is read from it). */
    bool castle = (m.flags & MOVE_CASTLE) != 0;
    if (castle && !chess960_king_takes_rook && !pos_before->chess960)
        to = square_make(m.to > m.from ? 6 : 2, square_rank(m.from));
    n += put_square(dst + n, m.from);
    n += put_square(dst + n, to);
    if (m.promo >= KNIGHT && m.promo <= QUEEN)
        dst[n++] = promo_letters[m.promo];
    dst[n] = '\0';
    return n;
}
