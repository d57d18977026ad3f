/* ctrl.c - finding control bytes and writing text without them (ctrl.h). */
#include "pgnkit/ctrl.h"

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

static const char replacement[3] = {'\xef', '\xbf', '\xbd'}; /* U+FFFD */

size_t ctrl_find(const char *s, size_t n)
{
    size_t i = 0;
#ifdef __SSE2__
    /* 16 bytes a step: most text has none (a line end, 0x0A, is no control byte). */
    const __m128i minus1 = _mm_set1_epi8(-1), tab = _mm_set1_epi8(0x09);
    const __m128i cr = _mm_set1_epi8(0x0d), space = _mm_set1_epi8(0x20);
    const __m128i del = _mm_set1_epi8(0x7f);
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m128i ascii = _mm_cmpgt_epi8(v, minus1); /* 0x00-0x7F (signed compare) */
        __m128i low = _mm_and_si128(ascii, _mm_cmplt_epi8(v, tab));
        __m128i mid = _mm_and_si128(_mm_cmpgt_epi8(v, cr), _mm_cmplt_epi8(v, space));
        __m128i hit = _mm_or_si128(_mm_or_si128(low, mid), _mm_cmpeq_epi8(v, del));
        unsigned bits = (unsigned)_mm_movemask_epi8(hit);
        if (bits)
            return i + (size_t)__builtin_ctz(bits);
    }
#endif
    for (; i < n; i++)
        if (ctrl_is((unsigned char)s[i]))
            return i;
    return n;
}

void ctrl_put_column(struct buf *b, const char *s, size_t n)
{
    char *p = buf_reserve(b, 3 * n);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (ctrl_is(c)) {
            memcpy(p + k, replacement, sizeof replacement);
            k += sizeof replacement;
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
        s += k + 1;
        n -= k + 1;
    }
}
