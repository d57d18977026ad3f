/*
 * game_variations.h - a walk over the positions a replayed game's variations reach, part
 * by part: what --in-variations adds to --reaches and --material (select.h).
 *
 * The positions handed out are those after each played move inside a variation (at any
 * depth), in file order.  A variation starts from the position before the move it
 * replaces, as the replay played it (game.c); moves the replay did not play (an error
 * ended the line, --no-variations) reach nothing.  The mainline's own positions are not
 * handed out: the caller has them (game_record.mainline).
 *
 * Nothing is replayed by SAN: each played token's move (game_token_move) is made again
 * on its line's position, so the record's token moves must be kept (not
 * skip_token_moves).  The walk loads the record's parts (game_part_first: one walk of
 * them at a time).  Its stack of levels grows to the deepest nesting once and is kept
 * from game to game: nothing is allocated per move.
 */
#ifndef PGNKIT_GAME_VARIATIONS_H
#define PGNKIT_GAME_VARIATIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "board/position.h"
#include "game/game.h"

struct variation_level;

struct variation_walk {
    const struct game_record *rec;
    struct game_part part;
    size_t next;                     /* the part's next token */
    size_t depth;                    /* variations open at it */
    bool more;                       /* part holds tokens to walk */
    struct variation_level *levels;  /* [0, depth]: 0 is the mainline */
    size_t level_cap;
};

/* An empty walk: its storage is kept across variation_walk_start calls. */
void variation_walk_init(struct variation_walk *w);
void variation_walk_release(struct variation_walk *w);

/* Starts the walk over rec (set up and with its token moves; else it hands out nothing). */
void variation_walk_start(struct variation_walk *w, const struct game_record *rec);

/* The next position reached in a variation, or NULL after the last.  Valid until the
 * next call. */
const struct position *variation_walk_next(struct variation_walk *w);

#endif
