/**
 * variant.h - the rules of the lichess variants: Crazyhouse, Atomic, Antichess, King of
 * the Hill, Three-check, Racing Kings and Horde.
 *
 * A position carries its variant (position.variant); rules.h hands a variant position to
 * the functions here, once per call, so standard chess never runs this code (the
 * functions taking a position expect a variant one).  Rules as lichess, python-chess and
 * chessops play them (testdata/variants/README.md): a position where the variant's game
 * is over has no legal moves.  Reentrant; no allocation.
 */
#ifndef PGNKIT_VARIANT_H
#define PGNKIT_VARIANT_H

#include <stdbool.h>
#include <stddef.h>

#include "board/position.h"

/** The variant a Variant tag or --variant names (lichess names and python-chess's aliases,
 * case-insensitive): VARIANT_STANDARD for standard chess names, -1 when unknown (Chess960
 * is the caller's business: it is standard chess with other castling). */
int variant_from_name(const char *name, size_t len);

/** The name lichess writes in the Variant tag ("Crazyhouse", "King of the Hill", ...). */
const char *variant_name(enum variant v);

/** The variant's start position (standard chess's for VARIANT_STANDARD). */
void variant_set_start(struct position *pos, enum variant v);

/** What makes pos impossible in its variant, as "Antichess: the board is empty" (a
 * static string), or NULL when it may be played: Antichess needs a piece, Racing Kings
 * has no pawns and no king in check, Horde has one king in all (the horde has none).
 * The kings each side may have are fen.c's first test. */
const char *variant_setup_error(const struct position *pos);

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

/** True when the side to move has a legal move (false when the game is over). */
bool variant_has_legal_move(const struct position *pos);

/** True when an en passant capture onto pos->ep_square is one of the legal moves. */
bool variant_ep_legal(const struct position *pos);

/** Whether m (from, to, promo; MOVE_DROP, MOVE_CASTLE) is one of the legal moves. */
bool variant_is_legal(const struct position *pos, struct move m);

uint64_t variant_perft(const struct position *pos, int depth);

/**
 * How a position ends the game, by the rules it is played by: one value per rule (the
 * values of pgnkit_ending, in its order; ending_name() spells them).  The first three are
 * standard chess's too; STALEMATE is a drawn stalemate only (Antichess's stalemate is a
 * win: ENDING_ANTICHESS); INSUFFICIENT is a variant's draw by material (standard chess
 * leaves that to --ending insufficient).  Racing Kings's arrival may be a win or a draw.
 */
enum ending {
    ENDING_NONE = 0,
    ENDING_CHECKMATE,
    ENDING_STALEMATE,
    ENDING_KING_EXPLODED,    /* Atomic */
    ENDING_KING_OF_THE_HILL, /* a king on d4, e4, d5 or e5 */
    ENDING_THREE_CHECKS,     /* Three-check: the third check given */
    ENDING_RACING_KINGS,     /* a king on the 8th rank, the race decided */
    ENDING_HORDE_WIPED_OUT,  /* Horde: White has nothing left */
    ENDING_ANTICHESS,        /* the side to move has no piece or no move, and wins */
    ENDING_INSUFFICIENT,     /* a variant's draw by insufficient material */
    ENDING_COUNT
};

/** "none", "checkmate", "stalemate", "king-exploded", "king-of-the-hill", "three-checks",
 * "racing-kings", "horde-wiped-out", "antichess", "insufficient"; NULL when out of range. */
const char *ending_name(enum ending e);

/** How a finished game ended: winner (WHITE, BLACK, or -1 for a draw) and why. */
struct variant_end {
    bool over;
    int winner;
    const char *termination; /* "checkmate", "king-exploded", "third-check", ... */
    enum ending ending;      /* the rule, ENDING_NONE when not over */
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
