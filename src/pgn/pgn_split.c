/*
 * pgn_split.c - cut guesses and line counts for reading a stream in pieces.
 *
 * Both run on the one thread that reads the input for all the others, over every byte of
 * it, so they are written to be cheap: the cut search goes backwards from the end of a
 * piece and stops at the first (last) good cut, and the line count is a loop the
 * compiler turns into vector compares.
 */
#define _GNU_SOURCE /* memrchr */
#include "pgn/pgn_split.h"
#include "pgn/pgn_reader.h"

#include <stdbool.h>
#include <string.h>

#include "base/cpu.h"
#if CPU_HAS_AVX2_PATHS
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Does d[0, e) end with a whole result token (whitespace or nothing before it)? */
static bool ends_with_result(const char *d, size_t e)
{
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
    for (size_t k = 0; k < sizeof results / sizeof *results; k++) {
        size_t n = strlen(results[k]);
        if (e >= n && memcmp(d + e - n, results[k], n) == 0 && (e == n || is_space(d[e - n - 1])))
            return true;
    }
    return false;
}

static bool line_is_whole(const char *d, size_t c, size_t len)
{
    return memchr(d + c, '\n', len - c) || memchr(d + c, '\r', len - c);
}

size_t pgn_split_find_cut(const char *d, size_t from, size_t len)
{
    size_t end = len;
    while (end > from) {
        const char *hit = memrchr(d + from, '[', end - from);
        if (!hit)
            break;
        size_t c = (size_t)(hit - d);
        end = c;
        if (c == 0 || (d[c - 1] != '\n' && d[c - 1] != '\r'))
            continue;
        size_t e = c;
        while (e > 0 && is_space(d[e - 1]))
            e--;
        if (ends_with_result(d, e) && line_is_whole(d, c, len))
            return c;
    }
    return SIZE_MAX;
}

/* Line ends in [i, n) one byte at a time; d[n] is not looked at. */
static uint64_t count_lines_bytes(const char *d, size_t i, size_t n)
{
    uint64_t lines = 0;
    for (; i < n; i++)
        lines += d[i] == '\n' || (d[i] == '\r' && (i + 1 == n || d[i + 1] != '\n'));
    return lines;
}

#if CPU_HAS_AVX2_PATHS
/* The LFs of d[0, n) when it holds no CR (the usual file): one popcount per 64 bytes, the
 * CRs only OR-ed together; UINT64_MAX when there is a CR, which the exact count handles. */
CPU_TARGET_AVX2 static uint64_t count_lf_only(const char *d, size_t n)
{
    const __m256i lf = _mm256_set1_epi8('\n'), cr = _mm256_set1_epi8('\r');
    __m256i crs = _mm256_setzero_si256();
    uint64_t lines = 0;
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(d + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(d + i + 32));
        uint64_t bits = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, lf)) |
                        (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, lf)) << 32;
        lines += (uint64_t)__builtin_popcountll(bits);
        crs = _mm256_or_si256(crs, _mm256_or_si256(_mm256_cmpeq_epi8(a, cr),
                                                   _mm256_cmpeq_epi8(b, cr)));
    }
    if (!_mm256_testz_si256(crs, crs))
        return UINT64_MAX;
    return lines + count_lines_bytes(d, i, n); /* no CR before i: the tail alone decides */
}

/* Every LF, and every CR that the next byte (an unaligned load one byte on) shows is not
 * part of a CRLF: a compare and a popcount per 32 bytes, CRLF files included. */
CPU_TARGET_AVX2 static uint64_t count_lines_avx2(const char *d, size_t n)
{
    size_t i = 0;
    uint64_t lines = 0;
    uint64_t lf_only = count_lf_only(d, n);
    if (lf_only != UINT64_MAX)
        return lf_only;
    const __m256i lf = _mm256_set1_epi8('\n'), cr = _mm256_set1_epi8('\r');
    for (; i + 33 <= n; i += 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(d + i));
        __m256i next = _mm256_loadu_si256((const __m256i *)(const void *)(d + i + 1));
        uint32_t lf_bits = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, lf));
        uint32_t cr_bits = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, cr));
        uint32_t crlf = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(next, lf));
        lines += (uint64_t)__builtin_popcount(lf_bits) +
                 (uint64_t)__builtin_popcount(cr_bits & ~crlf);
    }
    return lines + count_lines_bytes(d, i, n);
}
#endif

/* The baseline twin of count_lines_avx2: 16 bytes a step where there is SSE2. */
static uint64_t count_lines_base(const char *d, size_t n)
{
    size_t i = 0;
    uint64_t lines = 0;
#if defined(__SSE2__)
    const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
    for (; i + 17 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(d + i));
        __m128i next = _mm_loadu_si128((const __m128i *)(const void *)(d + i + 1));
        unsigned lf_bits = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, lf));
        unsigned cr_bits = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, cr));
        unsigned crlf = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(next, lf));
        lines += (uint64_t)__builtin_popcount(lf_bits) +
                 (uint64_t)__builtin_popcount(cr_bits & ~crlf);
    }
#endif
    return lines + count_lines_bytes(d, i, n);
}

uint64_t pgn_split_count_lines_at(const char *d, size_t n, enum cpu_level level)
{
#if CPU_HAS_AVX2_PATHS
    if (level >= CPU_AVX2)
        return count_lines_avx2(d, n);
#else
    (void)level;
#endif
    return count_lines_base(d, n);
}

uint64_t pgn_split_count_lines(const char *d, size_t n)
{
    return pgn_split_count_lines_at(d, n, cpu_level());
}

/* ---- sync points (pgn_split_last_sync) ---- */

static bool is_hspace_byte(char c) { return c == ' ' || c == '\t'; }

/* The line before the one starting at `start` (> 0, after a line end): its text is
 * [*s, *e).  false when its start is not known to be in d (at_file_start false). */
static bool previous_line(const char *d, size_t start, bool at_file_start, size_t *s, size_t *e)
{
    size_t end = start;
    if (end >= 2 && d[end - 1] == '\n' && d[end - 2] == '\r')
        end -= 2;
    else
        end -= 1;
    size_t b = end;
    while (b > 0 && d[b - 1] != '\n' && d[b - 1] != '\r')
        b--;
    if (b == 0 && !at_file_start)
        return false;
    *s = b;
    *e = end;
    return true;
}

/* Bytes that could start or end something spanning more than a move token. */
static bool unsafe_byte(unsigned char c)
{
    return (c < 0x20 && c != '\t') || c == 0x7f || c == '[' || c == ']' || c == '{' ||
           c == '}' || c == ';' || c == '"' || c == '%' || c == '<' || c == '>';
}

/* Does [s, e) end with a result token standing alone, and hold only safe bytes? */
static bool result_line(const char *d, size_t s, size_t e)
{
    for (size_t k = s; k < e; k++)
        if (unsafe_byte((unsigned char)d[k]))
            return false;
    while (e > s && is_hspace_byte(d[e - 1]))
        e--;
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
    for (size_t k = 0; k < sizeof results / sizeof *results; k++) {
        size_t n = strlen(results[k]);
        if (e - s >= n && memcmp(d + e - n, results[k], n) == 0 &&
            (e - n == s || is_hspace_byte(d[e - n - 1])))
            return true;
    }
    return false;
}

static bool all_hspace_bytes(const char *d, size_t s, size_t e)
{
    for (; s < e; s++)
        if (!is_hspace_byte(d[s]))
            return false;
    return true;
}

static bool is_sync_point(const char *d, size_t n, size_t p, bool at_file_start,
                          bool at_file_end)
{
    if (p == 0 || (d[p - 1] != '\n' && d[p - 1] != '\r'))
        return false;
    if (d[p - 1] == '\r' && d[p] == '\n')
        return false;
    size_t s, e, blanks = 0, start = p;
    for (;;) {
        if (start == 0 || !previous_line(d, start, at_file_start, &s, &e))
            return false;
        if (!all_hspace_bytes(d, s, e))
            break;
        blanks++;
        start = s;
    }
    /* Inside a comment the '[' line ends it only by the reader's own rule, decided on
     * the bytes in d: undecided is no sync point. */
    return blanks > 0 && result_line(d, s, e) &&
           pgn_tag_line_ends_comment(d, n, p, at_file_end) == 1;
}

size_t pgn_split_last_sync(const char *d, size_t n, size_t pos, bool at_file_start,
                           bool at_file_end)
{
    size_t end = pos < n ? pos + 1 : n;
    while (end > 0) {
        const char *hit = memrchr(d, '[', end);
        if (!hit)
            break;
        size_t p = (size_t)(hit - d);
        if (is_sync_point(d, n, p, at_file_start, at_file_end))
            return p;
        end = p;
    }
    return at_file_start ? 0 : SIZE_MAX;
}
