/*
 * writer_uci.c - `pgnkit uci`: the mainline as UCI moves, one line (or JSON object, or
 * PGN game) per game, so output lines align with input games.
 */
#include <stdio.h>

#include "pgnkit/fen.h"
#include "pgnkit/san_resolve.h"
#include "pgnkit/uci.h"
#include "pgnkit/writer.h"
#include "writer_internal.h"

static void put_tag_column(struct buf *out, const struct pgn_game *g, const char *name)
{
    const struct slice *v = game_tag(g, name);
    if (!v)
        return;
    char *p = buf_reserve(out, v->len);
    for (size_t i = 0; i < v->len; i++) {
        char c = v->ptr[i];
        p[i] = c == '\t' || c == '\n' || c == '\r' ? ' ' : c;
    }
    out->len += v->len;
    out->data[out->len] = '\0';
}

static void put_moves(struct buf *out, const struct game_record *rec, bool ktr, char sep)
{
    for (size_t i = 0; i < rec->mainline_count; i++) {
        char *p = buf_reserve(out, 8);
        size_t n = 0;
        if (i)
            p[n++] = sep;
        n += uci_write_move(&rec->start, rec->mainline[i], ktr, p + n);
        out->len += n;
    }
    if (out->data)
        out->data[out->len] = '\0';
}

static void write_text(struct buf *out, const struct game_record *rec,
                       const struct writer_options *o)
{
    for (size_t t = 0; t < o->tag_count; t++) {
        put_tag_column(out, rec->game, o->tags[t]);
        buf_putc(out, '\t');
    }
    put_moves(out, rec, o->king_takes_rook, ' ');
    buf_putc(out, '\n');
}

static const char *status_name(enum game_status s)
{
    static const char *const names[] = {"ok", "warnings", "errors", "skipped"};
    return names[s];
}

/* The fields every per-game JSON object shares (tags, moves, final FEN, diagnostics). */
void writer_game_json_fields(struct buf *out, const struct game_record *rec,
                             const struct writer_options *o)
{
    const struct pgn_game *g = rec->game;
    buf_puts(out, "\"file\":");
    buf_json_string(out, g->file, strlen(g->file));
    buf_printf(out, ",\"game\":%llu,\"line\":%u,\"status\":\"%s\",\"tags\":{",
               (unsigned long long)g->index, g->line, status_name(rec->status));
    for (size_t i = 0; i < g->tag_count; i++) {
        if (i)
            buf_putc(out, ',');
        buf_json_string(out, g->tags[i].name.ptr, g->tags[i].name.len);
        buf_putc(out, ':');
        buf_json_string(out, g->tags[i].value.ptr, g->tags[i].value.len);
    }
    buf_puts(out, "},\"uci\":[");
    struct position pos = rec->start;
    for (size_t i = 0; i < rec->mainline_count; i++) {
        char m[8];
        size_t n = uci_write_move(&pos, rec->mainline[i], o->king_takes_rook, m);
        if (i)
            buf_putc(out, ',');
        buf_json_string(out, m, n);
    }
    buf_puts(out, "],\"san\":[");
    for (size_t i = 0; i < rec->mainline_count; i++) {
        char s[16];
        size_t n = san_write(&pos, rec->mainline[i], s);
        if (i)
            buf_putc(out, ',');
        buf_json_string(out, s, n);
        position_do_move(&pos, rec->mainline[i]);
    }
    buf_puts(out, "],\"fen\":");
    if (rec->started) {
        char fen[128];
        size_t n = fen_write(&rec->final, fen, sizeof fen, o->fen_flags);
        buf_json_string(out, fen, n);
    } else {
        buf_puts(out, "null");
    }
    buf_puts(out, ",\"result\":");
    if (rec->result_token.ptr)
        buf_json_string(out, rec->result_token.ptr, rec->result_token.len);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"diagnostics\":[");
    for (size_t i = 0; i < rec->diags.count; i++) {
        if (i)
            buf_putc(out, ',');
        writer_diag_json(out, g->file, g->index, &rec->diags.items[i]);
    }
    buf_putc(out, ']');
}

static void write_json(struct buf *out, const struct game_record *rec,
                       const struct writer_options *o)
{
    buf_putc(out, '{');
    writer_game_json_fields(out, rec, o);
    buf_puts(out, "}\n");
}

static void put_tag_pair(struct buf *out, const struct slice *name, const struct slice *value)
{
    buf_putc(out, '[');
    buf_append(out, name->ptr, name->len);
    buf_puts(out, " \"");
    for (size_t i = 0; i < value->len; i++) {
        if (value->ptr[i] == '"' || value->ptr[i] == '\\')
            buf_putc(out, '\\');
        buf_putc(out, value->ptr[i]);
    }
    buf_puts(out, "\"]\n");
}

/* PGN whose movetext is UCI moves, wrapped at 80 columns. */
static void write_pgn(struct buf *out, const struct game_record *rec,
                      const struct writer_options *o)
{
    const struct pgn_game *g = rec->game;
    for (size_t i = 0; i < g->tag_count; i++)
        put_tag_pair(out, &g->tags[i].name, &g->tags[i].value);
    buf_putc(out, '\n');
    size_t column = 0;
    for (size_t i = 0; i < rec->mainline_count; i++) {
        char m[8];
        size_t n = uci_write_move(&rec->start, rec->mainline[i], o->king_takes_rook, m);
        if (column && column + 1 + n > 80) {
            buf_putc(out, '\n');
            column = 0;
        } else if (column) {
            buf_putc(out, ' ');
            column++;
        }
        buf_append(out, m, n);
        column += n;
    }
    const struct slice *result = rec->result_token.ptr ? &rec->result_token : NULL;
    size_t rlen = result ? result->len : 1;
    if (column && column + 1 + rlen > 80)
        buf_putc(out, '\n');
    else if (column)
        buf_putc(out, ' ');
    if (result)
        buf_append(out, result->ptr, result->len);
    else
        buf_putc(out, '*');
    buf_puts(out, "\n\n");
}

void writer_uci(struct buf *out, const struct game_record *rec, const struct writer_options *o)
{
    if (o->skip_invalid && rec->status >= GAME_ERRORS)
        return;
    switch (o->format) {
    case FORMAT_JSON:
        write_json(out, rec, o);
        break;
    case FORMAT_PGN:
        write_pgn(out, rec, o);
        break;
    default:
        write_text(out, rec, o);
        break;
    }
}
