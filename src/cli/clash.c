/* clash.c - outputs that name one file, or an input (clash.h). */
#include "cli/clash.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/output.h"
#include "cli/shown.h"
#include "base/xalloc.h"

/* Where a file not there yet would be: the real path of its directory, and its name
 * (the name as given when the directory cannot be resolved: opening it fails anyway). */
static char *resolve_missing(const char *target)
{
    const char *slash = strrchr(target, '/');
    char *dir = slash ? xstrndup(target, slash == target ? 1 : (size_t)(slash - target))
                      : xstrndup(".", 1);
    char *real = realpath(dir, NULL);
    free(dir);
    if (!real)
        return xstrndup(target, strlen(target));
    const char *name = slash ? slash + 1 : target;
    size_t len = strlen(real) + 1 + strlen(name) + 1;
    char *joined = xmalloc(len);
    snprintf(joined, len, "%s/%s", real, name);
    free(real);
    return joined;
}

/* Fill f for a file that st describes (ok: it exists) or target names. */
static bool fill(struct clash_file *f, bool ok, const struct stat *st, const char *target)
{
    if (ok && !S_ISREG(st->st_mode))
        return false;
    f->exists = ok;
    if (ok) {
        f->dev = st->st_dev;
        f->ino = st->st_ino;
    } else {
        f->resolved = resolve_missing(target);
    }
    return true;
}

/* An output path as output_open() will see it: through its links. */
static bool identify_output(struct clash_file *f, const char *path)
{
    bool magic;
    char *target = output_final_target(path, &magic);
    if (!target)
        return false; /* a link loop: output_open() says so */
    struct stat st;
    bool ok = stat(magic ? path : target, &st) == 0;
    if (magic && !ok) {
        free(target);
        return false;
    }
    bool got = fill(f, ok, &st, target);
    free(target);
    return got;
}

static void add(struct clash *c, size_t *cap, const char *what, const char *path, bool input)
{
    if (!path)
        return;
    xgrow((void **)&c->files, cap, c->count + 1, sizeof *c->files);
    struct clash_file *f = &c->files[c->count];
    memset(f, 0, sizeof *f);
    f->what = what;
    bool std = strcmp(path, "-") == 0;
    f->path = std ? NULL : path;
    struct stat st;
    bool got;
    if (std && input)
        got = fstat(STDIN_FILENO, &st) == 0 && fill(f, true, &st, NULL);
    else if (std)
        got = fstat(STDOUT_FILENO, &st) == 0 && fill(f, true, &st, NULL);
    else if (input)
        got = stat(path, &st) == 0 && fill(f, true, &st, NULL); /* a missing input: input.c */
    else
        got = identify_output(f, path);
    if (got)
        c->count++;
}

void clash_collect(struct clash *c, const struct config *cfg)
{
    memset(c, 0, sizeof *c);
    size_t cap = 0;
    if (!cfg->input_count)
        add(c, &cap, "standard input", "-", true);
    for (size_t i = 0; i < cfg->input_count; i++)
        add(c, &cap, "input", cfg->inputs[i], true);
    c->input_count = c->count;
    if (!cfg->split_games && !cfg->split_by)
        add(c, &cap, cfg->output_path && strcmp(cfg->output_path, "-") ? "-o" : "standard output",
            cfg->output_path ? cfg->output_path : "-", false);
    add(c, &cap, "--invalid-to", cfg->invalid_to, false);
    add(c, &cap, "--duplicates-to", cfg->duplicates_to, false);
    add(c, &cap, "--summary-json", cfg->summary_json, false);
}

static bool same(const struct clash_file *a, const struct clash_file *b)
{
    if (a->exists || b->exists)
        return a->exists && b->exists && a->dev == b->dev && a->ino == b->ino;
    return strcmp(a->resolved, b->resolved) == 0;
}

/* "-o out.pgn", "standard output", "input games.pgn", "standard input". */
static void name_into(char *dst, size_t size, const struct clash_file *f)
{
    if (f->path)
        snprintf(dst, size, "%s %s", f->what, shown(f->path));
    else
        snprintf(dst, size, "%s", f->what);
}

static void report(const struct clash_file *out, const struct clash_file *other, bool input)
{
    char a[PATH_MAX + 32], b[PATH_MAX + 32];
    name_into(a, sizeof a, out);
    name_into(b, sizeof b, other);
    if (input)
        fprintf(stderr, "pgnkit: %s is also the %s: writing it would destroy what is read; "
                        "nothing written\n", a, b);
    else
        fprintf(stderr, "pgnkit: %s and %s are one file: one would replace the other; "
                        "nothing written\n", b, a);
}

/* The first earlier file that f is, or NULL (inputs are not compared with each other). */
static const struct clash_file *first_same(const struct clash *c, const struct clash_file *f,
                                           size_t before)
{
    for (size_t j = 0; j < before; j++)
        if (same(&c->files[j], f))
            return &c->files[j];
    return NULL;
}

int clash_check(const struct clash *c)
{
    for (size_t i = c->input_count; i < c->count; i++) {
        const struct clash_file *other = first_same(c, &c->files[i], i);
        if (other) {
            report(&c->files[i], other, other < c->files + c->input_count);
            return 2;
        }
    }
    return 0;
}

int clash_check_part(const struct clash *c, const char *path)
{
    struct clash_file f;
    memset(&f, 0, sizeof f);
    f.what = "--split file";
    f.path = path;
    if (!identify_output(&f, path))
        return 0;
    const struct clash_file *other = first_same(c, &f, c->count);
    if (other)
        report(&f, other, other < c->files + c->input_count);
    free(f.resolved);
    return other ? -1 : 0;
}

void clash_release(struct clash *c)
{
    for (size_t i = 0; i < c->count; i++)
        free(c->files[i].resolved);
    free(c->files);
    memset(c, 0, sizeof *c);
}
