/**
 * variant.h - the rules of the lichess variants: Crazyhouse, Atomic, Antichess, King of
 * the Hill, Three-check, Racing Kings and Horde.
 *
 * A position carries its variant (position.variant); the public generator and board
 * functions (movegen.h, position.h) hand a variant position to the functions here, once
 * per call, so standard chess never runs this code.  Rules as lichess, python-chess and
 * chessops play them (testdata/variants/README.md): a position where the variant's game
 * is over has no legal moves.  Reentrant; no allocation.
 */
#ifndef PGNKIT_VARIANT_H
#define PGNKIT_VARIANT_H

#include <stdbool.h>
#include <stddef.h>

#include "board/position.h"

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
static inline int variant_pocket(const struct position *pos, int c, int t)
{
    return (int)((pocket_word_(pos) >> pocket_shift_(c, t)) & pocket_mask_(t));
}

/** Set colour c's count of type t (0..POCKET_MAX_*). */
static inline void variant_set_pocket(struct position *pos, int c, int t, int count)
{
    unsigned s = pocket_shift_(c, t);
    uint64_t w = (pocket_word_(pos) & ~(pocket_mask_(t) << s)) | ((uint64_t)count & pocket_mask_(t)) << s;
    for (int i = 0; i < 6; i++)
        pos->pockets[i] = (uint8_t)(w >> (8 * i));
}

/** The variant a Variant tag or --variant names (lichess names and python-chess's aliases,
 * case-insensitive): VARIANT_STANDARD for standard chess names, -1 when unknown (Chess960
 * is the caller's business: it is standard chess with other castling). */
int variant_from_name(const char *name, size_t len);

/** The name lichess writes in the Variant tag ("Crazyhouse", "King of the Hill", ...). */
const char *variant_name(enum variant v);

/** The variant's start position. */
void variant_set_start(struct position *pos, enum variant v);

/** Every legal move of the side to move (out[MAX_MOVES]); 0 when the game is over. */
int variant_legal_moves(const struct position *pos, struct move *out);

/** The legal non-drop moves of piece type t landing on `to` from a square of from_mask. */
int variant_legal_to(const struct position *pos, enum piece_type t, int to, bitboard from_mask,
                     struct move *out);

/** The legal castling move on that side, if any (why: a reason otherwise, may be NULL). */
bool variant_castle(const struct position *pos, enum castle_side side, struct move *m,
                    const char **why);

/** Play a legal move: pockets, explosions, check counters, and the checkers it leaves. */
void variant_do_move(struct position *pos, struct move m);

/** Recompute king squares and checkers after building a variant position by hand. */
void variant_update_checkers(struct position *pos);

/** Whether m (from, to, promo; MOVE_DROP, MOVE_CASTLE) is one of the legal moves. */
bool variant_is_legal(const struct position *pos, struct move m);

uint64_t variant_perft(const struct position *pos, int depth);

/** How a finished game ended: winner (WHITE, BLACK, or -1 for a draw) and why. */
struct variant_end {
    bool over;
    int winner;
    const char *termination; /* "checkmate", "king-exploded", "third-check", ... */
};

/** Whether the game is over in pos, and how (the termination names of the README). */
struct variant_end variant_end_of(const struct position *pos);

/**
 * Why a move that matched the notation is not legal, naming the variant's rule when that
 * is the reason ("Antichess: a capture is compulsory (exd5)"): writes a message into buf.
 * m is a pseudo-legal move of the side to move.
 */
void variant_explain_illegal(const struct position *pos, struct move m, char *buf, size_t cap);

/** All pseudo-legal moves of the side to move matching t/to/from_mask, legal or not. */
int variant_pseudo_to(const struct position *pos, enum piece_type t, int to, bitboard from_mask,
                      struct move *out);

#endif
