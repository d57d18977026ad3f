/*
 * game_variations.c - the variations' positions (game_variations.h): one level per open
 * variation, each with its current position and the one before its last move (where a
 * sibling variation starts), as game.c's replay keeps them.
 */
#include "game/game_variations.h"

#include <stdlib.h>

#include "base/xalloc.h"
#include "board/rules.h"

struct variation_level {
    struct position now;
    struct position before; /* before the level's last move, when has_last */
    bool has_last;
};

void variation_walk_init(struct variation_walk *w) { *w = (struct variation_walk){0}; }

void variation_walk_release(struct variation_walk *w)
{
    free(w->levels);
    variation_walk_init(w);
}

static struct variation_level *level(struct variation_walk *w, size_t depth)
{
    xgrow((void **)&w->levels, &w->level_cap, depth + 1, sizeof *w->levels);
    return &w->levels[depth];
}

void variation_walk_start(struct variation_walk *w, const struct game_record *rec)
{
    w->rec = rec;
    w->next = 0;
    w->depth = 0;
    w->more = rec->started && rec->token_moves && game_part_first(rec, &w->part) &&
              w->part.moves;
    if (!w->more)
        return;
    struct variation_level *root = level(w, 0);
    root->now = rec->start;
    root->has_last = false;
}

/* A '(': the new line starts where its parent was before the move it replaces. */
static void open_level(struct variation_walk *w)
{
    struct variation_level *child = level(w, w->depth + 1);
    const struct variation_level *parent = &w->levels[w->depth]; /* after the grow */
    child->now = parent->has_last ? parent->before : parent->now;
    child->has_last = false;
    w->depth++;
}

const struct position *variation_walk_next(struct variation_walk *w)
{
    while (w->more) {
        if (w->next == w->part.count) {
            w->more = game_part_next(w->rec, &w->part) && w->part.moves;
            w->next = 0;
            continue;
        }
        size_t i = w->next++;
        const struct pgn_token *tok = &w->part.tokens[i];
        if (tok->kind == PGN_TOK_VARIATION_START) {
            open_level(w);
        } else if (tok->kind == PGN_TOK_VARIATION_END) {
            w->depth -= w->depth > 0;
        } else if (tok->kind == PGN_TOK_MOVE && w->part.moves[i].played) {
            struct variation_level *lv = &w->levels[w->depth];
            lv->before = lv->now;
            lv->has_last = true;
            rules_do_move(&lv->now, w->part.moves[i].move);
            if (w->depth)
                return &lv->now;
        }
    }
    return NULL;
}
