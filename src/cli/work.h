/*
 * work.h - the work on games that the serial run and the pipeline share (work.c): one
 * game replayed and written into a work_output, a work_output flushed in input order,
 * and the serial run itself (one game at a time on the calling thread).
 *
 * The layers call downwards only: run.c (the job: inputs, output, summary, exit status)
 * calls pipeline.c (--jobs N) and work.c; pipeline.c calls work.c; work.c calls neither.
 */
#ifndef PGNKIT_CLI_WORK_H
#define PGNKIT_CLI_WORK_H

#include <stdint.h>

#include "cli/config.h"
#include "cli/encoding_note.h"
#include "cli/progress.h"
#include "cli/route.h"
#include "cli/summary.h"
#include "base/buf.h"
#include "game/game.h"
#include "pgn/pgn_text.h"

struct input;
struct pgn_reader;

/* What processing games produces: stdout bytes, stderr bytes, games set aside, counts,
 * examples.  The serial run has one; the pipeline has one per batch, flushed in input
 * order. */
struct work_output {
    struct pgn_text text;         /* games read as CP1252, decoded to UTF-8 */
    struct buf out;
    struct buf err;
    struct route_queue route;     /* games set aside or kept for route_settle */
    struct run_stats stats;
    struct summary_examples examples;
    struct encoding_note encoding; /* the first ENCODING warning of these games */
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

#endif
