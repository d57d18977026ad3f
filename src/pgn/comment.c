/*
 * comment.c - [%name value] commands inside comments, and their clock and eval values.
 * Shared by the TSV writer (raw values as columns) and the library API (numbers).
 */
#include "pgn/comment.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

struct slice comment_command(const char *s, size_t len, const char *name)
{
    size_t n = strlen(name);
    /* From '[' to '[' (memchr): a lichess comment is one command and a few bytes. */
    const char *stop = len >= n + 3 ? s + len - n - 2 : s; /* '[' at i: i + n + 2 < len */
    for (const char *at = s; at < stop && (at = memchr(at, '[', (size_t)(stop - at))); at++) {
        size_t i = (size_t)(at - s);
        if (s[i + 1] != '%' || memcmp(s + i + 2, name, n) != 0)
            continue;
        size_t v = i + 2 + n;
        if (v < len && !is_space(s[v]))
            continue;
        while (v < len && is_space(s[v]))
            v++;
        size_t end = v;
        while (end < len && s[end] != ']' && !is_space(s[end]))
            end++;
        return (struct slice){s + v, end - v};
    }
    return (struct slice){NULL, 0};
}

/* Digits at *i as a number; false when there are none. */
static bool take_digits(struct slice v, size_t *i, double *out)
{
    size_t start = *i;
    double x = 0;
    while (*i < v.len && v.ptr[*i] >= '0' && v.ptr[*i] <= '9')
        x = x * 10 + (v.ptr[(*i)++] - '0');
    *out = x;
    return *i > start;
}

/* A fraction ".ddd" at *i (optional); adds it to *x. */
static void take_fraction(struct slice v, size_t *i, double *x)
{
    if (*i >= v.len || v.ptr[*i] != '.')
        return;
    (*i)++;
    double scale = 0.1;
    while (*i < v.len && v.ptr[*i] >= '0' && v.ptr[*i] <= '9') {
        *x += (v.ptr[(*i)++] - '0') * scale;
        scale /= 10;
    }
}

bool comment_parse_clock(struct slice v, double *seconds)
{
    double parts[3];
    int count = 0;
    size_t i = 0;
    if (!v.ptr)
        return false;
    for (;;) {
        if (count == 3 || !take_digits(v, &i, &parts[count]))
            return false;
        count++;
        if (i < v.len && v.ptr[i] == ':') {
            i++;
            continue;
        }
        break;
    }
    take_fraction(v, &i, &parts[count - 1]);
    if (i != v.len || count < 2)
        return false;
    double total = 0;
    for (int k = 0; k < count; k++)
        total = total * 60 + parts[k];
    *seconds = total;
    return true;
}

bool comment_parse_eval(struct slice v, bool *is_mate, double *pawns, int *mate_in)
{
    size_t i = 0;
    if (!v.ptr || !v.len || v.len > 31)
        return false;
    bool mate = v.ptr[0] == '#';
    i += mate;
    size_t sign = i;
    if (i < v.len && (v.ptr[i] == '-' || v.ptr[i] == '+'))
        i++;
    double x;
    if (!take_digits(v, &i, &x))
        return false;
    if (!mate)
        take_fraction(v, &i, &x);
    if (i != v.len)
        return false;
    /* The digits are checked; strtod gives the double nearest the decimal text (summing
     * digit by digit does not: 0.24 became 0.24000000000000002). */
    char text[32];
    memcpy(text, v.ptr + sign, v.len - sign);
    text[v.len - sign] = '\0';
    double value = strtod(text, NULL);
    /* A mate distance that no int holds (#99999999999) is malformed, not wrapped: the
     * cast of an out-of-range double is undefined and gave #-2147483648. */
    if (mate && (value > INT_MAX || value < -INT_MAX))
        return false;
    *is_mate = mate;
    *pawns = mate ? 0 : value;
    *mate_in = mate ? (int)value : 0;
    return true;
}

void comment_notes_take(struct comment_notes *n, const char *s, size_t len)
{
    bool mate;
    if (!n->has_clock)
        n->has_clock = comment_parse_clock(comment_command(s, len, "clk"), &n->clock);
    if (!n->has_eval &&
        comment_parse_eval(comment_command(s, len, "eval"), &mate, &n->pawns, &n->mate_in)) {
        n->has_eval = true;
        n->eval_mate = mate;
    }
}
