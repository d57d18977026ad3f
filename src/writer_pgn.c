/*
 * writer_pgn.c - `pgnkit pgn` and `pgnkit fen --comments`: a replayed game re-emitted in
 * the PGN export format (PGN standard §8), and the --fixes report of what changed.
 *
 * Owns: tag order and escapes, canonical SAN for mainline and variation moves (walked
 * with an explicit stack of positions, never recursion), export move numbers, comments,
 * NAGs, variations, 80-column wrapping, the termination marker.  Does not own replay:
 * it trusts the moves the replay resolved (game_part_first/next: a game of many tokens
 * comes in parts) and only re-plays those moves to know each position.
 *
 * Decisions (also in the man page):
 * - Tags: the Seven Tag Roster first, in order, missing ones filled ("?", Date
 *   "????.??.??"); repeated roster tags keep the first; other tags follow in input
 *   order.  Values escape \ and ".
 * - Result: the Result tag wins when it is a valid result; else the game's termination
 *   marker; else "*".  The Result tag and the marker written are always equal.
 * - Move numbers are recomputed from the board: always before a white move; before a
 *   black move only at the start of a line or after a comment, NAG or variation
 *   (§8.2.2.2: "intervening annotation or commentary").  Input numbers are dropped.
 * - Suffix annotations become NAGs ($1 ! $2 ? $3 !! $4 ?? $5 !? $6 ?!, and the other
 *   glyphs of san_glyph_nag()), as do glyphs written as their own word.
 * - Comments are written "{ words }": whitespace runs become one space, so a comment may
 *   wrap at any space; ';' comments become brace comments; a '}' inside one (the only
 *   place it can occur) becomes ')'.  A line never starts with '%' (an escape line).
 * - A line (mainline or variation) stopped by an error keeps the moves played, then
 *   its unplayable remainder, as written, in one comment
 *   "{ pgnkit: not replayed (CODE): 23. Nxe5 ... }" (inner comments as "< text >"),
 *   so nothing is lost and the output replays cleanly.  A variation that was not
 *   replayed at all (--no-variations) is copied as written.
 * - Shaping (writer_options): --no-comments, --no-nags (suffix annotations too) and
 *   --no-variations leave those out; the "not replayed" comment stays, since it holds
 *   moves.  Added tags (--add-tags) follow the game's own tags, replacing one of the same
 *   name.  --fix-result: a final checkmate or stalemate decides the result written
 *   (a fix[RESULT] line says so when it differs from the tag or marker).
 * - A game that could not be set up (bad FEN tag, unsupported variant) is copied as
 *   written (tags ordered as above).  A game skipped without its bytes (over the size
 *   limit) writes nothing: its diagnostic on stderr is all that is left of it.
 * Output is a fixed point: `pgnkit pgn` of its own output is byte-identical.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "pgnkit/ctrl.h"
#include "pgnkit/fen.h"
#include "pgnkit/san_resolve.h"
#include "pgnkit/uci.h"
#include "pgnkit/writer.h"
#include "pgnkit/xalloc.h"
#include "position_internal.h"
#include "writer_internal.h"

enum { LINE_MAX_COLUMNS = 80, INLINE_LEVELS = 16 };

/* One line of play (the mainline or an open variation). */
struct pgn_level {
    struct position current;     /* before the line's next move */
    struct position before_last; /* where a sibling variation starts */
    uint32_t ply;                /* plies from the game's start to current */
    bool has_last;
    bool raw;                    /* positions unknown: copy tokens as written */
};

struct pgn_out {
    struct buf *out;
    struct buf *fixes;           /* NULL: no --fixes report */
    const struct game_record *rec;
    struct game_part part;       /* the part of the game's tokens being written */
    const struct writer_options *o;
    bool fen_comments;
    bool fen_pending;            /* a mainline move was written; its FEN comment is due */
    bool force_number;           /* the next black move needs "N..." */
    size_t column;
    bool remainder;              /* inside a "not replayed" comment */
    size_t remainder_nest;       /* '(' opened inside that comment */
    struct pgn_level *levels;
    size_t depth, cap;
    size_t next_diag;            /* error_at's cursor: diags before it lie before the token */
    struct fen_text fen_text;    /* fen_comments: the mainline position's board field */
    struct pgn_level inline_levels[INLINE_LEVELS];
};

static const char *const roster[7] = {"Event", "Site", "Date", "Round", "White", "Black",
                                      "Result"};

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

/* The separator before a word of total bytes starting with first, into p (its bytes
 * returned), and the column after it: a blank, or a line end when the word would pass
 * column 80.  A word starting with '%' never starts a line (it would read as an escape
 * line): no wrap before it, and a blank before it as the first word of the movetext. */
static size_t put_separator(struct pgn_out *w, char first, size_t total, char *p)
{
    if (w->column) {
        bool fits = w->column + 1 + total <= LINE_MAX_COLUMNS;
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
static void put_plain_word(struct pgn_out *w, const char *pre, size_t prelen, const char *s,
                           size_t len)
{
    size_t total = prelen + len;
    char first = prelen ? pre[0] : len ? s[0] : '\0';
    char *p = buf_reserve(w->out, total + 1);
    size_t n = put_separator(w, first, total, p);
    memcpy(p + n, pre, prelen);
    memcpy(p + n + prelen, s, len);
    n += total;
    w->out->len += n;
    w->out->data[w->out->len] = '\0';
    w->column += total;
}

/* put_plain_word() of a word of at most 32 bytes from a buffer readable for 32: copied as
 * 32, a fixed-size copy where a library call cost more than the word (once a ply). */
static void put_short_word(struct pgn_out *w, const char *s, size_t len)
{
    char *p = buf_reserve(w->out, 1 + 32);
    size_t n = put_separator(w, len ? s[0] : '\0', len, p);
    memcpy(p + n, s, 32);
    w->out->len += n + len;
    w->out->data[w->out->len] = '\0';
    w->column += len;
}

/* put_plain_word() for any word: a control character is written as U+FFFD, and in
 * comment text (in_comment), where a '}' would end the comment, '}' as ')'. */
static void put_word_ex(struct pgn_out *w, const char *pre, const char *s, size_t len,
                        bool in_comment)
{
    size_t prelen = strlen(pre);
    /* Comment text may hold control characters, and a token a C1 one (C2 80-9F is no
     * delimiter): each is written as U+FFFD. */
    bool ctrl = ctrl_find(s, len) < len;
    if (!ctrl && (!in_comment || !memchr(s, '}', len))) {
        put_plain_word(w, pre, prelen, s, len);
        return;
    }
    size_t total = prelen + (ctrl ? ctrl_clean_size(s, len) : len);
    char first = prelen ? pre[0] : len ? s[0] : '\0';
    if (w->column) {
        bool fits = w->column + 1 + total <= LINE_MAX_COLUMNS;
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

static void put_word(struct pgn_out *w, const char *pre, const char *s, size_t len)
{
    put_word_ex(w, pre, s, len, false);
}

/* The words of s[0..len), the first one prefixed by pre; returns how many.  Comment
 * text: the test for bytes to clean is made once for the whole text. */
static size_t put_words(struct pgn_out *w, const char *pre, const char *s, size_t len)
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
            put_plain_word(w, count ? "" : pre, count ? 0 : prelen, s + start, i - start);
        else
            put_word_ex(w, count ? "" : pre, s + start, i - start, true);
        count++;
    }
    return count;
}

/* advance(): the column after a word of len bytes, and the separator before it ('\n'
 * when it would pass column 80, '\0' for none at a line's start); put_plain_word()'s
 * rule for a word that does not start with '%'. */
static char advance(size_t *column, size_t len)
{
    if (!*column) {
        *column = len;
        return '\0';
    }
    bool fits = *column + 1 + len <= LINE_MAX_COLUMNS;
    *column = fits ? *column + 1 + len : len;
    return fits ? ' ' : '\n';
}

/* ---- comments already in their written form ---- */

/*
 * Most comments (a clock comment after every move of a Lichess game, an engine's
 * evaluation) are already written as put_words() would write them: words one blank
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
PGNKIT_NOINLINE bool short_comment_is_simple(const char *s, size_t len, uint64_t *blanks)
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
PGNKIT_HOT bool comment_is_simple(const char *s, size_t len, uint64_t *blanks)
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

/* s[0, n) to p by fixed-size copies, overlapping ones for the last bytes: none reads
 * outside s[0, n) (a token's text) nor writes outside p[0, n). */
static inline void copy_text(char *p, const char *s, size_t n)
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

/* advance() for a word starting with first: a word starting with '%' never starts a line
 * (put_separator()'s rule; never the first word, here). */
static char advance_word(size_t *column, size_t len, char first)
{
    if (first == '%' && *column) {
        *column += 1 + len;
        return ' ';
    }
    return advance(column, len);
}

/* The separators after the first word (wrap_first's column after it given): `tail` holds
 * the blanks of body[first, blen) (bit k: body[first + k]), at most 64 bytes, whose words
 * may start with '%' (never at a line's start). */
static void wrap_tail(struct pgn_out *w, size_t column, char *body, size_t blen, size_t first,
                      uint64_t tail)
{
    if (first < blen) {
        size_t word = first + 1; /* tail's bit 0 is the blank before it */
        for (tail &= tail - 1; tail; tail &= tail - 1) {
            size_t end = first + (size_t)__builtin_ctzll(tail);
            body[word - 1] = advance_word(&column, end - word, body[word]);
            word = end + 1;
        }
        body[word - 1] = advance_word(&column, blen - word, body[word]);
    }
    body[blen] = advance(&column, 1); /* before "}" */
    w->column = column;
}

/*
 * wrap_tail() when no word of the tail starts with '%' (a FEN's never does): the line
 * breaks at most once in it, before its first word that ends past column 80, since the
 * rest (at most 64 bytes, then " }") fits on the new line.  That word's blank is the last
 * one at most 80 - column bytes into the tail (a word ending there still fits).
 */
static inline void wrap_tail_once(struct pgn_out *w, size_t column, char *body, size_t blen,
                                  size_t first, uint64_t tail)
{
    size_t len = blen - first; /* the tail, its first blank included */
    if (column + len <= LINE_MAX_COLUMNS) {
        body[blen] = '\n'; /* the words fit, "}" does not */
        w->column = 1;
        return;
    }
    /* len > 80 - column, so 80 - column < 64 here. */
    uint64_t fit = column < LINE_MAX_COLUMNS
                       ? tail & (((uint64_t)2 << (LINE_MAX_COLUMNS - column)) - 1)
                       : 1;
    size_t b = 63 - (size_t)__builtin_clzll(fit | 1);
    body[first + b] = '\n';
    w->column = len - b + 1; /* the rest, a blank and "}" */
}

/*
 * The separators of "{ body }" written in place (body: words one blank apart) whose line
 * passes column 80, as put_words() would write them: p[0] before "{ " when `at`, else
 * the blank before each word, and the one before "}".  Here the first word's (body[0,
 * first) after "{ "); when the rest (rest bytes and " }") fits on its line, its blanks
 * stay blanks and 0 is returned, else the column after the first word, for wrap_tail().
 * Inline: this settles most FENs (their fields after the board fit).
 */
static inline size_t wrap_first(struct pgn_out *w, char *p, size_t at, size_t first,
                                size_t rest)
{
    size_t column = w->column;
    char sep = advance(&column, first + 2);
    if (at)
        p[0] = sep;
    if (column + rest + 2 <= LINE_MAX_COLUMNS) {
        w->column = column + rest + 2;
        return 0;
    }
    return column;
}

/* wrap_first() and wrap_tail() for a longer text: its blanks found byte by byte. */
static void wrap_words_slow(struct pgn_out *w, char *p, size_t at, char *body, size_t blen)
{
    size_t column = w->column, word = 0, extra = 2; /* "{ " belongs to the first word */
    for (size_t i = 0; i <= blen; i++) {
        if (i < blen && body[i] != ' ')
            continue;
        char sep = advance_word(&column, i - word + extra, extra ? '{' : body[word]);
        if (!extra)
            body[word - 1] = sep;
        else if (at)
            p[0] = sep;
        extra = 0;
        word = i + 1;
    }
    body[blen] = advance(&column, 1);
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
PGNKIT_HOT bool put_simple_comment(struct pgn_out *w, const char *s, size_t len)
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
    copy_text(body, s + a, blen);
    memcpy(body + blen, " }", 2);
    if (w->column + at + total <= LINE_MAX_COLUMNS) {
        /* Fits whole on the line: every separator a blank. */
        if (at)
            p[0] = ' ';
        w->column += at + total;
    } else if (b <= 64) {
        /* The text's mask covers the body: its blanks from the first word's end on. */
        uint64_t body_blanks = (blanks >> a) & (((uint64_t)2 << (blen - 1)) - 1);
        size_t first = body_blanks ? (size_t)__builtin_ctzll(body_blanks) : blen;
        size_t column = wrap_first(w, p, at, first, blen - first);
        if (column && !starts_with_percent(body, blen, body_blanks))
            wrap_tail_once(w, column, body, blen, first, body_blanks >> first);
        else if (column)
            wrap_tail(w, column, body, blen, first, body_blanks >> first);
    } else {
        wrap_words_slow(w, p, at, body, blen);
    }
    w->out->len += at + total;
    w->out->data[w->out->len] = '\0';
    return true;
}

PGNKIT_HOT void put_comment(struct pgn_out *w, const char *s, size_t len)
{
    if (!put_simple_comment(w, s, len)) {
        if (!put_words(w, "{ ", s, len))
            put_word(w, "{", "", 0);
        put_word(w, "", "}", 1);
    }
    w->force_number = true;
}

/* "12. " (white) or "12... " into num (at least 16 bytes, no NUL); returns its length.
 * Once per white move, where snprintf cost more than the rest of the move's writing. */
static size_t put_move_number(char *num, uint32_t number, bool white)
{
    size_t len = decimal_put(num, number);
    memcpy(num + len, white ? ". \0\0" : "... ", 4);
    return len + (white ? 2 : 4);
}

/* The move after its number when it needs one ("12. e4", "12... e5", "e5"): one word,
 * so a line never ends between a number and its move -- except inside a comment, where
 * a re-read splits at every space, so must this write. */
static void put_numbered(struct pgn_out *w, const struct position *pos, const char *move,
                         size_t len, bool in_comment)
{
    char num[24] = "";
    if (pos->side_to_move == WHITE || w->force_number)
        num[put_move_number(num, pos->fullmove_number, pos->side_to_move == WHITE)] = '\0';
    if (in_comment && num[0]) {
        put_word(w, "", num, strlen(num) - 1);
        num[0] = '\0';
    }
    put_word_ex(w, num, move, len, in_comment);
    w->force_number = false;
}

/* put_numbered() of a canonical SAN in its 16-byte buffer (san_write's): number and move
 * put together by fixed-size copies, then written as one short word. */
static void put_numbered_san(struct pgn_out *w, const struct position *pos, const char san[16],
                             size_t len)
{
    char word[48];
    size_t n = 0;
    if (pos->side_to_move == WHITE || w->force_number)
        n = put_move_number(word, pos->fullmove_number, pos->side_to_move == WHITE);
    memcpy(word + n, san, 16);
    put_short_word(w, word, n + len);
    w->force_number = false;
}

/* "$n" for a glyph's NAG (1-146), a word of its own; snprintf cost ~650 instructions a
 * glyph (Lichess games mark many moves ?! ? ??). */
static void put_nag(struct pgn_out *w, int nag)
{
    char text[24] = "$";
    size_t n = 1 + decimal_put(text + 1, (unsigned)nag);
    put_plain_word(w, "", 0, text, n);
    w->force_number = true;
}

/* ---- the --fixes report ---- */

static void fix(struct pgn_out *w, const char *kind, uint64_t line, uint64_t col, uint32_t ply,
                const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void fix(struct pgn_out *w, const char *kind, uint64_t line, uint64_t col, uint32_t ply,
                const char *fmt, ...)
{
    if (!w->fixes)
        return;
    const struct pgn_game *g = w->rec->game;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ctrl_put_line(w->fixes, g->file, strlen(g->file));
    buf_printf(w->fixes, ":%llu:%llu: fix[%s]: game ", (unsigned long long)line,
               (unsigned long long)col, kind);
    if (g->index)
        buf_put_u64(w->fixes, g->index);
    else
        buf_printf(w->fixes, "at byte %llu", (unsigned long long)g->offset);
    if (ply)
        buf_printf(w->fixes, ", ply %u", ply);
    buf_puts(w->fixes, ": ");
    ctrl_put_line(w->fixes, msg, strlen(msg));
    buf_putc(w->fixes, '\n');
}

/* ---- tags ---- */

static bool is_result_text(const struct slice *s)
{
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
    for (int i = 0; i < 4; i++)
        if (s->len == strlen(results[i]) && memcmp(s->ptr, results[i], s->len) == 0)
            return true;
    return false;
}

/* The index in roster[] of a tag name, or -1: by its length, then a fixed-size compare
 * or two (every tag of every game asks; a loop of strlen and memcmp over the roster cost
 * ~60 instructions a tag). */
static int roster_index(const struct slice *name)
{
    const char *p = name->ptr;
    switch (name->len) {
    case 4:
        return memcmp(p, "Site", 4) == 0 ? 1 : memcmp(p, "Date", 4) == 0 ? 2 : -1;
    case 5:
        return memcmp(p, "Event", 5) == 0   ? 0
               : memcmp(p, "Round", 5) == 0 ? 3
               : memcmp(p, "White", 5) == 0 ? 4
               : memcmp(p, "Black", 5) == 0 ? 5
                                            : -1;
    case 6:
        return memcmp(p, "Result", 6) == 0 ? 6 : -1;
    default:
        return -1;
    }
}

/* The game's termination marker: the one the replay met, else the game's last token if
 * it is a result (a game not replayed). */
static struct slice result_token(const struct game_record *rec)
{
    return rec->result_token.ptr ? rec->result_token : rec->ending_result;
}

static struct slice result_tag(const struct game_record *rec)
{
    const struct slice *tag = game_tag(rec->game, "Result");
    return tag ? *tag : (struct slice){NULL, 0};
}

/* The result written in the Result tag and as the termination marker. */
static struct slice game_result(const struct game_record *rec)
{
    struct slice tag = result_tag(rec), token = result_token(rec);
    if (tag.ptr && is_result_text(&tag))
        return tag;
    if (token.ptr)
        return token;
    return (struct slice){"*", 1};
}

/* One reservation per tag, the worst case of every value byte escaped: tags are most of
 * the bytes `uci --format pgn` writes, and a call per byte showed in profiles (11%). */
void writer_put_tag(struct buf *out, const char *name, size_t name_len, const char *value,
                    size_t len)
{
    char *p = buf_reserve(out, name_len + 3 * len + 6);
    size_t n = 0;
    p[n++] = '[';
    copy_text(p + n, name, name_len); /* fixed-size copies: a memcpy call cost more */
    n += name_len;
    p[n++] = ' ';
    p[n++] = '"';
    /* Nearly every value has nothing to escape: one pass finds that, a table look-up a
     * byte (tag values are short: the 5 tests a byte, vectorized, cost more), and one
     * copy writes it (a test and a store per byte cost 10% of uci --format pgn). */
    static const uint8_t special_byte[256] = {
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* C0 controls */
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        ['"'] = 1, ['\\'] = 1, [0x7f] = 1,
        [0xc2] = 1, /* maybe a C1 control */
    };
    const unsigned char *u = (const unsigned char *)value;
    unsigned special = 0;
    for (size_t i = 0; i < len; i++)
        special |= special_byte[u[i]];
    if (!special) {
        copy_text(p + n, value, len);
        n += len;
    } else {
        for (size_t i = 0; i < len; i++) {
            size_t c = ctrl_len(value, i, len);
            if (c) {
                memcpy(p + n, "\xef\xbf\xbd", 3); /* U+FFFD: never a raw control character */
                n += 3;
                i += c - 1;
                continue;
            }
            if (value[i] == '"' || value[i] == '\\')
                p[n++] = '\\';
            p[n++] = value[i];
        }
    }
    memcpy(p + n, "\"]\n", 3);
    out->len += n + 3;
    out->data[out->len] = '\0';
}

/* Fixes about the roster: added, repeated, out of order. */
static void note_tag_fixes(struct pgn_out *w)
{
    const struct pgn_game *g = w->rec->game;
    bool seen[7] = {false}, in_order = true;
    int last = -1;
    for (size_t i = 0; i < g->tag_count; i++) {
        int k = roster_index(&g->tags[i].name);
        if (k < 0) {
            last = 7;
            continue;
        }
        if (seen[k])
            fix(w, "TAG_REPEATED", g->tags[i].line, g->tags[i].col, 0,
                "a second %s tag is dropped", roster[k]);
        else if (k < last)
            in_order = false;
        seen[k] = true;
        last = k > last ? k : last;
    }
    char added[64] = "";
    for (int k = 0; k < 7; k++)
        if (!seen[k])
            snprintf(added + strlen(added), sizeof added - strlen(added), "%s%s",
                     added[0] ? ", " : "", roster[k]);
    if (added[0])
        fix(w, "TAG_ADDED", g->line, 1, 0, "missing roster tags added: %s", added);
    if (!in_order)
        fix(w, "TAG_ORDER", g->line, 1, 0, "Seven Tag Roster moved first, in order");
}

/* An added tag's value into value; false to leave it out. */
static bool added_value(const struct pgn_out *w, const char *name, struct buf *value)
{
    const struct game_record *rec = w->rec;
    if (!rec->started)
        return false; /* nothing was replayed */
    if (strcmp(name, "PlyCount") == 0) {
        buf_put_u64(value, rec->mainline_count);
        return true;
    }
    if (strcmp(name, "FinalFEN") == 0) {
        char fen[FEN_MAX];
        buf_append(value, fen, fen_write(&rec->final, fen, sizeof fen, w->o->fen_flags));
        return true;
    }
    if (strcmp(name, "ECO") == 0 || strcmp(name, "Opening") == 0) {
        if (!rec->opening)
            return false; /* not classified: the game's own tag, if any, stays */
        buf_puts(value, name[0] == 'E' ? rec->opening->eco : rec->opening->name);
        return true;
    }
    return w->o->tag_value && w->o->tag_value(w->o->tag_value_ctx, rec, name, value);
}

/* Whether the game's own tag of this name gives way to an added one: only when the
 * added one has a value (so an unclassified game keeps its own ECO, as pgn-extract -e
 * does). */
static bool is_replaced(const struct pgn_out *w, const struct slice *name)
{
    const struct writer_options *o = w->o;
    for (size_t k = 0; k < o->add_tag_count; k++) {
        if (name->len != strlen(o->add_tags[k]) || memcmp(name->ptr, o->add_tags[k], name->len))
            continue;
        struct buf value;
        buf_init(&value);
        bool has = added_value(w, o->add_tags[k], &value);
        buf_release(&value);
        return has;
    }
    return false;
}

static void write_added_tags(struct pgn_out *w)
{
    if (!w->o->add_tag_count)
        return;
    struct buf value;
    buf_init(&value);
    for (size_t k = 0; k < w->o->add_tag_count; k++) {
        const char *name = w->o->add_tags[k];
        buf_clear(&value);
        if (added_value(w, name, &value))
            writer_put_tag(w->out, name, strlen(name), value.data ? value.data : "", value.len);
    }
    buf_release(&value);
}

static void write_tags(struct pgn_out *w, struct slice result)
{
    const struct pgn_game *g = w->rec->game;
    /* Each roster tag's first occurrence (game_tag's answer), in one pass. */
    size_t first[7] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX};
    for (size_t i = 0; i < g->tag_count; i++) {
        int k = roster_index(&g->tags[i].name);
        if (k >= 0 && first[k] == SIZE_MAX)
            first[k] = i;
    }
    for (int k = 0; k < 7; k++) {
        const char *fill = k == 2 ? "????.??.??" : "?";
        struct slice value = k == 6                  ? result
                             : first[k] != SIZE_MAX ? g->tags[first[k]].value
                                                    : (struct slice){fill, strlen(fill)};
        writer_put_tag(w->out, roster[k], strlen(roster[k]), value.ptr, value.len);
    }
    for (size_t i = 0; i < g->tag_count; i++)
        if (roster_index(&g->tags[i].name) < 0 && !is_replaced(w, &g->tags[i].name))
            writer_put_tag(w->out, g->tags[i].name.ptr, g->tags[i].name.len, g->tags[i].value.ptr,
                    g->tags[i].value.len);
    write_added_tags(w);
    buf_putc(w->out, '\n');
    if (w->fixes)
        note_tag_fixes(w);
}

static void note_result_fixes(struct pgn_out *w, struct slice result)
{
    struct slice tag_value = result_tag(w->rec), token = result_token(w->rec);
    const struct slice *tag = &tag_value, *tok = &token;
    uint64_t line = w->rec->game->line;
    if (tag->ptr && (tag->len != result.len || memcmp(tag->ptr, result.ptr, result.len) != 0))
        fix(w, "RESULT", line, 1, 0, "Result tag \"%.*s\" is not a result: now %.*s",
            (int)tag->len, tag->ptr, (int)result.len, result.ptr);
    if (!tok->ptr)
        fix(w, "RESULT", line, 1, 0, "termination marker %.*s added", (int)result.len,
            result.ptr);
    else if (tok->len != result.len || memcmp(tok->ptr, result.ptr, result.len) != 0)
        fix(w, "RESULT", line, 1, 0, "termination marker %.*s replaced by the Result tag's %.*s",
            (int)tok->len, tok->ptr, (int)result.len, result.ptr);
}

/* ---- levels ---- */

static struct pgn_level *top(struct pgn_out *w) { return &w->levels[w->depth]; }

static void push_level(struct pgn_out *w)
{
    if (w->depth + 1 >= w->cap) {
        size_t cap = w->cap * 2;
        struct pgn_level *grown = xmalloc(cap * sizeof *grown);
        memcpy(grown, w->levels, (w->depth + 1) * sizeof *grown);
        if (w->levels != w->inline_levels)
            free(w->levels);
        w->levels = grown;
        w->cap = cap;
    }
    struct pgn_level *parent = &w->levels[w->depth], *child = &w->levels[w->depth + 1];
    child->raw = parent->raw;
    child->has_last = false;
    if (!parent->raw) {
        child->current = parent->has_last ? parent->before_last : parent->current;
        child->ply = parent->has_last ? parent->ply - 1 : parent->ply;
    }
    w->depth++;
}

/* ---- moves ---- */

/* The blanks of s[0, len), len <= 32, as a mask (bit k: s[k]); s is readable for 32
 * bytes (the output's room). */
static uint64_t fen_blanks(const char *s, size_t len)
{
    uint64_t mask;
#ifdef __SSE2__
    const __m128i blank = _mm_set1_epi8(' ');
    __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
    mask = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, blank)) |
           (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, blank)) << 16;
#else
    mask = 0;
    for (size_t k = 0; k < 32; k++)
        mask |= (uint64_t)(s[k] == ' ') << k;
#endif
    return mask & (((uint64_t)1 << len) - 1);
}

/*
 * put_comment() of a FEN: "{ ", the FEN's words, " }".  Its words are one blank apart
 * and have nothing to clean, so the FEN is written in place in the output and only the
 * blanks where a line must break become line ends: the same bytes as word by word (a
 * FEN a ply made the word-by-word writing the largest cost of fen --comments).
 */
PGNKIT_HOT void write_fen_comment(struct pgn_out *w)
{
    w->fen_pending = false;
    const struct position *pos = &w->levels[0].current;
    /* fen_text_write writes 16-byte pieces, up to 16 bytes past the FEN; fen_blanks reads
     * 32 bytes from the board's end. */
    char *p = buf_reserve(w->out, FEN_MAX + 40);
    size_t at = w->column ? 1 : 0; /* p[0]: the separator before "{", if any */
    memcpy(p + at, "{ ", 2);
    char *fen = p + at + 2;
    size_t n, board_len;
    if (pos->variant) {
        n = fen_write(pos, fen, FEN_MAX, w->o->fen_flags);
        board_len = (size_t)((const char *)memchr(fen, ' ', n) - fen); /* pockets too */
    } else {
        n = fen_text_write(&w->fen_text, pos, fen, &board_len);
    }
    memcpy(fen + n, " }", 2);
    size_t column = wrap_first(w, p, at, board_len, n - board_len);
    if (column && n - board_len <= 32)
        wrap_tail_once(w, column, fen, n, board_len, fen_blanks(fen + board_len, n - board_len));
    else if (column)
        wrap_words_slow(w, p, at, fen, n);
    w->out->len += at + n + 4;
    w->out->data[w->out->len] = '\0';
    w->force_number = true;
}

/* The FEN comment due, if any (write_usual_run has its own copy of write_fen_comment). */
static void flush_fen(struct pgn_out *w)
{
    if (w->fen_pending)
        write_fen_comment(w);
}

/*
 * The number (when due) and canonical SAN of standard chess's usual move as one word
 * straight into the output, by fixed-size stores: a pawn move, or a piece move to a
 * square no other piece of its kind attacks (no disambiguation, so none of
 * write_disambiguation's legal-move questions).  san_write_marked()'s text for such a
 * move, mark included (tests/test_writer_pgn.c: every legal move of random.perft).
 * False for any other move (castling, null, a rival): nothing written.
 */
PGNKIT_HOT bool put_usual_move(struct pgn_out *w, const struct position *pos, struct move m,
                               char mark)
{
    if (m.flags & (MOVE_NULL | MOVE_CASTLE | MOVE_DROP))
        return false;
    enum piece_type piece = piece_type_of(pos->board[m.from]);
    int us = pos->side_to_move;
    if (piece != PAWN && (att_piece(piece, m.to, position_occupied(pos)) &
                          position_pieces(pos, (enum color)us, piece) & ~bb_square(m.from)))
        return false;
    size_t column = w->column, at = column ? 1 : 0; /* p[0]: the separator */
    char *p = buf_reserve(w->out, 1 + 32), *q = p + at;
    size_t n = 0;
    if (us == WHITE || w->force_number)
        n = put_move_number(q, pos->fullmove_number, us == WHITE);
    if (piece != PAWN) {
        q[n++] = "PNBRQK"[piece];
        if (m.flags & MOVE_CAPTURE)
            q[n++] = 'x';
    } else if (m.flags & MOVE_CAPTURE) {
        q[n++] = (char)('a' + square_file(m.from));
        q[n++] = 'x';
    }
    memcpy(q + n, uci_square_names[m.to], 2);
    n += 2;
    if (m.promo) {
        q[n++] = '=';
        q[n++] = "PNBRQK"[m.promo];
    }
    q[n] = mark; /* '\0' when none */
    n += mark != 0;
    if (at) {
        bool fits = column + 1 + n <= LINE_MAX_COLUMNS;
        p[0] = fits ? ' ' : '\n';
        column = fits ? column + 1 : 0;
    }
    w->column = column + n;
    w->out->len += at + n;
    w->out->data[w->out->len] = '\0';
    w->force_number = false;
    return true;
}

/* Standard chess: the move's pieces, then the checks it gives, which the replay found
 * (its mark is '+' or '#' exactly when the move gives check): the king's attackers
 * looked for only then.  pos_do_move found them from the move, for every move. */
PGNKIT_HOT void play_marked(struct position *pos, struct move m, char mark)
{
    pos_move_pieces(pos, m);
    int us = pos->side_to_move;
    pos->checkers = mark ? pos_attackers(pos, pos->king_square[us], us ^ 1,
                                         position_occupied(pos))
                         : 0;
}

/* Inline: write_usual_run() writes nearly every move (its call cost ~30 instructions). */
PGNKIT_HOT void write_played_move(struct pgn_out *w, const struct pgn_token *tok,
                                  const struct game_token_move *tm)
{
    struct pgn_level *lv = top(w);
    struct position *pos = &lv->current;
    bool standard = !pos->variant;
    /* --fixes compares the SAN with the token's: written by san_write_marked. */
    if (w->fixes || !standard || !put_usual_move(w, pos, tm->move, tm->check_mark)) {
        char san[16];
        size_t n = san_write_marked(pos, tm->move, tm->check_mark, san);
        put_numbered_san(w, pos, san, n);
        size_t written = tok->len - tm->suffix_len;
        if (w->fixes && (written != n || memcmp(tok->text, san, n) != 0))
            fix(w, "SAN", pgn_token_line(w->rec->game, tok), tok->col, tm->ply, "%.*s -> %s",
                (int)written, tok->text, san);
    }
    size_t suffix = tm->suffix_len;
    int glyph = suffix ? san_glyph_nag(tok->text + tok->len - suffix, suffix) : 0;
    if (glyph && !w->o->drop_nags)
        put_nag(w, glyph);
    /* Copied every move: looking ahead for a variation that may ask for it cost more
     * than the 160-byte copy. */
    lv->before_last = *pos;
    if (standard)
        play_marked(pos, tm->move, tm->check_mark);
    else
        position_do_move(pos, tm->move);
    lv->has_last = true;
    lv->ply = tm->ply;
    w->fen_pending = w->fen_comments && w->depth == 0;
    if (w->fen_pending && standard)
        fen_text_update(&w->fen_text, pos, tm->move);
}

/* Whether diagnostic d lies before the token's position (diags are in file order). */
static bool diag_before(const struct diag *d, uint64_t line, const struct pgn_token *tok)
{
    return d->line != line ? d->line < line : d->col < tok->col;
}

/*
 * The error diagnostic at a token's position, or NULL.  Tokens are written in file
 * order and the record's diagnostics are sorted so: a cursor that only moves forward
 * makes all the calls of a game one pass over its diagnostics, not one pass per error.
 */
static const struct diag *error_at(struct pgn_out *w, const struct pgn_token *tok)
{
    const struct diag_list *list = &w->rec->diags;
    uint64_t line = pgn_token_line(w->rec->game, tok);
    while (w->next_diag < list->count && diag_before(&list->items[w->next_diag], line, tok))
        w->next_diag++;
    for (size_t i = w->next_diag; i < list->count; i++) {
        const struct diag *d = &list->items[i];
        if (d->line != line || d->col != tok->col)
            break;
        if (d->severity == DIAG_ERROR)
            return d;
    }
    return NULL;
}

/* A move the replay did not play on a line still alive: the line ends here. */
static void start_unplayed(struct pgn_out *w, const struct pgn_token *tok)
{
    struct pgn_level *lv = top(w);
    const struct diag *d = error_at(w, tok);
    if (!d && w->depth > 0) {
        /* Not replayed at all (--no-variations): copy the variation as written. */
        put_numbered(w, &lv->current, tok->text, tok->len, false);
        lv->raw = true;
        return;
    }
    char head[64];
    snprintf(head, sizeof head, "(%s):", d ? diag_code_name(d->code) : "ERROR");
    put_word(w, "{ ", "pgnkit:", 7);
    put_word(w, "", "not", 3);
    put_word(w, "", "replayed", 8);
    put_word(w, "", head, strlen(head));
    /* The move number goes inside too, so the comment alone reads as movetext. */
    w->force_number = true;
    put_numbered(w, &lv->current, tok->text, tok->len, true);
    w->remainder = true;
    w->remainder_nest = 0;
    fix(w, "NOT_REPLAYED", pgn_token_line(w->rec->game, tok), tok->col, lv->ply + 1,
        "the line's moves from %.*s on are kept in a comment", (int)tok->len, tok->text);
}

/* A part never starts with the mark of a move in the part before (pgn_reader.h). */
static bool is_ep_mark_after_move(const struct game_part *part, size_t i)
{
    const struct pgn_token *tok = &part->tokens[i];
    bool nonstandard;
    return i > 0 && san_is_ep_mark(tok->text, tok->len, &nonstandard) &&
           part->moves[i - 1].played;
}

/* An annotation glyph written as its own word (game.c read it as a NAG): its NAG. */
static bool write_glyph_word(struct pgn_out *w, const struct pgn_token *tok)
{
    int nag = san_glyph_nag(tok->text, tok->len);
    if (!nag)
        return false;
    put_nag(w, nag);
    return true;
}

static void write_move_token(struct pgn_out *w, size_t i)
{
    const struct pgn_token *tok = &w->part.tokens[i];
    const struct game_token_move *tm = &w->part.moves[i];
    if (top(w)->raw) {
        put_word(w, "", tok->text, tok->len);
        w->force_number = false;
    } else if (tm->played) {
        write_played_move(w, tok, tm);
    } else if (!is_ep_mark_after_move(&w->part, i) && !write_glyph_word(w, tok)) {
        start_unplayed(w, tok);
    }
}

static void check_move_number(struct pgn_out *w, const struct pgn_token *tok)
{
    if (!w->fixes)
        return; /* only a --fixes report reads the number written */
    const struct position *pos = &top(w)->current;
    unsigned long number = 0;
    size_t k = 0, dots;
    while (k < tok->len && tok->text[k] >= '0' && tok->text[k] <= '9' && number < 100000000)
        number = number * 10 + (unsigned long)(tok->text[k++] - '0');
    dots = tok->len - k;
    if (number != pos->fullmove_number || (dots >= 3 && pos->side_to_move == WHITE))
        fix(w, "MOVE_NUMBER", pgn_token_line(w->rec->game, tok), tok->col, top(w)->ply + 1, "%.*s -> %u%s",
            (int)tok->len, tok->text, pos->fullmove_number,
            pos->side_to_move == WHITE ? "." : "...");
}

/* ---- the token walk ---- */

/* Inside a "not replayed" comment: tokens as written, until the line closes. */
static void write_remainder_token(struct pgn_out *w, const struct pgn_token *tok)
{
    switch (tok->kind) {
    case PGN_TOK_COMMENT:
    case PGN_TOK_LINE_COMMENT:
        put_word(w, "", "<", 1);
        put_words(w, "", tok->text, tok->len);
        put_word(w, "", ">", 1);
        return;
    case PGN_TOK_VARIATION_START:
        w->remainder_nest++;
        break;
    case PGN_TOK_VARIATION_END:
        w->remainder_nest--;
        break;
    default:
        break;
    }
    put_word(w, "", tok->text, tok->len);
}

static bool ends_remainder(const struct pgn_out *w, const struct pgn_token *tok)
{
    if (w->remainder_nest)
        return false;
    return tok->kind == PGN_TOK_VARIATION_END || (tok->kind == PGN_TOK_RESULT && w->depth == 0);
}

static void close_remainder(struct pgn_out *w)
{
    put_word(w, "", "}", 1);
    w->remainder = false;
    w->force_number = true;
}

/* A comment or a NAG, unless --no-comments / --no-nags drops it; after a NAG the next
 * move is numbered again. */
static inline void write_aside(struct pgn_out *w, const struct pgn_token *tok)
{
    if (tok->kind == PGN_TOK_NAG) {
        if (!w->o->drop_nags) {
            put_word(w, "", tok->text, tok->len);
            w->force_number = true;
        }
    } else if (!w->o->drop_comments) {
        put_comment(w, tok->text, tok->len);
    }
}

/* One token outside a remainder comment. */
static void write_token(struct pgn_out *w, size_t i)
{
    const struct pgn_token *tok = &w->part.tokens[i];
    if (tok->kind != PGN_TOK_NAG)
        flush_fen(w);
    switch (tok->kind) {
    case PGN_TOK_MOVE:
        write_move_token(w, i);
        return;
    case PGN_TOK_MOVE_NUMBER:
        if (top(w)->raw)
            put_word(w, "", tok->text, tok->len);
        else
            check_move_number(w, tok);
        return;
    case PGN_TOK_COMMENT:
    case PGN_TOK_LINE_COMMENT:
    case PGN_TOK_NAG:
        write_aside(w, tok);
        return;
    case PGN_TOK_VARIATION_START:
        push_level(w);
        put_word(w, "", "(", 1);
        break;
    case PGN_TOK_VARIATION_END:
        if (!w->depth)
            return;
        w->depth--;
        put_word(w, "", ")", 1);
        break;
    case PGN_TOK_RESULT:
        if (!w->depth)
            return; /* the termination marker is written at the end */
        put_word(w, "", tok->text, tok->len);
        break;
    }
    w->force_number = true;
}

/* --no-variations: whether tok is part of a variation left out; *nest counts the ones
 * open. */
static bool in_dropped_variation(const struct pgn_out *w, const struct pgn_token *tok,
                                 size_t *nest)
{
    if (!w->o->drop_variations)
        return false;
    if (tok->kind == PGN_TOK_VARIATION_START) {
        ++*nest;
        return true;
    }
    if (!*nest)
        return false;
    if (tok->kind == PGN_TOK_VARIATION_END)
        --*nest;
    return true;
}

/*
 * The tokens from i on, while they are the usual ones of a line being written: numbers,
 * played moves, comments and NAGs -- write_token()'s work for them, without its questions
 * about the walk's state, which a run of them does not change (the caller asked them
 * once: not in a "not replayed" comment nor a dropped variation, the line replayed, no
 * --fixes report).  Returns the first token not written.
 */
static size_t write_usual_run(struct pgn_out *w, size_t i)
{
    const struct pgn_token *tokens = w->part.tokens;
    const struct game_token_move *moves = w->part.moves;
    for (size_t count = w->part.count; i < count; i++) {
        const struct pgn_token *tok = &tokens[i];
        unsigned kind = tok->kind;
        if (kind > PGN_TOK_LINE_COMMENT || (kind == PGN_TOK_MOVE && !moves[i].played))
            return i; /* write_token()'s */
        if (kind != PGN_TOK_NAG && w->fen_pending)
            write_fen_comment(w);
        switch (kind) {
        case PGN_TOK_MOVE:
            write_played_move(w, tok, &moves[i]);
            break;
        case PGN_TOK_MOVE_NUMBER:
            break;
        default: /* a comment or a NAG */
            write_aside(w, tok);
            break;
        }
    }
    return i;
}

static void write_movetext(struct pgn_out *w, struct slice result)
{
    const struct pgn_game *g = w->rec->game;
    size_t dropped_nest = 0;
    for (bool more = game_part_first(w->rec, &w->part); more;
         more = game_part_next(w->rec, &w->part)) {
        for (size_t i = 0; i < w->part.count; i++) {
            if (!w->remainder && !dropped_nest && !w->fixes && !top(w)->raw &&
                (i = write_usual_run(w, i)) == w->part.count)
                break;
            const struct pgn_token *tok = &w->part.tokens[i];
            if (w->remainder && ends_remainder(w, tok))
                close_remainder(w);
            if (w->remainder)
                write_remainder_token(w, tok);
            else if (!in_dropped_variation(w, tok, &dropped_nest))
                write_token(w, i);
        }
    }
    if (w->remainder)
        close_remainder(w);
    flush_fen(w);
    for (; w->depth; w->depth--) {
        put_word(w, "", ")", 1);
        fix(w, "VARIATION_CLOSED", g->line, 1, 0, "an unterminated variation is closed");
    }
    put_word(w, "", result.ptr, result.len);
    buf_puts(w->out, "\n\n");
}

/* --fix-result: the result a final checkmate or stalemate decides, when the game's
 * (tag or marker) says otherwise.  True when *result was changed (and the fix noted). */
static bool decide_result(struct pgn_out *w, struct slice *result)
{
    const struct game_record *rec = w->rec;
    if (!rec->started || rec->error_ply || rec->end == GAME_END_NONE)
        return false;
    const char *want = rec->end == GAME_END_STALEMATE ? "1/2-1/2"
                       : rec->final.side_to_move == WHITE ? "0-1" : "1-0";
    struct slice tag = result_tag(rec), token = result_token(rec);
    bool tag_ok = tag.len == strlen(want) && memcmp(tag.ptr, want, tag.len) == 0;
    bool token_ok = token.len == strlen(want) && memcmp(token.ptr, want, token.len) == 0;
    if (tag_ok && token_ok)
        return false;
    fix(w, "RESULT", rec->game->line, 1, 0, "the game ends in %s: result %s (was: tag %.*s, "
        "marker %.*s)", rec->end == GAME_END_STALEMATE ? "stalemate" : "checkmate", want,
        (int)(tag.ptr ? tag.len : 4), tag.ptr ? tag.ptr : "none",
        (int)(token.ptr ? token.len : 4), token.ptr ? token.ptr : "none");
    *result = (struct slice){want, strlen(want)};
    return true;
}

void writer_pgn_fixes(struct buf *out, struct buf *fixes, const struct game_record *rec,
                      const struct writer_options *o)
{
    if (rec->game->skipped)
        return;
    /* Not the levels kept inline (5 KB) nor the FEN text: set as they are used (zeroing
     * them cost 8 instructions a ply). */
    struct pgn_out w;
    memset(&w, 0, offsetof(struct pgn_out, fen_text));
    w.out = out;
    w.fixes = fixes;
    w.rec = rec;
    w.o = o;
    w.fen_comments = o->fen_mode == FEN_MODE_COMMENTS;
    w.force_number = true;
    w.levels = w.inline_levels;
    w.cap = INLINE_LEVELS;
    w.levels[0].raw = !rec->started;
    w.levels[0].ply = 0;
    w.levels[0].has_last = false;
    if (rec->started) {
        w.levels[0].current = rec->start;
        if (w.fen_comments && !rec->start.variant)
            fen_text_init(&w.fen_text, &rec->start, o->fen_flags);
    }
    struct slice result = game_result(rec);
    bool decided = o->fix_result && decide_result(&w, &result);
    write_tags(&w, result);
    write_movetext(&w, result);
    if (!decided)
        note_result_fixes(&w, result);
    if (w.levels != w.inline_levels)
        free(w.levels);
}

void writer_pgn(struct buf *out, const struct game_record *rec, const struct writer_options *o)
{
    writer_pgn_fixes(out, NULL, rec, o);
}
