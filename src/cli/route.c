/* route.c - where each replayed game goes, and the files that takes (route.h). */
#include "cli/route.h"

#include <stdlib.h>
#include <string.h>

#include "cli/split.h"
#include "base/ctrl.h"
#include "base/xalloc.h"


int router_open(struct router *r, const struct config *cfg, struct output *out)
{
    memset(r, 0, sizeof *r);
    r->cfg = cfg;
    r->out = out;
    r->invalid.fd = r->duplicates.fd = -1;
    buf_init(&r->scratch);
    if (cfg->invalid_to && output_open(&r->invalid, cfg->invalid_to) != 0)
        return -1;
    if (cfg->duplicates_to && output_open(&r->duplicates, cfg->duplicates_to) != 0)
        return -1;
    if (cfg->split_games || cfg->split_by) {
        r->split = split_new(cfg);
        if (!r->split)
            return -1;
    }
    return 0;
}

static int finish_output(struct output *o, bool ok)
{
    if (o->fd < 0)
        return 0;
    if (ok)
        return output_commit(o);
    output_abort(o);
    return 0;
}

int router_finish(struct router *r, bool ok)
{
    int rc = 0;
    if (finish_output(&r->invalid, ok) != 0)
        rc = -1;
    if (finish_output(&r->duplicates, ok) != 0)
        rc = -1;
    if (r->split && split_finish(r->split, ok) != 0)
        rc = -1;
    r->split = NULL;
    game_key_set_release(&r->seen);
    buf_release(&r->scratch);
    return rc;
}

bool route_is_invalid(const struct config *cfg, const struct game_record *rec)
{
    return (cfg->skip_invalid || cfg->invalid_to) && rec->status >= GAME_ERRORS;
}

/* The ';' comment before a game set aside: one line per diagnostic, in the compiler form
 * (FILE:LINE:COL: error[CODE]: game N, ...: message).  A ';' comment runs to the end of
 * its line, so no message text can end it early, and a reader keeps the game after it
 * as it was. */
static void write_invalid(struct buf *dst, const struct game_record *rec)
{
    const struct pgn_game *g = rec->game;
    struct buf line;
    buf_init(&line);
    for (size_t i = 0; i < rec->diags.count; i++) {
        writer_diag_text(&line, g, &rec->diags.items[i]);
        for (char *p = line.data; p < line.data + line.len; p++)
            if (*p == '\r' || (*p == '\n' && p + 1 < line.data + line.len))
                *p = ' '; /* one diagnostic, one comment line */
        buf_puts(dst, "; ");
        buf_append(dst, line.data, line.len);
        buf_clear(&line);
    }
    buf_release(&line);
    if (g->skipped || !g->text) {
        buf_printf(dst, "; pgnkit: the game's %llu bytes at offset %llu of ",
                   (unsigned long long)g->bytes, (unsigned long long)g->offset);
        ctrl_put_line(dst, g->file, strlen(g->file)); /* a line end would end the comment */
        buf_puts(dst, " are not copied (it was skipped)\n\n");
        return;
    }
    buf_append(dst, g->text, g->bytes);
    buf_puts(dst, "\n\n");
}

void route_queue_init(struct route_queue *q)
{
    memset(q, 0, sizeof *q);
    buf_init(&q->invalid);
    buf_init(&q->route_text);
}

void route_queue_release(struct route_queue *q)
{
    buf_release(&q->invalid);
    buf_release(&q->route_text);
    free(q->routed);
    q->routed = NULL;
    q->routed_count = q->routed_cap = 0;
}

void route_drop(const struct config *cfg, struct route_queue *q, struct run_stats *stats,
                const struct game_record *rec, enum drop_reason why)
{
    stats->dropped[why]++;
    if (why == DROP_INVALID && cfg->invalid_to)
        write_invalid(&q->invalid, rec);
}

bool route_defers(const struct config *cfg)
{
    return cfg->dedupe || cfg->split_games || cfg->split_by;
}

void route_keep(const struct config *cfg, struct route_queue *q, struct run_stats *stats,
                const struct game_record *rec, size_t out_start, size_t out_end)
{
    if (!route_defers(cfg)) {
        stats->written++;
        return;
    }
    xgrow((void **)&q->routed, &q->routed_cap, q->routed_count + 1, sizeof *q->routed);
    struct routed_game *rg = &q->routed[q->routed_count++];
    memset(rg, 0, sizeof *rg);
    rg->out_start = out_start;
    rg->out_end = out_end;
    rg->raw = rec->game->skipped ? NULL : rec->game->text;
    rg->raw_len = rg->raw ? rec->game->bytes : 0;
    if (cfg->dedupe)
        rg->keyed = game_key_of(rec, &rg->key);
    if (cfg->split_by) {
        const struct slice *v = game_tag(rec->game, cfg->split_by);
        rg->has_split_value = v != NULL;
        rg->split_value = q->route_text.len;
        rg->split_value_len = v ? v->len : 0;
        if (v)
            buf_append(&q->route_text, v->ptr, v->len);
    }
}

/* memmove, but a no-op for no bytes (the buffer may not exist yet). */
static void move_bytes(char *dst, const char *src, size_t n)
{
    if (n)
        memmove(dst, src, n);
}

/* A duplicate: counted, and its input bytes to --duplicates-to. */
static int set_aside_duplicate(struct router *r, struct run_stats *stats,
                               const struct routed_game *rg)
{
    stats->dropped[DROP_DUPLICATE]++;
    if (r->duplicates.fd < 0 || !rg->raw)
        return 0;
    buf_append(&r->scratch, rg->raw, rg->raw_len);
    buf_puts(&r->scratch, "\n\n");
    return output_flush(&r->duplicates, &r->scratch);
}

int route_settle(struct router *r, struct route_queue *q, struct buf *out,
                 struct run_stats *stats)
{
    if (!q->routed_count)
        return 0;
    int rc = 0;
    char *data = out->data;
    size_t kept = 0, from = 0; /* out is compacted in place: [0, kept) stays */
    for (size_t i = 0; i < q->routed_count; i++) {
        const struct routed_game *rg = &q->routed[i];
        move_bytes(data + kept, data + from, rg->out_start - from); /* bytes of no game */
        kept += rg->out_start - from;
        from = rg->out_end;
        if (rg->keyed && !game_key_set_add(&r->seen, rg->key)) {
            if (set_aside_duplicate(r, stats, rg) != 0)
                rc = -1;
            continue;
        }
        stats->written++;
        if (r->split) {
            const char *value = rg->has_split_value ? q->route_text.data + rg->split_value : NULL;
            if (split_write(r->split, value, rg->split_value_len, data + rg->out_start,
                            rg->out_end - rg->out_start) != 0)
                rc = -1;
            continue;
        }
        move_bytes(data + kept, data + rg->out_start, rg->out_end - rg->out_start);
        kept += rg->out_end - rg->out_start;
    }
    move_bytes(data + kept, data + from, out->len - from);
    kept += out->len - from;
    out->len = kept;
    if (out->data)
        out->data[kept] = '\0';
    q->routed_count = 0;
    buf_clear(&q->route_text);
    return rc;
}
