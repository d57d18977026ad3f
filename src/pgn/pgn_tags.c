/*
 * pgn_tags.c - tag pairs: [Name "Value"] parsed, checked and kept.
 *
 * Owns the rules of a tag line: the usual pair read in one or two vector steps, any
 * other parsed byte by byte within a bound (a name within max_token_bytes, a value within
 * max_comment_bytes), recovery from a broken pair (to its ']' or its line's end), values
 * with stray quotes read as pgn-extract's --fixtagstrings reads them, escapes undone into
 * scratch, and the game's tag names for the duplicate rule.  The tags point into the
 * reader's buffer; reader_buffer.c moves them with it.
 *
 * Owns r->tag (reader_tags.h); reads the input and the scan's line; offers
 * pgn_tags_internal.h (parse_tag_simple inline there, for the lexers' loops).
 */
#include "pgn/pgn_tags_internal.h"
#include "pgn/reader_buffer.h"

#include <string.h>

#include "base/xalloc.h"
#include "pgn/pgn_bytes.h"

static void tag_error(struct tag_parse *tp, enum diag_code code, size_t pos, const char *msg)
{
    if (tp->err != DIAG_OK)
        return;
    tp->err = code;
    tp->err_pos = pos;
    tp->err_msg = msg;
}

/*
 * The bytes of a tag line are scanned up to index e: the end of the data, or, when the
 * data runs further, the tag line's bound (capped).  Reaching e means NEED_MORE, the end
 * of input, or (capped) a tag line too long to keep: TAG_SKIP_LINE with a BAD_TAG error.
 */
struct tag_end {
    size_t e;
    bool capped;
};

static size_t tag_at_end(const struct pgn_reader *r, const struct tag_end *te,
                         struct tag_parse *tp)
{
    if (te->capped) {
        tp->has_tag = false;
        tp->err = DIAG_OK; /* this error replaces any earlier one */
        tag_error(tp, DIAG_BAD_TAG, te->e,
                  "a tag line over the limit (tag name: --max-token-bytes, tag value: "
                  "--max-comment-bytes); the rest of the line is skipped");
        return TAG_SKIP_LINE;
    }
    return r->in.eof ? te->e : NEED_MORE;
}

/* After a bad tag: skip to its ']' (consumed) or the end of its line (not consumed). */
static size_t tag_recover(const struct pgn_reader *r, const char *d, size_t j,
                          const struct tag_end *te, struct tag_parse *tp)
{
    while (j < te->e && d[j] != ']' && !is_eol(d[j]))
        j++;
    if (j == te->e)
        return tag_at_end(r, te, tp);
    return d[j] == ']' ? j + 1 : j;
}

/*
 * A tag value with an unescaped '"' inside ([Event "5th "X" Intl"]) or a backslash before
 * its closing quote ([Event "Tournament \"]), read as pgn-extract's --fixtagstrings reads
 * it: when the line ends in '"' ']' (blanks allowed), the value is everything from the
 * opening quote to that last '"' (\" and \\ undone, a lone backslash kept).  Returns the
 * index after the ']' with *tp set (and tp->fixed, for a warning), 0 when the line is not
 * of that shape or runs past the tag line's bound, or NEED_MORE when its end is not read
 * yet (streamed, the shape is known only once the line is whole, as from memory).
 */
static size_t tag_fix_string(const struct pgn_reader *r, const char *d, size_t value,
                             const struct tag_end *te, struct tag_parse *tp)
{
    size_t eol = next_eol(d, value, te->e);
    if (eol == te->e && (te->capped || !r->in.eof))
        return te->capped ? 0 : NEED_MORE;
    size_t b = eol;
    while (b > value && is_hspace(d[b - 1]))
        b--;
    if (b == value || d[b - 1] != ']')
        return 0;
    size_t q = b - 1;
    while (q > value && is_hspace(d[q - 1]))
        q--;
    if (q == value || d[q - 1] != '"')
        return 0;
    q--;
    tp->value = value;
    tp->value_len = q - value;
    tp->escaped = memchr(d + value, '\\', q - value) != NULL;
    tp->fixed = true;
    return b;
}

/*
 * Parse the tag pair whose '[' is at d[i]; returns the index after it, NEED_MORE, or
 * TAG_SKIP_LINE.  A tag line is bounded (max_token_bytes for the name, max_comment_bytes
 * for the value, plus slack for blanks), so one endless line can neither grow the buffer
 * past the limits nor be rescanned forever.  A name over max_token_bytes is reported as
 * TOKEN_TOO_LONG and the tag dropped.
 */
size_t parse_tag(const struct pgn_reader *r, const char *d, size_t i, size_t n,
                 struct tag_parse *tp)
{
    memset(tp, 0, sizeof *tp);
    size_t bound = r->lim.max_token_bytes + r->lim.max_comment_bytes + 256;
    struct tag_end te = {n, false};
    if (n - i > bound)
        te = (struct tag_end){i + bound, true};
    const size_t e = te.e;
    size_t j = i + 1;
    while (j < e && is_hspace(d[j]))
        j++;
    size_t name = j;
    /* At most max_token_bytes + 1 bytes: one more than the limit tells it was passed. */
    size_t name_e = e - name > r->lim.max_token_bytes ? name + r->lim.max_token_bytes + 1 : e;
    while (j < name_e && !is_delim(d[j]))
        j++;
    if (j - name > r->lim.max_token_bytes) {
        tag_error(tp, DIAG_TOKEN_TOO_LONG, name,
                  "a tag name over the limit (--max-token-bytes); the tag is dropped");
        return tag_recover(r, d, j, &te, tp);
    }
    if (j == e && (te.capped || !r->in.eof))
        return tag_at_end(r, &te, tp);
    if (j == name) {
        tag_error(tp, DIAG_BAD_TAG, j, "a tag name was expected after '['");
        return tag_recover(r, d, j, &te, tp);
    }
    tp->name = name;
    tp->name_len = j - name;
    while (j < e && is_hspace(d[j]))
        j++;
    if (j == e && (te.capped || !r->in.eof))
        return tag_at_end(r, &te, tp);
    if (j == e || d[j] != '"') {
        tag_error(tp, DIAG_BAD_TAG, j, "a quoted tag value was expected");
        return tag_recover(r, d, j, &te, tp);
    }
    size_t value = ++j;
    bool closed = false;
    while (j < e) {
        j = find_stop(d, j, e, '"', '\\');
        if (j == e)
            break;
        char c = d[j];
        if (c == '"') {
            closed = true;
            break;
        }
        if (c == '\\') {
            if (j + 1 == e && (te.capped || !r->in.eof))
                return tag_at_end(r, &te, tp);
            if (j + 1 < e && (d[j + 1] == '"' || d[j + 1] == '\\')) {
                tp->escaped = true;
                j += 2;
                continue;
            }
        }
        if (is_eol(c))
            break;
        j++;
    }
    if (j == e && (te.capped || !r->in.eof))
        return tag_at_end(r, &te, tp);
    tp->value = value;
    tp->value_len = j - value;
    tp->has_tag = true;
    if (!closed) {
        size_t fixed = tag_fix_string(r, d, value, &te, tp);
        if (fixed)
            return fixed;
        tag_error(tp, DIAG_UNTERMINATED_STRING, value - 1, "the tag value never closes");
        return j;
    }
    j++;
    while (j < e && is_hspace(d[j]))
        j++;
    if (j == e && (te.capped || !r->in.eof))
        return tag_at_end(r, &te, tp);
    if (j < e && d[j] == ']')
        return j + 1;
    size_t fixed = tag_fix_string(r, d, value, &te, tp);
    if (fixed)
        return fixed;
    tag_error(tp, DIAG_BAD_TAG, j, "']' was expected after the tag value");
    return tag_recover(r, d, j, &te, tp);
}

bool tag_is_dup(struct pgn_reader *r, const char *d, const struct tag_parse *tp)
{
    name_set_catch_up(r);
    return name_set_has(&r->tag.names, name_set_hash(d + tp->name, tp->name_len));
}

void commit_tag(struct pgn_reader *r, const char *d, size_t i, const struct tag_parse *tp,
                uint64_t line, ptrdiff_t ls)
{
    if (tp->err != DIAG_OK)
        add_diag(r, tp->err, line, col_of(tp->err_pos, ls), "%s", tp->err_msg);
    else if (tp->fixed)
        add_diag(r, DIAG_NONSTANDARD, line, col_of(tp->value - 1, ls),
                 "non-standard notation accepted: a '\"' or '\\' in the tag value is not "
                 "escaped; the value is read up to the last '\"' before ']'");
    if (tp->err == DIAG_UNTERMINATED_STRING)
        r->tag.bad_string = true;
    if (!tp->has_tag)
        return;
    if (r->skipping) {
        name_set_put(&r->tag.names, name_set_hash(d + tp->name, tp->name_len));
        return;
    }
    struct pgn_tag *t = push_tag(r);
    t->name = (struct slice){d + tp->name, tp->name_len};
    t->line = line;
    t->col = col_of(i, ls);
    if (!tp->escaped) {
        t->value = (struct slice){d + tp->value, tp->value_len};
        return;
    }
    /* Undo \" and \\ into the scratch area; other backslashes stay as written. */
    if (r->tag.scratch_len + tp->value_len > r->tag.scratch_cap) {
        void *p = r->tag.scratch;
        xgrow(&p, &r->tag.scratch_cap, r->tag.scratch_len + tp->value_len, 1);
        r->tag.scratch = p;
    }
    const char *s = d + tp->value;
    char *o = r->tag.scratch + r->tag.scratch_len;
    size_t out = 0;
    for (size_t k = 0; k < tp->value_len; k++) {
        if (s[k] == '\\' && k + 1 < tp->value_len && (s[k + 1] == '"' || s[k + 1] == '\\'))
            k++;
        o[out++] = s[k];
    }
    t->value = (struct slice){NULL, out}; /* finish_game points it into scratch */
    r->tag.scratch_len += out;
}

/* The escaped values (NULL so far) lie in scratch in tag order. */
void place_escaped(struct pgn_reader *r)
{
    const char *s = r->tag.scratch;
    for (size_t k = 0; k < r->tag.ntag; k++) {
        if (!r->tag.tags[k].value.ptr) {
            r->tag.tags[k].value.ptr = s;
            s += r->tag.tags[k].value.len;
        }
    }
}
