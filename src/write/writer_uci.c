/*
 * writer_uci.c - `pgnkit uci`: the mainline as UCI moves, one line (or JSON object, or
 * PGN game) per game, so output lines align with input games.
 */
#include <stdio.h>
#include <string.h>

#include "pgn/comment.h"
#include "base/ctrl.h"
#include "san/san_resolve.h"
#include "board/uci.h"
#include "write/writer.h"
#include "game/game_mainline.h"
#include "board/position.h"
#include "board/rules.h"
#include "write/writer_common.h"
#include "write/pgn_line.h"

/* A value as a TSV column: tabs and line breaks become spaces. */
static void put_tag_column(struct buf *out, const struct pgn_game *g, const char *name)
{
    const struct slice *v = game_tag(g, name);
    if (v)
        ctrl_put_column(out, v->ptr, v->len); /* a tab would break the row */
}

/* Moves written between two chances for the output to go out (game_record_output_point):
 * a long game's list is not held whole. */
enum { MOVES_RUN = 4096 };

/* Moves [m, end) at q, each followed by a blank; returns the end.  Four usual moves at a
 * time take one vector pass. */
static char *put_move_run(char *q, const struct move *m, const struct move *end,
                            const struct position *start, bool ktr)
{
#ifdef UCI_PUT_MOVES4
    const bool castle_as_king = !ktr && !start->chess960; /* as uci_write_move() */
    while (end - m >= 4) {
        if (uci_put_moves4(m, castle_as_king, q)) {
            q += 20;
            m += 4;
        } else {
            q += uci_put_move_sep(start, *m++, ktr, ' ', q);
        }
    }
#endif
    while (m < end)
        q += uci_put_move_sep(start, *m++, ktr, ' ', q);
    return q;
}

/* All mainline moves, blank-separated, and the line end.  The room is reserved once per
 * run of moves (a UCI move is at most 5 bytes plus a separator, and the vector pass's
 * 32): this runs for every ply of every game.  Each move is followed by its blank, the
 * last one made the line end: no test a move for it. */
static void put_moves_line(struct buf *out, const struct game_record *rec, bool ktr)
{
    /* In locals: the text is written by byte stores, which may alias *rec, so its
     * fields would be loaded again for every move. */
    const struct move *moves = rec->mainline;
    const struct position *start = &rec->start;
    size_t count = rec->mainline_count;
    if (!count) {
        buf_putc(out, '\n');
        return;
    }
    for (size_t i = 0; i < count;) {
        size_t stop = count - i < MOVES_RUN ? count : i + MOVES_RUN;
        char *p = buf_reserve(out, (stop - i) * 6 + 32);
        char *q = put_move_run(p, moves + i, moves + stop, start, ktr);
        i = stop;
        if (i == count)
            q[-1] = '\n';
        out->len += (size_t)(q - p);
        out->data[out->len] = '\0';
        if (i < count)
            game_record_output_point(rec);
    }
}

/* A text line's columns before its moves: the game's key, then each --tags value. */
static void put_line_head(struct buf *out, const struct game_record *rec,
                          const struct writer_options *o)
{
    writer_put_key_columns(out, rec->game, o);
    for (size_t t = 0; t < o->tag_count; t++) {
        put_tag_column(out, rec->game, o->tags[t]);
        buf_putc(out, '\t');
    }
}

static void write_text(struct buf *out, const struct game_record *rec,
                       const struct writer_options *o)
{
    put_line_head(out, rec, o);
    put_moves_line(out, rec, o->king_takes_rook);
}

/* ---- --format san and lalg: the mainline in other notations, a line per game ---- */

/* What move m gives in pos: '+', '#' or 0 (pos is the position after it). */
static char check_mark_after(const struct position *after)
{
    if (!position_in_check(after))
        return 0;
    return rules_has_legal_move(after) ? '+' : '#';
}

/*
 * pgn-extract's -Wlalg: the origin and destination squares (castling as the king's move,
 * e1g1), a promotion's piece letter in upper case (e7e8Q), then the check mark.  A drop
 * or a null move is written as in UCI (N@f3, 0000).  dst: room for 8.
 */
static size_t put_lalg(const struct position *pos, struct move m, char mark, char *dst)
{
    size_t n;
    if (m.flags & (MOVE_NULL | MOVE_DROP)) {
        n = uci_write_move(pos, m, false, dst);
    } else {
        int to = m.to;
        if (m.flags & MOVE_CASTLE) /* pgnkit keeps the rook's square: the king's instead */
            to = square_make(m.to > m.from ? 6 : 2, square_rank(m.from));
        memcpy(dst, uci_square_names[m.from], 2);
        memcpy(dst + 2, uci_square_names[to], 2);
        n = 4;
        if (m.promo)
            dst[n++] = "PNBRQK"[m.promo];
    }
    if (mark)
        dst[n++] = mark;
    return n;
}

/* The mainline's moves in SAN (canonical, check marks included) or long algebraic,
 * blank-separated. */
static void put_notation_moves(struct buf *out, const struct game_record *rec, bool san)
{
    struct position pos = rec->start;
    for (size_t i = 0; i < rec->mainline_count; i++) {
        struct position before = pos;
        struct move m = rec->mainline[i];
        rules_do_move(&pos, m);
        char mark = check_mark_after(&pos), text[16];
        size_t n = san ? san_write_marked(&before, m, mark, text) : put_lalg(&before, m, mark, text);
        if (i)
            buf_putc(out, ' ');
        buf_append(out, text, n);
        if (i % MOVES_RUN == MOVES_RUN - 1)
            game_record_output_point(rec);
    }
}

/* write_text() with the moves in SAN or long algebraic. */
static void write_notation(struct buf *out, const struct game_record *rec,
                           const struct writer_options *o)
{
    put_line_head(out, rec, o);
    if (rec->started)
        put_notation_moves(out, rec, o->format == FORMAT_SAN);
    buf_putc(out, '\n');
}

static void write_json(struct buf *out, const struct game_record *rec,
                       const struct writer_options *o)
{
    buf_putc(out, '{');
    writer_game_json_fields(out, rec, o);
    buf_puts(out, "}\n");
}

/* Move m and a blank at q, the blank before it made a line end when m would pass column
 * 80; returns the end.  *column counts the blank (0: q starts the movetext). */
static inline char *put_wrapped_move(char *q, size_t *column, const struct position *start,
                                     struct move m, bool ktr)
{
    size_t n = uci_put_move_sep(start, m, ktr, ' ', q);
    if (*column + n - 1 > PGN_LINE_COLUMNS) {
        q[-1] = '\n';
        *column = 0;
    }
    *column += n;
    return q + n;
}

/* Moves [m, end) at q, wrapped: put_wrapped_move() for each, four at a time by one vector
 * pass when they fit the line, as a line of usual moves does in fours (16 of them, 79
 * bytes).  Returns the end. */
static char *put_wrapped_run(char *q, size_t *column, const struct move *m,
                              const struct move *end, const struct position *start, bool ktr)
{
    size_t c = *column;
#ifdef UCI_PUT_MOVES4
    const bool castle_as_king = !ktr && !start->chess960; /* as uci_write_move() */
    while (end - m >= 4) {
        if (c > PGN_LINE_COLUMNS - 4) { /* no move fits: each is 4 bytes or more */
            q[-1] = '\n';
            c = 0;
        }
        if (c + 19 <= PGN_LINE_COLUMNS && uci_put_moves4(m, castle_as_king, q)) {
            q += 20;
            c += 20;
            m += 4;
        } else {
            q = put_wrapped_move(q, &c, start, *m++, ktr);
        }
    }
#endif
    while (m < end)
        q = put_wrapped_move(q, &c, start, *m++, ktr);
    *column = c;
    return q;
}

/* A blank line, then the mainline wrapped at 80 columns; returns the column after the
 * last move.  As in put_moves_line, the room is reserved once a run and the loop's inputs are in locals; each
 * move is written with a blank after it, which becomes a line end when the next move
 * would pass column 80 (`column` here counts it). */
static size_t put_wrapped_moves(struct buf *out, const struct game_record *rec, bool ktr)
{
    const struct move *moves = rec->mainline;
    const struct position *start = &rec->start;
    size_t count = rec->mainline_count;
    size_t column = 0;
    if (!count) {
        buf_putc(out, '\n');
        return 0;
    }
    for (size_t i = 0; i < count;) {
        size_t stop = count - i < MOVES_RUN ? count : i + MOVES_RUN;
        char *p = buf_reserve(out, (stop - i) * 6 + 33);
        char *q = p;
        /* The blank line's end before the first move (taken as the line end before it:
         * column 0 never writes there), after a run the blank after its last move. */
        *q++ = i ? ' ' : '\n';
        q = put_wrapped_run(q, &column, moves + i, moves + stop, start, ktr);
        i = stop;
        out->len += (size_t)(q - p) - 1; /* not the last blank */
        out->data[out->len] = '\0';
        if (i < count)
            game_record_output_point(rec);
    }
    return column ? column - 1 : 0;
}

/* PGN whose movetext is UCI moves, wrapped at 80 columns. */
static void write_pgn(struct buf *out, const struct game_record *rec,
                      const struct writer_options *o)
{
    const struct pgn_game *g = rec->game;
    for (size_t i = 0; i < o->tag_count; i++) { /* --tags: only these, in this order */
        const struct slice *v = game_tag(g, o->tags[i]);
        if (v)
            writer_put_tag(out, o->tags[i], strlen(o->tags[i]), v->ptr, v->len);
    }
    if (!o->tag_count)
        writer_put_tags(out, g->tags, g->tag_count);
    size_t column = put_wrapped_moves(out, rec, o->king_takes_rook);
    /* The separator, the result and the blank line in one reservation: a call each cost
     * ~50 instructions a game. */
    struct slice result = rec->result_token.ptr ? rec->result_token : (struct slice){"*", 1};
    char *p = buf_reserve(out, result.len + 3);
    size_t n = 0;
    if (column)
        p[n++] = column + 1 + result.len > PGN_LINE_COLUMNS ? '\n' : ' ';
    pgn_line_copy(p + n, result.ptr, result.len);
    n += result.len;
    memcpy(p + n, "\n\n", 2);
    out->len += n + 2;
    out->data[out->len] = '\0';
}

/* ---- --format tsv: one row per mainline move, with [%clk], [%eval], [%emt] ---- */


void writer_uci_header(struct buf *out, const struct writer_options *o)
{
    if (o->format != FORMAT_TSV)
        return;
    for (size_t t = 0; t < o->tag_count; t++) {
        buf_puts(out, o->tags[t]);
        buf_putc(out, '\t');
    }
    writer_put_key_header(out, o);
    buf_puts(out, "game\tply\tuci\tsan");
    for (int k = 0; k < WRITER_EXTRA_COUNT; k++)
        if (o->with & (1u << k))
            buf_printf(out, "\t%s", writer_extra_names[k]);
    if (o->with & WRITER_WITH_OPENING)
        buf_puts(out, "\teco\topening");
    buf_putc(out, '\n');
}

struct tsv_row {
    uint32_t ply;
    uint8_t uci_len, san_len;
    char uci[8];
    char san[16];
    struct slice extra[WRITER_EXTRA_COUNT];
};

/* The columns every row of a game starts with (its tags, keys and number, and a tab),
 * written once a game: rows are written a ply at a time. */
static void put_tsv_head(struct buf *head, const struct game_record *rec,
                         const struct writer_options *o)
{
    for (size_t t = 0; t < o->tag_count; t++) {
        put_tag_column(head, rec->game, o->tags[t]);
        buf_putc(head, '\t');
    }
    writer_put_key_columns(head, rec->game, o);
    writer_put_game_index(head, rec->game);
    buf_putc(head, '\t');
}

/* The opening column: the name, and an ECO file's variation after a colon (as the
 * built-in book's names have it), its sub-variation after a comma. */
static void put_opening_name(struct buf *out, const struct opening *op)
{
    ctrl_put_column(out, op->name, strlen(op->name));
    if (op->variation) {
        buf_puts(out, ": ");
        ctrl_put_column(out, op->variation, strlen(op->variation));
    }
    if (op->subvariation) {
        buf_puts(out, ", ");
        ctrl_put_column(out, op->subvariation, strlen(op->subvariation));
    }
}

static void put_tsv_row(struct buf *out, const struct buf *head, const struct game_record *rec,
                        const struct writer_options *o, const struct tsv_row *row)
{
    buf_append(out, head->data, head->len);
    buf_put_u64(out, row->ply);
    buf_putc(out, '\t');
    buf_append(out, row->uci, row->uci_len);
    buf_putc(out, '\t');
    buf_append(out, row->san, row->san_len);
    for (int k = 0; k < WRITER_EXTRA_COUNT; k++) {
        if (!(o->with & (1u << k)))
            continue;
        buf_putc(out, '\t');
        ctrl_put_column(out, row->extra[k].ptr ? row->extra[k].ptr : "", row->extra[k].len);
    }
    if (o->with & WRITER_WITH_OPENING) {
        const struct opening *op = rec->opening;
        buf_putc(out, '\t');
        if (op)
            ctrl_put_column(out, op->eco, strlen(op->eco));
        buf_putc(out, '\t');
        if (op)
            put_opening_name(out, op);
    }
    buf_putc(out, '\n');
}

static void note_extras(struct tsv_row *row, const struct pgn_token *tok)
{
    for (int k = 0; k < WRITER_EXTRA_COUNT; k++)
        if (!row->extra[k].ptr)
            row->extra[k] = comment_command(tok->text, tok->len, writer_extra_names[k]);
}

/*
 * A row's values are slices of its comments, and the row is written at the next mainline
 * move, which may lie in the next part of a game in parts (game.h): there a part's
 * tokens are gone, so the values found so far are copied into the row's own storage.
 */
static void keep_extras(struct tsv_row *row, struct buf *kept)
{
    /* Into a new buffer: the values may already lie in `kept` (a row over three parts). */
    struct buf next;
    buf_init(&next);
    buf_reserve(&next, 1); /* a value found empty keeps a pointer: found, unlike NULL */
    for (int k = 0; k < WRITER_EXTRA_COUNT; k++)
        if (row->extra[k].ptr)
            buf_append(&next, row->extra[k].ptr, row->extra[k].len);
    size_t at = 0;
    for (int k = 0; k < WRITER_EXTRA_COUNT; k++)
        if (row->extra[k].ptr) {
            row->extra[k].ptr = next.data + at;
            at += row->extra[k].len;
        }
    buf_release(kept);
    *kept = next;
}

/* A row for each mainline move, with the commands of its comments (game_mainline.h). */
static void write_tsv(struct buf *out, const struct game_record *rec,
                      const struct writer_options *o)
{
    struct position pos = rec->start;
    struct tsv_row row;
    struct buf kept, head;
    buf_init(&kept);
    buf_init(&head);
    put_tsv_head(&head, rec, o);
    bool open = false;
    struct mainline_walk walk;
    mainline_walk_start(&walk, rec);
    for (enum mainline_step step; (step = mainline_walk_next(&walk)) != MAINLINE_END;) {
        if (step == MAINLINE_COMMENT) {
            note_extras(&row, walk.tok);
        } else if (step == MAINLINE_PART_END) {
            if (open)
                keep_extras(&row, &kept);
        } else {
            const struct game_token_move *tm = walk.move;
            if (open)
                put_tsv_row(out, &head, rec, o, &row);
            memset(&row, 0, sizeof row);
            row.ply = tm->ply;
            row.uci_len = (uint8_t)uci_write_move(&pos, tm->move, o->king_takes_rook, row.uci);
            row.san_len = (uint8_t)san_write_marked(&pos, tm->move, tm->check_mark, row.san);
            rules_do_move(&pos, tm->move);
            open = true;
        }
    }
    if (open)
        put_tsv_row(out, &head, rec, o, &row);
    buf_release(&kept);
    buf_release(&head);
}

void writer_uci(struct buf *out, const struct game_record *rec, const struct writer_options *o)
{
    switch (o->format) {
    case FORMAT_JSON:
        write_json(out, rec, o);
        break;
    case FORMAT_PGN:
        write_pgn(out, rec, o);
        break;
    case FORMAT_TSV:
        write_tsv(out, rec, o);
        break;
    case FORMAT_SAN:
    case FORMAT_LALG:
        write_notation(out, rec, o);
        break;
    default:
        write_text(out, rec, o);
        break;
    }
}
