/**
 * uci.h - moves in UCI long algebraic notation (e2e4, e7e8q, e1g1, 0000).
 */
#ifndef PGNKIT_UCI_H
#define PGNKIT_UCI_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "pgnkit/position.h"

/**
 * Write m, a move of pos_before (the position before the move; only its chess960 flag
 * is read, so any position of the same game will do), as UCI into dst
 * (at least 6 bytes; NUL-terminated) and return its length (4 or 5).  Null moves are
 * "0000".  Castling is written king-to-g/c-file (e1g1) in standard chess, and
 * king-takes-rook (e1h1) when chess960_king_takes_rook is set or the position is a
 * Chess960 one.  Promotions end in a lower-case piece letter.  Pure; thread-safe.
 */
static inline size_t uci_write_move(const struct position *pos_before, struct move m,
                                    bool chess960_king_takes_rook, char *dst)
{
    /* Inline: the uci writer calls this for every ply. */
    if (m.flags & MOVE_NULL) {
        memcpy(dst, "0000", 5);
        return 4;
    }
    int to = m.to;
    /* Only the flag says castling: callers may pass any position of the same game (the
     * chess960 flag is all that is read from it). */
    if ((m.flags & MOVE_CASTLE) && !chess960_king_takes_rook && !pos_before->chess960)
        to = square_make(m.to > m.from ? 6 : 2, square_rank(m.from));
    dst[0] = (char)('a' + square_file(m.from));
    dst[1] = (char)('1' + square_rank(m.from));
    dst[2] = (char)('a' + square_file(to));
    dst[3] = (char)('1' + square_rank(to));
    size_t n = 4;
    if (m.promo >= KNIGHT && m.promo <= QUEEN)
        dst[n++] = " nbrqk"[m.promo];
    dst[n] = '\0';
    return n;
}

#endif
