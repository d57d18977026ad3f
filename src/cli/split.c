/* split.c - games spread over files named by a pattern (split.h). */
#include "cli/split.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/clash.h"
#include "cli/output.h"
#include "cli/shown.h"
#include "base/buf.h"
#include "base/xalloc.h"

enum { VALUE_MAX = 100 };

/* Descriptors --split-by keeps open at most: half the soft `ulimit -n` (the other half
 * for the inputs, the other outputs, libarchive), and no more than this, which is
 * plenty to keep the reopening rare. */
enum { OPEN_FILES_MAX = 512 };

struct split_file {
    char *key;           /* the safe value (--split-by) */
    char *path;
    struct output out;   /* its temporary file, open or parked (output_park) */
    unsigned long long used; /* the clock when last written: the oldest is parked first */
    size_t open_slot;    /* its place in split.open while open */
};

struct split {
    const struct config *cfg;
    struct split_file *files; /* --split: the last one is being written */
    size_t count, cap;
    size_t *table;            /* --split-by: a hash table of index + 1 into files (0: empty) */
    size_t table_cap;         /* a power of two, at most half full */
    size_t *open;             /* the files whose descriptor is open */
    size_t open_count, open_max;
    unsigned long long clock;
    unsigned long long in_current; /* games in the --split file being written */
    struct clash clash;       /* the inputs and other outputs: no file may be one of them */
    bool failed;
};

/* Where the pattern's conversion is: [*start, *end) with its flags. */
static bool find_conversion(const char *pattern, char conversion, size_t *start, size_t *end)
{
    int found = 0;
    for (size_t i = 0; pattern[i]; i++) {
        if (pattern[i] != '%')
            continue;
        if (pattern[i + 1] == '%') {
            i++;
            continue;
        }
        size_t j = i + 1;
        if (conversion == 'd' && pattern[j] == '0')
            j++;
        while (conversion == 'd' && pattern[j] >= '0' && pattern[j] <= '9' && j < i + 4)
            j++;
        if (pattern[j] != conversion)
            return false;
        found++;
        *start = i;
        *end = j + 1;
        i = j;
    }
    return found == 1;
}

bool split_pattern_ok(const char *pattern, char conversion)
{
    size_t a, b;
    return pattern && find_conversion(pattern, conversion, &a, &b);
}

int split_number_width(const char *pattern)
{
    size_t start = 0, end = 0;
    find_conversion(pattern, 'd', &start, &end);
    int width = 0;
    for (size_t i = start + 1; i + 1 < end; i++)
        width = width * 10 + (pattern[i] - '0');
    return width;
}

/* The pattern with its conversion replaced by what (and %% by %). */
static char *make_path(const char *pattern, char conversion, const char *what)
{
    size_t start = 0, end = 0;
    find_conversion(pattern, conversion, &start, &end);
    struct buf b;
    buf_init(&b);
    for (size_t i = 0; pattern[i]; i++) {
        if (i == start) {
            buf_puts(&b, what);
            i = end - 1;
        } else if (pattern[i] == '%' && pattern[i + 1] == '%') {
            buf_putc(&b, '%');
            i++;
        } else {
            buf_putc(&b, pattern[i]);
        }
    }
    return b.data;
}

static char *number_path(const char *pattern, unsigned long long n)
{
    size_t start = 0, end = 0;
    find_conversion(pattern, 'd', &start, &end);
    int width = split_number_width(pattern);
    bool zero = pattern[start + 1] == '0';
    char digits[SPLIT_WIDTH_MAX + 1];
    snprintf(digits, sizeof digits, zero ? "%0*llu" : "%*llu", width, n);
    return make_path(pattern, 'd', digits);
}

static char *safe_value(const char *v, size_t len)
{
    if (!v || !len)
        return xstrndup("unknown", 7);
    if (len > VALUE_MAX)
        len = VALUE_MAX;
    char *s = xstrndup(v, len);
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '-' || c == '+' || c == '_' || (c == '.' && i > 0);
        if (!ok)
            s[i] = '_';
    }
    return s;
}

static size_t open_budget(void)
{
    struct rlimit rl;
    size_t budget = OPEN_FILES_MAX;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur / 2 < budget)
        budget = (size_t)(rl.rlim_cur / 2);
    return budget ? budget : 1;
}

struct split *split_new(const struct config *cfg)
{
    struct split *s = xcalloc(1, sizeof *s);
    s->cfg = cfg;
    s->open_max = cfg->split_by ? open_budget() : 1;
    s->open = xcalloc(s->open_max, sizeof *s->open);
    clash_collect(&s->clash, cfg);
    return s;
}

/* ---- --split-by: the file of each value, by hash ---- */

static size_t hash_key(const char *key)
{
    size_t h = 14695981039346656037u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 1099511628211u;
    return h;
}

/* The slot of key in the table: where it is, or the empty one where it would go. */
static size_t *table_slot(struct split *s, const char *key)
{
    size_t mask = s->table_cap - 1;
    for (size_t i = hash_key(key) & mask;; i = (i + 1) & mask)
        if (!s->table[i] || strcmp(s->files[s->table[i] - 1].key, key) == 0)
            return &s->table[i];
}

/* Room for one more key, the table at most half full. */
static void table_reserve(struct split *s)
{
    if (s->table_cap && (s->count + 1) * 2 <= s->table_cap)
        return;
    free(s->table);
    s->table_cap = s->table_cap ? s->table_cap * 2 : 64;
    s->table = xcalloc(s->table_cap, sizeof *s->table);
    for (size_t i = 0; i < s->count; i++)
        *table_slot(s, s->files[i].key) = i + 1;
}

/* ---- descriptors: the least recently written file parked when none is left ---- */

static void forget_open(struct split *s, struct split_file *f)
{
    size_t last = s->open[--s->open_count];
    s->open[f->open_slot] = last;
    s->files[last].open_slot = f->open_slot;
}

static int park_oldest(struct split *s)
{
    size_t oldest = 0;
    for (size_t i = 1; i < s->open_count; i++)
        if (s->files[s->open[i]].used < s->files[s->open[oldest]].used)
            oldest = i;
    struct split_file *f = &s->files[s->open[oldest]];
    forget_open(s, f);
    return output_park(&f->out);
}

/* A descriptor free for one more open file. */
static int make_room(struct split *s)
{
    if (s->open_count < s->open_max)
        return 0;
    return park_oldest(s);
}

static void note_open(struct split *s, struct split_file *f)
{
    f->open_slot = s->open_count;
    s->open[s->open_count++] = (size_t)(f - s->files);
}

/* ---- opening ---- */

static struct split_file *open_file(struct split *s, char *key, char *path)
{
    struct stat st;
    /* lstat: a dangling symbolic link is a name that exists too. */
    if (!s->cfg->force && lstat(path, &st) == 0) {
        fprintf(stderr, "pgnkit: %s exists%s; --split does not overwrite it without --force\n",
                shown(path), S_ISLNK(st.st_mode) ? " (a symbolic link)" : "");
        goto fail;
    }
    if (clash_check_part(&s->clash, path) != 0 || make_room(s) != 0)
        goto fail;
    xgrow((void **)&s->files, &s->cap, s->count + 1, sizeof *s->files);
    struct split_file *f = &s->files[s->count];
    memset(f, 0, sizeof *f);
    f->key = key;
    f->path = path;
    if (output_open(&f->out, path) != 0)
        goto fail;
    f->out.defer_dir_sync = true; /* split_finish syncs each directory once */
    s->count++;
    note_open(s, f);
    return f;
fail:
    free(key);
    free(path);
    return NULL;
}

/* The --split-by file of value, opened or reopened when needed. */
static struct split_file *file_by_value(struct split *s, const char *value, size_t value_len)
{
    char *key = safe_value(value, value_len);
    table_reserve(s);
    size_t *slot = table_slot(s, key);
    if (!*slot) {
        struct split_file *f = open_file(s, key, make_path(s->cfg->output_path, 's', key));
        if (f)
            *table_slot(s, f->key) = s->count;
        return f;
    }
    free(key);
    struct split_file *f = &s->files[*slot - 1];
    if (f->out.fd < 0) {
        if (make_room(s) != 0 || output_resume(&f->out) != 0)
            return NULL;
        note_open(s, f);
    }
    return f;
}

/* The file for the next game, opened when needed. */
static struct split_file *file_for(struct split *s, const char *value, size_t value_len)
{
    const struct config *cfg = s->cfg;
    if (cfg->split_by)
        return file_by_value(s, value, value_len);
    if (s->count && s->in_current < cfg->split_games)
        return &s->files[s->count - 1];
    /* A full file is parked, not renamed: every file is final only when the run is. */
    s->in_current = 0;
    return open_file(s, NULL, number_path(cfg->output_path, s->count + 1));
}

int split_write(struct split *s, const char *value, size_t value_len, const char *bytes,
                size_t len)
{
    if (s->failed)
        return -1;
    struct split_file *f = file_for(s, value, value_len);
    if (!f) {
        s->failed = true;
        return -1;
    }
    s->in_current++;
    f->used = ++s->clock;
    int rc = output_write(&f->out, bytes, len);
    if (rc != 0)
        s->failed = true;
    return rc;
}

/* Whether a and b are in one directory (the same text before the last '/'). */
static bool same_dir(const char *a, const char *b)
{
    const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
    size_t la = sa ? (size_t)(sa - a) : 0, lb = sb ? (size_t)(sb - b) : 0;
    return la == lb && (!sa) == (!sb) && memcmp(a, b, la) == 0;
}

/* Rename f into place; its directory synced when no later file renames into it. */
static int commit_file(struct split *s, size_t i)
{
    struct split_file *f = &s->files[i];
    const char *target = f->out.target ? f->out.target : f->path;
    bool last_in_dir = i + 1 == s->count || !s->files[i + 1].out.target ||
                       !same_dir(target, s->files[i + 1].out.target);
    char *dir_of = last_in_dir ? xstrndup(target, strlen(target)) : NULL;
    int rc = output_commit(&f->out);
    if (rc == 0 && dir_of && output_sync_dir(dir_of) != 0)
        rc = -1;
    free(dir_of);
    return rc;
}

int split_finish(struct split *s, bool ok)
{
    int rc = 0;
    for (size_t i = 0; i < s->count; i++) {
        struct split_file *f = &s->files[i];
        if (ok && !s->failed) {
            if (commit_file(s, i) != 0)
                rc = -1;
        } else {
            output_abort(&f->out);
        }
    }
    for (size_t i = 0; i < s->count; i++) {
        free(s->files[i].key);
        free(s->files[i].path);
    }
    clash_release(&s->clash);
    free(s->files);
    free(s->table);
    free(s->open);
    free(s);
    return rc;
}
