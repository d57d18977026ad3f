/*
 * pgn_tags_internal.h - what pgn_tags.c offers the lexers and pgn_reader.c: a tag pair
 * parsed, checked for a repeated name, kept (in r->tag, reader_tags.h), and the escaped
 * values placed; with the inline parse_tag_simple() for the usual tag pair.
 */
#ifndef PGNKIT_PGN_TAGS_INTERNAL_H
#define PGNKIT_PGN_TAGS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgn/pgn_bytes.h"
#include "pgn/reader_state.h"

#define TAG_SKIP_LINE (SIZE_MAX - 1) /* a tag line over its bound: the caller skips the line */

/* A tag pair as parsed, before the caller decides to keep it. */
struct tag_parse {
    size_t name, name_len, value, value_len; /* indices into data */
    bool has_tag;
    bool escaped;
    bool fixed;   /* the value held an unescaped '"' (tag_fix_string) */
    enum diag_code err;
    size_t err_pos;
    const char *err_msg;
};

/*
 * The usual tag pair, [Name "Value"] with one space, no escape and nothing wrong, all
 * within the data and the limits: returns the index after its ']' with *tp filled as
 * parse_tag() would fill it, or 0 for anything else, which parse_tag() then handles.
 * Two vector scans (name, value) instead of parse_tag's byte loops and bound bookkeeping.
 * Inline: the lexers' loops call it once per tag pair.
 */
static inline size_t parse_tag_simple(const struct pgn_reader *r, const char *d, size_t i,
                                      size_t n, struct tag_parse *tp)
{
    size_t name = i + 1;
    size_t j = run_end(d, name, n);
    if (j == name || j - name > r->lim.max_token_bytes || n - j < 2 || d[j] != ' ' ||
        d[j + 1] != '"')
        return 0;
    size_t value = j + 2;
    size_t q = find_stop(d, value, n, '"', '\\');
    /* Within max_comment_bytes, the line is within parse_tag's bound too. */
    if (n - q < 2 || d[q] != '"' || d[q + 1] != ']' || q - value > r->lim.max_comment_bytes)
        return 0;
    *tp = (struct tag_parse){.name = name,
                             .name_len = j - name,
                             .value = value,
                             .value_len = q - value,
                             .has_tag = true};
    return q + 2;
}

/* Any tag pair whose '[' is at d[i]: the index after it, NEED_MORE or TAG_SKIP_LINE. */
size_t parse_tag(const struct pgn_reader *r, const char *d, size_t i, size_t n,
                 struct tag_parse *tp);
/* Whether the pair parsed repeats a name of this game's tags. */
bool tag_is_dup(struct pgn_reader *r, const char *d, const struct tag_parse *tp);
/* Keep the tag pair parsed at d[i] (its diagnostics too), on the line `line` whose first
 * byte is at ls. */
void commit_tag(struct pgn_reader *r, const char *d, size_t i, const struct tag_parse *tp,
                uint64_t line, ptrdiff_t ls);
/* Point the escaped tag values at their unescaped text, once scratch no longer moves. */
void place_escaped(struct pgn_reader *r);

#endif
