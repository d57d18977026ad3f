/* writer_diag.c - diagnostics rendered for people (compiler form) and for programs (JSON). */
#include <stdio.h>
#include <string.h>

#include "base/ctrl.h"
#include "write/writer.h"

static const char *severity_name(enum diag_severity s) { return s == DIAG_ERROR ? "error" : "warning"; }

void writer_diag_text(struct buf *out, const struct pgn_game *g, const struct diag *d)
{
    ctrl_put_line(out, g->file, strlen(g->file));
    buf_printf(out, ":%llu:%llu: %s[%s]: game ", (unsigned long long)d->line,
               (unsigned long long)d->col,
               severity_name(d->severity), diag_code_name(d->code));
    if (g->index)
        buf_put_u64(out, g->index);
    else
        buf_printf(out, "at byte %llu", (unsigned long long)g->offset);
    if (d->ply) {
        buf_printf(out, ", ply %u (%u%s ", d->ply, d->move_number,
                   d->side == WHITE ? "." : "...");
        ctrl_put_line(out, d->san, strlen(d->san)); /* the token as written: any bytes */
        buf_putc(out, ')');
    }
    buf_puts(out, ": ");
    ctrl_put_line(out, d->message, strlen(d->message));
    buf_putc(out, '\n');
}

/* The members of a diagnostic's object, without the braces. */
static void put_diag_json_fields(struct buf *out, const struct pgn_game *g,
                                 const struct diag *d)
{
    buf_puts(out, "\"file\":");
    buf_json_string(out, g->file, strlen(g->file));
    buf_printf(out, ",\"offset\":%llu,\"line\":%llu,\"col\":%llu,\"game\":",
               (unsigned long long)g->offset, (unsigned long long)d->line,
               (unsigned long long)d->col);
    if (g->index)
        buf_put_u64(out, g->index);
    else
        buf_puts(out, "null");
    buf_putc(out, ',');
    if (d->ply) {
        buf_printf(out, "\"ply\":%u,\"move_number\":%u,\"side\":\"%s\",\"san\":", d->ply,
                   d->move_number, d->side == WHITE ? "white" : "black");
        buf_json_string(out, d->san, strlen(d->san));
    } else {
        buf_puts(out, "\"ply\":null,\"move_number\":null,\"side\":null,\"san\":null");
    }
    buf_printf(out, ",\"code\":\"%s\",\"severity\":\"%s\",\"message\":", diag_code_name(d->code),
               severity_name(d->severity));
    buf_json_string(out, d->message, strlen(d->message));
    buf_puts(out, ",\"candidates\":[");
    const char *c = d->candidates;
    for (int first = 1; *c;) {
        const char *end = strchr(c, ' ');
        size_t n = end ? (size_t)(end - c) : strlen(c);
        if (!first)
            buf_putc(out, ',');
        buf_json_string(out, c, n);
        first = 0;
        c += n;
        while (*c == ' ')
            c++;
    }
    buf_puts(out, "],\"fen\":");
    if (d->fen[0])
        buf_json_string(out, d->fen, strlen(d->fen));
    else
        buf_puts(out, "null");
}

void writer_diag_json(struct buf *out, const struct pgn_game *g, const struct diag *d)
{
    buf_putc(out, '{');
    put_diag_json_fields(out, g, d);
    buf_putc(out, '}');
}

void writer_diag_json_line(struct buf *out, const struct pgn_game *g, const struct diag *d)
{
    buf_printf(out, "{\"schema\":%d,", WRITER_JSON_SCHEMA);
    put_diag_json_fields(out, g, d);
    buf_puts(out, "}\n");
}
