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
};

/* Parse the one value in text[0, len) into *v (free with json_free, also after a
 * failure).  Returns NULL, or why it is not JSON. */
const char *json_parse(const char *text, size_t len, struct jval *v);
void json_free(struct jval *v);
/* The value of key in object o, or NULL. */
const struct jval *json_get(const struct jval *o, const char *key);

#endif
