/*
 * source.c - compressed, archived and UTF-16 input recognised by content (source.h).
 *
 * Owns: the raw input buffer, the decoders (zlib and libzstd directly for single gzip
 * and zstd streams - why, below - and libarchive for everything else, loaded at the first
 * input that needs it: libarchive_dl.h), archive members, the look at each stream's first
 * decoded bytes (source_sniff.h), UTF-16 to UTF-8 transcoding, and the one-line error
 * text.  Does not open files or print: errors are returned as -1/errno plus
 * source_error(), and the CLI decides what to say.
 *
 * Layers, each reading the one below: raw bytes (in[]) -> decoded bytes of the current
 * stream or member (decode_read) -> the same with its first bytes replayed from head[]
 * (member_read) -> UTF-8 text (source_read: as is, or transcoded from UTF-16).
 */
#include "io/source.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "base/utf8.h"
#include "io/libarchive_dl.h"
#include "base/xalloc.h"
#include "io/source_sniff.h"

enum {
    SOURCE_IN_CAP = 64 * 1024, /* compressed bytes buffered at a time */
    SOURCE_ERR_MAX = 256,
    UTF16_IN_CAP = 8192,       /* UTF-16 bytes transcoded at a time */
};

enum text_kind { TEXT_ASIS, TEXT_UTF16LE, TEXT_UTF16BE };

struct source {
    struct pgn_source raw;
    enum source_format format;
    bool sniffed;
    bool raw_eof;     /* the raw source said 0 */
    bool failed;      /* an error was recorded: every read returns -1 */
    int fail_errno;
    bool member_end;  /* the current stream or member has given its last byte */
    bool at_boundary; /* a gzip member or zstd frame ended, nothing read after it yet */
    bool z_ready;     /* zs was initialised (needs inflateEnd) */
    z_stream zs;
    ZSTD_DCtx *zd;
    const char *what; /* "gzip", "zip archive", ...; NULL for plain text */
    char what_buf[48];  /* "tar archive (xz)": an archive inside a compressor */
    struct archive *ar;
    const struct libarchive_api *la; /* set with ar: loaded at the first archive */
    char *member;     /* the current archive member's name (NULL: not an archive) */
    int64_t (*seek)(void *ctx, int64_t offset, int whence); /* source_set_seek */
    uint64_t raw_bytes;
    size_t in_pos, in_len; /* unread compressed (or sniffed) bytes: in[in_pos, in_len) */
    /* The member's first decoded bytes, looked at and then handed out first. */
    size_t head_pos, head_len;
    enum text_kind text;
    /* UTF-16: undecoded input, a high surrogate waiting for its pair, and the UTF-8 of a
     * character that did not fit the caller's buffer. */
    size_t u16_pos, u16_len;
    uint32_t high_surrogate;
    size_t spill_pos, spill_len;
    unsigned char spill[4];
    unsigned char in[SOURCE_IN_CAP];
    unsigned char head[SNIFF_TEXT_BYTES];
    unsigned char u16[UTF16_IN_CAP];
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
    if (s->ar)
        s->la->archive_read_free(s->ar);
    free(s->member);
    free(s);
}

enum source_format source_format(const struct source *s) { return s->format; }

const char *source_format_name(enum source_format format)
{
    switch (format) {
    case SOURCE_FORMAT_PLAIN: return "plain";
    case SOURCE_FORMAT_GZIP: return "gzip";
    case SOURCE_FORMAT_ZSTD: return "zstd";
    case SOURCE_FORMAT_ARCHIVE: return "archive";
    case SOURCE_FORMAT_NOT_TEXT: return "not text";
    case SOURCE_FORMAT_UNKNOWN: break;
    }
    return "unknown";
}

const char *source_error(const struct source *s) { return s->failed ? s->err : NULL; }

uint64_t source_raw_bytes(const struct source *s) { return s->raw_bytes; }

size_t source_decoder_bytes(const struct source *s)
{
    /* libzstd's own count: its context, input block and window buffer, allocated when the
     * frame header was read (start_member decodes the first bytes). */
    if (s->zd)
        return ZSTD_sizeof_DCtx(s->zd);
    /* zlib: the 32 KiB window, and ~7 KiB of inflate state (zlib's zconf.h). */
    if (s->z_ready)
        return (32 + 7) * 1024;
    return 0;
}

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

/* ---- libarchive over the raw source ---------------------------------------------------- */

/* libarchive's read callback: the buffered bytes first (the sniffed ones), then the raw
 * source, one buffer at a time.  The block stays valid until the next call. */
static la_ssize_t archive_read_cb(struct archive *a, void *ctx, const void **block)
{
    struct source *s = ctx;
    if (avail(s) == 0) {
        if (fill_input(s, 1) != 0) {
            s->la->archive_set_error(a, s->fail_errno, "%s", s->err);
            return -1;
        }
    }
    *block = s->in + s->in_pos;
    size_t n = avail(s);
    s->in_pos = s->in_len;
    return (la_ssize_t)n;
}

/* Only for 7z (its index is at the end); the position is what libarchive was given. */
static la_int64_t archive_seek_cb(struct archive *a, void *ctx, la_int64_t offset, int whence)
{
    struct source *s = ctx;
    (void)a;
    int64_t target = offset;
    if (whence == SEEK_CUR) {
        target = (int64_t)(s->raw_bytes - avail(s)) + offset;
        whence = SEEK_SET;
    }
    int64_t at = s->seek(s->raw.ctx, target, whence);
    if (at < 0)
        return ARCHIVE_FATAL;
    s->in_pos = s->in_len = 0;
    s->raw_eof = false;
    s->raw_bytes = (uint64_t)at;
    return at;
}

static bool has_pgn_suffix(const char *name)
{
    size_t n = strlen(name);
    return n >= 4 && strcasecmp(name + n - 4, ".pgn") == 0;
}

/* An office document is a zip of XML parts: named by the folder of its main part. */
static const char *office_kind(const char *name)
{
    static const struct { const char *folder, *kind; } kinds[] = {
        {"word/", "a Word document (.docx)"},
        {"xl/", "an Excel workbook (.xlsx)"},
        {"ppt/", "a PowerPoint presentation (.pptx)"},
        {"META-INF/", "a Java archive, OpenDocument or EPUB file"},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (strncmp(name, kinds[i].folder, strlen(kinds[i].folder)) == 0)
            return kinds[i].kind;
    return NULL;
}

/* libarchive failed: why, in its own words, or what is behind them.  Returns -1. */
static int fail_archive(struct source *s)
{
    if (s->failed) /* a raw read error, recorded by the callback */
        return (int)fail(s, s->fail_errno, "%s", s->err);
    if (strcmp(s->what, "7z archive") == 0 && !s->seek)
        return (int)fail(s, EIO, "7z archives cannot be read from a pipe: give the file's name");
    const char *why = s->la->archive_error_string(s->ar);
    return (int)fail(s, EIO, "%s data is truncated or corrupt (%s)", s->what,
                     why ? why : "unreadable");
}

/* Once libarchive knows the format: a tar inside gzip is "tar archive (gzip)". */
static void name_container(struct source *s, int format)
{
    const char *family;
    switch (format & ARCHIVE_FORMAT_BASE_MASK) {
    case ARCHIVE_FORMAT_RAW:
    case ARCHIVE_FORMAT_EMPTY: return;
    case ARCHIVE_FORMAT_TAR: family = "tar archive"; break;
    case ARCHIVE_FORMAT_ZIP: family = "zip archive"; break;
    case ARCHIVE_FORMAT_7ZIP: family = "7z archive"; break;
    case ARCHIVE_FORMAT_RAR:
    case ARCHIVE_FORMAT_RAR_V5: family = "RAR archive"; break;
    case ARCHIVE_FORMAT_CPIO: family = "cpio archive"; break;
    case ARCHIVE_FORMAT_ISO9660: family = "ISO 9660 image"; break;
    default: family = "archive"; break;
    }
    if (strcmp(s->what, family) == 0)
        return;
    if (strstr(s->what, "archive"))
        snprintf(s->what_buf, sizeof s->what_buf, "%s", family);
    else
        snprintf(s->what_buf, sizeof s->what_buf, "%s (%s)", family, s->what);
    s->what = s->what_buf;
}

/*
 * Move to the next member to read: in an archive, the next regular file named *.pgn (any
 * case); a compressor's single stream (libarchive's "raw" format) is one member.
 * Returns 1 at a member, 0 when there are no more, -1 on error (recorded).
 */
static int next_archive_member(struct source *s, bool first)
{
    struct archive_entry *e;
    char first_name[128] = "";
    const char *office = NULL;
    int rc;
    const struct libarchive_api *la = s->la;
    while ((rc = la->archive_read_next_header(s->ar, &e)) == ARCHIVE_OK || rc == ARCHIVE_WARN) {
        int format = la->archive_format(s->ar);
        if (first)
            name_container(s, format);
        const char *name = la->archive_entry_pathname(e);
        if (!name)
            name = "";
        if (format == ARCHIVE_FORMAT_RAW &&
            la->archive_filter_code(s->ar, 0) == ARCHIVE_FILTER_NONE)
            /* The magic was there, but not enough for libarchive to take it as such. */
            return (int)fail(s, EIO, "%s data is truncated or corrupt (too short to decode)",
                             s->what);
        if (format == ARCHIVE_FORMAT_RAW) {
            free(s->member);
            s->member = NULL; /* one stream: the file's own name says it */
            return 1;
        }
        if (!first_name[0])
            snprintf(first_name, sizeof first_name, "%s", name);
        if (!office)
            office = office_kind(name);
        if (la->archive_entry_filetype(e) == AE_IFREG && has_pgn_suffix(name)) {
            free(s->member);
            s->member = xstrndup(name, strlen(name));
            return 1;
        }
    }
    if (rc != ARCHIVE_EOF)
        return fail_archive(s);
    if (!first || la->archive_format(s->ar) == ARCHIVE_FORMAT_EMPTY)
        return 0;
    if (office)
        return (int)fail(s, EINVAL, "%s, not PGN text (a zip archive with no .pgn member)",
                         office);
    return (int)fail(s, EINVAL, "%s with no .pgn member%s%s%s", s->what,
                     first_name[0] ? " (the first is " : "", first_name,
                     first_name[0] ? ")" : "");
}

static int open_archive(struct source *s)
{
    const char *why = NULL;
    s->la = libarchive_dl(&why);
    if (!s->la)
        return (int)fail(s, ENOTSUP, "cannot decode %s: %s", s->what, why);
    s->ar = s->la->archive_read_new();
    if (!s->ar)
        return (int)fail(s, ENOMEM, "cannot start the archive reader");
    s->la->archive_read_support_filter_all(s->ar);
    s->la->archive_read_support_format_all(s->ar);
    s->la->archive_read_support_format_raw(s->ar);
    s->la->archive_read_set_read_callback(s->ar, archive_read_cb);
    /* Seeking only where it is needed: zip read front to back (as from a pipe) still gives
     * the members before a damaged or missing end. */
    if (s->seek && strcmp(s->what, "7z archive") == 0)
        s->la->archive_read_set_seek_callback(s->ar, archive_seek_cb);
    s->la->archive_read_set_callback_data(s->ar, s);
    if (s->la->archive_read_open1(s->ar) != ARCHIVE_OK)
        return fail_archive(s);
    return 0;
}

/* ---- gzip and zstd, decoded by zlib and libzstd directly ------------------------------ */

/*
 * libarchive reads both as fast (README, "Input"), but its gzip reader does not check
 * the CRC-32 and length in each member's trailer (a flipped bit would pass silently),
 * and its zstd reader loses all it decoded into its output buffer when the data is
 * damaged (half a 2.3 MB file: 4 KB out, against the ~1 MB before the damage here).
 */

static bool is_gzip_magic(const unsigned char *p, size_t n)
{
    return n >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

static int start_gzip(struct source *s)
{
    /* 15 + 32: the largest window, and let zlib read the gzip (or zlib) header. */
    int rc = inflateInit2(&s->zs, 15 + 32);
    if (rc != Z_OK)
        return (int)fail(s, ENOMEM, "cannot start the gzip decoder (zlib error %d)", rc);
    s->z_ready = true;
    return 0;
}

/* The context may exist already: holds_tar decoded the first bytes with it. */
static int start_zstd(struct source *s)
{
    if (!s->zd)
        s->zd = ZSTD_createDCtx();
    return s->zd ? 0 : (int)fail(s, ENOMEM, "cannot start the zstd decoder");
}

/*
 * Whether the compressed data in the buffer starts a tar archive (then libarchive reads
 * it): its first 512 bytes are decoded on the side, nothing is consumed.  Up to a buffer
 * of raw input is read for it (on a pipe, it waits for that much or the end).
 */
static bool holds_tar(struct source *s)
{
    if (fill_input(s, SOURCE_IN_CAP) != 0)
        return false;
    unsigned char first[512];
    size_t made = 0;
    if (s->format == SOURCE_FORMAT_GZIP) {
        z_stream z;
        memset(&z, 0, sizeof z);
        if (inflateInit2(&z, 15 + 32) != Z_OK)
            return false;
        z.next_in = s->in + s->in_pos;
        z.avail_in = (uInt)avail(s);
        z.next_out = first;
        z.avail_out = sizeof first;
        inflate(&z, Z_NO_FLUSH);
        made = sizeof first - z.avail_out;
        inflateEnd(&z);
    } else {
        /* With the context that will decode the stream, reset after: a context of its
         * own allocated the window (8 MiB for zstd -19) once more, for 512 bytes, and
         * glibc, seeing so large a block freed, raised its mmap threshold past it: the
         * window and every later buffer came from the heap, where freed pages stay. */
        if (start_zstd(s) != 0)
            return false;
        ZSTD_inBuffer in = {s->in + s->in_pos, avail(s), 0};
        ZSTD_outBuffer out = {first, sizeof first, 0};
        while (out.pos < out.size && in.pos < in.size &&
               !ZSTD_isError(ZSTD_decompressStream(s->zd, &out, &in)))
            ;
        made = out.pos;
        ZSTD_DCtx_reset(s->zd, ZSTD_reset_session_only);
    }
    return made >= 262 && memcmp(first + 257, "ustar", 5) == 0;
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
    if (s->failed) { /* recorded with the bytes decoded before it, handed out last time */
        errno = s->fail_errno;
        return -1;
    }
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
        /* An error is recorded, but the bytes this call decoded before it are handed out
         * first (the next call gives the error): what comes out before the damage must
         * not depend on the size of the caller's buffer. */
        if (rc == Z_STREAM_END)
            s->at_boundary = true;
        else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT)
            fail(s, EIO, "gzip data is corrupt (%s)",
                 s->zs.msg ? s->zs.msg : "needs a preset dictionary");
        else if (rc == Z_MEM_ERROR)
            fail(s, ENOMEM, "out of memory decoding gzip data");
        else if (rc != Z_OK && rc != Z_BUF_ERROR)
            fail(s, EIO, "gzip decoder failed (zlib error %d)", rc);
        if (s->failed && !made)
            return -1;
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
        if (ZSTD_isError(rc) && ZSTD_getErrorCode(rc) == ZSTD_error_frameParameter_windowTooLarge)
            return fail(s, EIO, "zstd data with a window over 128 MiB (zstd --long=28 or "
                        "more), past the limit pgnkit shares with zstd -d: decode it with "
                        "'zstd -dc --memory=2048MB' into pgnkit's standard input");
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

/* ---- the decoded bytes of the current stream or member ---------------------------------- */

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
 * At the end of a compressor's single stream: nothing may follow it (gzip -d, too,
 * complains of trailing garbage).  libarchive stops quietly there; what it took is
 * compared with what the raw source holds.  Returns 0, or -1 (recorded).
 */
static int check_stream_end(struct source *s)
{
    if (s->la->archive_format(s->ar) != ARCHIVE_FORMAT_RAW)
        return 0;
    uint64_t given = s->raw_bytes - avail(s);
    uint64_t taken = (uint64_t)s->la->archive_filter_bytes(s->ar, -1);
    if (taken < given || (fill_input(s, 1) == 0 && avail(s) > 0))
        return (int)fail(s, EIO, "unexpected bytes after the %s data (offset %llu)", s->what,
                         (unsigned long long)taken);
    return s->failed ? -1 : 0;
}

static ssize_t read_archive(struct source *s, char *buf, size_t cap)
{
    la_ssize_t got = s->la->archive_read_data(s->ar, buf, cap);
    if (got == 0 && check_stream_end(s) != 0)
        return -1;
    if (got >= 0)
        return (ssize_t)got;
    return fail_archive(s);
}

static ssize_t decode_read(struct source *s, char *buf, size_t cap)
{
    switch (s->format) {
    case SOURCE_FORMAT_GZIP: return read_gzip(s, buf, cap);
    case SOURCE_FORMAT_ZSTD: return read_zstd(s, buf, cap);
    case SOURCE_FORMAT_ARCHIVE: return read_archive(s, buf, cap);
    case SOURCE_FORMAT_PLAIN: return read_plain(s, buf, cap);
    case SOURCE_FORMAT_NOT_TEXT:
    case SOURCE_FORMAT_UNKNOWN: break;
    }
    return fail(s, EIO, "cannot read the input");
}

/*
 * The start of a stream or member: read its first bytes into head[] and look at them.
 * A read error there is kept for later (the bytes before it are still handed out).
 * Returns 0, or -1 when the content is no PGN text (recorded).
 */
static int start_member(struct source *s)
{
    s->head_pos = s->head_len = 0;
    s->u16_pos = s->u16_len = 0;
    s->spill_pos = s->spill_len = 0;
    s->high_surrogate = 0;
    s->member_end = false;
    while (s->head_len < sizeof s->head) {
        ssize_t got = decode_read(s, (char *)s->head + s->head_len, sizeof s->head - s->head_len);
        if (got <= 0) {
            s->member_end = got == 0;
            break;
        }
        s->head_len += (size_t)got;
    }
    struct sniff what = sniff_text(s->head, s->head_len);
    s->text = what.kind == SNIFF_UTF16LE ? TEXT_UTF16LE
              : what.kind == SNIFF_UTF16BE ? TEXT_UTF16BE : TEXT_ASIS;
    s->head_pos = what.skip;
    if (what.kind != SNIFF_FOREIGN)
        return 0;
    s->failed = false; /* the content's verdict says more than a later read error */
    if (s->member)
        fail(s, EINVAL, "%s member %s is %s, not PGN text", s->what, s->member, what.what);
    else if (s->what)
        fail(s, EINVAL, "%s data holding %s, not PGN text", s->what, what.what);
    else
        fail(s, EINVAL, "%s, not PGN text", what.what);
    return -1;
}

enum source_format source_sniff(struct source *s)
{
    if (s->sniffed || s->failed)
        return s->format;
    if (fill_input(s, SNIFF_RAW_BYTES) != 0)
        return SOURCE_FORMAT_UNKNOWN;
    struct sniff c = sniff_container(s->in + s->in_pos, avail(s));
    s->sniffed = true;
    s->what = c.what;
    switch (c.kind) {
    case SNIFF_GZIP: s->format = SOURCE_FORMAT_GZIP; break;
    case SNIFF_ZSTD: s->format = SOURCE_FORMAT_ZSTD; break;
    case SNIFF_ARCHIVE: s->format = SOURCE_FORMAT_ARCHIVE; break;
    case SNIFF_FOREIGN:
        s->format = SOURCE_FORMAT_NOT_TEXT;
        fail(s, EINVAL, "%s, not PGN text", c.what);
        return s->format;
    default: s->format = SOURCE_FORMAT_PLAIN; break;
    }
    if ((s->format == SOURCE_FORMAT_GZIP || s->format == SOURCE_FORMAT_ZSTD) && holds_tar(s)) {
        s->format = SOURCE_FORMAT_ARCHIVE;
        ZSTD_freeDCtx(s->zd); /* libarchive decodes it (its window too) */
        s->zd = NULL;
    }
    int rc = s->format == SOURCE_FORMAT_GZIP   ? start_gzip(s)
             : s->format == SOURCE_FORMAT_ZSTD ? start_zstd(s)
             : s->format == SOURCE_FORMAT_PLAIN
                 ? 0
                 : open_archive(s) != 0 || next_archive_member(s, true) < 0 ? -1 : 0;
    if (rc != 0) {
        s->format = SOURCE_FORMAT_UNKNOWN;
        return s->format;
    }
    if (s->ar && s->la->archive_format(s->ar) == ARCHIVE_FORMAT_EMPTY) {
        s->member_end = true;
        return s->format;
    }
    if (start_member(s) != 0)
        s->format = SOURCE_FORMAT_NOT_TEXT;
    return s->format;
}

/* The current member's bytes: its head first, then the decoder; 0 at its end. */
static ssize_t member_read(struct source *s, char *buf, size_t cap)
{
    size_t n = s->head_len - s->head_pos;
    if (n) {
        if (n > cap)
            n = cap;
        memcpy(buf, s->head + s->head_pos, n);
        s->head_pos += n;
        return (ssize_t)n;
    }
    if (s->failed) {
        errno = s->fail_errno;
        return -1;
    }
    if (s->member_end)
        return 0;
    ssize_t got = decode_read(s, buf, cap);
    if (got == 0)
        s->member_end = true;
    return got;
}

/*
 * The next code point of the UTF-16 input, or -1 at its end (0 bytes: -2 on a read error).
 * Unpaired surrogates and an odd last byte become U+FFFD.
 */
static int32_t next_utf16(struct source *s)
{
    for (;;) {
        if (s->u16_len - s->u16_pos < 2) {
            size_t left = s->u16_len - s->u16_pos;
            memmove(s->u16, s->u16 + s->u16_pos, left);
            s->u16_pos = 0;
            s->u16_len = left;
            ssize_t got = member_read(s, (char *)s->u16 + left, sizeof s->u16 - left);
            if (got < 0)
                return -2;
            s->u16_len += (size_t)got;
            if (got == 0 && s->u16_len < 2) {
                uint32_t pending = s->high_surrogate;
                s->high_surrogate = 0;
                s->u16_pos = s->u16_len = 0;
                return left || pending ? UTF8_REPLACEMENT : -1;
            }
            continue;
        }
        const unsigned char *p = s->u16 + s->u16_pos;
        uint32_t unit = s->text == TEXT_UTF16LE ? (uint32_t)(p[0] | p[1] << 8)
                                                : (uint32_t)(p[0] << 8 | p[1]);
        bool high = unit >= 0xd800 && unit < 0xdc00, low = unit >= 0xdc00 && unit < 0xe000;
        if (s->high_surrogate) {
            uint32_t h = s->high_surrogate;
            s->high_surrogate = 0;
            if (!low)
                return UTF8_REPLACEMENT; /* the unit is read again next time */
            s->u16_pos += 2;
            return (int32_t)(0x10000 + ((h - 0xd800) << 10) + (unit - 0xdc00));
        }
        s->u16_pos += 2;
        if (high) {
            s->high_surrogate = unit;
            continue;
        }
        return low ? UTF8_REPLACEMENT : (int32_t)unit;
    }
}

/* UTF-16 in, UTF-8 out; a character that does not fit waits in spill[]. */
static ssize_t read_utf16(struct source *s, char *buf, size_t cap)
{
    size_t n = 0;
    while (n < cap) {
        if (s->spill_pos < s->spill_len) {
            buf[n++] = (char)s->spill[s->spill_pos++];
            continue;
        }
        int32_t cp = next_utf16(s);
        if (cp == -2)
            return n ? (ssize_t)n : -1;
        if (cp < 0)
            break;
        if (cap - n >= 4) {
            n += utf8_put((unsigned char *)buf + n, (uint32_t)cp);
        } else {
            s->spill_len = utf8_put(s->spill, (uint32_t)cp);
            s->spill_pos = 0;
        }
    }
    return (ssize_t)n;
}

ssize_t source_read(struct source *s, char *buf, size_t cap)
{
    if (!s->sniffed && !s->failed)
        source_sniff(s);
    if (s->format == SOURCE_FORMAT_UNKNOWN || s->format == SOURCE_FORMAT_NOT_TEXT) {
        if (!s->failed)
            fail(s, EIO, "cannot read the input");
        errno = s->fail_errno;
        return -1;
    }
    if (cap == 0)
        return 0;
    if (s->text == TEXT_ASIS)
        return member_read(s, buf, cap);
    return read_utf16(s, buf, cap);
}

int source_next_member(struct source *s)
{
    if (s->failed || !s->ar || !s->member)
        return s->failed ? -1 : 0;
    int rc = next_archive_member(s, false);
    if (rc <= 0)
        return rc;
    return start_member(s) == 0 ? 1 : -1;
}

const char *source_member(const struct source *s) { return s->member; }

const char *source_container(const struct source *s) { return s->what; }

const char *source_text_encoding(const struct source *s)
{
    return s->text == TEXT_UTF16LE ? "UTF-16LE" : s->text == TEXT_UTF16BE ? "UTF-16BE" : NULL;
}

void source_set_seek(struct source *s, int64_t (*seek)(void *ctx, int64_t offset, int whence))
{
    s->seek = seek;
}

static ssize_t source_read_cb(void *ctx, char *buf, size_t cap)
{
    return source_read(ctx, buf, cap);
}

struct pgn_source source_as_pgn_source(struct source *s)
{
    return (struct pgn_source){source_read_cb, s};
}
