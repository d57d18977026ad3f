/*
 * summary_json.c - mergeable summaries.  --summary-json FILE writes a run's counts as one
 * JSON object; `pgnkit summary FILE...` reads such objects, adds them up (per file too),
 * prints the usual summary and applies the usual exit status to the sum.  The pieces of
 * a job run anywhere (ranges of a file, files of a dump) thus give one report.
 *
 * The object: {"games", "written", "dropped": {invalid, duplicate, not_selected},
 * "by_status": {ok, warnings, errors, skipped}, "by_code": {CODE: n for the codes seen},
 * "plies", "bytes", "error_diags", "warning_diags", "seconds",
 * "files": [{"name", "range": null or [START, END or null], the same counts}]}.
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
    buf_putc(&b, '{');
    put_stats(&b, &s->total);
    buf_printf(&b, ",\"seconds\":%.3f,\"files\":[", s->seconds);
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
        put_stats(&b, &s->files[i].stats);
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

struct piece {
    uint64_t start, end; /* [start, end); a whole-file run: [0, UINT64_MAX) */
    bool whole;
    const char *from;    /* the summary file it came from */
};

struct merged_file {
    char *name;
    struct run_stats stats;
    struct piece *pieces;
    size_t piece_count, piece_cap;
};

struct merge {
    struct summary sum;
    struct merged_file *files;
    size_t file_count, file_cap;
};

static bool read_stats(const struct jval *o, struct run_stats *st, const char **why)
{
    static const char *const counts[] = {"games", "plies", "bytes"};
    uint64_t *fields[] = {&st->games, &st->plies, &st->bytes};
    for (int k = 0; k < 3; k++) {
        const struct jval *v = json_get(o, counts[k]);
        if (!v || v->type != J_NUM) {
            *why = counts[k];
            return false;
        }
        *fields[k] = v->u;
    }
    const struct jval *v = json_get(o, "error_diags");
    st->error_diags = v && v->type == J_NUM ? v->u : 0;
    v = json_get(o, "warning_diags");
    st->warning_diags = v && v->type == J_NUM ? v->u : 0;
    /* Summaries written before "written" and "dropped" existed: every game written. */
    v = json_get(o, "written");
    st->written = v && v->type == J_NUM ? v->u : st->games;
    const struct jval *dr = json_get(o, "dropped");
    for (int i = 0; i < DROP_REASON_COUNT; i++) {
        v = dr && dr->type == J_OBJ ? json_get(dr, drop_reason_keys[i]) : NULL;
        st->dropped[i] = v && v->type == J_NUM ? v->u : 0;
    }
    const struct jval *bs = json_get(o, "by_status");
    if (!bs || bs->type != J_OBJ) {
        *why = "by_status";
        return false;
    }
    for (int i = 0; i < 4; i++) {
        v = json_get(bs, status_keys[i]);
        st->by_status[i] = v && v->type == J_NUM ? v->u : 0;
    }
    const struct jval *bc = json_get(o, "by_code");
    if (!bc || bc->type != J_OBJ) {
        *why = "by_code";
        return false;
    }
    for (size_t i = 0; i < bc->count; i++)
        for (int c = 0; c < DIAG_CODE_COUNT; c++)
            if (strcmp(bc->keys[i], diag_code_name((enum diag_code)c)) == 0)
                st->by_code[c] += bc->items[i].u;
    return true;
}

static struct merged_file *file_named(struct merge *m, const char *name)
{
    for (size_t i = 0; i < m->file_count; i++)
        if (strcmp(m->files[i].name, name) == 0)
            return &m->files[i];
    xgrow((void **)&m->files, &m->file_cap, m->file_count + 1, sizeof *m->files);
    struct merged_file *f = &m->files[m->file_count++];
    memset(f, 0, sizeof *f);
    f->name = xstrndup(name, strlen(name));
    return f;
}

/* Add one piece of f; -1 after saying which earlier piece covers the same bytes. */
static int add_piece(struct merged_file *f, struct piece p)
{
    for (size_t i = 0; i < f->piece_count; i++) {
        const struct piece *q = &f->pieces[i];
        bool overlap = p.whole || q->whole || (p.start < q->end && q->start < p.end);
        if (!overlap)
            continue;
        fprintf(stderr, "pgnkit: summary: %s and %s both cover bytes of %s (%s overlap): each "
                        "part of a file may be counted once\n", shown(q->from), shown(p.from), shown(f->name),
                p.whole || q->whole ? "a whole-file run and another run" : "ranges that");
        return -1;
    }
    xgrow((void **)&f->pieces, &f->piece_cap, f->piece_count + 1, sizeof *f->pieces);
    f->pieces[f->piece_count++] = p;
    return 0;
}

static int merge_file_entry(struct merge *m, const struct jval *e, const char *from)
{
    const struct jval *name = json_get(e, "name"), *range = json_get(e, "range");
    struct run_stats st;
    memset(&st, 0, sizeof st);
    const char *why = NULL;
    if (!name || name->type != J_STR || !read_stats(e, &st, &why)) {
        fprintf(stderr, "pgnkit: summary: %s: a files entry lacks \"%s\"\n", shown(from),
                why ? why : "name");
        return -1;
    }
    struct piece p = {.start = 0, .end = UINT64_MAX, .whole = true, .from = from};
    if (range && range->type == J_ARR && range->count == 2) {
        p.whole = false;
        p.start = range->items[0].u;
        p.end = range->items[1].type == J_NULL ? UINT64_MAX : range->items[1].u;
    }
    struct merged_file *f = file_named(m, name->str);
    /* An empty range covers no bytes: it overlaps nothing. */
    if ((p.whole || p.start < p.end) && add_piece(f, p) != 0)
        return -1;
    run_stats_add(&f->stats, &st);
    return 0;
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
    struct jval root;
    const char *bad = json_parse(b.data ? b.data : "", b.len, &root);
    int rc = -1;
    const char *why = NULL;
    struct run_stats st;
    memset(&st, 0, sizeof st);
    if (bad || root.type != J_OBJ) {
        fprintf(stderr, "pgnkit: summary: %s is no summary object: %s\n", shown(path),
                bad ? bad : "not a JSON object");
    } else if (!read_stats(&root, &st, &why)) {
        fprintf(stderr, "pgnkit: summary: %s lacks \"%s\" (not written by --summary-json?)\n",
                shown(path), why);
    } else {
        const struct jval *secs = json_get(&root, "seconds"), *files = json_get(&root, "files");
        rc = 0;
        for (size_t i = 0; files && files->type == J_ARR && i < files->count && rc == 0; i++)
            rc = merge_file_entry(m, &files->items[i], path);
        if (rc == 0) {
            run_stats_add(&m->sum.total, &st);
            m->sum.seconds += secs && secs->type == J_NUM ? secs->num : 0;
        }
    }
    json_free(&root);
    buf_release(&b);
    return rc;
}

static void merge_release(struct merge *m)
{
    for (size_t i = 0; i < m->file_count; i++) {
        free(m->files[i].name);
        free(m->files[i].pieces);
    }
    free(m->files);
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
         "add up the --summary-json objects of runs over parts of a job (ranges, files)\n"
         "\n"
         "options:\n"
         "  -f, --format FMT               text (the per-file report and the summary line,\n"
         "                                 on stderr) or json (one summary object, stdout)\n"
         "      --fail-on LEVEL            error (default) or warning sets exit status 1\n"
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
            if (!val || (strcmp(val, "warning") != 0 && strcmp(val, "error") != 0)) {
                free(paths);
                return summary_usage("--fail-on is 'warning' or 'error', not '%s'",
                                     val ? val : "");
            }
            cfg.fail_on = strcmp(val, "warning") == 0 ? FAIL_ON_WARNING : FAIL_ON_ERROR;
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
    if (status == 0) {
        for (size_t i = 0; i < m.file_count; i++) {
            xgrow((void **)&m.sum.files, &m.sum.file_cap, m.sum.file_count + 1,
                  sizeof *m.sum.files);
            m.sum.files[m.sum.file_count++] =
                (struct summary_file){.name = m.files[i].name, .stats = m.files[i].stats};
        }
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
