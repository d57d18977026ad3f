/* fen_internal.h - the pieces of the FEN writer (fen.c) that the writers printing a FEN
 * every ply (writer_fen.c, writer_pgn.c) put together themselves; never installed. */
#ifndef PGNKIT_FEN_INTERNAL_H
#define PGNKIT_FEN_INTERNAL_H

#include <stdbool.h>
#include <string.h>

#include "base/buf.h"
#include "board/fen.h"
#include "board/uci.h"

/** Rank `rank` (0 = rank 1) of the board field followed by '/', for a position without
 * Crazyhouse's '~' marks: writes 16 bytes at dst (those after the '/' are garbage) and
 * returns the length with the '/' (2 to 9).  Reads pos->board alone (not the
 * bitboards): a position moved by pos_move_board() will do. */
size_t fen_rank_slash(const struct position *pos, int rank, char dst[16]);

/** The castling field: its letters, or '-'; at most 4 bytes. */
size_t fen_write_castling(const struct position *pos, char *dst, unsigned flags);

/** Whether the castling field depends on the castling rights alone, not on where other
 * rooks stand (X-FEN's outermost-rook rule): then a writer may keep its text while the
 * rights stay the same. */
bool fen_castling_fixed(const struct position *pos, unsigned flags);

/** A clock of the FEN in decimal and a blank; writes at least 4 bytes (those after the
 * blank are garbage) and returns the length with the blank.  The clocks are nearly
 * always below 100: one 4-byte copy from a table then (byte 3: the length). */
static inline size_t fen_put_clock(char *dst, uint32_t v)
{
    static const char clocks[100][4] = {
        {'0', ' ', 0, 2}, {'1', ' ', 0, 2}, {'2', ' ', 0, 2}, {'3', ' ', 0, 2}, {'4', ' ', 0, 2},
        {'5', ' ', 0, 2}, {'6', ' ', 0, 2}, {'7', ' ', 0, 2}, {'8', ' ', 0, 2}, {'9', ' ', 0, 2},
        {'1', '0', ' ', 3}, {'1', '1', ' ', 3}, {'1', '2', ' ', 3}, {'1', '3', ' ', 3}, {'1', '4', ' ', 3},
        {'1', '5', ' ', 3}, {'1', '6', ' ', 3}, {'1', '7', ' ', 3}, {'1', '8', ' ', 3}, {'1', '9', ' ', 3},
        {'2', '0', ' ', 3}, {'2', '1', ' ', 3}, {'2', '2', ' ', 3}, {'2', '3', ' ', 3}, {'2', '4', ' ', 3},
        {'2', '5', ' ', 3}, {'2', '6', ' ', 3}, {'2', '7', ' ', 3}, {'2', '8', ' ', 3}, {'2', '9', ' ', 3},
        {'3', '0', ' ', 3}, {'3', '1', ' ', 3}, {'3', '2', ' ', 3}, {'3', '3', ' ', 3}, {'3', '4', ' ', 3},
        {'3', '5', ' ', 3}, {'3', '6', ' ', 3}, {'3', '7', ' ', 3}, {'3', '8', ' ', 3}, {'3', '9', ' ', 3},
        {'4', '0', ' ', 3}, {'4', '1', ' ', 3}, {'4', '2', ' ', 3}, {'4', '3', ' ', 3}, {'4', '4', ' ', 3},
        {'4', '5', ' ', 3}, {'4', '6', ' ', 3}, {'4', '7', ' ', 3}, {'4', '8', ' ', 3}, {'4', '9', ' ', 3},
        {'5', '0', ' ', 3}, {'5', '1', ' ', 3}, {'5', '2', ' ', 3}, {'5', '3', ' ', 3}, {'5', '4', ' ', 3},
        {'5', '5', ' ', 3}, {'5', '6', ' ', 3}, {'5', '7', ' ', 3}, {'5', '8', ' ', 3}, {'5', '9', ' ', 3},
        {'6', '0', ' ', 3}, {'6', '1', ' ', 3}, {'6', '2', ' ', 3}, {'6', '3', ' ', 3}, {'6', '4', ' ', 3},
        {'6', '5', ' ', 3}, {'6', '6', ' ', 3}, {'6', '7', ' ', 3}, {'6', '8', ' ', 3}, {'6', '9', ' ', 3},
        {'7', '0', ' ', 3}, {'7', '1', ' ', 3}, {'7', '2', ' ', 3}, {'7', '3', ' ', 3}, {'7', '4', ' ', 3},
        {'7', '5', ' ', 3}, {'7', '6', ' ', 3}, {'7', '7', ' ', 3}, {'7', '8', ' ', 3}, {'7', '9', ' ', 3},
        {'8', '0', ' ', 3}, {'8', '1', ' ', 3}, {'8', '2', ' ', 3}, {'8', '3', ' ', 3}, {'8', '4', ' ', 3},
        {'8', '5', ' ', 3}, {'8', '6', ' ', 3}, {'8', '7', ' ', 3}, {'8', '8', ' ', 3}, {'8', '9', ' ', 3},
        {'9', '0', ' ', 3}, {'9', '1', ' ', 3}, {'9', '2', ' ', 3}, {'9', '3', ' ', 3}, {'9', '4', ' ', 3},
        {'9', '5', ' ', 3}, {'9', '6', ' ', 3}, {'9', '7', ' ', 3}, {'9', '8', ' ', 3}, {'9', '9', ' ', 3},
    };
    if (v < 100) {
        memcpy(dst, clocks[v], 4);
        return (size_t)clocks[v][3];
    }
    size_t n = decimal_put(dst, v);
    dst[n] = ' ';
    return n + 1;
}

/** The fields after the board of a standard-chess position (no pockets, no check
 * counters) up to the clocks, given the castling field's text (castling[0..castling_len),
 * 4 bytes readable): " w KQkq e3 ", at most 11 bytes, 16 written. */
static inline size_t fen_fields_head(const struct position *pos, const char castling[4],
                                     size_t castling_len, char dst[16], unsigned flags)
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
    return n;
}

/** All the fields after the board of a standard-chess position: " w KQkq e3 0 1".
 * Writes up to 48 bytes; returns the length. */
static inline size_t fen_fields_standard(const struct position *pos, const char castling[4],
                                         size_t castling_len, char *dst, unsigned flags)
{
    char head[16];
    size_t n = fen_fields_head(pos, castling, castling_len, head, flags);
    memcpy(dst, head, 16);
    n += fen_put_clock(dst + n, pos->halfmove_clock);
    n += fen_put_clock(dst + n, pos->fullmove_number);
    return n - 1; /* not the blank after the fullmove number */
}

#endif
