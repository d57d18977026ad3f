/*
 * pgn_comments.c - {comments}: where one ends, and the lines it spans.
 *
 * Owns the comment rules of SPEC §2: a comment closed on its own line costs one vector
 * search; one over lines has its lines counted; one that never closes ends at a tag pair
 * line after a blank line, unless a '}' soon after that line closes it
 * (pgn_tag_line_ends_comment, shared with pgn_split.c), and otherwise at the end of the
 * input.  The searches for '}' and '{' remember the stretches of the file they found
 * empty (struct absent), so that a file of unterminated comments is searched about once
 * rather than once per comment.
 *
 * Writes r->scan (its line counting, no_close and no_open) and a comment's token; may
 * read more input (reader_fill).  Offers pgn_comments_internal.h to the lexer, and
 * pgn_comments.h (the tag line rule) to anyone.
 */
#include "pgn/pgn_comments_internal.h"

#include <string.h>

#include "base/inline_hints.h"
#include "pgn/pgn_bytes.h"
#include "pgn/pgn_comments.h"
#include "pgn/reader_buffer.h"

static inline bool all_hspace(const char *d, size_t p, size_t e)
{
    for (; p < e; p++)
        if (!is_hspace(d[p]))
            return false;
    return true;
}

/* State of the line walk through a {comment}. */
struct comment_walk {
    size_t scanned; /* lines are counted up to here */
    bool nonblank;  /* the current line has a non-blank byte before `scanned` */
    bool pending;   /* `scanned` starts a line and the line before it was blank */
};

static inline bool is_tag_name_byte(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '_';
}

/* Whether d[k] ('[') starts a tag pair, [Name "value"] (escapes allowed): 1 yes, 0 no,
 * -1 when d[.., n) ends before that is decided.  Bounded by PGN_COMMENT_LOOKAHEAD. */
static int tag_pair_at(const char *d, size_t n, size_t k)
{
    size_t e = n - k > PGN_COMMENT_LOOKAHEAD ? k + PGN_COMMENT_LOOKAHEAD : n;
    int more = e == n ? -1 : 0; /* the answer when the bytes run out */
    size_t j = k + 1;
    while (j < e && is_hspace(d[j]))
        j++;
    size_t name = j;
    while (j < e && is_tag_name_byte(d[j]))
        j++;
    if (j == name && j < e)
        return 0;
    while (j < e && is_hspace(d[j]))
        j++;
    if (j == e)
        return more;
    if (d[j] != '"')
        return 0;
    for (j++; j < e && d[j] != '"' && !is_eol(d[j]); j++)
        if (d[j] == '\\' && j + 1 < e && d[j + 1] != '\n' && d[j + 1] != '\r')
            j++;
    if (j >= e)
        return more;
    if (d[j] != '"')
        return 0;
    for (j++; j < e && is_hspace(d[j]);)
        j++;
    if (j == e)
        return more;
    return d[j] == ']';
}

/*
 * Index of the first c in d[p, e), or e, where d[0] is the file's byte at offset base.
 * With a (may be NULL), the stretch a says holds no c is not searched again, and a grows
 * by what this search found: over a run of calls each byte is searched about once.
 */
static size_t find_byte(const char *d, uint64_t base, size_t p, size_t e, char c,
                        struct absent *a)
{
    if (!a) {
        const char *h = p < e ? memchr(d + p, c, e - p) : NULL;
        return h ? (size_t)(h - d) : e;
    }
    uint64_t start = base + p;
    size_t q = p;
    if (start >= a->from && start < a->to) {
        q = a->to - base < e ? (size_t)(a->to - base) : e;
        start = a->from;
    } else if (start == a->to) {
        start = a->from; /* it goes on from there */
    }
    const char *h = q < e ? memchr(d + q, c, e - q) : NULL;
    size_t found = h ? (size_t)(h - d) : e;
    uint64_t to = base + found;
    if (start == a->from && a->to > to)
        to = a->to;
    a->from = start;
    a->to = to;
    return found;
}

/* pgn_tag_line_ends_comment, d[0] at file offset base, with the reader's stretches known
 * to hold no '}' and no '{' (or NULL). */
static int ends_comment(const char *d, size_t n, size_t k, bool at_end, uint64_t base,
                        struct absent *no_close, struct absent *no_open)
{
    int tag = tag_pair_at(d, n, k);
    if (tag <= 0)
        return tag < 0 && !at_end ? -1 : 0;
    size_t e = n - k > PGN_COMMENT_LOOKAHEAD ? k + PGN_COMMENT_LOOKAHEAD : n;
    size_t close = find_byte(d, base, k, e, '}', no_close);
    if (find_byte(d, base, k, close, '{', no_open) < close)
        return 1; /* the next '}' closes another comment */
    if (close < e)
        return 0;
    return e < n || at_end ? 1 : -1;
}

int pgn_tag_line_ends_comment(const char *d, size_t n, size_t k, bool at_end)
{
    return ends_comment(d, n, k, at_end, 0, NULL, NULL);
}

/*
 * The reader decided at the end of the data of a reader that stops before it
 * (pgn_reader_restart): with more bytes the answer might differ, so the piece must be
 * read again with more (pgn_reader_stop_crossed).
 */
static int decided_at_data_end(struct pgn_reader *r, int answer)
{
    if (r->stop_at < r->in.len)
        r->stop_crossed = true;
    return answer;
}

/* pgn_tag_line_ends_comment() for the tag line at k inside the comment being read: 1, 0,
 * or -1 when more bytes are needed.  closed: a '}' is read after k (the comment's). */
static int tag_line_ends_comment(struct pgn_reader *r, size_t k, bool closed)
{
    int ends = ends_comment(r->in.data, r->in.len, k, false, r->in.base_off, &r->scan.no_close,
                            &r->scan.no_open);
    if (ends >= 0)
        return ends;
    if (closed)
        return 0; /* the data ends inside the tag line, after the '}' that closes it */
    if (!r->in.eof)
        return -1;
    return decided_at_data_end(
        r, ends_comment(r->in.data, r->in.len, k, true, r->in.base_off, &r->scan.no_close,
                        &r->scan.no_open));
}

/*
 * Count the line ends in [w->scanned, e) and look for a tag pair line after a blank line
 * that ends an unterminated comment (tag_line_ends_comment: not when the comment closes
 * soon after it).  final: e is the end of the comment or of the input; closed: it is the
 * comment's '}'.  Returns the '[' index of such a tag line, or NEED_MORE when none was
 * found.
 */
static size_t comment_lines(struct pgn_reader *r, struct comment_walk *w, size_t e, bool final,
                            bool closed)
{
    const char *d = r->in.data;
    size_t n = r->in.len;
    size_t p = w->scanned;
    for (;;) {
        if (w->pending) {
            size_t k = p;
            while (k < e && is_hspace(d[k]))
                k++;
            if (k < e && d[k] == '[') {
                int ends = tag_line_ends_comment(r, k, closed);
                if (ends > 0)
                    return k;
                if (ends < 0) {
                    w->scanned = p;
                    return NEED_MORE;
                }
            }
            if (k == e && !final) {
                w->scanned = p;
                return NEED_MORE;
            }
            w->pending = false;
        }
        size_t x = next_eol(d, p, e);
        if (x == e) {
            w->nonblank = w->nonblank || !all_hspace(d, p, e);
            w->scanned = e;
            return NEED_MORE;
        }
        size_t y = x + 1;
        if (d[x] == '\r') {
            if (y < n) {
                if (d[y] == '\n')
                    y++;
            } else if (!r->in.eof) {
                /* A CR at the end of the data: wait to see whether LF follows. */
                w->nonblank = w->nonblank || !all_hspace(d, p, x);
                w->scanned = x;
                return NEED_MORE;
            }
        }
        bool blank = !w->nonblank && all_hspace(d, p, x);
        r->scan.line++;
        r->scan.ls = (ptrdiff_t)y;
        w->pending = blank;
        w->nonblank = false;
        p = y;
    }
}

static size_t trim_end(const char *d, size_t s, size_t e)
{
    while (e > s && (is_hspace(d[e - 1]) || is_eol(d[e - 1])))
        e--;
    return e;
}

static PGNKIT_COLD void comment_too_long(struct pgn_reader *r, size_t len,
                                  uint64_t line, uint64_t col)
{
    add_diag(r, DIAG_COMMENT_TOO_LONG, line, col,
             "a comment of %zu bytes is over the limit of %zu; dropped", len,
             r->lim.max_comment_bytes);
}

static inline void emit_comment(struct pgn_reader *r, size_t s, size_t e, uint64_t line,
                                uint64_t col)
{
    if (e - s > r->lim.max_comment_bytes)
        comment_too_long(r, e - s, line, col);
    else
        emit(r, r->in.data + s, e - s, line, col, PGN_TOK_COMMENT);
}

/* The first '}' in data[from, len), or NULL (no stretch searched twice: find_byte). */
static const char *find_close(struct pgn_reader *r, size_t from)
{
    size_t at = find_byte(r->in.data, r->in.base_off, from, r->in.len, '}', &r->scan.no_close);
    return at < r->in.len ? r->in.data + at : NULL;
}

size_t scan_comment(struct pgn_reader *r, size_t i, bool *boundary)
{
    uint64_t line = r->scan.line, col = col_at(r, i);
    size_t open = i, start = i + 1, searched = start;
    *boundary = false;
    /* The common case: the '}' comes before any line end, so there are no lines to count
     * and no tag line to look for (what the walk below would find, at a higher cost). */
    size_t stop = find_stop(r->in.data, start, r->in.len, '}', '}');
    if (stop < r->in.len && r->in.data[stop] == '}') {
        if (!r->skipping)
            emit_comment(r, start, stop, line, col);
        return stop + 1;
    }
    struct comment_walk w = {.scanned = start, .nonblank = true, .pending = false};
    for (;;) {
        const char *d = r->in.data;
        size_t n = r->in.len;
        const char *hit = find_close(r, searched);
        size_t e = hit ? (size_t)(hit - d) : n;
        bool final = hit != NULL || r->in.eof;
        size_t tag = comment_lines(r, &w, e, final, hit != NULL);
        if (tag != NEED_MORE) {
            add_diag(r, DIAG_UNTERMINATED_COMMENT, line, col,
                     "the comment never closes; it ends at the tag pair on line %llu",
                     (unsigned long long)r->scan.line);
            if (!r->skipping)
                emit_comment(r, start, trim_end(d, start, tag), line, col);
            *boundary = true;
            return tag;
        }
        if (hit) {
            if (!r->skipping)
                emit_comment(r, start, e, line, col);
            return e + 1;
        }
        if (r->in.eof) {
            add_diag(r, DIAG_UNTERMINATED_COMMENT, line, col,
                     "the comment never closes before the end of the input");
            if (!r->skipping)
                emit_comment(r, start, trim_end(d, start, n), line, col);
            return n;
        }
        searched = n;
        r->scan.pos = r->skipping ? w.scanned : open;
        if (reader_fill(r, w.scanned) < 0)
            return SIZE_MAX;
        /* When skipping, open and start may wrap; they are not used then. */
        open -= r->in.shift;
        start -= r->in.shift;
        searched -= r->in.shift;
        w.scanned -= r->in.shift;
    }
}
