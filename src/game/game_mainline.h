/*
 * game_mainline.h - a walk over a replayed game's mainline moves and the comments after
 * each, part by part.
 *
 * The mainline moves are the played move tokens at depth 0 (outside every variation);
 * the comments "of" a move are the comments at depth 0 between it and the next mainline
 * move ({...} and ;... alike).  uci --format tsv/json --with clk,eval and the library's
 * clocks and evals all pair comments with moves by this one rule.  Comments before the
 * first mainline move belong to no move and are not handed out.
 */
#ifndef PGNKIT_GAME_MAINLINE_H
#define PGNKIT_GAME_MAINLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "game/game.h"

enum mainline_step {
    MAINLINE_END,      /* no more tokens */
    MAINLINE_MOVE,     /* walk->tok / walk->move: the next mainline move */
    MAINLINE_COMMENT,  /* walk->tok: a comment of the last mainline move */
    MAINLINE_PART_END, /* a part is done and another follows; its tokens (and slices of
                          them) stay valid until the next step loads that one */
};

struct mainline_walk {
    const struct game_record *rec;
    struct game_part part;
    size_t next;                       /* the part's next token */
    size_t depth;                      /* variations open at it */
    bool more;                         /* part holds tokens to walk */
    bool part_ended;                   /* PART_END handed out, the next part not loaded */
    bool after_move;                   /* a mainline move was handed out */
    const struct pgn_token *tok;       /* the step's token */
    const struct game_token_move *move; /* with MAINLINE_MOVE: what it resolved to */
};

/* Starts the walk (game_part_first: the one walk of the record's parts at a time).  The
 * record's token moves must be kept (not skip_token_moves). */
void mainline_walk_start(struct mainline_walk *w, const struct game_record *rec);
/* The next step; MAINLINE_END for ever after the last. */
enum mainline_step mainline_walk_next(struct mainline_walk *w);

#endif
