/* ctrl.c - finding control bytes and writing text without them (ctrl.h). */
#include "base/ctrl.h"

#include <string.h>

#include "base/cpu.h"

#if CPU_HAS_AVX2_PATHS
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

static const char replacement[3] = {'\xef', '\xbf', '\xbd'}; /* U+FFFD */

/* The first control character of s[from, to), or to; a C1 control may end past `to`. */
static size_t find_slow(const char *s, size_t from, size_t to, size_t n)
{
    for (size_t i = from; i < to; i++)
        if (ctrl_len(s, i, n))
            return i;
    return to;
}

#if CPU_HAS_AVX2_PATHS
/* Nonzero bytes where v holds a control byte or 0xC2 (the lead byte of a C1 control, and
 * of U+00A0-U+00BF: the slow scan tells them apart): two nibble lookups (pshufb gives 0
 * for bytes 0x80 and up) and one compare.  Bit 1: high nibble 0 and low nibble not 9-13
 * (TAB..CR); bit 2: high nibble 1; bit 4: 0x7F. */
CPU_TARGET_AVX2 static inline __m256i hits32(__m256i v)
{
    const __m256i lo = _mm256_setr_epi8(3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 3, 7, 3, 3, 3,
                                        3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 3, 7);
    const __m256i hi = _mm256_setr_epi8(1, 2, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0,
                                        0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0);
    __m256i high = _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi8(0x0f));
    __m256i c0 = _mm256_and_si256(_mm256_shuffle_epi8(lo, v), _mm256_shuffle_epi8(hi, high));
    return _mm256_or_si256(c0, _mm256_cmpeq_epi8(v, _mm256_set1_epi8((char)0xc2)));
}

/* 0xFF bytes where v holds a byte that is neither a control byte nor >= 0x80 for sure:
 * 0x20-0x7E (v + 1 above 0x20, signed) or one of the blanks 0x09-0x0D (v + 0x77 in
 * 0x80-0x84, the lowest signed values).  Five instructions where hits32 takes seven; a
 * block not all such bytes (a control byte, or any byte >= 0x80) is then looked at
 * by hits32. */
CPU_TARGET_AVX2 static inline __m256i plain32(__m256i v)
{
    __m256i printable = _mm256_cmpgt_epi8(_mm256_add_epi8(v, _mm256_set1_epi8(1)),
                                          _mm256_set1_epi8(0x20));
    __m256i blank = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)0x85),
                                      _mm256_add_epi8(v, _mm256_set1_epi8(0x77)));
    return _mm256_or_si256(printable, blank);
}

/*
 * ctrl_find(), and whether s[0, n) is plain ASCII (ctrl_find_ascii): the bytes' top bits
 * are ORed as the blocks go by, two instructions a block, so a caller that needs both
 * makes one pass.  For a text under 32 bytes *ascii is false.
 */
CPU_TARGET_AVX2 static size_t find_avx2(const char *s, size_t n, bool *ascii)
{
    size_t i = 0;
    *ascii = false;
    __m256i high = _mm256_setzero_si256();
    /* 64 bytes a step, one test (plain32: a plain block has no byte >= 0x80 to add to
     * high); any other block is looked at by hits32, and one with a hit byte by byte. */
    for (; i + 64 <= n; i += 64) {
        __m256i va = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
        __m256i vb = _mm256_loadu_si256((const __m256i *)(const void *)(s + i + 32));
        if ((unsigned)_mm256_movemask_epi8(_mm256_and_si256(plain32(va), plain32(vb))) ==
            0xffffffffu)
            continue;
        high = _mm256_or_si256(high, _mm256_or_si256(va, vb));
        __m256i any = _mm256_or_si256(hits32(va), hits32(vb));
        if (_mm256_testz_si256(any, any))
            continue;
        size_t k = find_slow(s, i, i + 64, n);
        if (k < i + 64)
            return k;
    }
    /* The rest (a game's last bytes, or a short text) as blocks of 32 that end at n and
     * overlap bytes already known clean, rather than a byte loop; a hit is then looked
     * for from i on. */
    if (n >= 32 && i < n) {
        __m256i last = _mm256_loadu_si256((const __m256i *)(const void *)(s + n - 32));
        __m256i any = hits32(last);
        high = _mm256_or_si256(high, last);
        if (n - i > 32) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
            any = _mm256_or_si256(any, hits32(v));
            high = _mm256_or_si256(high, v);
        }
        if (!_mm256_testz_si256(any, any))
            return find_slow(s, i, n, n);
        *ascii = _mm256_movemask_epi8(high) == 0;
        return n;
    }
    if (n >= 64) { /* i == n: every byte was in a block */
        *ascii = _mm256_movemask_epi8(high) == 0;
        return n;
    }
    return find_slow(s, i, n, n);
}
#endif

/* The baseline twin of find_avx2: SSE2 where there is SSE2; *ascii is always false. */
static size_t find_base(const char *s, size_t n, bool *ascii)
{
    size_t i = 0;
    *ascii = false;
#if defined(__SSE2__)
    /* 16 bytes a step: most text has none (a line end, 0x0A, is no control byte). */
    const __m128i minus1 = _mm_set1_epi8(-1), tab = _mm_set1_epi8(0x09);
    const __m128i cr = _mm_set1_epi8(0x0d), space = _mm_set1_epi8(0x20);
    const __m128i del = _mm_set1_epi8(0x7f), c1_lead = _mm_set1_epi8((char)0xc2);
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m128i low7 = _mm_cmpgt_epi8(v, minus1); /* 0x00-0x7F (signed compare) */
        __m128i low = _mm_and_si128(low7, _mm_cmplt_epi8(v, tab));
        __m128i mid = _mm_and_si128(_mm_cmpgt_epi8(v, cr), _mm_cmplt_epi8(v, space));
        __m128i hit = _mm_or_si128(_mm_or_si128(low, mid), _mm_cmpeq_epi8(v, del));
        hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, c1_lead));
        if (!_mm_movemask_epi8(hit))
            continue;
        size_t k = find_slow(s, i, i + 16, n);
        if (k < i + 16)
            return k;
    }
#endif
    return find_slow(s, i, n, n);
}

size_t ctrl_find_ascii_at(const char *s, size_t n, bool *ascii, enum cpu_level level)
{
#if CPU_HAS_AVX2_PATHS
    if (level >= CPU_AVX2)
        return find_avx2(s, n, ascii);
#else
    (void)level;
#endif
    return find_base(s, n, ascii);
}

static size_t find(const char *s, size_t n, bool *ascii)
{
    return ctrl_find_ascii_at(s, n, ascii, cpu_level());
}

size_t ctrl_find(const char *s, size_t n)
{
    bool ascii;
    return find(s, n, &ascii);
}

size_t ctrl_find_ascii(const char *s, size_t n, bool *ascii) { return find(s, n, ascii); }

size_t ctrl_clean_size(const char *s, size_t n)
{
    size_t size = n;
    for (size_t i = ctrl_find(s, n); i < n; i += ctrl_find(s + i, n - i)) {
        size_t len = ctrl_len(s, i, n);
        size += sizeof replacement - len;
        i += len;
    }
    return size;
}

void ctrl_put_column(struct buf *b, const char *s, size_t n)
{
    char *p = buf_reserve(b, 3 * n);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        size_t len = c < 0x20 || c >= 0x7f ? ctrl_len(s, i, n) : 0;
        if (len) {
            memcpy(p + k, replacement, sizeof replacement);
            k += sizeof replacement;
            i += len - 1;
        } else {
            p[k++] = c >= 0x09 && c <= 0x0d ? ' ' : (char)c;
        }
    }
    b->len += k;
    b->data[b->len] = '\0';
}

void ctrl_put_clean(struct buf *b, const char *s, size_t n)
{
    for (;;) {
        size_t k = ctrl_find(s, n);
        buf_append(b, s, k);
        if (k == n)
            return;
        buf_append(b, replacement, sizeof replacement);
        size_t len = ctrl_len(s, k, n);
        s += k + len;
        n -= k + len;
    }
}

void ctrl_put_line(struct buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t len = ctrl_line_len(s, i, n);
        if (len) {
            buf_append(b, replacement, sizeof replacement);
            i += len - 1;
        } else {
            buf_putc(b, s[i]);
        }
    }
}
