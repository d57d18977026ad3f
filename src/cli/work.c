/*
 * work.c - the work on games both runs share (work.h): one game replayed and written
 * into a work_output (process_game, on any thread), a work_output flushed in input
 * order, and the serial run (run_serial: read, replay, write one game at a time).
 *
 * Owns: per-game dispatch to the command's writer, counting each game (games in =
 * clean + with warnings + with errors + skipped), and --range's cut of the serial run.
 * Calls nothing in run.c or pipeline.c: they call it.
 */
#include "cli/work.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/input.h"
#include "cli/output.h"
#include "cli/shown.h"
#include "base/xalloc.h"

/* ---- one game ---- */

static void count_game(struct run_stats *s, const struct game_record *rec)
{
    s->games++;
    s->by_status[rec->status]++;
    s->plies += rec->mainline_count;
    for (size_t i = 0; i < rec->diags.count; i++) {
        const struct diag *d = &rec->diags.items[i];
        s->by_code[d->code]++;
        if (d->severity == DIAG_ERROR)
            s->error_diags++;
        else
            s->warning_diags++;
    }
}

/* fen --ply N on a game that ends before ply N: its line stays empty (or its "fens"
 * array), and a PLY_PAST_END warning, counted with the game's own, says why. */
static void check_ply_reached(const struct config *cfg, const struct game_record *rec,
                              struct work_output *o)
{
    /* A game with errors is not played to its end: its errors say why the line is empty. */
    if (cfg->writer.fen_mode != FEN_MODE_PLY || !rec->started || rec->status >= GAME_ERRORS ||
        cfg->writer.fen_ply <= rec->mainline_count)
        return;
    struct diag d;
    diag_set(&d, DIAG_PLY_PAST_END, rec->game->line, 1, "--ply %u: the game ends after ply %zu",
             cfg->writer.fen_ply, rec->mainline_count);
    o->stats.by_code[d.code]++;
    o->stats.warning_diags++;
    if (rec->status == GAME_CLEAN) {
        o->stats.by_status[GAME_CLEAN]--;
        o->stats.by_status[GAME_WARNINGS]++;
    }
    summary_note_example(&o->examples, rec->game, &d);
    if (!cfg->quiet)
        writer_diag_text(&o->err, rec->game, &d);
}

/* Every diagnostic but ENCODING, which is said once per file (encoding_note.h). */
static void write_diagnostics(struct buf *dst, const struct game_record *rec, bool json)
{
    const struct pgn_game *g = rec->game;
    for (size_t i = 0; i < rec->diags.count; i++) {
        if (rec->diags.items[i].code == DIAG_ENCODING)
            continue;
        if (json) {
            writer_diag_json_line(dst, g, &rec->diags.items[i]);
        } else {
            writer_diag_text(dst, g, &rec->diags.items[i]);
        }
    }
}

/* pgn --verbatim: the game's input bytes, then a blank line.  A game skipped unread
 * (over --max-game-bytes) has no bytes left to write. */
static void write_verbatim(struct buf *dst, const struct pgn_game *g)
{
    if (g->skipped || !g->text)
        return;
    buf_append(dst, g->text, g->bytes);
    buf_puts(dst, "\n\n");
}

/* What the command writes for a kept game. */
static void write_game(const struct config *cfg, const struct game_record *rec,
                       struct work_output *o)
{
    struct game_record cut; /* --first-plies: the game as written; selection saw it whole */
    if (cfg->first_plies_set && game_record_cut(rec, (size_t)cfg->first_plies, &cut))
        rec = &cut;
    switch (cfg->command) {
    case CMD_UCI:
        writer_uci(&o->out, rec, &cfg->writer);
        break;
    case CMD_FEN:
        /* --comments re-emits the whole game: the PGN writer's (writer.h). */
        if (cfg->writer.fen_mode == FEN_MODE_COMMENTS)
            writer_pgn(&o->out, rec, &cfg->writer);
        else
            writer_fen(&o->out, rec, &cfg->writer);
        check_ply_reached(cfg, rec, o);
        break;
    case CMD_PGN:
        if (cfg->verbatim)
            write_verbatim(&o->out, rec->game);
        else if (cfg->split_variations)
            writer_pgn_lines(&o->out, rec, &cfg->writer);
        else
            writer_pgn_fixes(&o->out, cfg->fixes ? &o->err : NULL, rec, &cfg->writer);
        break;
    default:
        break;
    }
}

/* The verdict of the tag criteria; SELECT_KEEP without a selection. */
static enum select_verdict select_tags(const struct config *cfg, struct work_output *o,
                                       const struct pgn_game *g)
{
    if (!cfg->select)
        return SELECT_KEEP;
    if (!o->select)
        o->select = select_scratch_new(cfg->select);
    return select_by_tags(cfg->select, o->select, g);
}

/* A game not selected: counted in and dropped, and nothing else (route.h). */
static void drop_not_selected(const struct config *cfg, struct work_output *o)
{
    o->stats.games++;
    route_drop(cfg, &o->route, &o->stats, NULL, DROP_NOT_SELECTED);
}

void process_game(struct game_replayer *r, const struct config *cfg, const struct pgn_game *g,
                  struct work_output *o)
{
    g = pgn_text_utf8(&o->text, g, cfg->encoding); /* every output is UTF-8 */
    /* The tags decide before any move is replayed: a game they reject costs no replay. */
    enum select_verdict verdict = select_tags(cfg, o, g);
    if (verdict == SELECT_DROP) {
        drop_not_selected(cfg, o);
        return;
    }
    const struct game_record *rec = game_replay(r, g);
    if (verdict == SELECT_REPLAY && !select_by_facts(cfg->select, o->select, rec)) {
        drop_not_selected(cfg, o);
        return;
    }
    count_game(&o->stats, rec);
    summary_note_examples(&o->examples, rec);
    encoding_note_keep(&o->encoding, rec);
    /* check's output is the diagnostics: every game's, whatever becomes of the game. */
    bool check = cfg->command == CMD_CHECK;
    if (check)
        write_diagnostics(&o->out, rec, cfg->writer.format == FORMAT_JSON);
    size_t start = o->out.len;
    if (route_is_invalid(cfg, rec)) {
        route_drop(cfg, &o->route, &o->stats, rec, DROP_INVALID);
    } else {
        write_game(cfg, rec, o);
        route_keep(cfg, &o->route, &o->stats, rec, start, o->out.len);
    }
    if (!check && !cfg->quiet) /* after the --fixes lines the writer wrote */
        write_diagnostics(&o->err, rec, false);
}

void work_output_init(struct work_output *o)
{
    memset(o, 0, sizeof *o);
    buf_init(&o->out);
    buf_init(&o->err);
    route_queue_init(&o->route);
}

void work_output_release(struct work_output *o)
{
    pgn_text_release(&o->text);
    buf_release(&o->out);
    buf_release(&o->err);
    route_queue_release(&o->route);
    summary_examples_release(&o->examples);
    select_scratch_free(o->select);
    o->select = NULL;
}

int work_output_flush(struct work_output *o, struct router *route, struct summary *summary)
{
    int rc = route_settle(route, &o->route, &o->out, &o->stats);
    if (output_flush(route->out, &o->out) != 0)
        rc = -1;
    output_flush_stderr(&o->err);
    if (o->route.invalid.len && output_flush(&route->invalid, &o->route.invalid) != 0)
        rc = -1;
    summary_merge(summary, &o->stats, &o->examples);
    encoding_note_merge(&summary->encoding, &o->encoding);
    memset(&o->encoding, 0, sizeof o->encoding);
    summary_examples_release(&o->examples);
    memset(&o->stats, 0, sizeof o->stats);
    return rc;
}

struct game_replayer *replayer_for(const struct config *cfg)
{
    struct diag err;
    struct game_replayer *r = game_replayer_new(&cfg->game, &err);
    if (!r)
        fprintf(stderr, "pgnkit: internal error: %s\n", err.message);
    return r;
}

/* ---- the serial run ---- */

void report_read_error(const struct input *in, const struct diag *err)
{
    /* A decoder's own words (truncated gzip, ...) say more than the read error. */
    const char *why = input_error(in);
    if (why)
        fprintf(stderr, "pgnkit: %s: %s\n", shown(in->name), shown(why));
    else
        fprintf(stderr, "pgnkit: %s\n", shown(err->message));
}

static bool should_stop(const struct config *cfg, const struct summary *s,
                        const struct work_output *o)
{
    return (cfg->max_errors && s->total.error_diags + o->stats.error_diags >= cfg->max_errors) ||
           (cfg->stop_after && s->total.written + o->stats.written >= cfg->stop_after);
}

/* What run_serial's replayer calls between two parts of a big game (game.h): the output
 * so far goes out, so that a game's output is not held whole on top of its text.  Not
 * when the route still needs the game's output as one piece (route_defers: split,
 * dedupe, --invalid-to): it decides where the game goes once it is written. */
struct midgame {
    const struct config *cfg;
    struct work_output *o;
    struct router *route;
    bool failed;
};

static void flush_midgame(void *ctx)
{
    struct midgame *m = ctx;
    if (m->failed || route_defers(m->cfg) || m->o->out.len < OUTPUT_FLUSH_BYTES)
        return;
    if (output_flush(m->route->out, &m->o->out) != 0)
        m->failed = true;
}

/* Single-threaded: read, replay, write, flush as the buffers fill. */
int run_serial(const struct config *cfg, struct pgn_reader *reader, struct input *in,
               struct router *route, struct progress *prog, struct summary *summary,
               uint64_t games_before)
{
    struct game_replayer *r = replayer_for(cfg);
    if (!r)
        return 2;
    struct work_output o;
    work_output_init(&o);
    struct midgame midgame = {cfg, &o, route, false};
    game_replayer_between_parts(r, flush_midgame, &midgame);
    struct pgn_game game;
    struct diag err;
    int rc, status = 0;
    uint64_t games = games_before;
    /* --range: the games before START are read (the reader starts at a sync point before
     * it) but not processed; the first game at or after END ends the range.  The range's
     * bytes run from the first game at or after START (0 for START 0) to that game (or
     * the end of the file), so the bytes of ranges tiling a file add up to its size. */
    const struct byte_range *range = cfg->range.set ? &cfg->range : NULL;
    uint64_t range_first = UINT64_MAX, range_past = UINT64_MAX;
    while ((rc = pgn_reader_next(reader, &game, &err)) == 1) {
        if (range && game.offset < range->start)
            continue;
        if (range && range_first == UINT64_MAX)
            range_first = range->start == 0 ? 0 : game.offset;
        if (range && game.offset >= range->end) {
            range_past = game.offset;
            break;
        }
        process_game(r, cfg, &game, &o);
        games++;
        /* Settled at once: the game's input bytes are the reader's until its next game. */
        if (midgame.failed || route_settle(route, &o.route, &o.out, &o.stats) != 0) {
            status = 2;
            break;
        }
        if (o.err.len)
            output_flush_stderr(&o.err);
        if (o.out.len >= OUTPUT_FLUSH_BYTES && output_flush(route->out, &o.out) != 0) {
            status = 2;
            break;
        }
        if (o.route.invalid.len >= OUTPUT_FLUSH_BYTES &&
            output_flush(&route->invalid, &o.route.invalid)) {
            status = 2;
            break;
        }
        progress_update(prog, pgn_reader_bytes(reader), games);
        if (should_stop(cfg, summary, &o)) {
            status = 1;
            break;
        }
    }
    if (rc < 0) {
        report_read_error(in, &err);
        status = 2;
    }
    in->bytes_read = pgn_reader_bytes(reader);
    if (range) {
        uint64_t past = range_past != UINT64_MAX ? range_past : in->bytes_read;
        uint64_t first = range_first != UINT64_MAX ? range_first : range->start ? past : 0;
        in->bytes_read = past - first;
    }
    if (work_output_flush(&o, route, summary) != 0)
        status = 2;
    work_output_release(&o);
    game_replayer_free(r);
    return status;
}

