/*
 * san_resolve_internal.h - the replay's per-ply path into san_resolve.c: the usual move
 * played on the position itself, not on a copy.  Private to src/ (game.c).
 */
#ifndef PGNKIT_SAN_RESOLVE_INTERNAL_H
#define PGNKIT_SAN_RESOLVE_INTERNAL_H

#include <stdbool.h>

#include "san/san_resolve.h"

/* A plain move (a piece or pawn moving, no castling, en passant or promotion) played in
 * place, and what it overwrote that the position after it cannot tell: enough to
 * rebuild the position before it (san_unplay_quick). */
struct quick_undo {
    /* The position's bytes from checkers on (QUICK_UNDO_STATE of them): the checkers,
     * clocks, side to move, e.p. square, castling rooks and king squares before the
     * move, copied as three words rather than field by field (a third of the stores a
     * ply), and copied back whole. */
    uint64_t state[3];
    struct move move;
    uint8_t victim;     /* the piece taken on move.to, or PIECE_NONE */
};
#define QUICK_UNDO_STATE sizeof(((struct quick_undo *)0)->state)

/* What the move played in place gives: the number of checkers, and mate. */
struct quick_played {
    int checkers;
    bool mate;
};

/*
 * san_resolve()'s usual case, decided on pos alone: a move token written plainly (no
 * lenient spelling, no promotion, no full origin square) whose one legal candidate
 * resolve_quick() finds and whose capture mark is right.  Standard chess, and not
 * --strict: the caller's test.  Sets *m; false (nothing written) for anything else,
 * which san_resolve() then decides.
 */
bool san_quick_move(const struct position *pos, const struct san *san, struct move *m);
/* Play it on *pos itself, its undo kept, and say what it gives. */
struct quick_played san_play_in_place(struct position *pos, struct move m,
                                      struct quick_undo *undo);
/* The same with mate not asked (p.mate false): the replay asks san_quick_mated() only
 * when the answer can change a diagnostic or a mark, and then as late as it can (a legal
 * next move, which it usually finds anyway, already says there was no mate). */
struct quick_played san_play_in_place_lazy(struct position *pos, struct move m,
                                           struct quick_undo *undo);
/* Whether the side to move in pos is checkmated (standard chess). */
bool san_quick_mated(const struct position *pos);
/* Whether every mark written is what the move does: no problem to report.  m is
 * san_quick_move()'s move for san, whose capture mark it found right. */
bool san_quick_claims_exact(const struct san *san, struct move m, struct quick_played p);
/* san_resolve()'s outcome for that move (ok, the move, what it gives, the claims'
 * problems; out->after is not used). */
void san_quick_outcome(const struct san *san, struct move m, struct quick_played p,
                       struct san_outcome *out);

/* The position before the move san_play_in_place() played, into *before, from the one
 * after it (*after, unchanged since) and its undo. */
void san_unplay_quick(struct position *before, const struct position *after,
                      const struct quick_undo *undo);

#endif
