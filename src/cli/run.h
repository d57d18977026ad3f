/*
 * run.h - the main job (run.c): every input through the serial run or the pipeline,
 * the output committed, the summary printed, the exit status.  CLI-only code: it may
 * print to stderr and decides the exit status.
 *
 * Calls go one way: run.c -> pipeline.c -> work.c (and run.c -> work.c).  The headers
 * of the layers below are included here for the files that want all of them.
 */
#ifndef PGNKIT_CLI_RUN_H
#define PGNKIT_CLI_RUN_H

#include "cli/config.h"
#include "cli/pipeline.h"
#include "cli/progress.h"
#include "cli/summary.h"
#include "cli/work.h"

/* Run the whole job; returns the exit status. */
int run(const struct config *cfg);

#endif
