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

static void write_diagnostics(struct buf *dst, const struct config *cfg,
                              const struct game_record *rec, bool json)
{
    const struct pgn_game *g = rec->game;
    for (size_t i = 0; i < rec->diags.count; i++) {
        if (json) {
            writer_diag_json(dst, g->file, g->index, &rec->diags.items[i]);
            buf_putc(dst, '\n');
        } else {
            writer_diag_text(dst, g->file, g->index, &rec->diags.items[i]);
        }
    }
    (void)cfg;
}

void worker_process_game(struct worker *w, const struct config *cfg, const struct pgn_game *g)
{
    const struct game_record *rec = game_replay(w->replayer, g);
    count_game(&w->stats, rec);
    summary_note_examples(&w->examples, rec);
    switch (cfg->command) {
    case CMD_CHECK:
        write_diagnostics(&w->out, cfg, rec, cfg->writer.format == FORMAT_JSON);
        return;
    case CMD_UCI:
        writer_uci(&w->out, rec, &cfg->writer);
        break;
    case CMD_FEN:
        writer_fen(&w->out, rec, &cfg->writer);
        break;
    case CMD_PGN:
        writer_pgn_fixes(&w->out, cfg->fixes ? &w->err : NULL, rec, &cfg->writer);
        break;
    default:
        break;
    }
    write_diagnostics(&w->err, cfg, rec, false);
}

int worker_init(struct worker *w, const struct config *cfg)
{
    memset(w, 0, sizeof *w);
    buf_init(&w->out);
    buf_init(&w->err);
    struct diag err;
    w->replayer = game_replayer_new(&cfg->game, &err);
    if (!w->replayer) {
        fprintf(stderr, "pgnkit: internal error: %s\n", err.message);
        return -1;
    }
    return 0;
}

void worker_release(struct worker *w)
{
    game_replayer_free(w->replayer);
    buf_release(&w->out);
    buf_release(&w->err);
    summary_examples_release(&w->examples);
}

/* ---- the run ---- */

static bool should_stop(const struct config *cfg, const struct run_stats *s)
{
    return cfg->max_errors && s->error_diags >= cfg->max_errors;
}

/* Single-threaded: read, replay, write, flush as the buffers fill. */
static int run_input_serial(struct worker *w, const struct config *cfg, struct input *in,
                            struct output *out, struct progress *prog)
{
    struct pgn_game game;
    struct diag err;
    int rc;
    while ((rc = pgn_reader_next(in->reader, &game, &err)) == 1) {
        worker_process_game(w, cfg, &game);
        if (w->out.len >= OUTPUT_FLUSH_BYTES && output_flush(out, &w->out) != 0)
            return 2;
        if (w->err.len)
            output_flush_stderr(&w->err);
        progress_update(prog, pgn_reader_bytes(in->reader), w->stats.games);
        if (should_stop(cfg, &w->stats))
            return 1;
    }
    if (rc < 0) {
        fprintf(stderr, "pgnkit: %s: %s\n", in->name, err.message);
        return 2;
    }
    return 0;
}

static int exit_status(const struct config *cfg, const struct run_stats *s, int io_status)
{
    if (io_status == 2)
        return 2;
    if (s->by_status[GAME_ERRORS] || s->by_status[GAME_SKIPPED])
        return 1;
    if (cfg->fail_on == FAIL_ON_WARNING && s->by_status[GAME_WARNINGS])
        return 1;
    return 0;
}

int run(const struct config *cfg)
{
    static const char *const stdin_only[] = {"-"};
    const char *const *inputs = cfg->input_count ? cfg->inputs : stdin_only;
    size_t input_count = cfg->input_count ? cfg->input_count : 1;

    struct output out;
    if (output_open(&out, cfg->output_path) != 0)
        return 2;
    struct summary summary;
    summary_init(&summary, cfg);
    struct progress prog;
    progress_init(&prog, cfg);
    double start = now_seconds();
    int status = 0;
    if (cfg->command == CMD_UCI) { /* the TSV header row, once for all inputs */
        struct buf header;
        buf_init(&header);
        writer_uci_header(&header, &cfg->writer);
        status = output_flush(&out, &header) != 0 ? 2 : 0;
        buf_release(&header);
    }
    for (size_t i = 0; i < input_count && status != 2; i++) {
        struct input in;
        if (input_open(&in, inputs[i], &cfg->limits) != 0) {
            status = 2;
            break;
        }
        progress_start_file(&prog, in.name, in.size);
        int rc = run_input(cfg, &in, &out, &prog, &summary);
        summary_add_file(&summary, in.name, pgn_reader_bytes(in.reader));
        input_close(&in);
        if (rc == 2 || rc == 1)
            status = rc;
        if (rc == 1) /* --max-errors reached */
            break;
    }
    progress_finish(&prog);
    if (status != 2 && output_commit(&out) != 0)
        status = 2;
    else if (status == 2)
        output_abort(&out);
    summary.seconds = now_seconds() - start;
    summary_print(&summary, cfg);
    int code = exit_status(cfg, &summary.total, status);
    summary_release(&summary);
    return code;
}

int run_input(const struct config *cfg, struct input *in, struct output *out,
              struct progress *prog, struct summary *summary)
{
    struct worker w;
    if (worker_init(&w, cfg) != 0)
        return 2;
    int rc = run_input_serial(&w, cfg, in, out, prog);
    if (rc != 2 && output_flush(out, &w.out) != 0)
        rc = 2;
    output_flush_stderr(&w.err);
    summary_merge(summary, &w.stats, &w.examples);
    worker_release(&w);
    return rc;
}
