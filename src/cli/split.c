/* split.c - games spread over files named by a pattern (split.h). */
#include "cli/split.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/output.h"
#include "cli/shown.h"
#include "base/buf.h"
#include "base/xalloc.h"

enum { VALUE_MAX = 100 };

struct split_file {
    char *key;           /* the safe value (--split-by) */
    char *path;
    struct output out;
};

struct split {
    const struct config *cfg;
    struct split_file *files; /* --split: the last one is open */
    size_t count, cap;
    unsigned long long in_current; /* games in the open --split file */
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
    int width = 0;
    bool zero = pattern[start + 1] == '0';
    for (size_t i = start + 1 + zero; i + 1 < end; i++)
        width = width * 10 + (pattern[i] - '0');
    char digits[48];
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

struct split *split_new(const struct config *cfg)
{
    struct split *s = xcalloc(1, sizeof *s);
    s->cfg = cfg;
    return s;
}

static struct split_file *open_file(struct split *s, char *key, char *path)
{
    if (!s->cfg->force && access(path, F_OK) == 0) {
        fprintf(stderr, "pgnkit: %s exists; --split does not overwrite it without --force\n",
                shown(path));
        free(key);
        free(path);
        return NULL;
    }
    xgrow((void **)&s->files, &s->cap, s->count + 1, sizeof *s->files);
    struct split_file *f = &s->files[s->count];
    f->key = key;
    f->path = path;
    if (output_open(&f->out, path) != 0) {
        free(key);
        free(path);
        return NULL;
    }
    s->count++;
    return f;
}

/* The file for the next game, opened when needed. */
static struct split_file *file_for(struct split *s, const char *value, size_t value_len)
{
    const struct config *cfg = s->cfg;
    if (cfg->split_by) {
        char *key = safe_value(value, value_len);
        for (size_t i = 0; i < s->count; i++)
            if (strcmp(s->files[i].key, key) == 0) {
                free(key);
                return &s->files[i];
            }
        return open_file(s, key, make_path(cfg->output_path, 's', key));
    }
    if (s->count && s->in_current < cfg->split_games)
        return &s->files[s->count - 1];
    if (s->count && output_commit(&s->files[s->count - 1].out) != 0)
        return NULL;
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
    int rc = output_write(&f->out, bytes, len);
    if (rc != 0)
        s->failed = true;
    return rc;
}

int split_finish(struct split *s, bool ok)
{
    int rc = 0;
    for (size_t i = 0; i < s->count; i++) {
        struct split_file *f = &s->files[i];
        if (ok && !s->failed) {
            if (output_commit(&f->out) != 0)
                rc = -1;
        } else {
            output_abort(&f->out);
        }
        free(f->key);
        free(f->path);
    }
    free(s->files);
    free(s);
    return rc;
}
