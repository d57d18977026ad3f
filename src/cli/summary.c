/*
 * summary.c - the counts printed on stderr at the end: one line by default, a per-file
 * and per-code report with the first examples of each code under --summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/summary.h"
#include "cli/shown.h"
#include "base/xalloc.h"

const struct run_stats summary_zero_stats;

const char *const drop_reason_names[DROP_REASON_COUNT] = {"invalid", "duplicate", "not selected"};
const char *const drop_reason_keys[DROP_REASON_COUNT] = {"invalid", "duplicate", "not_selected"};
const char *const summary_end_keys[SUMMARY_END_COUNT] = {NULL, "output_closed", "error",
                                                         "stop_after", "max_errors"};

void summary_note_example(struct summary_examples *ex, const struct pgn_game *g,
                          const struct diag *d)
{
    if (ex->count[d->code] >= SUMMARY_EXAMPLES)
        return;
    struct buf b;
    buf_init(&b);
    writer_diag_text(&b, g, d);
    ex->text[d->code][ex->count[d->code]++] = b.data;
}

void summary_note_examples(struct summary_examples *ex, const struct game_record *rec)
{
    for (size_t i = 0; i < rec->diags.count; i++)
        summary_note_example(ex, rec->game, &rec->diags.items[i]);
}

void summary_examples_release(struct summary_examples *ex)
{
    for (int c = 0; c < DIAG_CODE_COUNT; c++)
        for (int k = 0; k < ex->count[c]; k++)
            free(ex->text[c][k]);
    memset(ex, 0, sizeof *ex);
}

void run_stats_add(struct run_stats *to, const struct run_stats *from)
{
    to->games += from->games;
    to->written += from->written;
    for (int i = 0; i < DROP_REASON_COUNT; i++)
        to->dropped[i] += from->dropped[i];
    for (int i = 0; i < 4; i++)
        to->by_status[i] += from->by_status[i];
    to->plies += from->plies;
    to->bytes += from->bytes;
    to->error_diags += from->error_diags;
    to->warning_diags += from->warning_diags;
    for (int c = 0; c < DIAG_CODE_COUNT; c++)
        to->by_code[c] += from->by_code[c];
}

static void stats_sub(struct run_stats *to, const struct run_stats *from)
{
    to->games -= from->games;
    to->written -= from->written;
    for (int i = 0; i < DROP_REASON_COUNT; i++)
        to->dropped[i] -= from->dropped[i];
    for (int i = 0; i < 4; i++)
        to->by_status[i] -= from->by_status[i];
    to->plies -= from->plies;
    to->bytes -= from->bytes;
    to->error_diags -= from->error_diags;
    to->warning_diags -= from->warning_diags;
    for (int c = 0; c < DIAG_CODE_COUNT; c++)
        to->by_code[c] -= from->by_code[c];
}

void summary_init(struct summary *s, const struct config *cfg)
{
    (void)cfg;
    memset(s, 0, sizeof *s);
}

void summary_merge(struct summary *s, const struct run_stats *stats,
                   const struct summary_examples *ex)
{
    run_stats_add(&s->total, stats);
    for (int c = 0; c < DIAG_CODE_COUNT; c++)
        for (int k = 0; k < ex->count[c] && s->examples.count[c] < SUMMARY_EXAMPLES; k++)
            s->examples.text[c][s->examples.count[c]++] = xstrndup(ex->text[c][k],
                                                                    strlen(ex->text[c][k]));
}

void summary_add_file(struct summary *s, const char *name, uint64_t bytes)
{
    s->total.bytes += bytes;
    xgrow((void **)&s->files, &s->file_cap, s->file_count + 1, sizeof *s->files);
    struct summary_file *f = &s->files[s->file_count++];
    f->name = name;
    struct run_stats st = s->total;
    stats_sub(&st, &s->file_start);
    s->file_start = s->total;
    f->stats = &summary_zero_stats;
    if (memcmp(&st, &summary_zero_stats, sizeof st) != 0) {
        struct run_stats *kept = xmalloc(sizeof *kept);
        *kept = st;
        f->stats = kept;
    }
}

/* "; 12 written, 3 dropped (2 invalid, 1 duplicate, 0 not selected)": where the games
 * went, when an option drops some (or a merged summary dropped some).  check writes no
 * games: its word is "kept". */
static void print_routing(const struct run_stats *st, const struct config *cfg)
{
    uint64_t dropped = 0;
    for (int i = 0; i < DROP_REASON_COUNT; i++)
        dropped += st->dropped[i];
    if (!cfg->skip_invalid && !cfg->invalid_to && !cfg->dedupe && !cfg->select && !dropped)
        return;
    dropped = 0;
    for (int i = 0; i < DROP_REASON_COUNT; i++)
        dropped += st->dropped[i];
    fprintf(stderr, "; %llu %s, %llu dropped (", (unsigned long long)st->written,
            cfg->command == CMD_CHECK ? "kept" : "written", (unsigned long long)dropped);
    const char *sep = "";
    for (int i = 0; i < DROP_REASON_COUNT; i++) {
        fprintf(stderr, "%s%llu %s", sep, (unsigned long long)st->dropped[i],
                drop_reason_names[i]);
        sep = ", ";
    }
    fputc(')', stderr);
}

/* "1 game", "2 games": the noun for a count. */
static const char *noun(uint64_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

/* " in 1.20 s wall, 2.31 s CPU (45.6 MB/s)": both named, since they differ (--jobs, and
 * pieces run side by side); the speed is of the wall time. */
static void print_time(const struct summary *s)
{
    fprintf(stderr, " in %.2f s wall, %.2f s CPU (%.1f MB/s)", s->seconds, s->cpu_seconds,
            s->seconds > 0 ? (double)s->total.bytes / 1e6 / s->seconds : 0.0);
}

static void print_counts(const char *label, const struct run_stats *st,
                         const struct summary *timed, const struct config *cfg)
{
    fprintf(stderr,
            "%s: %llu %s: %llu ok, %llu with warnings, %llu with errors, %llu skipped; "
            "%llu %s; %llu %s",
            label, (unsigned long long)st->games, noun(st->games, "game", "games"),
            (unsigned long long)st->by_status[GAME_CLEAN],
            (unsigned long long)st->by_status[GAME_WARNINGS],
            (unsigned long long)st->by_status[GAME_ERRORS],
            (unsigned long long)st->by_status[GAME_SKIPPED], (unsigned long long)st->plies,
            noun(st->plies, "ply", "plies"), (unsigned long long)st->bytes,
            noun(st->bytes, "byte", "bytes"));
    print_routing(st, cfg);
    if (timed && timed->seconds > 0)
        print_time(timed);
    fputc('\n', stderr);
}

/* The run's line, and what it does not count when the run did not read everything. */
static void print_total(const struct summary *s, const struct config *cfg)
{
    if (s->end == SUMMARY_FAILED && s->total.games == 0)
        return; /* "0 games" under an error would read as an empty input */
    print_counts("pgnkit", &s->total, s, cfg);
    if (s->merged && s->stopped_pieces)
        fprintf(stderr, "pgnkit: summary: %zu of the pieces stopped before the end of their "
                        "input: these counts are not of the whole job\n", s->stopped_pieces);
    else if (s->end == SUMMARY_OUTPUT_CLOSED)
        fprintf(stderr, "pgnkit: the output was closed: these are the counts so far, "
                        "not of the whole input\n");
    else if (s->end == SUMMARY_FAILED)
        fprintf(stderr, "pgnkit: the error above ended or marred the run: these counts "
                        "may not cover every input\n");
}

static void print_report(const struct summary *s, const struct config *cfg)
{
    for (size_t i = 0; i < s->file_count; i++)
        print_counts(shown(s->files[i].name), s->files[i].stats, NULL, cfg);
    for (int c = 0; c < DIAG_CODE_COUNT; c++) {
        if (!s->total.by_code[c])
            continue;
        fprintf(stderr, "%-24s %10llu  %s\n", diag_code_name((enum diag_code)c),
                (unsigned long long)s->total.by_code[c],
                diag_code_description((enum diag_code)c));
        for (int k = 0; k < s->examples.count[c]; k++)
            fprintf(stderr, "    %s", s->examples.text[c][k]);
    }
}

void summary_print(const struct summary *s, const struct config *cfg)
{
    if (cfg->summary)
        print_report(s, cfg);
    if (cfg->summary || (!cfg->quiet && cfg->command == CMD_CHECK))
        print_total(s, cfg);
}

void summary_release(struct summary *s)
{
    summary_examples_release(&s->examples);
    for (size_t i = 0; i < s->file_count; i++)
        if (s->files[i].stats != &summary_zero_stats)
            free((void *)s->files[i].stats);
    free(s->files);
}

int run_exit_status(const struct config *cfg, const struct run_stats *s, int io_status)
{
    if (io_status == 2)
        return 2;
    if (cfg->fail_on == FAIL_ON_NONE)
        return 0;
    if (s->by_status[GAME_ERRORS] || s->by_status[GAME_SKIPPED])
        return 1;
    if (cfg->fail_on == FAIL_ON_WARNING && s->by_status[GAME_WARNINGS])
        return 1;
    return 0;
}
