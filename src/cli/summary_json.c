/*
 * summary_json.c - mergeable summaries.  --summary-json FILE writes a run's counts as one
 * JSON object; `pgnkit summary FILE...` reads such objects, adds them up (per file too),
 * prints the usual summary and applies the usual exit status to the sum.  The pieces of
 * a job run anywhere (ranges of a file, files of a dump) thus give one report.
 *
 * The object: {"schema": 1, "games", "written", "dropped": {invalid, duplicate,
 * not_selected}, "by_status": {ok, warnings, errors, skipped}, "by_code": {CODE: n for
 * the codes seen}, "plies", "bytes", "error_diags", "warning_diags", "seconds" (wall),
 * "cpu_seconds" (user + system), "started", "ended" (Unix times, or null), "stopped"
 * (null, or why the run did not read all its input: summary_end_keys),
 * "files": [{"name", "range": null or [START, END or null], the same counts}]}.
 * A merge's wall time is the first start to the last end (pieces run side by side do
 * not add up), its CPU time the sum; a piece without timestamps (written before they
 * existed) makes it the longest piece's seconds.
 * Merging refuses (exit 2) pieces that cover the same bytes of a file twice: two ranges
 * that overlap, or a whole-file run and anything else of the same name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/json_read.h"
#include "cli/output.h"
#include "cli/summary.h"
#include "cli/shown.h"
#include "write/writer.h"
#include "base/xalloc.h"

static const char *const status_keys[4] = {"ok", "warnings", "errors", "skipped"};

/* ---- writing ---- */

static void put_stats(struct buf *b, const struct run_stats *st)
{
    buf_printf(b, "\"games\":%llu,\"written\":%llu,\"dropped\":{", (unsigned long long)st->games,
               (unsigned long long)st->written);
    for (int i = 0; i < DROP_REASON_COUNT; i++)
        buf_printf(b, "%s\"%s\":%llu", i ? "," : "", drop_reason_keys[i],
                   (unsigned long long)st->dropped[i]);
    buf_puts(b, "},\"by_status\":{");
    for (int i = 0; i < 4; i++)
        buf_printf(b, "%s\"%s\":%llu", i ? "," : "", status_keys[i],
                   (unsigned long long)st->by_status[i]);
    buf_puts(b, "},\"by_code\":{");
    for (int c = 0, first = 1; c < DIAG_CODE_COUNT; c++) {
        if (!st->by_code[c])
            continue;
        buf_printf(b, "%s\"%s\":%llu", first ? "" : ",", diag_code_name((enum diag_code)c),
                   (unsigned long long)st->by_code[c]);
        first = 0;
    }
    buf_printf(b, "},\"plies\":%llu,\"bytes\":%llu,\"error_diags\":%llu,\"warning_diags\":%llu",
               (unsigned long long)st->plies, (unsigned long long)st->bytes,
               (unsigned long long)st->error_diags, (unsigned long long)st->warning_diags);
}

int summary_write_json(const struct summary *s, const struct config *cfg)
{
    struct buf b;
    buf_init(&b);
    buf_printf(&b, "{\"schema\":%d,", WRITER_JSON_SCHEMA);
    put_stats(&b, &s->total);
    buf_printf(&b, ",\"seconds\":%.3f,\"cpu_seconds\":%.3f", s->seconds, s->cpu_seconds);
    if (s->started > 0 && s->ended > 0)
        buf_printf(&b, ",\"started\":%.3f,\"ended\":%.3f", s->started, s->ended);
    else
        buf_puts(&b, ",\"started\":null,\"ended\":null");
    buf_puts(&b, ",\"stopped\":");
    if (s->end != SUMMARY_WHOLE)
        buf_printf(&b, "\"%s\"", summary_end_keys[s->end]);
    else
        buf_puts(&b, "null");
    buf_puts(&b, ",\"files\":[");
    for (size_t i = 0; i < s->file_count; i++) {
        buf_puts(&b, i ? ",{\"name\":" : "{\"name\":");
        buf_json_string(&b, s->files[i].name, strlen(s->files[i].name));
        if (cfg->range.set && cfg->range.end != UINT64_MAX)
            buf_printf(&b, ",\"range\":[%llu,%llu],", (unsigned long long)cfg->range.start,
                       (unsigned long long)cfg->range.end);
        else if (cfg->range.set)
            buf_printf(&b, ",\"range\":[%llu,null],", (unsigned long long)cfg->range.start);
        else
            buf_puts(&b, ",\"range\":null,");
        put_stats(&b, s->files[i].stats);
        buf_putc(&b, '}');
    }
    buf_puts(&b, "]}\n");
    struct output out;
    int rc = output_open(&out, cfg->summary_json);
    if (rc == 0 && output_flush(&out, &b) != 0)
        rc = -1;
    if (rc == 0)
        rc = output_commit(&out);
    else
        output_abort(&out);
    buf_release(&b);
    return rc;
}

/* ---- merging ---- */

/*
 * Every files entry of every summary is kept as it is read (one entry: its name, its
 * piece of the file and its counts; the JSON tree of a summary is never held whole:
 * json_parse_items), then sorted by name and start: entries of one file are adjacent,
 * their overlaps are between neighbours, and n entries cost n log n (a name looked up
 * in a list and each piece checked against every other was quadratic: 100,000 entries
 * took 301 s).
 */
struct piece {
    uint64_t start, end; /* [start, end); a whole-file run: [0, UINT64_MAX) */
    bool whole;
    const char *from;    /* the summary file it came from */
};

struct entry {
    char *name;
    struct piece piece;
    size_t seq;          /* in reading order: files are reported in their first entry's */
    struct run_stats stats;
};

struct merge {
    struct summary sum;
    struct entry *entries;
    size_t entry_count, entry_cap;
    double first_start, last_end, longest; /* over the pieces read */
    bool untimed;                          /* a piece had no start or end */
};

/* A summary being read: where errors point. */
struct reading {
    struct merge *m;
    const char *path, *text;
};

/* "pgnkit: summary: PATH:LINE: " then the message. */
static void reading_error(const struct reading *r, const struct jval *at, const char *fmt,
                          const char *what)
{
    fprintf(stderr, "pgnkit: summary: %s:%zu: ", shown(r->path),
            json_line_of(r->text, at ? at->at : 0));
    fprintf(stderr, fmt, what);
    fputc('\n', stderr);
}

/* A count: a whole number from 0 to 2^64 - 1 (-1, 1.5, 1e3 or 2^64 are none). */
static bool read_count(const struct reading *r, const struct jval *v, const char *key,
                       uint64_t *out)
{
    if (v->type != J_NUM || !v->whole) {
        reading_error(r, v, "\"%s\" is not a count (a whole number from 0 to 2^64 - 1)", key);
        return false;
    }
    *out = v->u;
    return true;
}

/* An optional count: absent is dflt. */
static bool read_count_or(const struct reading *r, const struct jval *o, const char *key,
                          uint64_t dflt, uint64_t *out)
{
    const struct jval *v = o && o->type == J_OBJ ? json_get(o, key) : NULL;
    *out = dflt;
    return !v || read_count(r, v, key, out);
}

/* The counts of object o; false after saying why (a key lacking sets *lacks instead). */
static bool read_stats(const struct reading *r, const struct jval *o, struct run_stats *st,
                       const char **lacks)
{
    static const char *const counts[] = {"games", "plies", "bytes"};
    uint64_t *fields[] = {&st->games, &st->plies, &st->bytes};
    for (int k = 0; k < 3; k++) {
        const struct jval *v = json_get(o, counts[k]);
        if (!v) {
            *lacks = counts[k];
            return false;
        }
        if (!read_count(r, v, counts[k], fields[k]))
            return false;
    }
    if (!read_count_or(r, o, "error_diags", 0, &st->error_diags) ||
        !read_count_or(r, o, "warning_diags", 0, &st->warning_diags) ||
        /* Summaries written before "written" and "dropped" existed: every game written. */
        !read_count_or(r, o, "written", st->games, &st->written))
        return false;
    const struct jval *dr = json_get(o, "dropped");
    for (int i = 0; i < DROP_REASON_COUNT; i++)
        if (!read_count_or(r, dr, drop_reason_keys[i], 0, &st->dropped[i]))
            return false;
    const struct jval *bs = json_get(o, "by_status");
    if (!bs || bs->type != J_OBJ) {
        *lacks = "by_status";
        return false;
    }
    for (int i = 0; i < 4; i++)
        if (!read_count_or(r, bs, status_keys[i], 0, &st->by_status[i]))
            return false;
    const struct jval *bc = json_get(o, "by_code");
    if (!bc || bc->type != J_OBJ) {
        *lacks = "by_code";
        return false;
    }
    for (size_t i = 0; i < bc->count; i++) {
        uint64_t n;
        if (!read_count(r, &bc->items[i], bc->keys[i], &n))
            return false;
        for (int c = 0; c < DIAG_CODE_COUNT; c++)
            if (strcmp(bc->keys[i], diag_code_name((enum diag_code)c)) == 0)
                st->by_code[c] += n;
    }
    return true;
}

/* to += from, false when a count would pass 2^64 - 1 (to is then unchanged). */
_Static_assert(sizeof(struct run_stats) % sizeof(uint64_t) == 0, "run_stats: counts only");
static bool stats_add_checked(struct run_stats *to, const struct run_stats *from)
{
    enum { N = sizeof(struct run_stats) / sizeof(uint64_t) };
    uint64_t a[N], b[N];
    memcpy(a, to, sizeof a);
    memcpy(b, from, sizeof b);
    for (size_t i = 0; i < N; i++)
        if (__builtin_add_overflow(a[i], b[i], &a[i]))
            return false;
    memcpy(to, a, sizeof a);
    return true;
}

/* The range of a files entry: null (a whole-file run) or [START, END or null], START <=
 * END. */
static bool read_range(const struct reading *r, const struct jval *range, struct piece *p)
{
    if (!range || range->type == J_NULL)
        return true;
    uint64_t start, end = UINT64_MAX;
    if (range->type != J_ARR || range->count != 2) {
        reading_error(r, range, "%s", "\"range\" is not null nor [START, END or null]");
        return false;
    }
    if (!read_count(r, &range->items[0], "range", &start) ||
        (range->items[1].type != J_NULL && !read_count(r, &range->items[1], "range", &end)))
        return false;
    if (end < start) {
        reading_error(r, range, "%s", "\"range\" is reversed: END is before START");
        return false;
    }
    *p = (struct piece){.start = start, .end = end, .whole = false, .from = r->path};
    return true;
}

/* One files entry, as json_parse_items hands it: nonzero after saying why it is bad. */
static int merge_file_entry(void *ctx, const struct jval *e)
{
    const struct reading *r = ctx;
    struct merge *m = r->m;
    const struct jval *name = json_get(e, "name");
    struct run_stats st;
    memset(&st, 0, sizeof st);
    const char *lacks = NULL;
    if (!name || name->type != J_STR || !read_stats(r, e, &st, &lacks)) {
        if (lacks || !name || name->type != J_STR)
            reading_error(r, e, "a files entry lacks \"%s\"", lacks ? lacks : "name");
        return -1;
    }
    struct piece p = {.start = 0, .end = UINT64_MAX, .whole = true, .from = r->path};
    if (!read_range(r, json_get(e, "range"), &p))
        return -1;
    xgrow((void **)&m->entries, &m->entry_cap, m->entry_count + 1, sizeof *m->entries);
    struct entry *en = &m->entries[m->entry_count];
    *en = (struct entry){.name = xstrndup(name->str, strlen(name->str)), .piece = p,
                         .seq = m->entry_count, .stats = st};
    m->entry_count++;
    return 0;
}

/* Whether the summary's "schema" (absent: one written before it existed) is one this
 * pgnkit reads: not a newer one, whose keys may mean something else. */
static bool schema_known(const struct reading *r, const struct jval *root)
{
    const struct jval *v = json_get(root, "schema");
    uint64_t n = 0;
    if (v && !read_count(r, v, "schema", &n))
        return false;
    if (n > WRITER_JSON_SCHEMA) {
        fprintf(stderr, "pgnkit: summary: %s has schema %llu, written by a newer pgnkit: "
                        "this one reads schema %d and before\n",
                shown(r->path), (unsigned long long)n, WRITER_JSON_SCHEMA);
        return false;
    }
    return true;
}

static double number_or(const struct jval *root, const char *key, double dflt)
{
    const struct jval *v = json_get(root, key);
    return v && v->type == J_NUM ? v->num : dflt;
}

/* The piece's time (wall: its start and end, CPU: added up) and whether it stopped
 * before the end of its input, said here: its counts are partial. */
static void merge_time_and_end(struct merge *m, const struct reading *r,
                               const struct jval *root)
{
    double secs = number_or(root, "seconds", 0);
    if (secs > m->longest)
        m->longest = secs;
    m->sum.cpu_seconds += number_or(root, "cpu_seconds", 0);
    double started = number_or(root, "started", 0), ended = number_or(root, "ended", 0);
    if (started <= 0 || ended < started) {
        m->untimed = true;
    } else {
        if (m->first_start == 0 || started < m->first_start)
            m->first_start = started;
        if (ended > m->last_end)
            m->last_end = ended;
    }
    const struct jval *stopped = json_get(root, "stopped");
    if (!stopped || stopped->type == J_NULL)
        return;
    enum summary_end end = SUMMARY_FAILED; /* a reason this pgnkit does not know */
    for (int k = 1; k < SUMMARY_END_COUNT; k++)
        if (stopped->type == J_STR && strcmp(stopped->str, summary_end_keys[k]) == 0)
            end = (enum summary_end)k;
    if (m->sum.end == SUMMARY_WHOLE)
        m->sum.end = end;
    m->sum.stopped_pieces++;
    fprintf(stderr, "pgnkit: summary: %s: that run stopped before the end of its input "
                    "(%s): its counts are partial\n", shown(r->path),
            stopped->type == J_STR ? shown(stopped->str) : "stopped");
}

/* The merged time: wall from the first start to the last end of the pieces. */
static void merge_time_finish(struct merge *m)
{
    m->sum.merged = true;
    if (m->untimed || m->last_end <= 0) {
        m->sum.seconds = m->longest;
        m->sum.started = m->sum.ended = 0;
        return;
    }
    m->sum.started = m->first_start;
    m->sum.ended = m->last_end;
    m->sum.seconds = m->last_end - m->first_start;
}

static int merge_one(struct merge *m, const char *path)
{
    size_t len = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "pgnkit: summary: cannot open %s: %s\n", shown(path), strerror(errno));
        return -1;
    }
    struct buf b;
    buf_init(&b);
    char chunk[65536];
    while ((len = fread(chunk, 1, sizeof chunk, fp)) > 0)
        buf_append(&b, chunk, len);
    fclose(fp);
    const char *text = b.data ? b.data : "";
    struct reading r = {m, path, text};
    struct jval root;
    size_t entries_before = m->entry_count;
    const char *bad = json_parse_items(text, b.len, &root, "files", merge_file_entry, &r);
    int rc = -1;
    const char *lacks = NULL;
    struct run_stats st;
    memset(&st, 0, sizeof st);
    if (bad && !*bad) {
        /* a files entry said why */
    } else if (bad || root.type != J_OBJ) {
        fprintf(stderr, "pgnkit: summary: %s is no summary object: %s\n", shown(path),
                bad ? bad : "not a JSON object");
    } else if (!schema_known(&r, &root)) {
        /* said why */
    } else if (!read_stats(&r, &root, &st, &lacks)) {
        if (lacks)
            fprintf(stderr, "pgnkit: summary: %s lacks \"%s\" (not written by --summary-json?)\n",
                    shown(path), lacks);
    } else if (!stats_add_checked(&m->sum.total, &st)) {
        fprintf(stderr, "pgnkit: summary: %s: the counts add up past 2^64 - 1\n", shown(path));
    } else {
        merge_time_and_end(m, &r, &root);
        rc = 0;
    }
    if (rc != 0) /* none of a bad summary's entries count */
        while (m->entry_count > entries_before)
            free(m->entries[--m->entry_count].name);
    json_free(&root);
    buf_release(&b);
    return rc;
}

static int by_name_start(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    if (x->piece.start != y->piece.start)
        return x->piece.start < y->piece.start ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* -1 after saying which two pieces cover the same bytes of name (earlier one first). */
static int overlap_error(const char *name, const struct entry *a, const struct entry *b)
{
    if (a->seq > b->seq) {
        const struct entry *t = a;
        a = b;
        b = t;
    }
    bool whole = a->piece.whole || b->piece.whole;
    fprintf(stderr, "pgnkit: summary: %s and %s both cover bytes of %s (%s overlap): each "
                    "part of a file may be counted once\n", shown(a->piece.from),
            shown(b->piece.from), shown(name),
            whole ? "a whole-file run and another run" : "ranges that");
    return -1;
}

struct file_order {
    size_t first_seq, entry; /* the first entry of a file, by reading order */
};

static int by_seq(const void *a, const void *b)
{
    const struct file_order *x = a, *y = b;
    return x->first_seq < y->first_seq ? -1 : x->first_seq > y->first_seq;
}

/* The entries added up per file, in the order files were first met; -1 on an overlap
 * or a count past 2^64 - 1. */
static int merge_entries(struct merge *m)
{
    qsort(m->entries, m->entry_count, sizeof *m->entries, by_name_start);
    struct file_order *order = xcalloc(m->entry_count + 1, sizeof *order);
    size_t files = 0;
    int rc = 0;
    for (size_t i = 0; i < m->entry_count && rc == 0;) {
        size_t j = i;
        const struct entry *last = NULL; /* the covering piece reaching furthest */
        order[files] = (struct file_order){m->entries[i].seq, i};
        for (; j < m->entry_count && strcmp(m->entries[j].name, m->entries[i].name) == 0; j++) {
            const struct entry *e = &m->entries[j];
            if (e->seq < order[files].first_seq)
                order[files].first_seq = e->seq;
            if (j > i && !stats_add_checked(&m->entries[i].stats, &e->stats)) {
                fprintf(stderr, "pgnkit: summary: the counts of %s add up past 2^64 - 1\n",
                        shown(e->name));
                rc = -1;
                break;
            }
            /* An empty range covers no bytes: it overlaps nothing. */
            if (!e->piece.whole && e->piece.start == e->piece.end)
                continue;
            if (last && (e->piece.whole || last->piece.whole || e->piece.start < last->piece.end)) {
                rc = overlap_error(e->name, last, e);
                break;
            }
            if (!last || e->piece.end > last->piece.end)
                last = e;
        }
        files++;
        i = j;
    }
    if (rc == 0) {
        qsort(order, files, sizeof *order, by_seq);
        for (size_t k = 0; k < files; k++) {
            const struct entry *e = &m->entries[order[k].entry];
            xgrow((void **)&m->sum.files, &m->sum.file_cap, m->sum.file_count + 1,
                  sizeof *m->sum.files);
            m->sum.files[m->sum.file_count++] =
                (struct summary_file){.name = e->name, .stats = &e->stats};
        }
    }
    free(order);
    return rc;
}

static void merge_release(struct merge *m)
{
    for (size_t i = 0; i < m->entry_count; i++)
        free(m->entries[i].name);
    free(m->entries);
    free(m->sum.files);
}

/* ---- pgnkit summary ---- */

static int summary_usage(const char *fmt, const char *arg)
{
    fputs("pgnkit: summary: ", stderr);
    fprintf(stderr, fmt, shown(arg));
    fputs(" (try 'pgnkit summary --help')\n", stderr);
    return 2;
}

static void summary_help(void)
{
    puts("usage: pgnkit summary [OPTIONS] FILE...\n"
         "add up the --summary-json objects of runs over parts of a job (ranges, files):\n"
         "the counts, the wall time of the whole (first start to last end), the CPU time\n"
         "added up; pieces that stopped early (| head, --stop-after) are named\n"
         "\n"
         "options:\n"
         "  -f, --format FMT               text (the per-file report and the summary line,\n"
         "                                 on stderr) or json (one summary object, stdout)\n"
         "      --fail-on LEVEL            error (default), warning or none: what sets exit status 1\n"
         "  -h, --help                     this text");
}

int cmd_summary(int argc, char **argv)
{
    bool json = false;
    struct config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.command = CMD_CHECK;
    cfg.summary = true;
    const char **paths = xcalloc((size_t)argc + 1, sizeof *paths);
    size_t npaths = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            summary_help();
            free(paths);
            return 0;
        } else if (strcmp(a, "--format") == 0 || strcmp(a, "-f") == 0) {
            if (!val || (strcmp(val, "json") != 0 && strcmp(val, "text") != 0)) {
                free(paths);
                return summary_usage("--format is text or json, not '%s'", val ? val : "");
            }
            json = strcmp(val, "json") == 0;
            i++;
        } else if (strcmp(a, "--fail-on") == 0) {
            if (!val || (strcmp(val, "warning") != 0 && strcmp(val, "error") != 0 &&
                         strcmp(val, "none") != 0)) {
                free(paths);
                return summary_usage("--fail-on is 'warning', 'error' or 'none', not '%s'",
                                     val ? val : "");
            }
            cfg.fail_on = strcmp(val, "warning") == 0 ? FAIL_ON_WARNING
                        : strcmp(val, "none") == 0    ? FAIL_ON_NONE
                                                      : FAIL_ON_ERROR;
            i++;
        } else if (a[0] == '-' && a[1]) {
            free(paths);
            return summary_usage("unknown option '%s'", a);
        } else {
            paths[npaths++] = a;
        }
    }
    if (!npaths) {
        free(paths);
        return summary_usage("%s", "no summary files given");
    }
    struct merge m;
    memset(&m, 0, sizeof m);
    int status = 0;
    for (size_t i = 0; i < npaths && status == 0; i++)
        if (merge_one(&m, paths[i]) != 0)
            status = 2;
    if (status == 0 && merge_entries(&m) != 0)
        status = 2;
    merge_time_finish(&m);
    if (status == 0) {
        if (json) {
            cfg.summary_json = "-";
            if (summary_write_json(&m.sum, &cfg) != 0)
                status = 2;
        } else {
            summary_print(&m.sum, &cfg);
        }
        if (status == 0)
            status = run_exit_status(&cfg, &m.sum.total, 0);
    }
    merge_release(&m);
    free(paths);
    return status;
}
