/* fen_internal.h - the pieces of the FEN writer (fen.c) that the writers printing a FEN
 * every ply (writer_fen.c, writer_pgn.c) put together themselves; never installed. */
#ifndef PGNKIT_FEN_INTERNAL_H
#define PGNKIT_FEN_INTERNAL_H

#include <stdbool.h>
#include <string.h>

#include "pgnkit/buf.h"
#include "pgnkit/fen.h"
#include "pgnkit/uci.h"

/** Rank `rank` (0 = rank 1) of the board field followed by '/', for a position without
 * Crazyhouse's '~' marks: writes 16 bytes at dst (those after the '/' are garbage) and
 * returns the length with the '/' (2 to 9). */
size_t fen_rank_slash(const struct position *pos, int rank, char dst[16]);

/** The castling field: its letters, or '-'; at most 4 bytes. */
size_t fen_write_castling(const struct position *pos, char *dst, unsigned flags);

/** Whether the castling field depends on the castling rights alone, not on where other
 * rooks stand (X-FEN's outermost-rook rule): then a writer may keep its text while the
 * rights stay the same. */
bool fen_castling_fixed(const struct position *pos, unsigned flags);

/** A clock of the FEN in decimal; writes at least 2 bytes (the one after a 1-digit
 * number is garbage) and returns its length.  The clocks are nearly always below 100:
 * no division then. */
static inline size_t fen_put_clock(char *dst, uint32_t v)
{
    static const char two_digits[200] =
        "0001020304050607080910111213141516171819"
        "2021222324252627282930313233343536373839"
        "4041424344454647484950515253545556575859"
        "6061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    if (v < 10) {
        dst[0] = (char)('0' + v);
        return 1;
    }
    if (v < 100) {
        memcpy(dst, two_digits + 2 * v, 2);
        return 2;
    }
    return decimal_put(dst, v);
}

/** The fields after the board of a standard-chess position (no pockets, no check
 * counters), given the castling field's text (castling[0..castling_len), 4 bytes
 * readable): " w KQkq e3 0 1".  Writes up to 48 bytes; returns the length. */
static inline size_t fen_fields_standard(const struct position *pos, const char castling[4],
                                         size_t castling_len, char *dst, unsigned flags)
{
    dst[0] = ' ';
    dst[1] = pos->side_to_move == WHITE ? 'w' : 'b';
    dst[2] = ' ';
    memcpy(dst + 3, castling, 4);
    size_t n = 3 + castling_len;
    dst[n++] = ' ';
    int ep = pos->ep_square;
    if (ep != SQ_NONE && (!(flags & FEN_EP_LEGAL) || position_ep_legal(pos))) {
        memcpy(dst + n, uci_square_names[ep], 2);
        n += 2;
    } else {
        dst[n++] = '-';
    }
    dst[n++] = ' ';
    n += fen_put_clock(dst + n, pos->halfmove_clock);
    dst[n++] = ' ';
    n += fen_put_clock(dst + n, pos->fullmove_number);
    return n;
}

#endif
