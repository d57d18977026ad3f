/*
 * json_read.h - a small JSON reader for the summaries pgnkit writes (--summary-json):
 * the whole text into a tree of values.  Objects keep their keys in order; numbers are
 * kept as a double and, when whole, exactly as an unsigned 64-bit integer.
 */
#ifndef PGNKIT_CLI_JSON_READ_H
#define PGNKIT_CLI_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
    enum jtype type;
    double num;
    unsigned long long u; /* the number, when it is a whole one; J_BOOL: 0 or 1 */
    char *str;            /* J_STR, UTF-8 */
    struct jval *items;   /* J_ARR, J_OBJ (values) */
    char **keys;          /* J_OBJ */
    size_t count;
    size_t at;            /* the byte offset of its first byte in the text */
    bool whole;           /* J_NUM: digits only, within 64 bits: exactly u */
};

/* Parse the one value in text[0, len) into *v (free with json_free, also after a
 * failure).  Returns NULL, or why it is not JSON. */
const char *json_parse(const char *text, size_t len, struct jval *v);
void json_free(struct jval *v);
/* json_parse, except that each item of the array that is the value of member `key` of
 * the top-level object goes to item(ctx, v) as soon as it is read, and is freed after:
 * that array is never held (it stays empty in *v).  A nonzero return of item stops the
 * parse, which then returns "" (item said why). */
const char *json_parse_items(const char *text, size_t len, struct jval *v, const char *key,
                             int (*item)(void *ctx, const struct jval *v), void *ctx);
/* The line (from 1) of byte offset at of text. */
size_t json_line_of(const char *text, size_t at);
/* The value of key in object o, or NULL. */
const struct jval *json_get(const struct jval *o, const char *key);

#endif
