/* diag.c - the code table and the diagnostic list.  Renders nothing: see src/cli. */
#include "base/diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

struct code_info {
    const char *name;
    enum diag_severity severity;
    const char *description;
};

#define PGNKIT_DIAG_INFO(code, name, sev, text) [code] = {name, sev, text},
static const struct code_info code_table[DIAG_CODE_COUNT] = {PGNKIT_DIAG_CODES(PGNKIT_DIAG_INFO)};
#undef PGNKIT_DIAG_INFO

const char *diag_code_name(enum diag_code code)
{
    return (unsigned)code < DIAG_CODE_COUNT ? code_table[code].name : "UNKNOWN";
}

enum diag_severity diag_code_severity(enum diag_code code)
{
    return (unsigned)code < DIAG_CODE_COUNT ? code_table[code].severity : DIAG_ERROR;
}

const char *diag_code_description(enum diag_code code)
{
    return (unsigned)code < DIAG_CODE_COUNT ? code_table[code].description : "";
}

void diag_vset(struct diag *d, enum diag_code code, uint64_t line, uint64_t col, const char *fmt,
               va_list ap)
{
    d->code = code;
    d->severity = diag_code_severity(code);
    d->line = line;
    d->col = col;
    d->ply = 0;
    d->move_number = 0;
    d->side = 0;
    d->san[0] = d->fen[0] = d->candidates[0] = '\0';
    vsnprintf(d->message, sizeof d->message, fmt, ap);
}

void diag_set(struct diag *d, enum diag_code code, uint64_t line, uint64_t col, const char *fmt,
              ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vset(d, code, line, col, fmt, ap);
    va_end(ap);
}

void diag_list_init(struct diag_list *list) { diag_list_init_capped(list, 0); }

void diag_list_init_capped(struct diag_list *list, size_t max)
{
    list->items = NULL;
    list->count = 0;
    list->cap = 0;
    list->max = max;
    list->more = 0;
    list->more_errors = 0;
}

void diag_list_release(struct diag_list *list)
{
    free(list->items);
    diag_list_init_capped(list, list->max);
}

void diag_list_clear(struct diag_list *list)
{
    list->count = 0;
    list->more = 0;
    list->more_errors = 0;
}

void diag_list_count_more(struct diag_list *list, size_t n, size_t e)
{
    list->more += n;
    list->more_errors += e;
}

struct diag *diag_list_push(struct diag_list *list, const struct diag *d)
{
    if (list->max && list->count >= list->max) {
        diag_list_count_more(list, 1, d->severity == DIAG_ERROR);
        return NULL;
    }
    xgrow((void **)&list->items, &list->cap, list->count + 1, sizeof *list->items);
    list->items[list->count] = *d;
    return &list->items[list->count++];
}

void diag_list_close(struct diag_list *list)
{
    if (!list->more)
        return;
    /* At the last entry kept: the list is in position order by now. */
    const struct diag *last = list->count ? &list->items[list->count - 1] : NULL;
    struct diag d;
    diag_set(&d, DIAG_MORE_DIAGNOSTICS, last ? last->line : 0, last ? last->col : 0,
             "%zu more diagnostics in this game (%zu of them errors) not shown: "
             "--max-diagnostics %zu", list->more, list->more_errors, list->max);
    if (list->more_errors)
        d.severity = DIAG_ERROR;
    size_t max = list->max;
    list->max = 0;
    diag_list_push(list, &d);
    list->max = max;
    list->more = list->more_errors = 0;
}

struct diag *diag_list_add(struct diag_list *list, enum diag_code code, uint64_t line,
                           uint64_t col, const char *fmt, ...)
{
    if (list->max && list->count >= list->max) {
        diag_list_count_more(list, 1, diag_code_severity(code) == DIAG_ERROR);
        return NULL;
    }
    struct diag d;
    va_list ap;
    va_start(ap, fmt);
    diag_vset(&d, code, line, col, fmt, ap);
    va_end(ap);
    return diag_list_push(list, &d);
}

size_t diag_list_errors(const struct diag_list *list)
{
    size_t n = 0;
    for (size_t i = 0; i < list->count; i++)
        n += list->items[i].severity == DIAG_ERROR;
    return n;
}
