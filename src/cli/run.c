/*
 * run.c - the main job: every input (each .pgn member of an archive) through the serial
 * run or the pipeline, output in input order, the summary, and the exit status.
 *
 * Owns: opening inputs and the output, choosing --jobs, --max-errors' stop message, the
 * summary's per-file totals.  Calls go one way: run.c -> pipeline.c (--jobs N) and
 * work.c (the serial run); neither calls back (work.h).
 */
#include "cli/run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/clash.h"
#include "cli/input.h"
#include "cli/output.h"
#include "cli/range.h"
#include "cli/shown.h"
#include "base/xalloc.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The Unix time, for the start and end a merge of pieces takes its wall time from. */
static double unix_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* User + system CPU seconds of the process so far, every thread's. */
static double cpu_seconds(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* --stop-after or --max-errors: which one stopped the run (status 1 from an input). */
static enum summary_end stop_reason(const struct config *cfg, const struct summary *s)
{
    return cfg->stop_after && s->total.written >= cfg->stop_after ? SUMMARY_STOP_AFTER
                                                                   : SUMMARY_MAX_ERRORS;
}

static int run_input(const struct config *cfg, struct input *in, struct router *route,
                     struct progress *prog, struct summary *summary);

/* --max-errors or --stop-after stopped the run in the input just added to the summary:
 * say where, and that what follows was not read (the counts are those of the games
 * read).  --stop-after is no failure: --quiet keeps it quiet. */
static void report_stop(const struct config *cfg, const struct summary *s, size_t inputs_left)
{
    const struct summary_file *f = &s->files[s->file_count - 1];
    bool enough = cfg->stop_after && s->total.written >= cfg->stop_after;
    if (enough && cfg->quiet)
        return;
    fprintf(stderr, "pgnkit: stopped after game %llu of %s: --%s %llu reached; "
                    "the rest was not read",
            (unsigned long long)f->stats->games, shown(f->name),
            enough ? "stop-after" : "max-errors",
            (unsigned long long)(enough ? cfg->stop_after : cfg->max_errors));
    if (inputs_left)
        fprintf(stderr, " (nor %zu more input%s)", inputs_left, inputs_left == 1 ? "" : "s");
    fputc('\n', stderr);
}

/* The file just added to the summary had games not in UTF-8: one note for them all, in
 * check's output (its diagnostics are its product), else on stderr unless --quiet. */
static int say_encoding(const struct config *cfg, struct summary *s, struct router *route)
{
    const struct summary_file *f = &s->files[s->file_count - 1];
    bool check = cfg->command == CMD_CHECK;
    if (!s->encoding.set || (!check && cfg->quiet)) {
        memset(&s->encoding, 0, sizeof s->encoding);
        return 0;
    }
    struct buf note;
    buf_init(&note);
    encoding_note_put(&s->encoding, f->stats->by_code[DIAG_ENCODING],
                      check && cfg->writer.format == FORMAT_JSON, &note);
    int rc = 0;
    if (check)
        rc = output_flush(route->out, &note) != 0 ? 2 : 0;
    else
        output_flush_stderr(&note);
    buf_release(&note);
    return rc;
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
        if (say_encoding(cfg, summary, route) != 0 && rc == 0)
            rc = 2;
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

    /* Before anything is opened: no output may replace another, or an input. */
    struct clash clash;
    clash_collect(&clash, cfg);
    int clashed = clash_check(&clash);
    clash_release(&clash);
    if (clashed)
        return clashed;
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
    summary.started = unix_seconds();
    enum summary_end stopped = SUMMARY_WHOLE;
    /* The TSV header row, once for all inputs; not in a range that does not start the
     * file, so that the outputs of ranges tiling a file concatenate to one run's. */
    if (cfg->command == CMD_UCI && !cfg->no_header && !(cfg->range.set && cfg->range.start)) {
        struct buf header;
        buf_init(&header);
        writer_uci_header(&header, &cfg->writer);
        status = output_flush(&out, &header) != 0 ? 2 : 0;
        buf_release(&header);
    }
    /* An input that cannot be opened (missing, a directory, not PGN) is reported by
     * input_open and skipped: the others are still read, and the run's status is 2. */
    bool unopened = false;
    for (size_t i = 0; i < input_count && status == 0; i++) {
        /* A terminal on standard input would otherwise look like a hang. */
        if (strcmp(inputs[i], "-") == 0 && isatty(STDIN_FILENO) && !cfg->quiet)
            fprintf(stderr, "pgnkit: reading PGN from standard input (a terminal); "
                            "end it with Ctrl-D, or name files to read\n");
        struct input in;
        if (cfg->range.set ? range_open(&in, inputs[i], cfg) != 0
                           : input_open(&in, inputs[i], &cfg->limits) != 0) {
            unopened = true;
            continue;
        }
        /* A compressed file's progress is the share of its bytes taken (input.h). */
        progress_start_input(&prog, i + 1, input_count, in.size ? NULL : &in.raw_bytes,
                             in.size ? 0 : in.file_size);
        status = run_members(cfg, &in, &route, &prog, &summary);
        if (status == 1 && !out.reader_gone) {
            report_stop(cfg, &summary, input_count - i - 1);
            stopped = stop_reason(cfg, &summary);
        }
        progress_start_input(&prog, i + 1, input_count, NULL, 0); /* in.raw_bytes goes */
        input_close(&in);
    }
    progress_finish(&prog);
    /* A reader that went away (| head) ends the run quietly with the status so far. */
    if (out.reader_gone)
        status = 0;
    if (unopened)
        status = 2;
    if (router_finish(&route, status != 2) != 0)
        status = 2;
    if (status != 2 && output_commit(&out) != 0)
        status = 2;
    else if (status == 2)
        output_abort(&out);
    summary.seconds = now_seconds() - start;
    summary.ended = summary.started + summary.seconds;
    summary.cpu_seconds = cpu_seconds();
    summary.end = out.reader_gone ? SUMMARY_OUTPUT_CLOSED
                : status == 2     ? SUMMARY_FAILED
                                  : stopped;
    summary_print(&summary, cfg);
    if (cfg->summary_json && summary_write_json(&summary, cfg) != 0)
        status = 2;
    int code = run_exit_status(cfg, &summary.total, status);
    summary_release(&summary);
    return code;
}

/*
 * At most JOBS_RUN_MAX threads run, whatever --jobs or the number of cores says.  The
 * reading thread, which cuts the input for all of them, feeds ~16 cores of uci on TWIC
 * (~2 GB/s against ~125 MB/s a core: README, "What limits --jobs"), and the one stream
 * of output fewer still for the per-ply outputs, so more threads only wait; each one
 * costs memory (~0.2 MB: its SAN cache, its reader's tokens, its stack), and at 16 the
 * peak RSS stays within 16 MB (30 MB of every bench corpus, every command: README,
 * "Speed").
 */
enum { JOBS_RUN_MAX = 16, SMALL_MEMBER_BYTES = 256 * 1024 };

static int jobs_for(const struct config *cfg)
{
    /* --max-errors and --stop-after stop at an exact game: only the serial run knows
     * where that is.  A
     * range is one core's share of a file (run more ranges for more cores). */
    if (cfg->max_errors || cfg->stop_after || cfg->range.set)
        return 1;
    long jobs = cfg->jobs > 0 ? cfg->jobs : sysconf(_SC_NPROCESSORS_ONLN);
    return jobs < 1 ? 1 : jobs > JOBS_RUN_MAX ? JOBS_RUN_MAX : (int)jobs;
}

static int run_input(const struct config *cfg, struct input *in, struct router *route,
              struct progress *prog, struct summary *summary)
{
    int jobs = jobs_for(cfg);
    /* A small archive member is read alone: starting threads for it cost more than it
     * (160,000 empty members of a .tar.zst: a pipeline each). */
    if (jobs > 1 && input_member_small(in, SMALL_MEMBER_BYTES))
        jobs = 1;
    if (jobs > 1)
        return pipeline_run(cfg, in, route, prog, summary, jobs);
    return run_serial(cfg, in->reader, in, route, prog, summary, 0);
}
