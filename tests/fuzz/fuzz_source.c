/*
 * fuzz_source.c - the byte sources of source.h over arbitrary bytes: sniffing, every
 * compressor and archive libarchive reads, gzip through zlib, UTF-16 transcoding, the
 * non-text verdicts.
 *
 * The input is read twice, member after member: once in big raw reads and big reads out,
 * once in raw reads of 1..8 bytes and reads out of 1..13 bytes (so every refill, the
 * replayed head, the UTF-16 spill and the libarchive callbacks see every boundary).  Both
 * must agree: the same verdict (text, archive, refused), the same members, the same
 * bytes out when both succeed, one a prefix of the other when both fail.  Every read
 * returns -1, 0 or at most what was asked; an error stays; a UTF-16 member gives valid
 * UTF-8.  Decoded output is capped (a tiny bzip2 can expand to gigabytes).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "fuzz.h"
#include "io/source.h"

enum { SOURCE_FUZZ_MAX_OUT = 8 << 20 };

struct sf_raw {
    const uint8_t *data;
    size_t size, pos;
    bool trickle;
};

static ssize_t sf_read(void *ctx, char *buf, size_t cap)
{
    struct sf_raw *m = ctx;
    size_t n = m->size - m->pos;
    if (m->trickle) {
        size_t step = 1 + (m->pos * 5 + m->size) % 8;
        if (n > step)
            n = step;
    }
    if (n > cap)
        n = cap;
    memcpy(buf, m->data + m->pos, n);
    m->pos += n;
    return (ssize_t)n;
}

static int64_t sf_seek(void *ctx, int64_t offset, int whence)
{
    struct sf_raw *m = ctx;
    int64_t base = whence == SEEK_END ? (int64_t)m->size : whence == SEEK_CUR ? (int64_t)m->pos : 0;
    int64_t at = base + offset;
    if (at < 0) {
        errno = EINVAL;
        return -1;
    }
    m->pos = (size_t)at > m->size ? m->size : (size_t)at;
    return at;
}

struct sf_result {
    char *out;
    size_t len, cap;
    int status; /* 0 read to the end, -1 failed */
    enum source_format format;
    size_t members;
};

static void sf_put(struct sf_result *r, const char *p, size_t n)
{
    if (r->len + n > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + n)
            cap *= 2;
        r->out = realloc(r->out, cap);
        FUZZ_ASSERT(r->out);
        r->cap = cap;
    }
    memcpy(r->out + r->len, p, n);
    r->len += n;
}

/* Whether p[0, n) is valid UTF-8 (no overlongs, no surrogates, at most U+10FFFF). */
static bool sf_valid_utf8(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        size_t len = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3
                   : c >= 0xf0 && c < 0xf5 ? 4 : 0;
        if (len == 0 || i + len > n)
            return false;
        uint32_t cp = len == 1 ? c : c & (0x7f >> len);
        for (size_t k = 1; k < len; k++) {
            if ((p[i + k] & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (p[i + k] & 0x3f);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) ||
            (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
            return false;
        i += len;
    }
    return true;
}

static void sf_read_all(const uint8_t *data, size_t size, bool trickle, struct sf_result *r)
{
    struct sf_raw raw = {data, size, 0, trickle};
    struct source *s = source_new((struct pgn_source){sf_read, &raw});
    source_set_seek(s, sf_seek);
    r->format = source_sniff(s);
    char buf[65536];
    size_t round = 0;
    for (;;) {
        r->members++;
        size_t member_start = r->len;
        bool utf16 = source_text_encoding(s) != NULL;
        ssize_t got = 0;
        while (r->len < SOURCE_FUZZ_MAX_OUT) {
            size_t cap = trickle ? 1 + round++ % 13 : sizeof buf;
            got = source_read(s, buf, cap);
            FUZZ_ASSERT(got >= -1 && got <= (ssize_t)cap);
            if (got <= 0)
                break;
            sf_put(r, buf, (size_t)got);
        }
        if (r->len >= SOURCE_FUZZ_MAX_OUT) {
            r->status = 0;
            break;
        }
        if (got < 0) {
            FUZZ_ASSERT(source_error(s) != NULL);
            char c;
            FUZZ_ASSERT(source_read(s, &c, 1) == -1); /* errors are final */
            r->status = -1;
            break;
        }
        /* A transcoded member that ended cleanly is valid UTF-8. */
        if (utf16 && r->len > member_start) /* out stays NULL while nothing was put */
            FUZZ_ASSERT(sf_valid_utf8((const unsigned char *)r->out + member_start,
                                      r->len - member_start));
        int next = source_next_member(s);
        if (next < 0) {
            FUZZ_ASSERT(source_error(s) != NULL);
            r->status = -1;
            break;
        }
        if (next == 0) {
            r->status = 0;
            break;
        }
        FUZZ_ASSERT(source_member(s) != NULL);
    }
    source_free(s);
}

int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    struct sf_result big = {0}, small = {0};
    sf_read_all(data, size, false, &big);
    sf_read_all(data, size, true, &small);
    FUZZ_ASSERT(big.format == small.format);
    bool capped = big.len >= SOURCE_FUZZ_MAX_OUT || small.len >= SOURCE_FUZZ_MAX_OUT;
    if (!capped) {
        FUZZ_ASSERT(big.status == small.status);
        FUZZ_ASSERT(big.members == small.members);
    }
    size_t common = big.len < small.len ? big.len : small.len;
    FUZZ_ASSERT(memcmp(big.out ? big.out : "", small.out ? small.out : "", common) == 0);
    if (!capped && big.status == 0)
        FUZZ_ASSERT(big.len == small.len);
    free(big.out);
    free(small.out);
    return 0;
}
