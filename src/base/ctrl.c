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

/* unplain32's constants: 1, 0x21, 0x77 and 0x84 in every byte. */
struct unplain_consts {
    __m256i one, x21, x77, x84;
};

static const unsigned char unplain_bytes[4] __attribute__((aligned(4))) = {1, 0x21, 0x77, 0x84};

/* Broadcast from memory by asm, which gcc cannot see through: it would otherwise (knowing
 * the constants) make each signed compare a min and an equality, three instructions. */
CPU_TARGET_AVX2 static inline struct unplain_consts unplain_consts(void)
{
    struct unplain_consts k;
    __asm__("vpbroadcastb %1, %0" : "=x"(k.one) : "m"(unplain_bytes[0]));
    __asm__("vpbroadcastb %1, %0" : "=x"(k.x21) : "m"(unplain_bytes[1]));
    __asm__("vpbroadcastb %1, %0" : "=x"(k.x77) : "m"(unplain_bytes[2]));
    __asm__("vpbroadcastb %1, %0" : "=x"(k.x84) : "m"(unplain_bytes[3]));
    return k;
}

/* 0xFF bytes where v holds a byte that may be a control byte or >= 0x80: neither
 * 0x20-0x7E (v + 1 above 0x20, signed) nor one of the blanks 0x09-0x0D (v + 0x77 in
 * 0x80-0x84, the lowest signed values).  Five instructions where hits32 takes seven; a
 * block with any such byte (a control byte, or any byte >= 0x80) is then looked at by
 * hits32. */
CPU_TARGET_AVX2 static inline __m256i unplain32(__m256i v, const struct unplain_consts *k)
{
    __m256i unprintable = _mm256_cmpgt_epi8(k->x21, _mm256_add_epi8(v, k->one));
    __m256i unblank = _mm256_cmpgt_epi8(_mm256_add_epi8(v, k->x77), k->x84);
    return _mm256_and_si256(unprintable, unblank);
}

/* The 64 bytes at s[i] of s[0, n), not all plain (unplain32): their top bits ORed into
 * *high, and the index of their first control character, or i + 64 when none. */
CPU_TARGET_AVX2 static inline size_t block_avx2(const char *s, size_t i, size_t n,
                                                __m256i *high)
{
    __m256i va = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
    __m256i vb = _mm256_loadu_si256((const __m256i *)(const void *)(s + i + 32));
    *high = _mm256_or_si256(*high, _mm256_or_si256(va, vb));
    __m256i any = _mm256_or_si256(hits32(va), hits32(vb));
    if (_mm256_testz_si256(any, any))
        return i + 64;
    return find_slow(s, i, i + 64, n);
}

/* The unplain32 bytes of the 64 at p, as a mask to OR with others'. */
CPU_TARGET_AVX2 static inline __m256i unplain64(const char *p, const struct unplain_consts *k)
{
    __m256i va = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i vb = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    return _mm256_or_si256(unplain32(va, k), unplain32(vb, k));
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
    const struct unplain_consts k = unplain_consts();
    /* 128 bytes a step, one test (unplain32: a plain block has no byte >= 0x80 to add to
     * high); the halves of any other step are looked at by hits32, and one with a hit
     * byte by byte.  Then one step of 64 the same way.  A pointer for the loop: gcc
     * kept three indices for it. */
    if (n >= 128) {
        const char *p = s, *last = s + (n - 128);
        for (; p <= last; p += 128) {
            __m256i bad = _mm256_or_si256(unplain64(p, &k), unplain64(p + 64, &k));
            if (_mm256_testz_si256(bad, bad))
                continue;
            i = (size_t)(p - s);
            size_t at = block_avx2(s, i, n, &high);
            if (at < i + 64)
                return at;
            at = block_avx2(s, i + 64, n, &high);
            if (at < i + 128)
                return at;
        }
        i = (size_t)(p - s);
    }
    if (n - i >= 64) {
        __m256i bad = unplain64(s + i, &k);
        if (!_mm256_testz_si256(bad, bad)) {
            size_t at = block_avx2(s, i, n, &high);
            if (at < i + 64)
                return at;
        }
        i += 64;
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
