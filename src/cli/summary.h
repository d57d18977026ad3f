/*
 * summary.h - the run's counts (games in = clean + with warnings + with errors +
 * skipped; = written + dropped), the first examples of each diagnostic code, the report
 * printed at the end (summary.c), its JSON form (summary_json.c) and the exit status
 * the counts make.  Plain data and functions over it: no threads, no reading.
 */
#ifndef PGNKIT_CLI_SUMMARY_H
#define PGNKIT_CLI_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/config.h"
#include "cli/encoding_note.h"
#include "game/game.h"

/* Why a game read is not written: counted per reason (route.c decides). */
enum drop_reason { DROP_INVALID = 0, DROP_DUPLICATE, DROP_NOT_SELECTED, DROP_REASON_COUNT };

/* "invalid", "duplicate", "not selected": the words of the summary; and the keys of
 * --summary-json ("not_selected"). */
extern const char *const drop_reason_names[DROP_REASON_COUNT];
extern const char *const drop_reason_keys[DROP_REASON_COUNT];

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

/* A file's counts are kept only when it has any (an archive of 160,000 empty members
 * kept ~450 bytes of zeros each): stats points at summary_zero_stats otherwise.  A run's
 * summary owns the others (summary_release); a merged one borrows them. */
struct summary_file {
    const char *name;
    const struct run_stats *stats;
};
extern const struct run_stats summary_zero_stats;

/* Whether the counts are a whole run's: the summary line says when they are not, and
 * --summary-json's "stopped" (summary_end_keys: null for a whole run).  A signal leaves
 * no summary at all (the temporary file is removed): none can pass for a whole run. */
enum summary_end {
    SUMMARY_WHOLE = 0,     /* every input read to its end */
    SUMMARY_OUTPUT_CLOSED, /* the output's reader went away (| head): counts so far */
    SUMMARY_FAILED,        /* an I/O failure (said above it) ended or marred the run */
    SUMMARY_STOP_AFTER,    /* --stop-after N games written: the rest not read */
    SUMMARY_MAX_ERRORS,    /* --max-errors N reached: the rest not read */
    SUMMARY_END_COUNT
};
/* "output_closed", "error", "stop_after", "max_errors" (NULL for SUMMARY_WHOLE). */
extern const char *const summary_end_keys[SUMMARY_END_COUNT];

struct summary {
    enum summary_end end;
    struct run_stats total;
    struct run_stats file_start; /* totals when the current file began */
    struct summary_examples examples;
    struct encoding_note encoding; /* the current file's first ENCODING warning */
    struct summary_file *files;
    size_t file_count, file_cap;
    /* Time: wall seconds of the whole (merged: the first start to the last end, or the
     * longest piece when a piece has no timestamps), CPU seconds (user + system, every
     * thread; merged: added up), the Unix times of start and end (0: not known). */
    double seconds, cpu_seconds, started, ended;
    size_t stopped_pieces; /* merged: the pieces whose "stopped" is not null */
    bool merged;
};
void summary_init(struct summary *s, const struct config *cfg);
void summary_merge(struct summary *s, const struct run_stats *stats,
                   const struct summary_examples *ex);
void summary_add_file(struct summary *s, const char *name, uint64_t bytes);
void summary_print(const struct summary *s, const struct config *cfg);
void summary_release(struct summary *s);

/* The exit status for these counts: 2 when io_status is 2, 1 for games with errors or
 * skipped (with --fail-on warning, warnings too), else 0. */
int run_exit_status(const struct config *cfg, const struct run_stats *s, int io_status);

/* --summary-json: the run's counts as one JSON object into cfg->summary_json ("-":
 * standard output), written atomically.  0, or -1 after saying why. */
int summary_write_json(const struct summary *s, const struct config *cfg);

#endif
