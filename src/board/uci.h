/**
 * uci.h - moves in UCI long algebraic notation (e2e4, e7e8q, e1g1, 0000).
 */
#ifndef PGNKIT_UCI_H
#define PGNKIT_UCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "board/position.h"

/* "a1", "b1", ... "h8" without terminators: a square's name is one 2-byte copy. */
static const char uci_square_names[64][2] = {
    {'a', '1'}, {'b', '1'}, {'c', '1'}, {'d', '1'}, {'e', '1'}, {'f', '1'}, {'g', '1'}, {'h', '1'},
    {'a', '2'}, {'b', '2'}, {'c', '2'}, {'d', '2'}, {'e', '2'}, {'f', '2'}, {'g', '2'}, {'h', '2'},
    {'a', '3'}, {'b', '3'}, {'c', '3'}, {'d', '3'}, {'e', '3'}, {'f', '3'}, {'g', '3'}, {'h', '3'},
    {'a', '4'}, {'b', '4'}, {'c', '4'}, {'d', '4'}, {'e', '4'}, {'f', '4'}, {'g', '4'}, {'h', '4'},
    {'a', '5'}, {'b', '5'}, {'c', '5'}, {'d', '5'}, {'e', '5'}, {'f', '5'}, {'g', '5'}, {'h', '5'},
    {'a', '6'}, {'b', '6'}, {'c', '6'}, {'d', '6'}, {'e', '6'}, {'f', '6'}, {'g', '6'}, {'h', '6'},
    {'a', '7'}, {'b', '7'}, {'c', '7'}, {'d', '7'}, {'e', '7'}, {'f', '7'}, {'g', '7'}, {'h', '7'},
    {'a', '8'}, {'b', '8'}, {'c', '8'}, {'d', '8'}, {'e', '8'}, {'f', '8'}, {'g', '8'}, {'h', '8'},
};

/**
 * Write m, a move of pos_before (the position before the move; only its chess960 flag
 * is read, so any position of the same game will do), as UCI into dst
 * (at least 6 bytes; NUL-terminated) and return its length (4 or 5).  Null moves are
 * "0000", Crazyhouse drops "N@f3".  Castling is written king-to-g/c-file (e1g1) in standard chess, and
 * king-takes-rook (e1h1) when chess960_king_takes_rook is set or the position is a
 * Chess960 one.  Promotions end in a lower-case piece letter.  Pure; thread-safe.
 */
static inline size_t uci_write_move(const struct position *pos_before, struct move m,
                                    bool chess960_king_takes_rook, char *dst)
{
    /* Inline: the uci writer calls this for every ply. */
    if (m.flags & (MOVE_NULL | MOVE_DROP)) {
        if (m.flags & MOVE_DROP) { /* Crazyhouse: N@f3 */
            dst[0] = "PNBRQK"[m.promo % 6];
            dst[1] = '@';
            memcpy(dst + 2, uci_square_names[m.to], 2);
        } else {
            memcpy(dst, "0000", 4);
        }
        dst[4] = '\0';
        return 4;
    }
    int to = m.to;
    /* Only the flag says castling: callers may pass any position of the same game (the
     * chess960 flag is all that is read from it). */
    if ((m.flags & MOVE_CASTLE) && !chess960_king_takes_rook && !pos_before->chess960)
        to = square_make(m.to > m.from ? 6 : 2, square_rank(m.from));
    memcpy(dst, uci_square_names[m.from], 2);
    memcpy(dst + 2, uci_square_names[to], 2);
    size_t n = 4;
    if (m.promo >= KNIGHT && m.promo <= KING) /* KING: Antichess */
        dst[n++] = " nbrqk"[m.promo];
    dst[n] = '\0';
    return n;
}

/**
 * uci_write_move() for a writer that puts many moves back to back: the move's 4 or 5
 * bytes and no NUL (dst: room for 6).  The common move, neither null, drop, castling
 * nor promotion, is two 2-byte copies after one test.
 */
static inline size_t uci_put_move(const struct position *pos_before, struct move m,
                                  bool chess960_king_takes_rook, char *dst)
{
    if (__builtin_expect((m.flags & (MOVE_NULL | MOVE_DROP | MOVE_CASTLE)) | m.promo, 0))
        return uci_write_move(pos_before, m, chess960_king_takes_rook, dst);
    memcpy(dst, uci_square_names[m.from], 2);
    memcpy(dst + 2, uci_square_names[m.to], 2);
    return 4;
}

/**
 * uci_put_move() and then the byte sep, for a writer that separates moves so (the UCI
 * line): returns the bytes written, 5 or 6 (dst: room for 8).  On a little-endian
 * machine the common move is one 4-byte load of the move, one test, and one 8-byte
 * store of its two square names and sep (the 3 bytes past them are left for the next
 * move to overwrite); elsewhere uci_put_move() and the byte.
 */
static inline size_t uci_put_move_sep(const struct position *pos_before, struct move m,
                                      bool chess960_king_takes_rook, char sep, char *dst)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t w;
    memcpy(&w, &m, sizeof w);
    /* promo (byte 2) and the flags of uci_put_move()'s test (byte 3) */
    const uint32_t unusual = 0xffu << 16 | (uint32_t)(MOVE_NULL | MOVE_DROP | MOVE_CASTLE) << 24;
    if (__builtin_expect((w & unusual) == 0, 1)) {
        uint16_t from, to;
        memcpy(&from, uci_square_names[w & 0xff], 2);
        memcpy(&to, uci_square_names[w >> 8 & 0xff], 2);
        uint64_t text = from | (uint64_t)to << 16 | (uint64_t)(unsigned char)sep << 32;
        memcpy(dst, &text, sizeof text);
        return 5;
    }
#endif
    size_t n = uci_put_move(pos_before, m, chess960_king_takes_rook, dst);
    dst[n] = sep;
    return n + 1;
}

#if defined(__SSE4_1__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#include <smmintrin.h>
#define UCI_PUT_MOVES4 1
/* The castlings among 4 moves (castle: their flag's bit in each element) given the king's destination for their `to`, as uci_write_move() writes
 * castling in standard chess: the g- or c-file of the king's rank. */
static inline __m128i uci_castles_to_king4(__m128i x, __m128i castle)
{
    __m128i right = _mm_cmpgt_epi8(_mm_srli_epi32(x, 8), x); /* byte 0: to > from */
    __m128i king = _mm_or_si128(_mm_and_si128(x, _mm_set1_epi32(0x38)),
                                _mm_or_si128(_mm_set1_epi32(2),
                                             _mm_and_si128(right, _mm_set1_epi32(4))));
    __m128i is = _mm_andnot_si128(_mm_cmpeq_epi32(_mm_and_si128(x, castle), _mm_setzero_si128()),
                                  _mm_set1_epi32(0xff00));
    return _mm_or_si128(_mm_andnot_si128(is, x), _mm_and_si128(is, _mm_slli_epi32(king, 8)));
}

/**
 * uci_put_move_sep(..., ' ', ...) of m[0], m[1], m[2] and m[3] back to back, when none
 * is null, a drop or a promotion: their 20 bytes into dst (room for 32: the bytes past
 * them are the next move's to overwrite) and true; else false, dst's bytes not to be
 * used.  castle_as_king: castling is written with the king's destination (e1g1: neither
 * Chess960 nor king-takes-rook), else with the rook's square, as stored.  The squares,
 * each in a 16-bit lane, become their file and rank bytes (s & 7, s >> 3) by one shift,
 * an OR and a mask; a shuffle spreads the 16 bytes to their places, and 'a', '1' or ' '
 * is added: about 4 instructions a move where uci_put_move_sep() takes 12.
 */
static inline bool uci_put_moves4(const struct move *m, bool castle_as_king, char *dst)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)m);
    const __m128i unusual =
        _mm_set1_epi32((int)(0xffu << 16 | (uint32_t)(MOVE_NULL | MOVE_DROP) << 24));
    if (!_mm_testz_si128(x, unusual))
        return false;
    const __m128i castle = _mm_set1_epi32((int)((uint32_t)MOVE_CASTLE << 24));
    if (castle_as_king && __builtin_expect(!_mm_testz_si128(x, castle), 0))
        x = uci_castles_to_king4(x, castle);
    /* from0, to0, from1, ... to3 (move bytes 4j, 4j + 1), a lane each; -128 picks a zero */
    const __m128i squares = _mm_setr_epi8(0, -128, 1, -128, 4, -128, 5, -128, 8, -128, 9,
                                          -128, 12, -128, 13, -128);
    __m128i v = _mm_shuffle_epi8(x, squares);
    /* low byte s | s << 5 (its low 3 bits s & 7), high byte s >> 3: both masked to 3 bits */
    __m128i names = _mm_and_si128(_mm_or_si128(v, _mm_slli_epi16(v, 5)), _mm_set1_epi8(7));
    /* Move j's 4 bytes (4j..4j + 3 of names) to 5j..5j + 3, a zero at 5j + 4. */
    const __m128i spread0 = _mm_setr_epi8(0, 1, 2, 3, -128, 4, 5, 6, 7, -128, 8, 9, 10, 11,
                                          -128, 12);
    const __m128i spread1 = _mm_setr_epi8(13, 14, 15, -128, -128, -128, -128, -128, -128, -128,
                                          -128, -128, -128, -128, -128, -128);
    const __m128i add0 = _mm_setr_epi8('a', '1', 'a', '1', ' ', 'a', '1', 'a', '1', ' ', 'a',
                                       '1', 'a', '1', ' ', 'a');
    const __m128i add1 = _mm_setr_epi8('1', 'a', '1', ' ', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    _mm_storeu_si128((__m128i *)(void *)dst, _mm_add_epi8(_mm_shuffle_epi8(names, spread0), add0));
    _mm_storeu_si128((__m128i *)(void *)(dst + 16),
                     _mm_add_epi8(_mm_shuffle_epi8(names, spread1), add1));
    return true;
}

#endif

#endif
