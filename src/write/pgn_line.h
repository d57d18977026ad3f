/*
 * pgn_line.h - PGN export lines: words put one blank apart and wrapped before column 80
 * (PGN standard §8.2.6), and comments "{ words }" written in place.  The writers of the
 * export format (writer_pgn.c: `pgn`, `fen --comments`) put every word through here.
 *
 * Promises: a word is never split; a line never passes column 80 unless one word does;
 * a word starting with '%' never starts a line (it would read as an escape line, §6);
 * control characters are written as U+FFFD and, in comment text, '}' as ')'.  The text
 * written is the same whether a comment goes word by word or whole (pgn_line_comment
 * copies a text already one blank apart in one piece, then breaks its lines).
 *
 * The per-word calls are inline here: they run for every word written (a move, a
 * number, a NAG), where a call cost as much as the word.  Private to src/.
 */
#ifndef PGNKIT_PGN_LINE_H
#define PGNKIT_PGN_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/buf.h"

/* The default width (columns a line may fill), and the narrowest pgnkit pgn takes
 * (--line-width): a numbered move with a check and a NAG ("123... exd8=Q+ $1") fits. */
enum { PGN_LINE_COLUMNS = 80, PGN_LINE_MIN_WIDTH = 20 };
/* A width for "never wrap" (--line-width 0). */
#define PGN_LINE_UNLIMITED ((size_t)1 << 40)

/* The output, the column its last line has reached (0: at a line's start), and the
 * columns a line may fill (PGN_LINE_COLUMNS unless asked otherwise). */
struct pgn_line {
    struct buf *out;
    size_t column;
    size_t width;
};

/** A word from pre then s[0, len): a control character as U+FFFD and, in_comment, '}'
 * as ')'. */
void pgn_line_word_ex(struct pgn_line *w, const char *pre, const char *s, size_t len,
                      bool in_comment);

/** The words of s[0, len) (blank-separated comment text), the first one prefixed by pre,
 * cleaned as in a comment; returns how many. */
size_t pgn_line_words(struct pgn_line *w, const char *pre, const char *s, size_t len);

/** "{ words of s }" ("{ }" when it has none), one word at a time or whole. */
void pgn_line_comment(struct pgn_line *w, const char *s, size_t len);

/** pgn_line_wrap_first() and pgn_line_wrap_tail_once() for any "{ body }" in place: its
 * blanks found byte by byte. */
void pgn_line_wrap_slow(struct pgn_line *w, char *p, size_t at, char *body, size_t blen);

/* The separator before a word of total bytes starting with first, into p (its bytes
 * returned), and the column after it: a blank, or a line end when the word would pass
 * column 80.  A word starting with '%' never starts a line (it would read as an escape
 * line): no wrap before it, and a blank before it as the first word of the movetext. */
static inline size_t pgn_line_separator(struct pgn_line *w, char first, size_t total, char *p)
{
    if (w->column) {
        bool fits = w->column + 1 + total <= w->width;
        p[0] = fits || first == '%' ? ' ' : '\n';
        w->column = fits || first == '%' ? w->column + 1 : 0;
        return 1;
    }
    if (first == '%') {
        /* The movetext's first word (a game copied as written: "%x" read mid-line). */
        p[0] = ' ';
        w->column = 1;
        return 1;
    }
    return 0;
}

/* One unbreakable word, pre then s, written as is (the caller knows it holds no control
 * character, and no '}' in a comment), after its separator.  One reservation for both:
 * this runs for every word written. */
static inline void pgn_line_plain_word(struct pgn_line *w, const char *pre, size_t prelen,
                                       const char *s, size_t len)
{
    size_t total = prelen + len;
    char first = prelen ? pre[0] : len ? s[0] : '\0';
    char *p = buf_reserve(w->out, total + 1);
    size_t n = pgn_line_separator(w, first, total, p);
    memcpy(p + n, pre, prelen);
    memcpy(p + n + prelen, s, len);
    n += total;
    w->out->len += n;
    w->out->data[w->out->len] = '\0';
    w->column += total;
}

/* pgn_line_plain_word() of a word of at most 32 bytes from a buffer readable for 32: copied as
 * 32, a fixed-size copy where a library call cost more than the word (once a ply). */
static inline void pgn_line_short_word(struct pgn_line *w, const char *s, size_t len)
{
    char *p = buf_reserve(w->out, 1 + 32);
    size_t n = pgn_line_separator(w, len ? s[0] : '\0', len, p);
    memcpy(p + n, s, 32);
    w->out->len += n + len;
    w->out->data[w->out->len] = '\0';
    w->column += len;
}

static inline void pgn_line_word(struct pgn_line *w, const char *pre, const char *s, size_t len)
{
    pgn_line_word_ex(w, pre, s, len, false);
}

/* pgn_line_advance(): the column after a word of len bytes, and the separator before it ('\n'
 * when it would pass the width, '\0' for none at a line's start); pgn_line_plain_word()'s
 * rule for a word that does not start with '%'. */
static inline char pgn_line_advance(size_t *column, size_t len, size_t width)
{
    if (!*column) {
        *column = len;
        return '\0';
    }
    bool fits = *column + 1 + len <= width;
    *column = fits ? *column + 1 + len : len;
    return fits ? ' ' : '\n';
}

/* s[0, n) to p by fixed-size copies, overlapping ones for the last bytes: none reads
 * outside s[0, n) (a token's text) nor writes outside p[0, n). */
static inline void pgn_line_copy(char *p, const char *s, size_t n)
{
    if (n >= 16) {
        for (size_t i = 0; i + 16 < n; i += 16)
            memcpy(p + i, s + i, 16);
        memcpy(p + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
        memcpy(p, s, 8);
        memcpy(p + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(p, s, 4);
        memcpy(p + n - 4, s + n - 4, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            p[i] = s[i];
    }
}

/*
 * wrap_tail() when no word of the tail starts with '%' (a FEN's never does) and the
 * width is the default: the line breaks at most once in it, before its first word that
 * ends past column 80, since the rest (at most 64 bytes, then " }") fits on the new line
 * (other widths take wrap_tail() or pgn_line_wrap_slow()).  That word's blank is the last
 * one at most 80 - column bytes into the tail (a word ending there still fits).
 */
static inline void pgn_line_wrap_tail_once(struct pgn_line *w, size_t column, char *body,
                                           size_t blen, size_t first, uint64_t tail)
{
    size_t len = blen - first; /* the tail, its first blank included */
    if (column + len <= PGN_LINE_COLUMNS) {
        body[blen] = '\n'; /* the words fit, "}" does not */
        w->column = 1;
        return;
    }
    /* len > 80 - column, so 80 - column < 64 here. */
    uint64_t fit = column < PGN_LINE_COLUMNS
                       ? tail & (((uint64_t)2 << (PGN_LINE_COLUMNS - column)) - 1)
                       : 1;
    size_t b = 63 - (size_t)__builtin_clzll(fit | 1);
    body[first + b] = '\n';
    w->column = len - b + 1; /* the rest, a blank and "}" */
}

/*
 * The separators of "{ body }" written in place (body: words one blank apart) whose line
 * passes column 80, as pgn_line_words() would write them: p[0] before "{ " when `at`, else
 * the blank before each word, and the one before "}".  Here the first word's (body[0,
 * first) after "{ "); when the rest (rest bytes and " }") fits on its line, its blanks
 * stay blanks and 0 is returned, else the column after the first word, for wrap_tail().
 * Inline: this settles most FENs (their fields after the board fit).
 */
static inline size_t pgn_line_wrap_first(struct pgn_line *w, char *p, size_t at,
                                          size_t first, size_t rest)
{
    size_t column = w->column;
    char sep = pgn_line_advance(&column, first + 2, w->width);
    if (at)
        p[0] = sep;
    if (column + rest + 2 <= w->width) {
        w->column = column + rest + 2;
        return 0;
    }
    return column;
}

#endif
