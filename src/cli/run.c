/*
 * run.c - the main job: every input through reader, replayer and writer, output in
 * input order, the summary, and the exit status.
 *
 * Owns: opening inputs and the output, per-game dispatch to the command's writer,
 * counting (games in = clean + with warnings + with errors + skipped), the summary.
 */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "input.h"
#include "output.h"
#include "range.h"
#include "pgnkit/xalloc.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

static void write_diagnostics(struct buf *dst, const struct game_record *rec, bool json)
{
    const struct pgn_game *g = rec->game;
    for (size_t i = 0; i < rec->diags.count; i++) {
        if (json) {
            writer_diag_json(dst, g, &rec->diags.items[i]);
            buf_putc(dst, '\n');
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
    switch (cfg->command) {
    case CMD_UCI:
        writer_uci(&o->out, rec, &cfg->writer);
        break;
    case CMD_FEN:
        writer_fen(&o->out, rec, &cfg->writer);
        check_ply_reached(cfg, rec, o);
        break;
    case CMD_PGN:
        if (cfg->verbatim)
            write_verbatim(&o->out, rec->game);
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
    route_drop(cfg, o, NULL, DROP_NOT_SELECTED);
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
    /* check's output is the diagnostics: every game's, whatever becomes of the game. */
    bool check = cfg->command == CMD_CHECK;
    if (check)
        write_diagnostics(&o->out, rec, cfg->writer.format == FORMAT_JSON);
    size_t start = o->out.len;
    if (route_is_invalid(cfg, rec)) {
        route_drop(cfg, o, rec, DROP_INVALID);
    } else {
        write_game(cfg, rec, o);
        route_keep(cfg, o, rec, start);
    }
    if (!check && !cfg->quiet) /* after the --fixes lines the writer wrote */
        write_diagnostics(&o->err, rec, false);
}

void work_output_init(struct work_output *o)
{
    memset(o, 0, sizeof *o);
    buf_init(&o->out);
    buf_init(&o->err);
    buf_init(&o->invalid);
    buf_init(&o->route_text);
}

void work_output_release(struct work_output *o)
{
    pgn_text_release(&o->text);
    buf_release(&o->out);
    buf_release(&o->err);
    buf_release(&o->invalid);
    buf_release(&o->route_text);
    free(o->routed);
    o->routed = NULL;
    o->routed_count = o->routed_cap = 0;
    summary_examples_release(&o->examples);
    select_scratch_free(o->select);
    o->select = NULL;
}

int work_output_flush(struct work_output *o, struct router *route, struct summary *summary)
{
    int rc = route_settle(route, o);
    if (output_flush(route->out, &o->out) != 0)
        rc = -1;
    output_flush_stderr(&o->err);
    if (o->invalid.len && output_flush(&route->invalid, &o->invalid) != 0)
        rc = -1;
    summary_merge(summary, &o->stats, &o->examples);
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

/* ---- the run ---- */

void report_read_error(const struct input *in, const struct diag *err)
{
    /* A decoder's own words (truncated gzip, ...) say more than the read error. */
    const char *why = input_error(in);
    if (why)
        fprintf(stderr, "pgnkit: %s: %s\n", in->name, why);
    else
        fprintf(stderr, "pgnkit: %s\n", err->message);
}

static bool should_stop(const struct config *cfg, const struct summary *s,
                        const struct work_output *o)
{
    return cfg->max_errors && s->total.error_diags + o->stats.error_diags >= cfg->max_errors;
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
        if (route_settle(route, &o) != 0) {
            status = 2;
            break;
        }
        if (o.err.len)
            output_flush_stderr(&o.err);
        if (o.out.len >= OUTPUT_FLUSH_BYTES && output_flush(route->out, &o.out) != 0) {
            status = 2;
            break;
        }
        if (o.invalid.len >= OUTPUT_FLUSH_BYTES && output_flush(&route->invalid, &o.invalid)) {
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

int run_exit_status(const struct config *cfg, const struct run_stats *s, int io_status)
{
    if (io_status == 2)
        return 2;
    if (s->by_status[GAME_ERRORS] || s->by_status[GAME_SKIPPED])
        return 1;
    if (cfg->fail_on == FAIL_ON_WARNING && s->by_status[GAME_WARNINGS])
        return 1;
    return 0;
}

/* --max-errors stopped the run in the input just added to the summary: say where, and
 * that what follows was not read (the counts are those of the games read). */
static void report_stop(const struct config *cfg, const struct summary *s, size_t inputs_left)
{
    const struct summary_file *f = &s->files[s->file_count - 1];
    fprintf(stderr, "pgnkit: stopped after game %llu of %s: --max-errors %llu reached; "
                    "the rest was not read",
            (unsigned long long)f->stats.games, f->name, (unsigned long long)cfg->max_errors);
    if (inputs_left)
        fprintf(stderr, " (nor %zu more input%s)", inputs_left, inputs_left == 1 ? "" : "s");
    fputc('\n', stderr);
}

/* Each .pgn member of an archive in turn, as files of their own; other input is one. */
static int run_members(const struct config *cfg, struct input *in, struct router *route,
                       struct progress *prog, struct summary *summary)
{
    for (;;) {
        progress_start_file(prog, in->name, in->size);
        in->progress = prog;
        in->bytes_so_far = 0;
        int rc = run_input(cfg, in, route, prog, summary);
        summary_add_file(summary, in->name, in->bytes_read);
        if (rc != 0)
            return rc;
        int next = input_next_member(in);
        if (next <= 0)
            return next < 0 ? 2 : 0;
    }
}

int run(const struct config *cfg)
{
    static const char *const stdin_only[] = {"-"};
    const char *const *inputs = cfg->input_count ? cfg->inputs : stdin_only;
    size_t input_count = cfg->input_count ? cfg->input_count : 1;

    struct output out;
    /* With --split, -o is the files' name pattern: nothing goes to it as such. */
    int status = output_open(&out, cfg->split_games || cfg->split_by ? "-" : cfg->output_path);
    if (status != 0)
        return status;
    struct router route;
    if (router_open(&route, cfg, &out) != 0) {
        router_finish(&route, false);
        output_abort(&out);
        return 2;
    }
    struct summary summary;
    summary_init(&summary, cfg);
    struct progress prog;
    progress_init(&prog, cfg);
    double start = now_seconds();
    /* The TSV header row, once for all inputs; not in a range that does not start the
     * file, so that the outputs of ranges tiling a file concatenate to one run's. */
    if (cfg->command == CMD_UCI && !cfg->no_header && !(cfg->range.set && cfg->range.start)) {
        struct buf header;
        buf_init(&header);
        writer_uci_header(&header, &cfg->writer);
        status = output_flush(&out, &header) != 0 ? 2 : 0;
        buf_release(&header);
    }
    for (size_t i = 0; i < input_count && status == 0; i++) {
        struct input in;
        if (cfg->range.set ? range_open(&in, inputs[i], cfg) != 0
                           : input_open(&in, inputs[i], &cfg->limits) != 0) {
            status = 2;
            break;
        }
        status = run_members(cfg, &in, &route, &prog, &summary);
        if (status == 1 && !out.reader_gone)
            report_stop(cfg, &summary, input_count - i - 1);
        input_close(&in);
    }
    progress_finish(&prog);
    /* A reader that went away (| head) ends the run quietly with the status so far. */
    if (out.reader_gone)
        status = 0;
    if (router_finish(&route, status != 2) != 0)
        status = 2;
    if (status != 2 && output_commit(&out) != 0)
        status = 2;
    else if (status == 2)
        output_abort(&out);
    summary.seconds = now_seconds() - start;
    summary_print(&summary, cfg);
    if (cfg->summary_json && summary_write_json(&summary, cfg) != 0)
        status = 2;
    int code = run_exit_status(cfg, &summary.total, status);
    summary_release(&summary);
    return code;
}

static int jobs_for(const struct config *cfg)
{
    /* --max-errors stops at an exact game: only the serial run knows where that is.  A
     * range is one core's share of a file (run more ranges for more cores). */
    if (cfg->max_errors || cfg->range.set)
        return 1;
    if (cfg->jobs > 0)
        return cfg->jobs;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (int)cores : 1;
}

int run_input(const struct config *cfg, struct input *in, struct router *route,
              struct progress *prog, struct summary *summary)
{
    int jobs = jobs_for(cfg);
    if (jobs > 1)
        return pipeline_run(cfg, in, route, prog, summary, jobs);
    return run_serial(cfg, in->reader, in, route, prog, summary, 0);
}
