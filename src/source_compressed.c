/*
 * source_compressed.c - gzip and zstd input recognised by magic bytes (source.h).
 *
 * Owns: sniffing, the input buffer, the zlib and libzstd streaming decoders, and the
 * one-line error text.  Does not open files or print: errors are returned as -1/errno
 * plus source_error(), and the CLI decides what to say.
 */
#include "pgnkit/source.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>

#include "pgnkit/xalloc.h"

enum {
    SOURCE_IN_CAP = 64 * 1024, /* compressed bytes buffered at a time */
    SNIFF_BYTES = 4,           /* the longest magic we look at (zstd) */
    SOURCE_ERR_MAX = 160,
};

struct source {
    struct pgn_source raw;
    enum source_format format;
    bool sniffed;
    bool raw_eof;     /* the raw source said 0 */
    bool failed;      /* an error was recorded: every read returns -1 */
    int fail_errno;
    bool at_boundary; /* the decoder finished a gzip member / zstd frame, nothing after */
    bool z_ready;     /* zs was initialised (needs inflateEnd) */
    z_stream zs;
    ZSTD_DCtx *zd;
    uint64_t raw_bytes;
    size_t in_pos, in_len; /* unread compressed (or sniffed) bytes: in[in_pos, in_len) */
    unsigned char in[SOURCE_IN_CAP];
    char err[SOURCE_ERR_MAX];
};

struct source *source_new(struct pgn_source raw)
{
    struct source *s = xcalloc(1, sizeof *s);
    s->raw = raw;
    return s;
}

void source_free(struct source *s)
{
    if (!s)
        return;
    if (s->z_ready)
        inflateEnd(&s->zs);
    ZSTD_freeDCtx(s->zd);
    free(s);
}

enum source_format source_format(const struct source *s) { return s->format; }

const char *source_format_name(enum source_format format)
{
    switch (format) {
    case SOURCE_FORMAT_PLAIN: return "plain";
    case SOURCE_FORMAT_GZIP: return "gzip";
    case SOURCE_FORMAT_ZSTD: return "zstd";
    case SOURCE_FORMAT_UNKNOWN: break;
    }
    return "unknown";
}

const char *source_error(const struct source *s) { return s->failed ? s->err : NULL; }

uint64_t source_raw_bytes(const struct source *s) { return s->raw_bytes; }

static ssize_t fail(struct source *s, int errnum, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Record the first error (later ones are consequences) and return -1 with errno set. */
static ssize_t fail(struct source *s, int errnum, const char *fmt, ...)
{
    if (!s->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(s->err, sizeof s->err, fmt, ap);
        va_end(ap);
        s->failed = true;
        s->fail_errno = errnum;
    }
    errno = s->fail_errno;
    return -1;
}

/*
 * Make at least need unread bytes available in s->in (fewer only at the end of the raw
 * input).  Moves the unread bytes to the front first.  Returns 0, or -1 after a raw read
 * error (recorded).
 */
static int fill_input(struct source *s, size_t need)
{
    if (s->in_pos) {
        memmove(s->in, s->in + s->in_pos, s->in_len - s->in_pos);
        s->in_len -= s->in_pos;
        s->in_pos = 0;
    }
    while (s->in_len < need && !s->raw_eof) {
        ssize_t got = s->raw.read(s->raw.ctx, (char *)s->in + s->in_len, SOURCE_IN_CAP - s->in_len);
        if (got < 0) {
            int e = errno;
            fail(s, e, "read error: %s", strerror(e));
            return -1;
        }
        if (got == 0)
            s->raw_eof = true;
        s->in_len += (size_t)got;
        s->raw_bytes += (uint64_t)got;
    }
    return 0;
}

static size_t avail(const struct source *s) { return s->in_len - s->in_pos; }

static bool is_gzip_magic(const unsigned char *p, size_t n)
{
    return n >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

static bool is_zstd_magic(const unsigned char *p, size_t n)
{
    if (n < 4)
        return false;
    uint32_t m = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return m == ZSTD_MAGICNUMBER || (m & ZSTD_MAGIC_SKIPPABLE_MASK) == ZSTD_MAGIC_SKIPPABLE_START;
}

/* Set up the decoder the magic asks for.  Returns 0, or -1 (recorded). */
static int start_decoder(struct source *s)
{
    if (s->format == SOURCE_FORMAT_GZIP) {
        /* 15 + 32: the largest window, and let zlib read the gzip (or zlib) header. */
        int rc = inflateInit2(&s->zs, 15 + 32);
        if (rc != Z_OK)
            return (int)fail(s, ENOMEM, "cannot start the gzip decoder (zlib error %d)", rc);
        s->z_ready = true;
    } else if (s->format == SOURCE_FORMAT_ZSTD) {
        s->zd = ZSTD_createDCtx();
        if (!s->zd)
            return (int)fail(s, ENOMEM, "cannot start the zstd decoder");
    }
    return 0;
}

enum source_format source_sniff(struct source *s)
{
    if (s->sniffed || s->failed)
        return s->format;
    if (fill_input(s, SNIFF_BYTES) != 0)
        return SOURCE_FORMAT_UNKNOWN;
    const unsigned char *p = s->in + s->in_pos;
    size_t n = avail(s);
    if (is_gzip_magic(p, n))
        s->format = SOURCE_FORMAT_GZIP;
    else if (is_zstd_magic(p, n))
        s->format = SOURCE_FORMAT_ZSTD;
    else
        s->format = SOURCE_FORMAT_PLAIN;
    s->sniffed = true;
    if (start_decoder(s) != 0)
        s->format = SOURCE_FORMAT_UNKNOWN;
    return s->format;
}

/* Plain input: the sniffed bytes first, then straight from the raw source. */
static ssize_t read_plain(struct source *s, char *buf, size_t cap)
{
    size_t n = avail(s);
    if (n) {
        if (n > cap)
            n = cap;
        memcpy(buf, s->in + s->in_pos, n);
        s->in_pos += n;
        return (ssize_t)n;
    }
    if (s->raw_eof)
        return 0;
    ssize_t got = s->raw.read(s->raw.ctx, buf, cap);
    if (got < 0) {
        int e = errno;
        return fail(s, e, "read error: %s", strerror(e));
    }
    if (got == 0)
        s->raw_eof = true;
    s->raw_bytes += (uint64_t)got;
    return got;
}

/*
 * After a gzip member: the input must end, or start another member (gzip -d reads
 * concatenated members as one stream).  Returns 1 to go on, 0 at the end, -1 on error.
 */
static int next_gzip_member(struct source *s)
{
    if (fill_input(s, 2) != 0)
        return -1;
    if (avail(s) == 0)
        return 0;
    if (!is_gzip_magic(s->in + s->in_pos, avail(s)))
        return (int)fail(s, EIO, "unexpected bytes after the gzip data (offset %llu)",
                         (unsigned long long)(s->raw_bytes - avail(s)));
    inflateReset(&s->zs);
    s->at_boundary = false;
    return 1;
}

static ssize_t read_gzip(struct source *s, char *buf, size_t cap)
{
    for (;;) {
        if (s->at_boundary) {
            int rc = next_gzip_member(s);
            if (rc <= 0)
                return rc;
        }
        if (avail(s) == 0 && fill_input(s, 1) != 0)
            return -1;
        s->zs.next_in = s->in + s->in_pos;
        s->zs.avail_in = (uInt)avail(s);
        s->zs.next_out = (unsigned char *)buf;
        s->zs.avail_out = cap > UINT32_MAX ? UINT32_MAX : (uInt)cap;
        int rc = inflate(&s->zs, Z_NO_FLUSH);
        size_t used = avail(s) - s->zs.avail_in;
        size_t made = (size_t)((char *)s->zs.next_out - buf);
        s->in_pos += used;
        if (rc == Z_STREAM_END)
            s->at_boundary = true;
        else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT)
            return fail(s, EIO, "gzip data is corrupt (%s)",
                        s->zs.msg ? s->zs.msg : "needs a preset dictionary");
        else if (rc == Z_MEM_ERROR)
            return fail(s, ENOMEM, "out of memory decoding gzip data");
        else if (rc != Z_OK && rc != Z_BUF_ERROR)
            return fail(s, EIO, "gzip decoder failed (zlib error %d)", rc);
        if (made)
            return (ssize_t)made;
        /* No output and no input taken: the decoder is starved. */
        if (!used && !s->at_boundary && avail(s) == 0 && s->raw_eof)
            return fail(s, EIO, "gzip data is truncated");
    }
}

static ssize_t read_zstd(struct source *s, char *buf, size_t cap)
{
    for (;;) {
        if (avail(s) == 0 && fill_input(s, 1) != 0)
            return -1;
        ZSTD_inBuffer in = {s->in + s->in_pos, avail(s), 0};
        ZSTD_outBuffer out = {buf, cap, 0};
        size_t rc = ZSTD_decompressStream(s->zd, &out, &in);
        if (ZSTD_isError(rc))
            return fail(s, EIO, "zstd data is corrupt (%s)", ZSTD_getErrorName(rc));
        s->in_pos += in.pos;
        /* 0: a frame is complete and flushed; the next bytes, if any, start a new one. */
        if (in.pos || out.pos)
            s->at_boundary = rc == 0;
        if (out.pos)
            return (ssize_t)out.pos;
        if (!in.pos && avail(s) == 0 && s->raw_eof) {
            if (s->at_boundary)
                return 0;
            return fail(s, EIO, "zstd data is truncated");
        }
    }
}

ssize_t source_read(struct source *s, char *buf, size_t cap)
{
    if (s->failed) {
        errno = s->fail_errno;
        return -1;
    }
    if (!s->sniffed && source_sniff(s) == SOURCE_FORMAT_UNKNOWN)
        return fail(s, EIO, "cannot read the input");
    if (cap == 0)
        return 0;
    switch (s->format) {
    case SOURCE_FORMAT_GZIP: return read_gzip(s, buf, cap);
    case SOURCE_FORMAT_ZSTD: return read_zstd(s, buf, cap);
    case SOURCE_FORMAT_PLAIN: return read_plain(s, buf, cap);
    case SOURCE_FORMAT_UNKNOWN: break;
    }
    return fail(s, EIO, "cannot read the input");
}

static ssize_t source_read_cb(void *ctx, char *buf, size_t cap)
{
    return source_read(ctx, buf, cap);
}

struct pgn_source source_as_pgn_source(struct source *s)
{
    return (struct pgn_source){source_read_cb, s};
}
