/*
 * pgn_bytes.h - what a byte of PGN text starts, and the vector searches the reader's
 * scanners share: where a token ends (run_end), the next of two stops or a line end
 * (find_stop), the next line end (next_eol).  Pure functions of the bytes given: no
 * reader state, no allocation.  Private to src/ (the reader's files).
 *
 * Everything here is static (inline functions, constant tables): they sit in the
 * per-byte loops of the lexer, the tag parser and the comment scanner, and each of those
 * files keeps its own copy of the tables (under 1 KiB) so that the compiler sees the
 * constants where it inlines the lookups.
 */
#ifndef PGNKIT_PGN_BYTES_H
#define PGNKIT_PGN_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#ifdef __SSSE3__
#include <tmmintrin.h>
#endif
#ifdef __AVX2__
#include <immintrin.h>
#endif

/* Character classes: one table lookup decides what a byte starts. */
enum char_class {
    CC_OTHER = 0, /* letters, + # = - ! ? / : @, 8-bit bytes: part of a move token */
    CC_SPACE,     /* ' ' \t \v \f */
    CC_LF,
    CC_CR,
    CC_CTRL,      /* NUL and the other control bytes */
    CC_DIGIT,
    CC_LBRACE,
    CC_SEMI,
    CC_PERCENT,
    CC_LBRACKET,
    CC_LPAREN,
    CC_RPAREN,
    CC_DOLLAR,
    CC_STAR,
    CC_DOT,
    CC_BAD,       /* ] } " < > : start no token */
};

/* Classes that end a move/number/NAG token. */
#define DELIM_MASK                                                                              \
    ((1u << CC_SPACE) | (1u << CC_LF) | (1u << CC_CR) | (1u << CC_CTRL) | (1u << CC_LBRACE) |  \
     (1u << CC_SEMI) | (1u << CC_LBRACKET) | (1u << CC_LPAREN) | (1u << CC_RPAREN) |           \
     (1u << CC_DOLLAR) | (1u << CC_BAD))

#define CHAR_CLASS_ENTRIES \
    [0] = CC_CTRL,   [1] = CC_CTRL,    [2] = CC_CTRL,   [3] = CC_CTRL,   [4] = CC_CTRL, \
    [5] = CC_CTRL,   [6] = CC_CTRL,    [7] = CC_CTRL,   [8] = CC_CTRL,   ['\t'] = CC_SPACE, \
    ['\n'] = CC_LF,  ['\v'] = CC_SPACE, ['\f'] = CC_SPACE, ['\r'] = CC_CR, [14] = CC_CTRL, \
    [15] = CC_CTRL,  [16] = CC_CTRL,   [17] = CC_CTRL,  [18] = CC_CTRL,  [19] = CC_CTRL, \
    [20] = CC_CTRL,  [21] = CC_CTRL,   [22] = CC_CTRL,  [23] = CC_CTRL,  [24] = CC_CTRL, \
    [25] = CC_CTRL,  [26] = CC_CTRL,   [27] = CC_CTRL,  [28] = CC_CTRL,  [29] = CC_CTRL, \
    [30] = CC_CTRL,  [31] = CC_CTRL,   [127] = CC_CTRL, [' '] = CC_SPACE, \
    ['0'] = CC_DIGIT, ['1'] = CC_DIGIT, ['2'] = CC_DIGIT, ['3'] = CC_DIGIT, ['4'] = CC_DIGIT, \
    ['5'] = CC_DIGIT, ['6'] = CC_DIGIT, ['7'] = CC_DIGIT, ['8'] = CC_DIGIT, ['9'] = CC_DIGIT, \
    ['{'] = CC_LBRACE, [';'] = CC_SEMI, ['%'] = CC_PERCENT, ['['] = CC_LBRACKET, \
    ['('] = CC_LPAREN, [')'] = CC_RPAREN, ['$'] = CC_DOLLAR, ['*'] = CC_STAR, ['.'] = CC_DOT, \
    [']'] = CC_BAD,  ['}'] = CC_BAD,   ['"'] = CC_BAD,  ['<'] = CC_BAD,  ['>'] = CC_BAD

static const uint8_t char_class[256] = {CHAR_CLASS_ENTRIES};

/* scan_fast's classes: 0xc2 (a result's "½" begins with it) and 0xef (a byte-order mark's
 * first byte) are no move bytes there, so its move test needs no second compare; they
 * leave the fast path like any other stray byte, for scan_game. */
static const uint8_t fast_class[256] = {CHAR_CLASS_ENTRIES, [0xc2] = CC_BAD, [0xef] = CC_BAD};

/* 1 for the bytes that end a move, number or NAG token: the classes in DELIM_MASK. */
static const uint8_t delim_table[256] = {
    [0] = 1, [1] = 1, [2] = 1, [3] = 1, [4] = 1, [5] = 1, [6] = 1, [7] = 1, [8] = 1, [9] = 1,
    [10] = 1, [11] = 1, [12] = 1, [13] = 1, [14] = 1, [15] = 1, [16] = 1, [17] = 1, [18] = 1,
    [19] = 1, [20] = 1, [21] = 1, [22] = 1, [23] = 1, [24] = 1, [25] = 1, [26] = 1, [27] = 1,
    [28] = 1, [29] = 1, [30] = 1, [31] = 1, [32] = 1, ['"'] = 1, ['$'] = 1, ['('] = 1,
    [')'] = 1, [';'] = 1, ['<'] = 1, ['>'] = 1, ['['] = 1, [']'] = 1, ['{'] = 1, ['}'] = 1,
    [127] = 1,
};

static inline unsigned cls(char c) { return char_class[(unsigned char)c]; }
static inline bool is_delim(char c) { return delim_table[(unsigned char)c]; }
static inline bool is_hspace(char c) { return cls(c) == CC_SPACE; }
static inline bool is_eol(char c) { return c == '\n' || c == '\r'; }
static inline bool is_digit(char c) { return (unsigned char)(c - '0') < 10; }

/* Whether d[from, to) holds nothing but blanks and UTF-8 BOMs (one between concatenated
 * files starts the next file's first line): what may stand before a line's first token. */
static inline bool only_blanks(const char *d, ptrdiff_t from, ptrdiff_t to)
{
    for (ptrdiff_t k = to - 1; k >= from; k--) {
        if (k - 2 >= from && memcmp(d + k - 2, "\xef\xbb\xbf", 3) == 0)
            k -= 2;
        else if (!is_hspace(d[k]))
            return false;
    }
    return true;
}

/*
 * Index of the first delimiter (is_delim) in [j, n), or n; j <= n: where a move, number
 * or NAG token ends.  With SSSE3, 16 bytes at a time: a byte is a delimiter when the
 * table entries of its low and its high nibble share a bit (one bit per high nibble that
 * has delimiters: 0-1 all, 2 " $ ( ) space, 3 ; < >, 5 [ ], 7 { } DEL).  A move is 2 to 7
 * bytes: one such step replaces a loop of several tests per byte.
 */
#ifdef __SSE2__
/* Vector constants as memory operands: the hot loops then neither rebuild them per token
 * nor hold them in registers they need for their own state. */
static const uint8_t vec_const[][16] __attribute__((aligned(16))) = {
#define VC_LO_TAB 0
    {0x03, 0x01, 0x03, 0x01, 0x03, 0x01, 0x01, 0x01, 0x03, 0x03, 0x01, 0x1d, 0x05, 0x19, 0x05,
     0x11},
#define VC_HI_TAB 1
    {0x01, 0x01, 0x02, 0x04, 0x00, 0x08, 0x00, 0x10, 0, 0, 0, 0, 0, 0, 0, 0},
#define VC_NIBBLE 2
    {0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f,
     0x0f},
#define VC_SAT7F 3 /* + 0x7f saturating: any non-zero byte gets its top bit */
    {0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f,
     0x7f},
#define VC_ZERO_CH 4
    {'0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'},
#define VC_SAT76 5 /* + 0x76 saturating: bytes 10 and up get their top bit */
    {0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76,
     0x76},
#define VC_DOT 6
    {'.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.'},
};

/*
 * The load is an asm: gcc otherwise sees the splats through the constant table and
 * rebuilds each one per use from a general register (movabs, vmovq, vpunpcklqdq or
 * vpbroadcast: three instructions and a general register, where a load is one).  Not
 * volatile, so gcc may still hoist it out of a loop.
 */
#ifdef __AVX__
#define VLOAD_ASM "vmovdqa %1, %0"
#else
#define VLOAD_ASM "movdqa %1, %0"
#endif
static inline __m128i vc(int k)
{
    __m128i v;
    __asm__(VLOAD_ASM : "=x"(v) : "m"(*(const __m128i *)(const void *)vec_const[k]));
    return v;
}
#endif

#ifdef __SSSE3__
/*
 * Bit k set when p[k] is a delimiter, for the 16 bytes at p (see run_end).  The low-nibble
 * lookup needs no mask: pshufb gives 0 for bytes 0x80 and up, which are no delimiters.
 */
static inline unsigned delim_bits(const char *p)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i lo = _mm_shuffle_epi8(vc(VC_LO_TAB), v);
    __m128i high_nibbles = _mm_and_si128(_mm_srli_epi16(v, 4), vc(VC_NIBBLE));
    __m128i hi = _mm_shuffle_epi8(vc(VC_HI_TAB), high_nibbles);
    return (unsigned)_mm_movemask_epi8(_mm_adds_epu8(_mm_and_si128(lo, hi), vc(VC_SAT7F)));
}
#endif

static inline size_t run_end(const char *d, size_t j, size_t n)
{
#ifdef __SSSE3__
    for (; n - j >= 16; j += 16) {
        unsigned bits = delim_bits(d + j);
        if (bits)
            return j + (size_t)__builtin_ctz(bits);
    }
#endif
    while (j < n && !is_delim(d[j]))
        j++;
    return j;
}

/*
 * Index of the first of a, b, LF and CR in [p, n), or n; p <= n.  Comments and tag values
 * are short and on one line: one SSE2 pass finding the first byte that matters is
 * cheaper than a byte loop with several tests per byte, or a memchr per byte value.
 */
#ifdef __AVX2__
#define SPLAT32(c) {c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, \
                    c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c}
static const char splat_const[][32] __attribute__((aligned(32))) = {
    SPLAT32('"'), SPLAT32('\\'), SPLAT32('\n'), SPLAT32('\r'), SPLAT32('}'),
};

/* c in all 32 bytes, from memory for the usual stops (see vec_const); c is a constant. */
static inline __m256i splat32(char c)
{
    const char *k = c == '"' ? splat_const[0] : c == '\\' ? splat_const[1]
                  : c == '\n' ? splat_const[2] : c == '\r' ? splat_const[3]
                  : c == '}' ? splat_const[4] : NULL;
    if (!k)
        return _mm256_set1_epi8(c);
    __m256i v; /* a load, not a rebuilt splat (see vc) */
    __asm__("vmovdqa %1, %0" : "=x"(v) : "m"(*(const __m256i *)(const void *)k));
    return v;
}
#endif

static inline size_t find_stop(const char *d, size_t p, size_t n, char a, char b)
{
#ifdef __AVX2__
    /* 32 bytes a step: most tag values and clock comments take one. */
    for (; n - p >= 32; p += 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(d + p));
        __m256i hit = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(v, splat32(a)), _mm256_cmpeq_epi8(v, splat32(b))),
            _mm256_or_si256(_mm256_cmpeq_epi8(v, splat32('\n')),
                            _mm256_cmpeq_epi8(v, splat32('\r'))));
        unsigned bits = (unsigned)_mm256_movemask_epi8(hit);
        if (bits)
            return p + (size_t)__builtin_ctz(bits);
    }
#endif
#ifdef __SSE2__
    const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b);
    const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
    for (; n - p >= 16; p += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(d + p));
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)),
                                   _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
        unsigned bits = (unsigned)_mm_movemask_epi8(hit);
        if (bits)
            return p + (size_t)__builtin_ctz(bits);
    }
#endif
    for (; p < n; p++)
        if (d[p] == a || d[p] == b || is_eol(d[p]))
            return p;
    return n;
}

/* Index of the first line end in [p, e), or e. */
static inline size_t next_eol(const char *d, size_t p, size_t e)
{
    if (p >= e)
        return e;
    const char *lf = memchr(d + p, '\n', e - p);
    size_t stop = lf ? (size_t)(lf - d) : e;
    const char *cr = stop > p ? memchr(d + p, '\r', stop - p) : NULL;
    return cr ? (size_t)(cr - d) : stop;
}

#endif
