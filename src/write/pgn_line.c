/*
 * pgn_line.c - the words of PGN export lines that need more than a copy: control
 * characters and '}' cleaned, comment text split into words, and comments copied whole
 * with their line breaks put in place (pgn_line.h says what is promised).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/inline_hints.h"
#include "write/pgn_line.h"
#include "base/ctrl.h"

/* ---- words and wrapping ---- */

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Word s[0, len) into p, each control character as U+FFFD (3 bytes); in a comment, '}' as
 * ')'. */
static void put_clean_word(char *p, const char *s, size_t len, bool in_comment)
{
    for (size_t i = 0; i < len; i++) {
        size_t n = ctrl_len(s, i, len);
        if (n) {
            memcpy(p, "\xef\xbf\xbd", 3);
            p += 3;
            i += n - 1;
        } else {
            *p++ = in_comment && s[i] == '}' ? ')' : s[i];
        }
    }
}

/* Whether comment text needs cleaning word by word: a control byte or a '}' in it. */
static bool comment_is_clean(const char *s, size_t len)
{
    return ctrl_find(s, len) == len && !memchr(s, '}', len);
}

/* pgn_line_plain_word() for any word: a control character is written as U+FFFD, and in
 * comment text (in_comment), where a '}' would end the comment, '}' as ')'. */
void pgn_line_word_ex(struct pgn_line *w, const char *pre, const char *s, size_t len,
                        bool in_comment)
{
    size_t prelen = strlen(pre);
    /* Comment text may hold control characters, and a token a C1 one (C2 80-9F is no
     * delimiter): each is written as U+FFFD. */
    bool ctrl = ctrl_find(s, len) < len;
    if (!ctrl && (!in_comment || !memchr(s, '}', len))) {
        pgn_line_plain_word(w, pre, prelen, s, len);
        return;
    }
    size_t total = prelen + (ctrl ? ctrl_clean_size(s, len) : len);
    char first = prelen ? pre[0] : len ? s[0] : '\0';
    if (w->column) {
        bool fits = w->column + 1 + total <= w->width;
        buf_putc(w->out, fits || first == '%' ? ' ' : '\n');
        w->column = fits || first == '%' ? w->column + 1 : 0;
    } else if (first == '%') {
        buf_putc(w->out, ' ');
        w->column = 1;
    }
    char *p = buf_reserve(w->out, total);
    memcpy(p, pre, prelen);
    if (ctrl)
        put_clean_word(p + prelen, s, len, in_comment);
    else
        for (size_t i = 0; i < len; i++)
            p[prelen + i] = in_comment && s[i] == '}' ? ')' : s[i];
    w->out->len += total;
    w->out->data[w->out->len] = '\0';
    w->column += total;
}

/* The words of s[0..len), the first one prefixed by pre; returns how many.  Comment
 * text: the test for bytes to clean is made once for the whole text. */
size_t pgn_line_words(struct pgn_line *w, const char *pre, const char *s, size_t len)
{
    bool clean = comment_is_clean(s, len);
    size_t prelen = strlen(pre);
    size_t count = 0;
    for (size_t i = 0; i < len;) {
        while (i < len && is_space(s[i]))
            i++;
        size_t start = i;
        while (i < len && !is_space(s[i]))
            i++;
        if (i == start)
            continue;
        if (clean)
            pgn_line_plain_word(w, count ? "" : pre, count ? 0 : prelen, s + start, i - start);
        else
            pgn_line_word_ex(w, count ? "" : pre, s + start, i - start, true);
        count++;
    }
    return count;
}

/* ---- comments already in their written form ---- */

/*
 * Most comments (a clock comment after every move of a Lichess game, an engine's
 * evaluation) are already written as pgn_line_words() would write them: words one blank
 * apart, nothing to clean.  Such a text is copied whole, and only where a line must
 * break does a blank become a line end: the same bytes as word by word, for a fraction
 * of the instructions (word by word cost ~900 a comment, most of fen --comments and pgn
 * on Lichess games).
 */
enum { BYTE_SPACE = 1, BYTE_UNCLEAN = 2 };

/* Per byte: a blank, or a byte a comment cannot keep as is (a control byte or one of the
 * other blanks, DEL, 0xC2 (maybe a C1 control) or '}'). */
static const uint8_t comment_byte[256] = {
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, /* C0 controls and blanks */
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    [' '] = BYTE_SPACE, ['}'] = BYTE_UNCLEAN, [0x7f] = BYTE_UNCLEAN, [0xc2] = BYTE_UNCLEAN,
};

#ifdef __SSE2__
/* The bytes comment_bits() compares with, 16 of each: loaded, where gcc built each with
 * three instructions a call (from _mm_set1_epi8, or from these values when it sees them). */
static const union {
    uint8_t bytes[5][16];
    __m128i v[5];
} comment_vectors = {{
    {0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f},
    {0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f},
    {0xc2, 0xc2, 0xc2, 0xc2, 0xc2, 0xc2, 0xc2, 0xc2, 0xc2, 0xc2, 0xc2, 0xc2, 0xc2, 0xc2, 0xc2, 0xc2},
    {'}', '}', '}', '}', '}', '}', '}', '}', '}', '}', '}', '}', '}', '}', '}', '}'},
    {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '},
}};

/* comment_byte[] for 16 bytes: BYTE_UNCLEAN's bits returned, BYTE_SPACE's in *spaces. */
static inline unsigned comment_bits(const char *s, unsigned *spaces)
{
    const __m128i *k = comment_vectors.v;
    __asm__("" : "+r"(k)); /* gcc no longer knows the values: it loads them */
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i bad = _mm_cmpeq_epi8(_mm_min_epu8(v, k[0]), v); /* <= 0x1F */
    bad = _mm_or_si128(bad, _mm_cmpeq_epi8(v, k[1]));
    bad = _mm_or_si128(bad, _mm_cmpeq_epi8(v, k[2]));
    bad = _mm_or_si128(bad, _mm_cmpeq_epi8(v, k[3]));
    *spaces = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, k[4]));
    return (unsigned)_mm_movemask_epi8(bad);
}
#endif

/* comment_is_simple() byte by byte (a text under 16 bytes, or no SSE2): out of line, so
 * the usual clock or evaluation comment's inline path stays short. */
static PGNKIT_NOINLINE bool short_comment_is_simple(const char *s, size_t len, uint64_t *blanks)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned bad = 0, prev = 0;
    uint64_t mask = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned c = comment_byte[u[i]];
        bad |= c & (prev | BYTE_UNCLEAN); /* unclean, or a blank after a blank */
        if (i < 64)
            mask |= (uint64_t)(c & BYTE_SPACE) << i;
        prev = c;
    }
    *blanks = mask;
    return !bad;
}

/* Whether s[0, len) has no byte to clean and no two blanks side by side; *blanks gets
 * the blanks of a text of at most 64 bytes (bit i: s[i] is one). */
static inline PGNKIT_HOT bool comment_is_simple(const char *s, size_t len, uint64_t *blanks)
{
#ifdef __SSE2__
    uint64_t mask = 0;
#endif
#ifdef __SSE2__
    if (len >= 16) {
        /* 16 bytes a step, the last step's 16 ending at len (bytes before len only). */
        unsigned bad = 0, pairs = 0, carry = 0, spaces;
        size_t i = 0;
        for (; i + 16 <= len; i += 16) {
            bad |= comment_bits(s + i, &spaces);
            pairs |= spaces & (spaces << 1 | carry);
            carry = spaces >> 15;
            if (i < 64)
                mask |= (uint64_t)spaces << i;
        }
        if (i < len) {
            bad |= comment_bits(s + len - 16, &spaces);
            if (len <= 64)
                mask |= (uint64_t)spaces << (len - 16);
            spaces >>= 16 - (len - i); /* the bytes from i on */
            pairs |= spaces & (spaces << 1 | carry);
        }
        *blanks = mask;
        return !bad && !pairs;
    }
#endif
    return short_comment_is_simple(s, len, blanks);
}

/* pgn_line_advance() for a word starting with first: a word starting with '%' never starts a line
 * (pgn_line_separator()'s rule; never the first word, here). */
static char advance_word(size_t *column, size_t len, char first, size_t width)
{
    if (first == '%' && *column) {
        *column += 1 + len;
        return ' ';
    }
    return pgn_line_advance(column, len, width);
}

/* The separators after the first word (pgn_line_wrap_first's column after it given): `tail` holds
 * the blanks of body[first, blen) (bit k: body[first + k]), at most 64 bytes, whose words
 * may start with '%' (never at a line's start). */
static void wrap_tail(struct pgn_line *w, size_t column, char *body, size_t blen, size_t first,
                      uint64_t tail)
{
    size_t width = w->width; /* in a local: the stores to body could alias *w */
    if (first < blen) {
        size_t word = first + 1; /* tail's bit 0 is the blank before it */
        for (tail &= tail - 1; tail; tail &= tail - 1) {
            size_t end = first + (size_t)__builtin_ctzll(tail);
            body[word - 1] = advance_word(&column, end - word, body[word], width);
            word = end + 1;
        }
        body[word - 1] = advance_word(&column, blen - word, body[word], width);
    }
    body[blen] = pgn_line_advance(&column, 1, width); /* before "}" */
    w->column = column;
}

/* pgn_line_wrap_first() and wrap_tail() for a longer text: its blanks found byte by byte. */
void pgn_line_wrap_slow(struct pgn_line *w, char *p, size_t at, char *body, size_t blen)
{
    size_t column = w->column, word = 0, extra = 2; /* "{ " belongs to the first word */
    size_t width = w->width; /* in a local: the stores to body could alias *w */
    for (size_t i = 0; i <= blen; i++) {
        if (i < blen && body[i] != ' ')
            continue;
        char sep = advance_word(&column, i - word + extra, extra ? '{' : body[word], width);
        if (!extra)
            body[word - 1] = sep;
        else if (at)
            p[0] = sep;
        extra = 0;
        word = i + 1;
    }
    body[blen] = pgn_line_advance(&column, 1, width);
    w->column = column;
}

/* Whether a word of body[0, blen) (at most 64 bytes, readable for 64: the output's room)
 * after its first starts with '%': blanks holds body's blanks. */
static bool starts_with_percent(const char *body, size_t blen, uint64_t blanks)
{
    uint64_t after_blank = blanks << 1;
    if (blen < 64)
        after_blank &= ((uint64_t)1 << blen) - 1;
    uint64_t pct = 0;
#ifdef __SSE2__
    const __m128i percent = _mm_set1_epi8('%');
    for (size_t i = 0; i < blen; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(body + i));
        pct |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, percent)) << i;
    }
#else
    for (size_t i = 0; i < blen; i++)
        pct |= (uint64_t)(body[i] == '%') << i;
#endif
    return (pct & after_blank) != 0;
}

/* put_comment() of a simple text (comment_is_simple, a word at least): its words are
 * the text without a blank at either end.  False: not simple, nothing written.  Inline
 * (with put_comment): once a ply in Lichess games, where the call cost ~25 instructions. */
static inline PGNKIT_HOT bool put_simple_comment(struct pgn_line *w, const char *s, size_t len)
{
    uint64_t blanks;
    if (!comment_is_simple(s, len, &blanks))
        return false;
    size_t a = len && s[0] == ' ';
    size_t b = len > a && s[len - 1] == ' ' ? len - 1 : len;
    if (a >= b)
        return false; /* no word: "{ }" */
    size_t blen = b - a, total = blen + 4, at = w->column ? 1 : 0;
    char *p = buf_reserve(w->out, total + 1 + 16);
    memcpy(p + at, "{ ", 2);
    char *body = p + at + 2;
    pgn_line_copy(body, s + a, blen);
    memcpy(body + blen, " }", 2);
    if (w->column + at + total <= w->width) {
        /* Fits whole on the line: every separator a blank. */
        if (at)
            p[0] = ' ';
        w->column += at + total;
    } else if (b <= 64) {
        /* The text's mask covers the body: its blanks from the first word's end on. */
        uint64_t body_blanks = (blanks >> a) & (((uint64_t)2 << (blen - 1)) - 1);
        size_t first = body_blanks ? (size_t)__builtin_ctzll(body_blanks) : blen;
        size_t column = pgn_line_wrap_first(w, p, at, first, blen - first);
        if (column && w->width == PGN_LINE_COLUMNS && !starts_with_percent(body, blen, body_blanks))
            pgn_line_wrap_tail_once(w, column, body, blen, first, body_blanks >> first);
        else if (column)
            wrap_tail(w, column, body, blen, first, body_blanks >> first);
    } else {
        pgn_line_wrap_slow(w, p, at, body, blen);
    }
    w->out->len += at + total;
    w->out->data[w->out->len] = '\0';
    return true;
}

void pgn_line_comment(struct pgn_line *w, const char *s, size_t len)
{
    if (!put_simple_comment(w, s, len)) {
        if (!pgn_line_words(w, "{ ", s, len))
            pgn_line_word(w, "{", "", 0);
        pgn_line_word(w, "", "}", 1);
    }
}

