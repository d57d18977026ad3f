/*
 * game_mainline.c - the mainline walk (game_mainline.h): depth counted over variation
 * brackets, parts loaded in order.
 */
#include "game/game_mainline.h"

void mainline_walk_start(struct mainline_walk *w, const struct game_record *rec)
{
    *w = (struct mainline_walk){.rec = rec};
    w->more = rec->started && game_part_first(rec, &w->part);
}

enum mainline_step mainline_walk_next(struct mainline_walk *w)
{
    while (w->more) {
        if (w->next == w->part.count) {
            /* PART_END first, the next part loaded at the next step: the caller may still
             * be holding slices of this part's tokens, which loading ends. */
            if (!w->part_ended && w->part.index + 1 < w->rec->game->part_count) {
                w->part_ended = true;
                return MAINLINE_PART_END;
            }
            w->part_ended = false;
            w->more = game_part_next(w->rec, &w->part);
            w->next = 0;
            continue;
        }
        size_t i = w->next++;
        const struct pgn_token *tok = &w->part.tokens[i];
        w->tok = tok;
        if (tok->kind == PGN_TOK_VARIATION_START) {
            w->depth++;
        } else if (tok->kind == PGN_TOK_VARIATION_END) {
            w->depth -= w->depth > 0;
        } else if (w->depth == 0 && tok->kind == PGN_TOK_MOVE && w->part.moves[i].played) {
            w->move = &w->part.moves[i];
            w->after_move = true;
            return MAINLINE_MOVE;
        } else if (w->depth == 0 && w->after_move &&
                   (tok->kind == PGN_TOK_COMMENT || tok->kind == PGN_TOK_LINE_COMMENT)) {
            return MAINLINE_COMMENT;
        }
    }
    return MAINLINE_END;
}
