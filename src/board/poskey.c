/*
 * poskey.c - Zobrist keys without a random table: the number of a (piece, square) or a
 * state feature goes through the splitmix64 finaliser, a bijection with good avalanche,
 * so every feature gets its own pseudo-random 64-bit value computed in a few operations.
 * That keeps the keys a pure function (the same in a build-time tool and at run time,
 * nothing to initialise) and cheap where only a few squares change per move.
 * The key is the XOR of three parts: pieces, castling rights, and side to move with en
 * passant; a carried key updates each part only when the move changed it.
 */
#include "board/poskey.h"

#include <string.h>

#include "board/bitboard.h"
#include "board/rules.h"

/* Feature numbers: pieces 0..767 (colour, type, square), then the state features. */
enum {
    FEATURE_PIECES = 0,
    FEATURE_BLACK_TO_MOVE = 12 * 64,
    FEATURE_CASTLE = FEATURE_BLACK_TO_MOVE + 1,   /* + (colour * 2 + side) * 64 + rook square */
    FEATURE_EP_FILE = FEATURE_CASTLE + 4 * 64,    /* + file */
    FEATURE_PROMOTED = FEATURE_EP_FILE + 8,       /* + square: Crazyhouse's '~' marks */
};
/* The variant state (pockets, checks left: 48 bits) is one feature of its own range. */
#define FEATURE_VARIANT_STATE (UINT64_C(1) << 56)

static inline uint64_t feature(uint64_t n)
{
    uint64_t z = (n + 1) * 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline uint64_t piece_feature(int color, int type, int sq)
{
    return feature(FEATURE_PIECES + (uint64_t)((color * 6 + type) * 64 + sq));
}

static uint64_t squares_key(bitboard b, int color, int type)
{
    uint64_t k = 0;
    while (b)
        k ^= piece_feature(color, type, bb_pop(&b));
    return k;
}

/* A promoted piece differs from the piece it looks like: captured, it is a pawn. */
static inline uint64_t mark_feature(uint8_t piece, int sq)
{
    return piece != PIECE_NONE && (piece & PIECE_PROMOTED) ? feature(FEATURE_PROMOTED + (uint64_t)sq)
                                                           : 0;
}

uint64_t poskey_pieces(const struct position *pos)
{
    uint64_t k = 0;
    for (int c = 0; c < COLOR_COUNT; c++)
        for (int t = 0; t < PIECE_TYPE_COUNT; t++)
            k ^= squares_key(pos->by_color[c] & pos->by_type[t], c, t);
    if (pos->variant == VARIANT_CRAZYHOUSE)
        for (int sq = 0; sq < SQUARE_COUNT; sq++)
            k ^= mark_feature(pos->board[sq], sq);
    return k;
}

static uint64_t castling_key(const struct position *pos)
{
    uint64_t k = 0;
    for (int c = 0; c < COLOR_COUNT; c++)
        for (int side = 0; side < 2; side++)
            if (pos->castle_rook[c][side] != SQ_NONE)
                k ^= feature(FEATURE_CASTLE + (uint64_t)((c * 2 + side) * 64 +
                                                         pos->castle_rook[c][side]));
    return k;
}

/* Side to move, en passant (by the position's rules) and a variant's pockets or checks
 * left: what may change on every move. */
static inline uint64_t turn_key(const struct position *pos)
{
    uint64_t k = pos->side_to_move == BLACK ? feature(FEATURE_BLACK_TO_MOVE) : 0;
    /* After most double pushes no capture is possible: the cheap test first. */
    if (pos->ep_square != SQ_NONE && rules_ep_legal(pos))
        k ^= feature(FEATURE_EP_FILE + (uint64_t)square_file(pos->ep_square));
    if (pos->variant == VARIANT_CRAZYHOUSE || pos->variant == VARIANT_THREE_CHECK)
        k ^= feature(FEATURE_VARIANT_STATE | pocket_word_(pos));
    return k;
}

uint64_t poskey_state(const struct position *pos)
{
    return castling_key(pos) ^ turn_key(pos);
}

uint64_t poskey_variant(const struct position *pos)
{
    uint64_t k = 0;
    if (pos->variant == VARIANT_CRAZYHOUSE)
        for (int sq = 0; sq < SQUARE_COUNT; sq++)
            k ^= mark_feature(pos->board[sq], sq);
    if (pos->variant == VARIANT_CRAZYHOUSE || pos->variant == VARIANT_THREE_CHECK)
        k ^= feature(FEATURE_VARIANT_STATE | pocket_word_(pos));
    return k;
}

uint64_t poskey_of(const struct position *pos)
{
    return poskey_pieces(pos) ^ poskey_state(pos);
}

void poskey_carry_init(struct poskey_carry *c, const struct position *pos)
{
    c->pieces = poskey_pieces(pos);
    c->castling = castling_key(pos);
}

uint64_t poskey_carry_move(struct poskey_carry *c, const struct position *before,
                           const struct position *after)
{
    /* A square's occupant changed iff its colour or its type bitboards differ there
     * (Chess960 castling can swap a king and a rook of one colour on two squares). */
    bitboard changed = (before->by_color[WHITE] ^ after->by_color[WHITE]) |
                       (before->by_color[BLACK] ^ after->by_color[BLACK]);
    for (int t = 0; t < PIECE_TYPE_COUNT; t++)
        changed |= before->by_type[t] ^ after->by_type[t];
    uint64_t pieces = c->pieces;
    while (changed) {
        int sq = bb_pop(&changed);
        uint8_t was = before->board[sq], now = after->board[sq];
        if (was != PIECE_NONE)
            pieces ^= piece_feature(piece_color_of(was), piece_type_of(was), sq) ^
                      mark_feature(was, sq);
        if (now != PIECE_NONE)
            pieces ^= piece_feature(piece_color_of(now), piece_type_of(now), sq) ^
                      mark_feature(now, sq);
    }
    c->pieces = pieces;
    if (memcmp(before->castle_rook, after->castle_rook, sizeof after->castle_rook) != 0)
        c->castling = castling_key(after);
    return pieces ^ c->castling ^ turn_key(after);
}
