/**
 * san_resolve.h - from decoded SAN parts to the one legal move they name, on a board.
 *
 * The method of the seed documents (SPEC §3): collect every piece of the side to move
 * of the named kind that agrees with the hints and has a LEGAL move to the destination;
 * one candidate is the move; several are filtered by playing each on a copy of the
 * position and keeping those whose written claims (x, +, ++, #, e.p.) hold; a claim
 * that is not written filters nothing.  Then every claim is checked against the move
 * played, and each false or missing one is a warning, never a loss of the move.
 * Reentrant; no allocation.
 */
#ifndef PGNKIT_SAN_RESOLVE_H
#define PGNKIT_SAN_RESOLVE_H

#include <stdbool.h>

#include "base/diag.h"
#include "board/position.h"
#include "san/san.h"

enum { SAN_MAX_PROBLEMS = 8, SAN_MAX_CANDIDATES = 16 };

struct san_options {
    bool strict;  /* also warn about over-disambiguated SAN */
    bool lenient; /* AMBIGUOUS takes the first candidate, as a warning */
};

/** One thing wrong with a token: a code and a message (no position: the caller has it). */
struct san_problem {
    enum diag_code code;
    enum diag_severity severity; /* the code's default, but AMBIGUOUS under --lenient warns */
    char message[DIAG_MESSAGE_MAX];
};

/** What resolution found. */
struct san_outcome {
    struct move move;          /* valid when ok */
    bool ok;                   /* a move was chosen (possibly with warnings) */
    bool gives_check;
    bool gives_mate;           /* the side to move after `move` is checkmated */
    uint8_t problem_count;
    uint8_t candidate_count;   /* the legal candidates when AMBIGUOUS */
    struct move candidates[SAN_MAX_CANDIDATES];
    struct san_problem problems[SAN_MAX_PROBLEMS];
    /* Set by the caller: where the position after `move` is written (when ok; it may be
     * scribbled on otherwise).  Saves a copy per move on the hot path. */
    struct position *after;
};

/**
 * Resolve san in pos.  Fills *out (always; out->after must point to storage).  out->ok is false when the token names
 * no move (ILLEGAL, AMBIGUOUS without --lenient, MOVE_AFTER_END): then problems[0]
 * is that error.  Warnings (claims, lenient notation, under-/over-disambiguation) are
 * appended to out->problems in both cases.
 */
void san_resolve(const struct position *pos, const struct san *san,
                 const struct san_options *opts, struct san_outcome *out);

/**
 * Write the canonical SAN of legal move m in pos (minimal disambiguation, x, =Q,
 * + or #) into dst (at least 16 bytes); returns its length.  O-O / O-O-O for castling.
 */
size_t san_write(const struct position *pos, struct move m, char *dst);

/**
 * san_write() when the caller knows what the move gives (the replay found it:
 * game_token_move.check_mark): mark is '+', '#' or 0, written as is, and no move is
 * played to find it.  The PGN writer's per-move call.
 */
size_t san_write_marked(const struct position *pos, struct move m, char mark, char *dst);

#endif
