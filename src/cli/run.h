/*
 * run.h - the main job's pieces: per-thread workers, counts, summary, progress.
 * CLI-only code: it may print to stderr and decides the exit status.
 */
#ifndef PGNKIT_CLI_RUN_H
#define PGNKIT_CLI_RUN_H

#include <stdint.h>

#include "config.h"
#include "pgnkit/pgn_text.h"
#include "route.h"
#include "pgnkit/buf.h"
#include "pgnkit/game.h"

struct input;
struct pgn_reader;
struct output;

/* Counts; games == written + sum of dropped == sum of by_status + dropped[NOT_SELECTED]
 * (a game not selected counts in games and dropped only). */
struct run_stats {
    uint64_t games;
    uint64_t written;                    /* check: kept (not dropped) */
    uint64_t dropped[DROP_REASON_COUNT]; /* enum drop_reason */
    uint64_t by_status[4]; /* enum game_status */
    uint64_t plies;
    uint64_t bytes;
    uint64_t error_diags;
    uint64_t warning_diags;
    uint64_t by_code[DIAG_CODE_COUNT];
};

/* to += from, field by field. */
void run_stats_add(struct run_stats *to, const struct run_stats *from);

/* The first few diagnostics of each code, rendered, for the --summary report. */
enum { SUMMARY_EXAMPLES = 3 };
struct summary_examples {
    char *text[DIAG_CODE_COUNT][SUMMARY_EXAMPLES];
    uint8_t count[DIAG_CODE_COUNT];
};
void summary_note_examples(struct summary_examples *ex, const struct game_record *rec);
/* One diagnostic the CLI raised itself (PLY_PAST_END) about game g. */
void summary_note_example(struct summary_examples *ex, const struct pgn_game *g,
                          const struct diag *d);
void summary_examples_release(struct summary_examples *ex);

struct summary_file {
    const char *name;
    struct run_stats stats;
};

struct summary {
    struct run_stats total;
    struct run_stats file_start; /* totals when the current file began */
    struct summary_examples examples;
    struct summary_file *files;
    size_t file_count, file_cap;
    double seconds;
};
void summary_init(struct summary *s, const struct config *cfg);
void summary_merge(struct summary *s, const struct run_stats *stats,
                   const struct summary_examples *ex);
void summary_add_file(struct summary *s, const char *name, uint64_t bytes);
void summary_print(const struct summary *s, const struct config *cfg);
void summary_release(struct summary *s);

/* Progress on stderr: bytes, games, MB/s, ETA when the size is known. */
struct progress {
    int enabled;
    const char *name;
    uint64_t size;
    uint64_t base_games;
    uint64_t games;     /* the last count given to progress_update */
    double start, last;
};
void progress_init(struct progress *p, const struct config *cfg);
void progress_start_file(struct progress *p, const char *name, uint64_t size);
void progress_update(struct progress *p, uint64_t bytes, uint64_t games);
/** Bytes read, with the games counted so far: called by every read of the input. */
void progress_bytes(struct progress *p, uint64_t bytes);
void progress_finish(struct progress *p);

/* What processing games produces: stdout bytes, stderr bytes, games set aside, counts,
 * examples.  The serial run has one; the pipeline has one per batch, flushed in input
 * order. */
struct work_output {
    struct pgn_text text;         /* games read as CP1252, decoded to UTF-8 */
    struct buf out;
    struct buf err;
    struct buf invalid;           /* --invalid-to bytes */
    struct routed_game *routed;   /* games kept, for route_settle */
    size_t routed_count, routed_cap;
    struct buf route_text;        /* their --split-by values */
    struct run_stats stats;
    struct summary_examples examples;
    /* The selection's match data: made on first use, used by one thread at a time (the
     * one processing these games), so by as many threads as there are work_outputs. */
    struct select_scratch *select;
};
void work_output_init(struct work_output *o);
void work_output_release(struct work_output *o);
/* Settle o's games (route_settle), then flush it: out to the output, err to stderr, the
 * games set aside to their files, counts and examples into the summary. */
int work_output_flush(struct work_output *o, struct router *route, struct summary *summary);

/* Replay g and write what the command wants into o.  r is the calling thread's own. */
void process_game(struct game_replayer *r, const struct config *cfg, const struct pgn_game *g,
                  struct work_output *o);

/* Say why reading an input failed (on stderr). */
void report_read_error(const struct input *in, const struct diag *err);

/* A replayer for this configuration, or NULL after printing why. */
struct game_replayer *replayer_for(const struct config *cfg);

/* Read, replay and write games one at a time on this thread, from reader (in's own, or
 * the pipeline's for the part it could not cut); games_before counts the games already
 * read, for the progress line.  Sets in->bytes_read.  Returns 0, 1 (--max-errors) or 2. */
int run_serial(const struct config *cfg, struct pgn_reader *reader, struct input *in,
               struct router *route, struct progress *prog, struct summary *summary,
               uint64_t games_before);

/* The parallel run of one input (--jobs N > 1): same bytes out as the serial run. */
int pipeline_run(const struct config *cfg, struct input *in, struct router *route,
                 struct progress *prog, struct summary *summary, int jobs);

/* The exit status for these counts: 2 when io_status is 2, 1 for games with errors or
 * skipped (with --fail-on warning, warnings too), else 0. */
int run_exit_status(const struct config *cfg, const struct run_stats *s, int io_status);

/* --summary-json: the run's counts as one JSON object into cfg->summary_json ("-":
 * standard output), written atomically.  0, or -1 after saying why. */
int summary_write_json(const struct summary *s, const struct config *cfg);

/* Run the whole job; returns the exit status. */
int run(const struct config *cfg);
/* One input; returns 0, 1 (--max-errors reached) or 2 (I/O failure). */
int run_input(const struct config *cfg, struct input *in, struct router *route,
              struct progress *prog, struct summary *summary);

#endif
