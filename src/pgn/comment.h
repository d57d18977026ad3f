/**
 * comment.h - the embedded commands of PGN comments ([%clk 0:03:00], [%eval -1.25],
 * [%emt 0:00:07]) as lichess, chess.com and ChessBase write them.
 *
 * Pure functions over borrowed text: nothing allocates, nothing is kept.
 */
#ifndef PGNKIT_COMMENT_H
#define PGNKIT_COMMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "board/types.h"

/** The value of the first "[%name value]" in s[0..len): the first word after the name,
 * or {NULL, 0} when there is none. */
struct slice comment_command(const char *s, size_t len, const char *name);

/** A clock value "h:mm:ss", "mm:ss" or "h:mm:ss.f" in seconds; false when malformed. */
bool comment_parse_clock(struct slice v, double *seconds);

/** An [%eval] value: "0.31", "-1.5" (pawns) or "#3", "#-2" (mate in N); false when
 * malformed, a mate distance beyond an int's range (|N| > INT_MAX) included. */
bool comment_parse_eval(struct slice v, bool *is_mate, double *pawns, int *mate_in);

/** A move's clock and eval: the first [%clk] and the first [%eval] of its comments. */
struct comment_notes {
    bool has_clock, has_eval, eval_mate;
    int mate_in;
    double clock, pawns;
};

/** Take the commands of one more comment of the move, s[0..len), into n: a clock or an
 * eval only while n has none (the first of each wins). */
void comment_notes_take(struct comment_notes *n, const char *s, size_t len);

#endif
