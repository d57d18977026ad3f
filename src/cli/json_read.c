/* json_read.c - a small JSON reader (json_read.h): recursive descent, depth-limited. */
#include "cli/json_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/xalloc.h"

struct jparse {
    const char *begin, *p, *end;
    const char *err;
    /* json_parse_items: the top-level member whose array items go to item() */
    const char *key;
    int (*item)(void *ctx, const struct jval *v);
    void *ctx;
};

static void jskip(struct jparse *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t'))
        j->p++;
}

static bool jfail(struct jparse *j, const char *why)
{
    if (!j->err)
        j->err = why;
    return false;
}

static bool jvalue(struct jparse *j, struct jval *v, int depth);

static bool jstring(struct jparse *j, char **out)
{
    j->p++; /* the opening quote */
    struct buf b;
    buf_init(&b);
    while (j->p < j->end && *j->p != '"') {
        char c = *j->p++;
        if (c == '\\' && j->p < j->end) {
            char e = *j->p++;
            if (e == 'u' && j->end - j->p >= 4) {
                unsigned cp = (unsigned)strtoul((char[5]){j->p[0], j->p[1], j->p[2], j->p[3], 0},
                                                NULL, 16);
                j->p += 4;
                if (cp < 0x80) {
                    buf_putc(&b, (char)cp);
                } else if (cp < 0x800) {
                    buf_putc(&b, (char)(0xc0 | cp >> 6));
                    buf_putc(&b, (char)(0x80 | (cp & 0x3f)));
                } else {
                    buf_putc(&b, (char)(0xe0 | cp >> 12));
                    buf_putc(&b, (char)(0x80 | ((cp >> 6) & 0x3f)));
                    buf_putc(&b, (char)(0x80 | (cp & 0x3f)));
                }
                continue;
            }
            c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b'
                : e == 'f' ? '\f' : e;
        }
        buf_putc(&b, c);
    }
    if (j->p >= j->end) {
        buf_release(&b);
        return jfail(j, "a string never closes");
    }
    j->p++;
    *out = b.data ? b.data : xstrndup("", 0);
    return true;
}

/* The array at j->p, each item handed to j->item and freed. */
static bool jitems(struct jparse *j, int depth)
{
    j->p++;
    jskip(j);
    if (j->p < j->end && *j->p == ']') {
        j->p++;
        return true;
    }
    for (;;) {
        struct jval item;
        memset(&item, 0, sizeof item);
        bool ok = jvalue(j, &item, depth + 1);
        int stop = ok ? j->item(j->ctx, &item) : 0;
        json_free(&item);
        if (!ok)
            return false;
        if (stop)
            return jfail(j, "");
        jskip(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == ']') {
            j->p++;
            return true;
        }
        return jfail(j, "',' or ']' was expected");
    }
}

static bool jcontainer(struct jparse *j, struct jval *v, bool object, int depth)
{
    v->type = object ? J_OBJ : J_ARR;
    char close = object ? '}' : ']';
    size_t item_cap = 0, key_cap = 0;
    j->p++;
    jskip(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
        return true;
    }
    for (;;) {
        xgrow((void **)&v->items, &item_cap, v->count + 1, sizeof *v->items);
        if (object)
            xgrow((void **)&v->keys, &key_cap, v->count + 1, sizeof *v->keys);
        struct jval *item = &v->items[v->count];
        memset(item, 0, sizeof *item);
        jskip(j);
        if (object) {
            v->keys[v->count] = NULL;
            if (j->p >= j->end || *j->p != '"' || !jstring(j, &v->keys[v->count]))
                return jfail(j, "an object key was expected");
            jskip(j);
            if (j->p >= j->end || *j->p != ':')
                return jfail(j, "':' was expected");
            j->p++;
        }
        if (object && depth == 0 && j->key && strcmp(v->keys[v->count], j->key) == 0 &&
            (jskip(j), j->p < j->end && *j->p == '[')) {
            item->type = J_ARR;
            item->at = (size_t)(j->p - j->begin);
            v->count++;
            if (!jitems(j, depth + 1))
                return false;
        } else {
            v->count++;
            if (!jvalue(j, item, depth + 1))
                return false;
        }
        jskip(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == close) {
            j->p++;
            return true;
        }
        return jfail(j, object ? "',' or '}' was expected" : "',' or ']' was expected");
    }
}

static bool jvalue(struct jparse *j, struct jval *v, int depth)
{
    jskip(j);
    if (depth > 16)
        return jfail(j, "nested too deep");
    if (j->p >= j->end)
        return jfail(j, "a value was expected");
    v->at = (size_t)(j->p - j->begin);
    char c = *j->p;
    if (c == '{' || c == '[')
        return jcontainer(j, v, c == '{', depth);
    if (c == '"') {
        v->type = J_STR;
        return jstring(j, &v->str);
    }
    static const char *const words[] = {"null", "true", "false"};
    for (int k = 0; k < 3; k++) {
        size_t n = strlen(words[k]);
        if ((size_t)(j->end - j->p) >= n && memcmp(j->p, words[k], n) == 0) {
            v->type = k ? J_BOOL : J_NULL;
            v->u = k == 1;
            j->p += n;
            return true;
        }
    }
    char tmp[64];
    size_t n = 0;
    while (j->p + n < j->end && n < sizeof tmp - 1 && strchr("0123456789+-.eE", j->p[n]))
        n++;
    memcpy(tmp, j->p, n);
    tmp[n] = 0;
    char *e;
    errno = 0;
    v->num = strtod(tmp, &e);
    if (n == 0 || *e || errno)
        return jfail(j, "a value was expected");
    v->type = J_NUM;
    if (strspn(tmp, "0123456789") == n) {
        errno = 0;
        v->u = strtoull(tmp, NULL, 10);
        v->whole = errno == 0;
    } else {
        /* Not a count: no cast of a negative or huge double (undefined), read as 0. */
        v->u = 0;
    }
    j->p += n;
    return true;
}

void json_free(struct jval *v)
{
    for (size_t i = 0; i < v->count; i++) {
        json_free(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
}

const struct jval *json_get(const struct jval *o, const char *key)
{
    for (size_t i = 0; o->type == J_OBJ && i < o->count; i++)
        if (o->keys[i] && strcmp(o->keys[i], key) == 0)
            return &o->items[i];
    return NULL;
}

const char *json_parse(const char *text, size_t len, struct jval *v)
{
    return json_parse_items(text, len, v, NULL, NULL, NULL);
}

size_t json_line_of(const char *text, size_t at)
{
    size_t line = 1;
    for (const char *p = text; (p = memchr(p, '\n', (size_t)(text + at - p))) != NULL; p++)
        line++;
    return line;
}

const char *json_parse_items(const char *text, size_t len, struct jval *v, const char *key,
                             int (*item)(void *ctx, const struct jval *v), void *ctx)
{
    memset(v, 0, sizeof *v);
    struct jparse j = {text, text, text + len, NULL, key, item, ctx};
    if (!jvalue(&j, v, 0))
        return j.err ? j.err : "not JSON";
    jskip(&j);
    return j.p == j.end ? NULL : "bytes after the value";
}
