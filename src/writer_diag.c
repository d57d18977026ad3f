/* writer_diag.c - diagnostics rendered for people (compiler form) and for programs (JSON). */
#include <stdio.h>

#include "pgnkit/writer.h"

static const char *severity_name(enum diag_severity s) { return s == DIAG_ERROR ? "error" : "warning"; }

void writer_diag_text(struct buf *out, const char *file, uint64_t game, const struct diag *d)
{
    buf_printf(out, "%s:%u:%u: %s[%s]: game %llu", file, d->line, d->col,
               severity_name(d->severity), diag_code_name(d->code), (unsigned long long)game);
    if (d->ply)
        buf_printf(out, ", ply %u (%u%s %s)", d->ply, d->move_number,
                   d->side == WHITE ? "." : "...", d->san);
    buf_printf(out, ": %s\n", d->message);
}

void writer_diag_json(struct buf *out, const char *file, uint64_t game, const struct diag *d)
{
    buf_puts(out, "{\"file\":");
    buf_json_string(out, file, strlen(file));
    buf_printf(out, ",\"line\":%u,\"col\":%u,\"game\":%llu,", d->line, d->col,
               (unsigned long long)game);
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
    buf_putc(out, '}');
}
