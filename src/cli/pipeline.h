/*
 * pipeline.h - the parallel run of one input (pipeline.c): chunks cut at game starts,
 * tokenized and replayed by N threads, flushed in input order.  Called by run.c only;
 * calls work.c (process_game, work_output_flush, run_serial for a serial rest).
 */
#ifndef PGNKIT_CLI_PIPELINE_H
#define PGNKIT_CLI_PIPELINE_H

#include "cli/work.h"

/* The parallel run of one input (--jobs N > 1): same bytes out as the serial run. */
int pipeline_run(const struct config *cfg, struct input *in, struct router *route,
                 struct progress *prog, struct summary *summary, int jobs);

#endif
