/*
 * pgn_lexer_fast.c - the lexer's fast path, scan_fast: the usual tokens (moves, move
 * numbers, comments closed on their line, usual tag pairs in a tag section, blanks and
 * line ends), which are nearly all the bytes of a game, with the loop's state in
 * registers and most tokens found by one vector step (a window) without bounds checks.
 *
 * Each token is read exactly as the token steps of pgn_lexer.c would read it; whatever
 * the fast path cannot finish (a result in a variation or spelled otherwise, a token cut
 * by the end of the data or over a limit, any other byte) it leaves to them.  It stops
 * after the game's result (at depth 0), which it reads.  It never reads more input, never
 * drops a token, never reports, and leaves tag pairs to them when a part is read again
 * (r->parts.relex).
 *
 * Writes r->scan (reader_scan.h) and the tokens and tags through emit() and push_tag()
 * (reader_buffer.h) and the result's place (r->parts.result_off, as pgn_lexer.c does);
 * reads r->parts.part_stop; offers pgn_lexer_fast_internal.h.
 */
#include "pgn/pgn_lexer_fast_internal.h"

#include "pgn/pgn_bytes.h"
#include "pgn/pgn_tags_internal.h"
#include "pgn/reader_buffer.h"

#include <stddef.h>
#include <string.h>

/*
 * Windows.  Far enough from the end of the data (WINDOW_SLACK bytes), the bytes after a
 * token's first byte are classified with one vector step and no bounds checks: a move
 * ends within 16 bytes, a move number's digits and dots are counted from two masks, a
 * comment's '}' is found among the next 32 (16 without AVX2).  A token found that way is
 * complete (it ends before the end of the data) and shorter than the limits, which
 * window_end() checks once: each such token skips scan_fast's general checks.  Anything
 * not found within its window takes the general path, which decides as before.
 */
#define WINDOW_SLACK 64

/* Index below which scan_fast may use windows: 0 (never) when the limits are below a
 * window's reach, so that a token found in a window is surely within them. */
static inline size_t window_end(const struct pgn_reader *r, size_t n)
{
#ifdef __SSSE3__
    if (n > WINDOW_SLACK && r->lim.max_token_bytes >= 16 && r->lim.max_comment_bytes >= 32)
        return n - WINDOW_SLACK;
#else
    (void)r;
    (void)n;
#endif
    return 0;
}

#ifdef __SSSE3__
/*
 * The length of the move number (digits then dots) at p, whose first byte is a digit: 16
 * when the 16 bytes at p hold no such number ending within them (a result, a bare
 * number, a longer one), which the general path then decides.  No dot after the digits
 * makes the first non-dot the first non-digit: e == k.
 */
static inline size_t number_window(const char *p)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    /* A byte minus '0' (wrapping) is 10 or more for anything but a digit. */
    __m128i nondigit = _mm_adds_epu8(_mm_sub_epi8(v, vc(VC_ZERO_CH)), vc(VC_SAT76));
    unsigned nd = (unsigned)_mm_movemask_epi8(nondigit) | 0x10000u;
    unsigned dots = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, vc(VC_DOT)));
    unsigned k = (unsigned)__builtin_ctz(nd); /* the first non-digit: a dot, or no number */
    unsigned e = (unsigned)__builtin_ctz(~(dots | ((1u << k) - 1))); /* the first non-dot */
    return e > k ? e : 16;
}
#endif

/*
 * number_window()'s answer for the usual move numbers, one or two digits then one dot
 * or three ("7.", "23.", "23..."), from a few bytes without a vector step: the length,
 * or 0 for anything else (more digits, two dots or four), which number_window() decides.
 * p[0] is a digit and p[1..5] are within the window.
 */
static inline size_t short_number(const char *p)
{
    size_t k = 1 + (size_t)is_digit(p[1]); /* the first byte after one or two digits */
    if (p[k] != '.')
        return 0;
    if (p[k + 1] != '.')
        return k + 1;
    return p[k + 2] == '.' && p[k + 3] != '.' ? k + 3 : 0;
}

/*
 * Index, from p, of the first '}' or byte up to CR in the window at p; the window's size if
 * none.  Bytes up to CR are LF and CR, and the control bytes below them.  The AVX2 window
 * stops at a few more bytes ('~', DEL, bytes >= 0x80), so that one range test finds them
 * all; the caller's d[close] == '}' test sends a comment stopped at any byte but '}' (a
 * tab, say, or UTF-8 text) to the general path, which finds the real stop.
 */
#if defined(__AVX2__)
/* The index of the first set bit of a 32-byte window's mask, 32 when none.  BMI's tzcnt
 * gives 32 for 0 by itself; otherwise a sentinel bit above the mask (a 64-bit constant
 * the loops would rebuild on their way in). */
static inline size_t window32_first(unsigned bits)
{
#ifdef __BMI__
    return (size_t)_tzcnt_u32(bits);
#else
    return (size_t)__builtin_ctzll((uint64_t)bits | ((uint64_t)1 << 32));
#endif
}
#endif

#if defined(__AVX2__)
/* comment_window's two constants, loaded once per scan_fast run: its loop then keeps
 * them in registers rather than loading them for each comment. */
struct comment_consts {
    __m256i shift, limit;
};
static const char comment_splats[][32] __attribute__((aligned(32))) = {SPLAT32(3), SPLAT32(17)};
static inline struct comment_consts comment_consts(void)
{
    /* Loads the compiler cannot see through (see splat32): it would otherwise rebuild
     * them per comment, and compare by min and equality rather than one greater-than. */
    struct comment_consts k;
    __asm__("vmovdqa %1, %0" : "=x"(k.shift) : "m"(*(const __m256i *)(const void *)comment_splats[0]));
    __asm__("vmovdqa %1, %0" : "=x"(k.limit) : "m"(*(const __m256i *)(const void *)comment_splats[1]));
    return k;
}
#else
struct comment_consts {
    char unused;
};
static inline struct comment_consts comment_consts(void) { return (struct comment_consts){0}; }
#endif

static inline size_t comment_window(const char *p, struct comment_consts k)
{
#if defined(__AVX2__)
    /* v + 3 below 17 (signed) for 0x7D-0xFF (-128..2) and 0x00-0x0D (3..16): '}', the
     * bytes up to CR, and '~', DEL and the bytes >= 0x80, which then stop the window
     * too (see above): one add and one compare. */
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i hit = _mm256_cmpgt_epi8(k.limit, _mm256_add_epi8(v, k.shift));
    return window32_first((unsigned)_mm256_movemask_epi8(hit));
#elif defined(__SSE2__)
    (void)k;
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('}')),
                               _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                            _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
    return (size_t)__builtin_ctz((unsigned)_mm_movemask_epi8(hit) | 0x10000u);
#else
    (void)p, (void)k;
    return 0; /* never used: window_end() is 0 without SSSE3 */
#endif
}

#if defined(__AVX2__)
#define VALUE_WINDOW 32
#else
#define VALUE_WINDOW 16
#endif

#ifdef __SSSE3__
/* Index, from p, of the first '"', '\\' or byte up to CR (see comment_window) in the window
 * at p (a tag value's find_stop in one step); VALUE_WINDOW if none.  Only tag_window's
 * vector path uses it. */
static inline size_t value_window(const char *p)
{
#if defined(__AVX2__)
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i low = _mm256_cmpeq_epi8(_mm256_min_epu8(v, splat32('\r')), v);
    __m256i hit = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(v, splat32('"')), _mm256_cmpeq_epi8(v, splat32('\\'))),
        low);
    return window32_first((unsigned)_mm256_movemask_epi8(hit));
#else
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i quote = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                 _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    __m128i hit = _mm_or_si128(quote, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                                   _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
    return (size_t)__builtin_ctz((unsigned)_mm_movemask_epi8(hit) | 0x10000u);
#endif
}
#endif

#if defined(__AVX2__)
/* A 16-byte constant of vec_const in both halves of a 32-byte register (vpshufb looks up
 * within each half), loaded by one broadcast. */
static inline __m256i vc2(int k)
{
    __m256i v;
    __asm__("vbroadcasti128 %1, %0" : "=x"(v) : "m"(*(const __m128i *)(const void *)vec_const[k]));
    return v;
}

/*
 * tag_window's two masks of a 32-byte window from one nibble lookup (delim_bits32's):
 * its tables (pgn_bytes.h's, bits 0x01 to 0x10) with three more bits, each a block of
 * value_window's stops: 0x20 for high nibble 0 and low nibble 0 to 13 (bytes up to CR),
 * 0x40 for '"' (2, 2), 0x80 for '\\' (5, 12).  A byte's class (lo & hi) is 0x20 or more
 * exactly when it is a value's stop, and not 0 when it is a delimiter or a '\\', which
 * ends a name as well: such a name then fails tag_window's ' "' test and is left to
 * the token steps.  Two instructions a tag for the value's mask instead of seven.
 */
static const uint8_t tag_const[][16] __attribute__((aligned(16))) = {
#define TC_LO_TAB 0
    {0x23, 0x21, 0x63, 0x21, 0x23, 0x21, 0x21, 0x21, 0x23, 0x23, 0x21, 0x3d, 0xa5, 0x39, 0x05,
     0x11},
#define TC_HI_TAB 1
    {0x21, 0x01, 0x42, 0x04, 0x00, 0x88, 0x00, 0x10, 0, 0, 0, 0, 0, 0, 0, 0},
#define TC_SAT60 2 /* + 0x60 saturating: classes 0x20 and up get their top bit */
    {0x60, 0x60, 0x60, 0x60, 0x60, 0x60, 0x60, 0x60, 0x60, 0x60, 0x60, 0x60, 0x60, 0x60, 0x60,
     0x60},
};

/* A tag_const in both halves of a 32-byte register (as vc2). */
static inline __m256i tc2(int k)
{
    __m256i v;
    __asm__("vbroadcasti128 %1, %0" : "=x"(v) : "m"(*(const __m128i *)(const void *)tag_const[k]));
    return v;
}

/* The class of each of the 32 bytes v (tag_const). */
static inline __m256i tag_classes32(__m256i v)
{
    __m256i lo = _mm256_shuffle_epi8(tc2(TC_LO_TAB), v);
    __m256i high_nibbles = _mm256_and_si256(_mm256_srli_epi16(v, 4), vc2(VC_NIBBLE));
    __m256i hi = _mm256_shuffle_epi8(tc2(TC_HI_TAB), high_nibbles);
    return _mm256_and_si256(lo, hi);
}

/* The name's stops among classes c (a delimiter or '\\'), as bits. */
static inline unsigned name_bits32(__m256i c)
{
    return (unsigned)_mm256_movemask_epi8(_mm256_adds_epu8(c, vc2(VC_SAT7F)));
}

/* value_window's stops ('"', '\\', bytes up to CR) among classes c, as bits. */
static inline unsigned value_bits32(__m256i c)
{
    return (unsigned)_mm256_movemask_epi8(_mm256_adds_epu8(c, tc2(TC_SAT60)));
}
#endif

/* Whether the two bytes at p are a then b: one 16-bit compare. */
static inline bool two_bytes(const char *p, char a, char b)
{
    uint16_t w, want = (uint16_t)((unsigned char)a | (unsigned)(unsigned char)b << 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&w, p, sizeof w);
    return w == want;
#else
    (void)w, (void)want;
    return p[0] == a && p[1] == b;
#endif
}

/*
 * The usual tag pair at d[i] (parse_tag_simple's), its name in a window: the index after
 * its ']' in *end and true, or false.  Only below window_end(), so the name is within the
 * limit, and a value closed within its window is within the data and max_comment_bytes.
 * The name window is 16 bytes: a name of 16 bytes has no delimiter in it, j is then
 * name + 16, which d[j] == ' ' confirms as run_end would.
 *
 * With AVX2 one 32-byte load at the name serves the name and, for the usual short tag
 * ([Event "Rated Blitz game"], [WhiteElo "1500"]), the value too: its stop is the first
 * stop bit after the value's start.  A value running past those 32 bytes takes its own
 * window (value_window) at its start.  Reach: the name ends within 16 bytes of i, the
 * value window within 18 + 32 < WINDOW_SLACK.
 */
static inline bool tag_window(const struct pgn_reader *r, const char *d, size_t i, size_t n,
                              struct tag_parse *tp, size_t *end)
{
#ifdef __SSSE3__
    size_t name = i + 1, q;
#if defined(__AVX2__)
    __m256i c = tag_classes32(_mm256_loadu_si256((const __m256i *)(const void *)(d + name)));
    size_t k = (size_t)__builtin_ctz(name_bits32(c) | 0x10000u);
    size_t j = name + k;
    if (k == 0 || !two_bytes(d + j, ' ', '"'))
        return false;
    size_t value = j + 2;
    unsigned vbits = value_bits32(c) >> (k + 2);
    if (__builtin_expect(vbits != 0, 1)) {
        q = value + (size_t)__builtin_ctz(vbits);
    } else
#else
    size_t j = name + (size_t)__builtin_ctz(delim_bits(d + name) | 0x10000u);
    if (j == name || d[j] != ' ' || d[j + 1] != '"')
        return false;
    size_t value = j + 2;
#endif
    {
        q = value + value_window(d + value);
        if (q == value + VALUE_WINDOW) {
            q = find_stop(d, q, n, '"', '\\');
            if (n - q < 2 || q - value > r->lim.max_comment_bytes)
                return false;
        }
    }
    if (!two_bytes(d + q, '"', ']'))
        return false;
    tp->name = name;
    tp->name_len = j - name;
    tp->value = value;
    tp->value_len = q - value;
    *end = q + 2;
    return true;
#else
    (void)r, (void)d, (void)i, (void)n, (void)tp, (void)end;
    return false;
#endif
}

/*
 * scan_fast's game phase, derived only where it is needed (a tag, the exit) rather than
 * stored per token: movetext once a move or number token is read (a comment changes
 * nothing), else the phase at the mark (the entry, or the last tag pair: PHASE_TAGS).
 * Only comments lie between a mark and a tag pair, so each token is looked at once.
 */
struct fast_mark {
    const struct pgn_token *tok; /* the first token after the mark */
    enum game_phase phase;
    uint64_t line0; /* the line where the line-end count was 0 at the mark */
};

static inline enum game_phase fast_phase(const struct pgn_token *tok, struct fast_mark m)
{
    if (m.phase == PHASE_MOVETEXT)
        return PHASE_MOVETEXT;
    for (const struct pgn_token *t = m.tok; t < tok; t++)
        if (t->kind != PGN_TOK_COMMENT)
            return PHASE_MOVETEXT;
    return m.phase;
}

/*
 * The line ends since the last token or tag pair (the token steps' r->scan.eols), derived
 * like the phase rather than reset per token: the last token's line is in the token.
 * Fewer than 2^32 lines lie between it and `line` (scan_fast's column check bounds the
 * bytes since the line start before it), so its low 32 bits suffice.
 */
static inline uint64_t fast_run(const struct pgn_token *tok, struct fast_mark m, uint64_t line)
{
    if (tok > m.tok)
        return (uint32_t)((uint32_t)line - tok[-1].line);
    return line - m.line0;
}

/* scan_fast's state from token to token: locals of scan_fast that fast_token updates
 * (inlined, so they stay in registers). */
struct fast_state {
    size_t i;                /* the next byte */
    struct pgn_token *tok;   /* the next token's slot */
    uint64_t line;           /* the line */
    ptrdiff_t ls1;           /* the index before the line's first byte */
    struct fast_mark mark;
};

/* Constants of one scan_fast run. */
struct fast_env {
    const char *d;
    size_t n, max_tok, short_at, win_end;
    struct comment_consts cc;
    bool drop_comments; /* fast_plies's comments are not kept (drop_comments()) */
};

/*
 * Whether fast_plies may leave its comments out (r->lim.drop_comments): only in a game's
 * part 0, which is never read again.  Which comments the fast path reads depends on
 * where the buffer ends, so a part read again (pgn_parts.c) could keep one that its first
 * reading left out, and would no longer have the tokens it had.
 */
static inline bool drop_comments(const struct pgn_reader *r)
{
    return r->lim.drop_comments && r->parts.ncut == 0 && !r->parts.relex;
}

/* The token [s, e) of `kind`, its first byte (for the column) at `at`, in the next slot. */
static inline __attribute__((always_inline)) void
fast_push(struct fast_state *st, const char *d, size_t at, size_t s, size_t e,
          enum pgn_token_kind kind)
{
    struct pgn_token *tok = st->tok;
    tok->text = d + s;
    tok->len = (uint32_t)(e - s);
    tok->line = (uint32_t)st->line;
    tok->col = (uint32_t)((ptrdiff_t)at - st->ls1);
    tok->kind = (uint8_t)kind;
    st->tok = tok + 1;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* fast_push_words' stores: len and line, then col, kind and the padding, are two
 * adjacent 8-byte words of the token. */
_Static_assert(offsetof(struct pgn_token, line) == offsetof(struct pgn_token, len) + 4 &&
                   offsetof(struct pgn_token, col) == offsetof(struct pgn_token, len) + 8 &&
                   offsetof(struct pgn_token, kind) == offsetof(struct pgn_token, col) + 4 &&
                   sizeof(struct pgn_token) == offsetof(struct pgn_token, col) + 8,
               "fast_push_words stores struct pgn_token as two words after its text");
#endif

/*
 * fast_push for the windowed loop's moves and numbers: on little-endian targets the
 * text pointer and two 8-byte words (len + line << 32, col | kind << 32 with zero padding,
 * as emit()'s compound literal leaves it), three stores where fast_push makes five.  The
 * sum folds into the length's address arithmetic; the column fits 32 bits (scan_fast
 * checks it on entry).  fast_push stays for the rest: the kind's constant would cost a
 * register there.
 */
static inline __attribute__((always_inline)) void
fast_push_words(struct fast_state *st, const char *d, size_t at, size_t s, size_t e,
                enum pgn_token_kind kind)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    struct pgn_token *tok = st->tok;
    tok->text = d + s;
    uint64_t len_line = (uint64_t)(e - s) + ((uint64_t)(uint32_t)st->line << 32);
    uint64_t col_kind = (uint64_t)((ptrdiff_t)at - st->ls1) | (uint64_t)kind << 32;
    memcpy((char *)tok + offsetof(struct pgn_token, len), &len_line, sizeof len_line);
    memcpy((char *)tok + offsetof(struct pgn_token, col), &col_kind, sizeof col_kind);
    st->tok = tok + 1;
#else
    fast_push(st, d, at, s, e, kind);
#endif
}

/*
 * The windowed loop's usual run of plies, from a short move number at st->i (a digit
 * below stop): "12." or "12...", its move, then a comment or the other side's move, and
 * on to the next number, while each token starts below stop and is found in its window.
 * Each is read as fast_token reads it (the same tests and windows, each followed by one
 * space or none); what it saves is fast_token's dispatch on the first byte, as the kind
 * of the next token is nearly always known: a move after a number, a comment ('{', tested
 * first: lichess's clocks), a move or a number after a move, a number or a move after a
 * comment.  Anything else goes back to the loop, at the byte it stopped at.  False (st
 * unchanged) when the number at st->i is no short one: fast_token decides it.  One
 * function with jumps between the token kinds rather than a function per kind: a token's
 * successor test then jumps straight to the next kind's code.
 *
 * With env->drop_comments the comment after a move is read but not kept: it lies on the
 * move's line (one space or none between them, none of its bytes a line end), so the
 * line-end count derived from the last token (fast_run) and the phase (fast_phase, which
 * the move before it has settled) are what they would be with it.
 */
static inline __attribute__((always_inline)) bool
fast_plies(const struct fast_env *env, struct fast_state *st, size_t stop)
{
#ifdef __SSSE3__
    const char *d = env->d;
    size_t i = st->i, len = short_number(d + i), e;
    unsigned bits;
    if (len == 0)
        return false;
number:
    e = i + len;
    fast_push_words(st, d, i, i, e, PGN_TOK_MOVE_NUMBER);
    /* A number is nearly always followed by one space ("12. e4"): a branch rather than
     * adding the test's answer, one instruction less. */
    i = __builtin_expect(d[e] == ' ', 1) ? e + 1 : e;
    if (i >= stop || fast_class[(unsigned char)d[i]] != CC_OTHER ||
        (bits = delim_bits(d + i + 1)) == 0)
        goto done;
move:
    e = i + 1 + (size_t)__builtin_ctz(bits);
    fast_push_words(st, d, i, i, e, PGN_TOK_MOVE);
    i = e + (d[e] == ' ');
    if (i >= stop)
        goto done;
    if (d[i] == '{') {
        size_t close = i + 1 + comment_window(d + i + 1, env->cc);
        if (d[close] != '}')
            goto done;
        /* Dropped is the usual case (uci, check, fen --every): laid out as the fall-through,
         * the ply loop keeps its token pointer in one register. */
        if (__builtin_expect(!env->drop_comments, 0))
            fast_push(st, d, i, i + 1, close, PGN_TOK_COMMENT);
        i = close + 1 + (d[close + 1] == ' ');
        if (i >= stop)
            goto done;
        if (is_digit(d[i]) && (len = short_number(d + i)) != 0)
            goto number;
    }
    if (fast_class[(unsigned char)d[i]] == CC_OTHER) {
        if ((bits = delim_bits(d + i + 1)) != 0)
            goto move;
    } else if (is_digit(d[i]) && (len = short_number(d + i)) != 0) {
        goto number;
    }
done:
    st->i = i;
    return true;
#else
    (void)env, (void)st, (void)stop;
    return false;
#endif
}

/* The usual tag pair tp, its '[' at i, kept (commit_tag's case without an error or an
 * escape); it marks the phase (fast_mark) and resets the line-end count. */
static inline __attribute__((always_inline)) void
fast_tag_push(struct pgn_reader *r, struct fast_state *st, const char *d, size_t i,
              const struct tag_parse *tp)
{
    *push_tag(r) = (struct pgn_tag){{d + tp->name, tp->name_len},
                                    {d + tp->value, tp->value_len},
                                    st->line,
                                    (uint32_t)((ptrdiff_t)i - st->ls1)};
    st->mark = (struct fast_mark){st->tok, PHASE_TAGS, st->line};
}

/*
 * Windowed, after a tag pair kept at st->i's left: the tag pairs that follow one a line
 * ("]\n[" between them), as a tag section's do, each found in its window (tag_window)
 * and starting below stop.  Each is the tag pair fast_token would read after the line
 * end: the phase is PHASE_TAGS and one line end lies since the last tag pair, so it is
 * no game's end, and r->parts.relex is false (fast_token's test before the first).  What it
 * saves is the dispatch on the line end and on the '[', and that test.  A tag pair that
 * is not found so is left, with its line end, to the loop.
 */
/* Where tag_lines stopped: the next byte, and the index before the last tag's line. */
struct tag_lines_end {
    size_t i;
    ptrdiff_t ls1;
};

/* fast_tag_lines' loop, out of line: inlined into scan_fast it had too few registers
 * (its window constants and the tag array's count lived on the stack).  The tag array's
 * count and room stay in registers (push_tag reads them from r for each tag). */
static __attribute__((noinline)) struct tag_lines_end
tag_lines(struct pgn_reader *r, const char *d, size_t n, size_t i, size_t stop, uint64_t line,
          ptrdiff_t ls1)
{
    struct tag_parse tp;
    struct pgn_tag *t = r->tag.tags + r->tag.ntag, *end = r->tag.tags + r->tag.tag_cap;
    size_t j;
    for (; i + 1 < stop && two_bytes(d + i, '\n', '['); i = j) {
        if (!tag_window(r, d, i + 1, n, &tp, &j))
            break;
        if (__builtin_expect(t == end, 0)) {
            r->tag.ntag = (size_t)(t - r->tag.tags);
            grow_tags(r);
            t = r->tag.tags + r->tag.ntag;
            end = r->tag.tags + r->tag.tag_cap;
        }
        t->name = (struct slice){d + tp.name, tp.name_len};
        t->value = (struct slice){d + tp.value, tp.value_len};
        t->line = ++line;
        t->col = 1; /* the '[' starts its line */
        t++;
        ls1 = (ptrdiff_t)i;
    }
    r->tag.ntag = (size_t)(t - r->tag.tags);
    return (struct tag_lines_end){i, ls1};
}

static inline __attribute__((always_inline)) void
fast_tag_lines(struct pgn_reader *r, const struct fast_env *env, struct fast_state *st,
               size_t stop)
{
    size_t before = r->tag.ntag;
    struct tag_lines_end end = tag_lines(r, env->d, env->n, st->i, stop, st->line, st->ls1);
    /* One line a tag; the mark as fast_tag_push would leave it at the last one. */
    st->line += r->tag.ntag - before;
    st->ls1 = end.ls1;
    st->mark = (struct fast_mark){st->tok, PHASE_TAGS, st->line};
    st->i = end.i;
}

/*
 * The length of the game's result at d[i] (a digit or '*'), read as lex_number() and
 * lex_token() read it: "1-0", "0-1", "1/2-1/2" or "*", the run of bytes up to a
 * delimiter.  0 for anything the token steps must take: another spelling (dashes, '½'),
 * one cut by the end of the data (short_at) or over max_tok, no result.  Out of line
 * and by value: once a game, and scan_fast's state stays in registers.
 */
static __attribute__((noinline)) size_t result_len(const char *d, size_t i, size_t n,
                                                   size_t short_at, size_t max_tok)
{
    size_t j = run_end(d, i + 1, n), len = j - i;
    if (j >= short_at || len > max_tok)
        return 0;
    if ((len == 1 && d[i] == '*') ||
        (len == 3 && (memcmp(d + i, "1-0", 3) == 0 || memcmp(d + i, "0-1", 3) == 0)) ||
        (len == 7 && memcmp(d + i, "1/2-1/2", 7) == 0))
        return len;
    return 0;
}

/*
 * The game's result at st->i at depth 0 (result_len), pushed as the token steps push it
 * (a result token, r->parts.result_off, the phase then movetext, nothing after it
 * skipped), st->i after it.  Returns false either way, as the game ends there: scan_fast
 * stops, and next_step tells a result, the last token scan_fast pushed, from any other
 * stop.  A result in a variation, or none: st unchanged, left to the token steps.
 */
static inline __attribute__((always_inline)) bool
fast_result(struct pgn_reader *r, const struct fast_env *env, struct fast_state *st)
{
    size_t i = st->i, len;
    if (r->scan.depth != 0 || (len = result_len(env->d, i, env->n, env->short_at, env->max_tok)) == 0)
        return false;
    r->parts.result_off = r->in.base_off + i;
    r->parts.result_len = (uint32_t)len;
    fast_push(st, env->d, i, i, i + len, PGN_TOK_RESULT);
    st->i = i + len;
    return false;
}

/*
 * One token (or blank, line end, tag pair) at st->i: false when the token steps must take
 * it (st unchanged) or after the game's result (fast_result).  With `windowed` (a
 * constant: scan_fast has a copy of its loop for each), st->i is below win_end, so each
 * window test skips that comparison; without, the windows are tried where i < win_end
 * as before.  Tests on the byte itself, in the
 * order of frequency: a chain of two-instruction tests, where one on the class became a
 * jump table.
 */
static inline __attribute__((always_inline)) bool
fast_token(struct pgn_reader *r, const struct fast_env *env, struct fast_state *st,
           bool windowed, size_t stop)
{
    const char *d = env->d;
    const size_t n = env->n, i = st->i;
    const bool in_window = windowed || i < env->win_end;
    unsigned char c = (unsigned char)d[i];
    size_t s = i, e, next; /* the token's text is [s, e); scanning resumes at next */
    enum pgn_token_kind kind;
    if (fast_class[c] == CC_OTHER) {
#ifdef __SSSE3__
        unsigned bits;
        if (in_window && (bits = delim_bits(d + i + 1)) != 0) {
            e = i + 1 + (size_t)__builtin_ctz(bits);
            next = e + (d[e] == ' ');
        } else
#endif
        {
            e = run_end(d, i + 1, n);
            if (e - i > env->max_tok || e >= env->short_at)
                return false;
            next = e + (e < n && d[e] == ' ');
        }
        kind = PGN_TOK_MOVE;
    } else if (is_digit((char)c)) {
        if (windowed && fast_plies(env, st, stop))
            return true;
#ifdef __SSSE3__
        size_t len;
        /* The usual number from a few bytes; the vector step for the rest. */
        if (in_window &&
            ((len = short_number(d + i)) != 0 || (len = number_window(d + i)) < 16)) {
            e = i + len;
            next = e + (d[e] == ' ');
        } else
#endif
        {
            size_t k = i + 1;
            while (k < n && is_digit(d[k]))
                k++;
            if (k == n || d[k] != '.')
                return k < n && fast_result(r, env, st); /* a result or a bare number */
            while (k < n && d[k] == '.')
                k++;
            if (k - i > env->max_tok || k >= env->short_at)
                return false;
            e = k;
            next = e + (e < n && d[e] == ' ');
        }
        kind = PGN_TOK_MOVE_NUMBER;
    } else if (c == '{') {
        size_t close;
        if (in_window && d[close = i + 1 + comment_window(d + i + 1, env->cc)] == '}') {
            next = close + 1 + (d[close + 1] == ' ');
        } else {
            close = find_stop(d, i + 1, n, '}', '}');
            if (close == n || d[close] != '}' || close - i - 1 > r->lim.max_comment_bytes)
                return false; /* over lines, unterminated, or too long: scan_comment's */
            next = close + 1 + (close + 1 < n && d[close + 1] == ' ');
        }
        s = i + 1;
        e = close;
        kind = PGN_TOK_COMMENT; /* which leaves the phase as it is */
    } else if (c == '\n') {
        st->i = i + 1;
        st->line++;
        st->ls1 = (ptrdiff_t)i;
        return true;
    } else if (c == ' ' || fast_class[c] == CC_SPACE) {
        st->i = i + 1;
        return true;
    } else if (c == '[') {
        /* A tag pair inside a tag section.  The end of a game (a tag after movetext), a tag
         * after a blank line (perhaps a new game) and any tag of a part read again
         * (stepped over, not kept) are the splitter's. */
        enum game_phase phase = fast_phase(st->tok, st->mark);
        if (phase == PHASE_MOVETEXT ||
            (phase == PHASE_TAGS && fast_run(st->tok, st->mark, st->line) >= 2) || r->parts.relex)
            return false;
        struct tag_parse tp;
        size_t j;
        if (!(in_window && tag_window(r, d, i, n, &tp, &j)) &&
            (j = parse_tag_simple(r, d, i, n, &tp)) == 0)
            return false;
        fast_tag_push(r, st, d, i, &tp);
        st->i = j;
        if (windowed)
            fast_tag_lines(r, env, st, stop);
        return true;
    } else {
        return c == '*' && fast_result(r, env, st);
    }
    fast_push(st, d, i, s, e, kind);
    st->i = next;
    return true;
}

/*
 * The fast path: move tokens, move numbers with their dots, comments closed on their own
 * line, usual tag pairs, blanks and line ends, which are nearly all the bytes of a game.  Its
 * state (index, line, line start, line-end count, token count) lives in registers for the
 * whole run, the phase is derived when needed (fast_mark); the token steps, which must
 * also handle limits and refills and call out for them, keep their state in the reader.
 * Each token is handled exactly as the token steps would; anything else (a result but
 * the usual ones at depth 0, a token at the end of the data or over a limit, any other
 * byte) is left to them (pgn_reader.c's next_step): the returned index is where it
 * stopped, or after the game's result when that is the last token it pushed.
 * Only for a started game whose tokens are kept (the caller checks), so nothing here
 * drops tokens, fills or reports.  Writes its state back to r.
 *
 * Token room: every token takes at least one byte, so a stretch of data no longer than
 * the free token slots cannot overflow them; the loop runs to the end of such a stretch
 * (`stop`) and checks the room only there, not for each token.  Within a stretch, the
 * bytes below win_end go through a copy of the loop that knows its windows fit.
 *
 * Out of line (noinline): its caller's slow paths would otherwise take its registers.
 */
__attribute__((noinline)) size_t scan_fast(struct pgn_reader *r, size_t i)
{
    const size_t n = r->in.len;
    const struct fast_env env = {r->in.data, n, r->lim.max_token_bytes,
                                 /* A token ending at `short_at` or later may go on in
                                  * bytes not read yet. */
                                 r->in.eof ? SIZE_MAX : n, window_end(r, n), comment_consts(),
                                 drop_comments(r)};
    /* Columns then fit 32 bits without col_of()'s clamp (ls1 only grows below). */
    if ((ptrdiff_t)n - (r->scan.ls - 1) > (ptrdiff_t)UINT32_MAX)
        return i;
    /* A fresh reader has no token array yet, and NULL + 0 is undefined (UBSan). */
    if (!r->tok.toks)
        grow_tokens(r);
    struct fast_state st = {i, r->tok.toks + r->tok.ntok, r->scan.line, r->scan.ls - 1,
                            {NULL, r->scan.phase, r->scan.line - r->scan.eols}};
    st.mark.tok = st.tok;
    while (st.i < n) {
        /* Near max_game_tokens the slow path goes on: emit() enforces it.  At part_stop
         * the part being read is due for a cut, which scan_game decides between steps. */
        size_t at = (size_t)(st.tok - r->tok.toks);
        if (at + 64 > r->tok.tok_limit || at >= r->parts.part_stop)
            goto out;
        if (r->tok.tok_cap - at < 64) {
            size_t marked = (size_t)(st.mark.tok - r->tok.toks);
            r->tok.ntok = at;
            grow_tokens(r);
            st.tok = r->tok.toks + r->tok.ntok;
            st.mark.tok = r->tok.toks + marked;
        }
        size_t room = r->tok.tok_cap - at;
        if (room > r->tok.tok_limit - at)
            room = r->tok.tok_limit - at;
        if (room > r->parts.part_stop - at)
            room = r->parts.part_stop - at;
        const size_t stop = n - st.i > room ? st.i + room : n;
        const size_t windowed_stop = stop < env.win_end ? stop : env.win_end;
        while (st.i < windowed_stop)
            if (!fast_token(r, &env, &st, true, windowed_stop))
                goto out;
        while (st.i < stop)
            if (!fast_token(r, &env, &st, false, stop))
                goto out;
    }
out:
    r->scan.line = st.line;
    r->scan.ls = st.ls1 + 1;
    r->scan.eols = fast_run(st.tok, st.mark, st.line);
    r->scan.phase = fast_phase(st.tok, st.mark);
    r->tok.ntok = (size_t)(st.tok - r->tok.toks);
    return st.i;
}
