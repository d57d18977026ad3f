/*
 * writer_lines.c - `pgn --split-variations`: every line of play of a game (its mainline
 * and each variation, nested ones too) written as a game of its own, as pgn-extract's
 * --splitvariants does: a variation's game holds the moves that lead to it (those of the
 * line it branches from, up to the move it replaces), then its own moves.
 *
 * Decisions (also in the man page): the lines come in the order they start in the game's
 * text, the mainline first; each game carries the game's tags (pgn's tag section, so
 * --seven-tags and --no-tags apply) and its result, and its moves only, in canonical SAN
 * with export move numbers: comments, NAGs and the other lines are not carried.  A line
 * stopped by an error ends with its last move played; the variations after the error
 * (never replayed) are not written.  A game that could not be set up
 * is written whole, as pgn writes it.
 *
 * The lines are gathered first (the mainline ends last in the text), their moves copied
 * out of the game's parts, so a game in parts (game.h) is walked once.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "san/san.h"
#include "san/san_resolve.h"
#include "board/rules.h"
#include "write/pgn_line.h"
#include "write/writer.h"
#include "write/writer_common.h"

/* Moves and their check marks ('+', '#' or 0), a growable array. */
struct line_moves {
    struct move *moves;
    char *marks;
    size_t count, cap;
};

/* An open line while the tokens are walked: its moves so far, whether the last one is
 * the line's (a variation then replaces it), whether an error stopped it, and its slot
 * in the list of lines. */
struct open_line {
    struct line_moves m;
    bool has_last;
    bool dead;
    size_t slot;
};

/* A complete line; unreached: it starts after an error in the line it branches from, so
 * none of its moves was replayed and it is not written. */
struct done_line {
    struct line_moves m;
    bool unreached;
};

struct lines {
    struct done_line *done;  /* by the order the lines start */
    size_t done_count, done_cap;
    struct open_line *open;  /* the mainline, then the variations open inside it */
    size_t depth, open_cap;
};

static void moves_push(struct line_moves *l, struct move m, char mark)
{
    if (l->count == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->moves = xrealloc(l->moves, l->cap * sizeof *l->moves);
        l->marks = xrealloc(l->marks, l->cap);
    }
    l->moves[l->count] = m;
    l->marks[l->count++] = mark;
}

static void moves_release(struct line_moves *l)
{
    free(l->moves);
    free(l->marks);
}

/* A new line, next in slot order and innermost: its moves the first n of the line open
 * at index `parent` (none when parent is SIZE_MAX: the mainline). */
static void open_line(struct lines *ls, size_t parent, size_t n)
{
    if (ls->done_count == ls->done_cap) {
        ls->done_cap = ls->done_cap ? 2 * ls->done_cap : 8;
        ls->done = xrealloc(ls->done, ls->done_cap * sizeof *ls->done);
    }
    if (ls->depth + 2 > ls->open_cap) {
        ls->open_cap = ls->open_cap ? 2 * ls->open_cap : 8;
        ls->open = xrealloc(ls->open, ls->open_cap * sizeof *ls->open);
    }
    size_t at = parent == SIZE_MAX ? 0 : ++ls->depth;
    struct open_line *o = &ls->open[at];
    memset(o, 0, sizeof *o);
    o->slot = ls->done_count;
    memset(&ls->done[ls->done_count++], 0, sizeof *ls->done);
    if (parent == SIZE_MAX)
        return;
    const struct line_moves *from = &ls->open[parent].m;
    for (size_t i = 0; i < n; i++)
        moves_push(&o->m, from->moves[i], from->marks[i]);
    o->dead = ls->open[parent].dead;
    ls->done[o->slot].unreached = o->dead;
}

/* The innermost open line is complete: its moves go to its slot. */
static void close_line(struct lines *ls)
{
    struct open_line *o = &ls->open[ls->depth];
    ls->done[o->slot].m = o->m;
    if (ls->depth)
        ls->depth--;
}

/* "(": a variation of the innermost line, replacing its last move. */
static void start_variation(struct lines *ls)
{
    const struct open_line *parent = &ls->open[ls->depth];
    open_line(ls, ls->depth, parent->m.count - (parent->has_last ? 1 : 0));
}

/* A move token the replay did not play: a glyph or an e.p. mark written as its own word
 * (nothing to do), else an error, which ends the line. */
static bool ends_line(const struct pgn_token *tok)
{
    bool nonstandard;
    return !san_glyph_nag(tok->text, tok->len) && !san_is_ep_mark(tok->text, tok->len, &nonstandard);
}

static void take_token(struct lines *ls, const struct pgn_token *tok,
                       const struct game_token_move *tm)
{
    struct open_line *o = &ls->open[ls->depth];
    switch (tok->kind) {
    case PGN_TOK_MOVE:
        if (o->dead)
            return;
        if (!tm->played) {
            o->dead = ends_line(tok);
            return;
        }
        moves_push(&o->m, tm->move, tm->check_mark);
        o->has_last = true;
        return;
    case PGN_TOK_VARIATION_START:
        start_variation(ls);
        return;
    case PGN_TOK_VARIATION_END:
        if (ls->depth)
            close_line(ls);
        return;
    default:
        return;
    }
}

static void gather(struct lines *ls, const struct game_record *rec)
{
    struct game_part part;
    open_line(ls, SIZE_MAX, 0);
    for (bool more = game_part_first(rec, &part); more; more = game_part_next(rec, &part))
        for (size_t i = 0; i < part.count; i++)
            take_token(ls, &part.tokens[i], &part.moves[i]);
    while (ls->depth) /* unterminated variations */
        close_line(ls);
    close_line(ls);
}

/* One line as a game: the tag section, the numbered moves, the result. */
static void write_line(struct buf *out, const struct game_record *rec,
                       const struct writer_options *o, const struct line_moves *l)
{
    struct slice result = writer_pgn_tag_section(out, rec, o);
    struct pgn_line w = {out, 0, o->line_width ? o->line_width : PGN_LINE_COLUMNS};
    struct position pos = rec->start;
    for (size_t i = 0; i < l->count; i++) {
        char num[32] = "", san[16];
        if (pos.side_to_move == WHITE || i == 0)
            snprintf(num, sizeof num, "%u%s ", pos.fullmove_number,
                     pos.side_to_move == WHITE ? "." : "...");
        size_t n = san_write_marked(&pos, l->moves[i], l->marks[i], san);
        pgn_line_word(&w, num, san, n);
        rules_do_move(&pos, l->moves[i]);
    }
    pgn_line_word(&w, "", result.ptr, result.len);
    buf_puts(out, "\n\n");
}

void writer_pgn_lines(struct buf *out, const struct game_record *rec,
                      const struct writer_options *o)
{
    if (rec->game->skipped)
        return;
    if (!rec->started || !rec->token_moves) {
        writer_pgn(out, rec, o); /* nothing replayed: copied as pgn copies it */
        return;
    }
    struct lines ls = {0};
    gather(&ls, rec);
    for (size_t k = 0; k < ls.done_count; k++) {
        if (!ls.done[k].unreached)
            write_line(out, rec, o, &ls.done[k].m);
        moves_release(&ls.done[k].m);
    }
    free(ls.done);
    free(ls.open);
}
