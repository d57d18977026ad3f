/**
 * position.h - the board: pieces, side to move, castling, en passant, clocks, and the
 * variant state a position carries (its variant, Crazyhouse pockets, Three-check
 * counters); the functions here play by standard chess's rules.
 *
 * struct position is a plain value (copy it to try a move: copy-make).  It holds
 * Chess960 castling as the squares of the rooks that still have castling rights, so
 * standard chess is the special case with rooks on a and h files.  A position of any
 * variant is stored here, but only rules.h picks the rules it is played by: the move,
 * checkers and legality functions of this header are standard chess's alone.
 * Requires attacks_init() before use.  No function here allocates.
 */
#ifndef PGNKIT_POSITION_H
#define PGNKIT_POSITION_H

#include <stdbool.h>

#include "board/types.h"

enum castle_side { CASTLE_KING_SIDE = 0, CASTLE_QUEEN_SIDE = 1 };

struct position {
    bitboard by_type[PIECE_TYPE_COUNT]; /* both colours */
    bitboard by_color[COLOR_COUNT];
    /* PIECE_NONE or piece_make(color, type), | PIECE_PROMOTED in Crazyhouse (types.h) */
    uint8_t board[SQUARE_COUNT];
    /* Enemy pieces giving check to the side to move: kept by position_do_move (and set
     * by fen_parse / position_set_start), since every move asks for it. */
    bitboard checkers;
    /* The two clocks apart: side by side, gcc merges their updates into slower 64-bit
     * arithmetic (6 instructions a move instead of 1, callgrind). */
    uint32_t halfmove_clock;            /* 32 bits: a FEN may start it at 65535 */
    uint8_t side_to_move;               /* enum color */
    /* PGN-standard: set after every double pawn push, whether or not a capture is
     * possible (SQ_NONE otherwise).  position_ep_legal() answers the stricter question. */
    uint8_t ep_square;
    /* castle_rook[color][side]: square of the rook that may castle, or SQ_NONE. */
    uint8_t castle_rook[COLOR_COUNT][2];
    uint8_t king_square[COLOR_COUNT];   /* SQ_NONE in a variant where a side has no king (or several) */
    bool chess960;
    uint8_t variant;                    /* enum variant */
    /* Variant state in what was padding, zero in standard chess (variant.c plays it,
     * the pocket accessors below pack it):
     * a position is copied per move, so it stays at standard chess's 160 bytes. */
    union {
        uint8_t checks_left[COLOR_COUNT]; /* Three-check: checks each side may still give */
        uint8_t pockets[6];               /* Crazyhouse: packed counts, position_pocket() */
    };
    uint32_t fullmove_number;
};
_Static_assert(sizeof(struct position) <= 160, "struct position is copied per move: keep it small");

/*
 * Crazyhouse pockets, packed into pos->pockets (6 bytes): per colour 5 bits of pawns and
 * 4 bits each of knights, bishops, rooks and queens.  fen.c admits only positions whose
 * material (board and pockets, a promoted piece counted as a pawn) fits, and play keeps
 * it, so a count never overflows.
 */
enum { POCKET_MAX_PAWNS = 31, POCKET_MAX_PIECES = 15 };

static inline unsigned pocket_shift_(int c, int t) { return (unsigned)(c * 21 + (t ? 1 + 4 * t : 0)); }
static inline uint64_t pocket_mask_(int t) { return t ? POCKET_MAX_PIECES : POCKET_MAX_PAWNS; }
static inline uint64_t pocket_word_(const struct position *pos)
{
    uint64_t w = 0;
    for (int i = 0; i < 6; i++)
        w |= (uint64_t)pos->pockets[i] << (8 * i);
    return w;
}

/** Pieces of type t (PAWN..QUEEN) in colour c's pocket. */
static inline int position_pocket(const struct position *pos, int c, int t)
{
    return (int)((pocket_word_(pos) >> pocket_shift_(c, t)) & pocket_mask_(t));
}

/** Set colour c's count of type t (0..POCKET_MAX_*). */
static inline void position_set_pocket(struct position *pos, int c, int t, int count)
{
    unsigned s = pocket_shift_(c, t);
    uint64_t w = (pocket_word_(pos) & ~(pocket_mask_(t) << s)) | ((uint64_t)count & pocket_mask_(t)) << s;
    for (int i = 0; i < 6; i++)
        pos->pockets[i] = (uint8_t)(w >> (8 * i));
}

/** The standard starting position. */
void position_set_start(struct position *pos);

static inline bitboard position_occupied(const struct position *pos)
{
    return pos->by_color[WHITE] | pos->by_color[BLACK];
}
static inline bitboard position_pieces(const struct position *pos, enum color c,
                                       enum piece_type t)
{
    return pos->by_color[c] & pos->by_type[t];
}

/** Pieces of colour `by` attacking sq, given occupancy occ. */
bitboard position_attackers(const struct position *pos, int sq, enum color by, bitboard occ);
/** Enemy pieces giving check to the side to move (cached: O(1)). */
static inline bitboard position_checkers(const struct position *pos) { return pos->checkers; }
/** Recompute pos->checkers from the board (after building a standard position by hand;
 * rules_update_checkers() for any variant). */
void position_update_checkers(struct position *pos);
static inline bool position_in_check(const struct position *pos)
{
    return position_checkers(pos) != 0;
}
/** Pieces of the side to move pinned to their own king. */
bitboard position_pinned(const struct position *pos);

/**
 * Play m by standard chess's rules; m must be legal in pos (a null move needs MOVE_NULL
 * and the side to move not in check).  Updates castling rights (king or rook moved, rook
 * captured), en passant square, clocks, checkers and side to move.  rules_do_move() plays
 * a move of any variant.
 */
void position_do_move(struct position *pos, struct move m);

/**
 * position_do_move() of a legal castling m in standard chess (king takes own rook):
 * the same position, faster where the king stands on its e-file square and the rook in
 * its corner (the usual castling, Chess960's included when so placed).
 */
void position_do_castle(struct position *pos, struct move m);

/** True when the side to move has at least one legal standard-chess move (early exit,
 * cheap).  Defined in movegen.c. */
bool position_has_legal_move(const struct position *pos);

/** True when an en passant capture onto pos->ep_square is legal right now (standard
 * chess).  Defined in movegen.c. */
bool position_ep_legal(const struct position *pos);

/**
 * The board's own consistency, in any variant: bitboards agree with board[], no square
 * twice, piece codes in range, promoted marks only on knights to queens.
 */
bool position_board_ok(const struct position *pos);

/**
 * Debug invariant check of a standard chess position: position_board_ok() with no
 * promoted marks, one king each where king_square says, castling rights that match,
 * no pawn on ranks 1 and 8, a consistent en passant square, cached checkers.
 * Returns true when consistent.  rules_position_ok() checks a position of any variant.
 */
bool position_ok(const struct position *pos);

#endif
