/* test_source.c - gzip/zstd/plain sources: sniffing, tiny reads, members, frames, errors. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "io/source.h"

/* ---- a raw source over memory that hands out at most `chunk` bytes per read ------------ */

struct mem_raw {
    const unsigned char *data;
    size_t len, pos, chunk;
    size_t fail_at; /* fail (errno fail_errno) once pos reaches this; SIZE_MAX: never */
    int fail_errno;
};

static ssize_t mem_read(void *ctx, char *buf, size_t cap)
{
    struct mem_raw *m = ctx;
    if (m->pos >= m->fail_at) {
        errno = m->fail_errno;
        return -1;
    }
    size_t n = m->len - m->pos;
    if (n > cap)
        n = cap;
    if (n > m->chunk)
        n = m->chunk;
    if (m->fail_at != SIZE_MAX && n > m->fail_at - m->pos)
        n = m->fail_at - m->pos;
    memcpy(buf, m->data + m->pos, n);
    m->pos += n;
    return (ssize_t)n;
}

static struct mem_raw mem_raw(const void *data, size_t len, size_t chunk)
{
    return (struct mem_raw){data, len, 0, chunk, SIZE_MAX, 0};
}

struct bytes {
    unsigned char *data;
    size_t len;
    size_t cap; /* grown geometrically: ASan's realloc always copies */
};

static void bytes_append(struct bytes *b, const void *p, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->data = realloc(b->data, b->cap);
    }
    cr_assert_not_null(b->data);
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

/* Read s to the end in reads of at most cap bytes.  Returns the last read's result. */
static ssize_t drain(struct source *s, size_t cap, struct bytes *out)
{
    char buf[64];
    cr_assert(cap <= sizeof buf);
    for (int guard = 0; guard < 50000000; guard++) {
        ssize_t got = source_read(s, buf, cap);
        if (got <= 0)
            return got;
        cr_assert((size_t)got <= cap);
        bytes_append(out, buf, (size_t)got);
    }
    cr_assert_fail("the source never ended");
    return -1;
}

/* ---- test data and compressors ------------------------------------------------------- */

/* Some PGN-ish text, varied enough that the compressors work for their living. */
static struct bytes sample_text(size_t games)
{
    struct bytes b = {NULL, 0, 0};
    char line[160];
    unsigned x = 12345;
    for (size_t g = 0; g < games; g++) {
        int n = snprintf(line, sizeof line, "[Event \"Test %zu\"]\n[Result \"*\"]\n\n", g);
        bytes_append(&b, line, (size_t)n);
        for (int ply = 1; ply <= 40; ply++) {
            x = x * 1103515245u + 12345u;
            n = snprintf(line, sizeof line, "%d. %c%d {%u} ", ply, 'a' + (int)(x >> 28) % 8,
                         1 + (int)(x >> 20) % 8, x >> 16);
            bytes_append(&b, line, (size_t)n);
        }
        bytes_append(&b, "*\n\n", 3);
    }
    return b;
}

static struct bytes gzip_bytes(const void *data, size_t len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    cr_assert_eq(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    struct bytes out = {malloc(deflateBound(&z, len) + 64), 0, 0};
    z.next_in = (unsigned char *)data;
    z.avail_in = (uInt)len;
    z.next_out = out.data;
    z.avail_out = (uInt)(deflateBound(&z, len) + 64);
    cr_assert_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    out.len = z.total_out;
    deflateEnd(&z);
    return out;
}

static struct bytes zstd_bytes(const void *data, size_t len, int checksum)
{
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, checksum);
    struct bytes out = {malloc(ZSTD_compressBound(len)), 0, 0};
    size_t n = ZSTD_compress2(c, out.data, ZSTD_compressBound(len), data, len);
    cr_assert(!ZSTD_isError(n), "%s", ZSTD_getErrorName(n));
    out.len = n;
    ZSTD_freeCCtx(c);
    return out;
}

static void assert_same(const struct bytes *got, const void *want, size_t want_len)
{
    cr_assert_eq(got->len, want_len, "got %zu bytes, want %zu", got->len, want_len);
    cr_assert(want_len == 0 || memcmp(got->data, want, want_len) == 0, "bytes differ");
}

/* Decode in through raw reads of raw_chunk bytes and reads of cap bytes; want the text. */
static void assert_decodes(const struct bytes *in, size_t raw_chunk, size_t cap,
                           const void *want, size_t want_len, enum source_format format)
{
    struct mem_raw m = mem_raw(in->data, in->len, raw_chunk);
    struct source *s = source_new((struct pgn_source){mem_read, &m});
    struct bytes out = {NULL, 0, 0};
    cr_assert_eq(drain(s, cap, &out), 0, "error: %s", source_error(s));
    cr_assert_eq(source_format(s), format);
    cr_assert_null(source_error(s));
    cr_assert_eq(source_raw_bytes(s), in->len);
    assert_same(&out, want, want_len);
    /* The end is sticky. */
    char c;
    cr_assert_eq(source_read(s, &c, 1), 0);
    free(out.data);
    source_free(s);
}

/* Decode in and expect an error whose text contains needle (NULL: any text). */
static void assert_fails(const struct bytes *in, size_t raw_chunk, const char *needle)
{
    struct mem_raw m = mem_raw(in->data, in->len, raw_chunk);
    struct source *s = source_new((struct pgn_source){mem_read, &m});
    struct bytes out = {NULL, 0, 0};
    errno = 0;
    cr_assert_eq(drain(s, 61, &out), -1, "no error for %zu bytes", in->len);
    cr_assert_eq(errno, EIO);
    const char *msg = source_error(s);
    cr_assert_not_null(msg);
    if (needle)
        cr_assert(strstr(msg, needle), "message '%s' lacks '%s'", msg, needle);
    /* Errors are sticky. */
    char c;
    errno = 0;
    cr_assert_eq(source_read(s, &c, 1), -1);
    cr_assert_eq(errno, EIO);
    free(out.data);
    source_free(s);
}

/* ---- plain ------------------------------------------------------------------------- */

Test(source, plain_text_passes_through_byte_by_byte)
{
    struct bytes text = sample_text(20);
    for (size_t chunk = 1; chunk <= 5; chunk += 2)
        for (size_t cap = 1; cap <= 7; cap += 3)
            assert_decodes(&text, chunk, cap, text.data, text.len, SOURCE_FORMAT_PLAIN);
    assert_decodes(&text, 100000, 64, text.data, text.len, SOURCE_FORMAT_PLAIN);
    free(text.data);
}

Test(source, short_and_empty_inputs_are_plain)
{
    static const char *const inputs[] = {"", "1", "\x28\xb5\x2f", "1-0\n"};
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
        struct bytes b = {(unsigned char *)inputs[i], strlen(inputs[i]), 0};
        assert_decodes(&b, 1, 3, b.data, b.len, SOURCE_FORMAT_PLAIN);
    }
}

Test(source, sniff_reports_the_format_before_any_read)
{
    struct bytes text = sample_text(3000); /* more than a buffer of gzip data */
    struct bytes gz = gzip_bytes(text.data, text.len);
    struct mem_raw m = mem_raw(gz.data, gz.len, 1);
    struct source *s = source_new((struct pgn_source){mem_read, &m});
    cr_assert_eq(source_format(s), SOURCE_FORMAT_UNKNOWN);
    cr_assert_eq(source_sniff(s), SOURCE_FORMAT_GZIP);
    cr_assert_str_eq(source_format_name(source_format(s)), "gzip");
    cr_assert_lt(m.pos, gz.len, "sniffing reads no further than the first bytes");
    struct bytes out = {NULL, 0, 0};
    cr_assert_eq(drain(s, 64, &out), 0);
    assert_same(&out, text.data, text.len);
    source_free(s);
    free(out.data);
    free(gz.data);
    free(text.data);
}

/* ---- gzip -------------------------------------------------------------------------- */

Test(source, gzip_decodes_through_tiny_reads)
{
    struct bytes text = sample_text(30);
    struct bytes gz = gzip_bytes(text.data, text.len);
    assert_decodes(&gz, 1, 1, text.data, text.len, SOURCE_FORMAT_GZIP);
    assert_decodes(&gz, 3, 7, text.data, text.len, SOURCE_FORMAT_GZIP);
    assert_decodes(&gz, 1 << 20, 64, text.data, text.len, SOURCE_FORMAT_GZIP);
    free(gz.data);
    free(text.data);
}

Test(source, gzip_larger_than_the_input_buffer)
{
    struct bytes text = sample_text(3000); /* megabytes of text, several buffers of input */
    struct bytes gz = gzip_bytes(text.data, text.len);
    cr_assert_gt(gz.len, 64 * 1024);
    assert_decodes(&gz, 4096, 64, text.data, text.len, SOURCE_FORMAT_GZIP);
    free(gz.data);
    free(text.data);
}

Test(source, gzip_concatenated_members_are_one_stream)
{
    struct bytes a = sample_text(5), b = sample_text(7);
    struct bytes ga = gzip_bytes(a.data, a.len), gb = gzip_bytes(b.data, b.len);
    struct bytes gempty = gzip_bytes("", 0);
    struct bytes in = {NULL, 0, 0}, want = {NULL, 0, 0};
    bytes_append(&in, ga.data, ga.len);
    bytes_append(&in, gempty.data, gempty.len); /* an empty member in the middle */
    bytes_append(&in, gb.data, gb.len);
    bytes_append(&want, a.data, a.len);
    bytes_append(&want, b.data, b.len);
    assert_decodes(&in, 1, 5, want.data, want.len, SOURCE_FORMAT_GZIP);
    assert_decodes(&in, 1000, 64, want.data, want.len, SOURCE_FORMAT_GZIP);
    free(a.data), free(b.data), free(ga.data), free(gb.data), free(gempty.data);
    free(in.data), free(want.data);
}

Test(source, gzip_truncated_anywhere_is_an_error)
{
    struct bytes text = sample_text(3);
    struct bytes gz = gzip_bytes(text.data, text.len);
    for (size_t cut = 4; cut < gz.len; cut += (cut < 40 || cut > gz.len - 12) ? 1 : 37) {
        struct bytes part = {gz.data, cut, 0};
        assert_fails(&part, 7, NULL);
    }
    struct bytes part = {gz.data, gz.len - 1, 0};
    assert_fails(&part, 7, "truncated");
    free(gz.data);
    free(text.data);
}

Test(source, gzip_corrupt_data_is_an_error_not_a_crash)
{
    struct bytes text = sample_text(10);
    struct bytes gz = gzip_bytes(text.data, text.len);
    /* A broken block type right after the 10-byte header: BTYPE 11 is reserved. */
    unsigned char saved = gz.data[10];
    gz.data[10] |= 0x06;
    assert_fails(&gz, 13, "corrupt");
    gz.data[10] = saved;
    /* Any flipped byte in the body: caught by the decoder or the CRC-32 in the trailer. */
    for (size_t at = 12; at < gz.len; at += 11) {
        gz.data[at] ^= 0x5a;
        assert_fails(&gz, 64, NULL);
        gz.data[at] ^= 0x5a;
    }
    free(gz.data);
    free(text.data);
}

Test(source, gzip_followed_by_other_bytes_is_an_error)
{
    struct bytes text = sample_text(2);
    struct bytes in = gzip_bytes(text.data, text.len);
    bytes_append(&in, "[Event \"x\"]\n", 12);
    assert_fails(&in, 5, "unexpected bytes after the gzip data");
    free(in.data);
    free(text.data);
}

/* ---- zstd -------------------------------------------------------------------------- */

Test(source, zstd_decodes_through_tiny_reads)
{
    struct bytes text = sample_text(30);
    struct bytes zs = zstd_bytes(text.data, text.len, 0);
    assert_decodes(&zs, 1, 1, text.data, text.len, SOURCE_FORMAT_ZSTD);
    assert_decodes(&zs, 3, 7, text.data, text.len, SOURCE_FORMAT_ZSTD);
    assert_decodes(&zs, 1 << 20, 64, text.data, text.len, SOURCE_FORMAT_ZSTD);
    free(zs.data);
    free(text.data);
}

Test(source, zstd_larger_than_the_input_buffer)
{
    struct bytes text = sample_text(3000);
    struct bytes zs = zstd_bytes(text.data, text.len, 1);
    assert_decodes(&zs, 5000, 64, text.data, text.len, SOURCE_FORMAT_ZSTD);
    free(zs.data);
    free(text.data);
}

/* A stream compressed as from a pipe (its size not known first), whose frame declares
 * the whole window the compressor was told: 2^window_log bytes. */
static struct bytes zstd_stream_bytes(const void *data, size_t len, int window_log)
{
    ZSTD_CCtx *c = ZSTD_createCCtx();
    cr_assert(!ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, window_log)));
    struct bytes out = {malloc(ZSTD_compressBound(len) + 64), 0, 0};
    ZSTD_outBuffer o = {out.data, ZSTD_compressBound(len) + 64, 0};
    ZSTD_inBuffer i = {data, len, 0};
    size_t rc = ZSTD_compressStream2(c, &o, &i, ZSTD_e_continue); /* the size stays unknown */
    cr_assert(!ZSTD_isError(rc) && i.pos == len);
    ZSTD_inBuffer none = {NULL, 0, 0};
    while ((rc = ZSTD_compressStream2(c, &o, &none, ZSTD_e_end)) != 0)
        cr_assert(!ZSTD_isError(rc), "%s", ZSTD_getErrorName(rc));
    out.len = o.pos;
    ZSTD_freeCCtx(c);
    return out;
}

/* What source_decoder_bytes says once sniffed, for raw bytes in[0, len). */
static size_t decoder_bytes_of(const struct bytes *in)
{
    struct mem_raw m = mem_raw(in->data, in->len, SIZE_MAX);
    struct source *s = source_new((struct pgn_source){mem_read, &m});
    source_sniff(s);
    size_t n = source_decoder_bytes(s);
    source_free(s);
    return n;
}

Test(source, decoder_bytes_count_the_declared_window)
{
    struct bytes text = sample_text(300);
    /* zstd -19's window (2^23) and a small one (2^19): the window, and less than 1 MiB
     * of context, input block and the two blocks of output past it. */
    for (int wlog = 19; wlog <= 23; wlog += 4) {
        struct bytes zs = zstd_stream_bytes(text.data, text.len, wlog);
        size_t n = decoder_bytes_of(&zs);
        cr_assert_geq(n, (size_t)1 << wlog, "window 2^%d: %zu bytes counted", wlog, n);
        cr_assert_lt(n, ((size_t)1 << wlog) + (1 << 20), "window 2^%d: %zu bytes", wlog, n);
        free(zs.data);
    }
    struct bytes gz = gzip_bytes(text.data, text.len);
    cr_assert_eq(decoder_bytes_of(&gz), (size_t)(32 + 7) * 1024, "zlib's window and state");
    cr_assert_eq(decoder_bytes_of(&text), 0, "plain text: no decoder");
    free(gz.data);
    free(text.data);
}

Test(source, zstd_window_over_128_mib_is_refused_saying_why)
{
    struct bytes text = sample_text(30);
    struct bytes zs = zstd_stream_bytes(text.data, text.len, 28); /* zstd --long=28 */
    struct mem_raw m = mem_raw(zs.data, zs.len, SIZE_MAX);
    struct source *s = source_new((struct pgn_source){mem_read, &m});
    struct bytes out = {NULL, 0, 0};
    cr_assert_eq(drain(s, 64, &out), -1);
    cr_assert_eq(out.len, 0);
    cr_assert(source_error(s) && strstr(source_error(s), "window over 128 MiB (zstd --long=28"),
              "%s", source_error(s) ? source_error(s) : "(no error)");
    source_free(s);
    free(out.data);
    free(zs.data);
    free(text.data);
}

Test(source, zstd_frames_and_skippable_frames_are_one_stream)
{
    struct bytes a = sample_text(5), b = sample_text(8);
    struct bytes za = zstd_bytes(a.data, a.len, 1), zb = zstd_bytes(b.data, b.len, 0);
    struct bytes in = {NULL, 0, 0}, want = {NULL, 0, 0};
    /* A skippable frame first (magic 0x184D2A53, 4 bytes of payload): still zstd. */
    static const unsigned char skippable[] = {0x53, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4};
    bytes_append(&in, skippable, sizeof skippable);
    bytes_append(&in, za.data, za.len);
    bytes_append(&in, zb.data, zb.len);
    bytes_append(&want, a.data, a.len);
    bytes_append(&want, b.data, b.len);
    assert_decodes(&in, 1, 3, want.data, want.len, SOURCE_FORMAT_ZSTD);
    assert_decodes(&in, 9999, 64, want.data, want.len, SOURCE_FORMAT_ZSTD);
    free(a.data), free(b.data), free(za.data), free(zb.data), free(in.data), free(want.data);
}

Test(source, zstd_truncated_anywhere_is_an_error)
{
    struct bytes text = sample_text(3);
    struct bytes zs = zstd_bytes(text.data, text.len, 1);
    for (size_t cut = 4; cut < zs.len; cut += (cut < 40 || cut > zs.len - 12) ? 1 : 29) {
        struct bytes part = {zs.data, cut, 0};
        assert_fails(&part, 7, NULL);
    }
    struct bytes part = {zs.data, zs.len - 1, 0};
    assert_fails(&part, 7, "truncated");
    free(zs.data);
    free(text.data);
}

Test(source, zstd_corrupt_data_is_an_error_not_a_crash)
{
    struct bytes text = sample_text(10);
    struct bytes zs = zstd_bytes(text.data, text.len, 1); /* with a checksum */
    for (size_t at = 4; at < zs.len; at += 13) {
        zs.data[at] ^= 0xa5;
        assert_fails(&zs, 64, NULL);
        zs.data[at] ^= 0xa5;
    }
    bytes_append(&zs, "garbage!", 8);
    assert_fails(&zs, 64, "corrupt");
    free(zs.data);
    free(text.data);
}

/* ---- raw errors and the reader ------------------------------------------------------ */

Test(source, raw_read_errors_keep_their_errno)
{
    struct bytes text = sample_text(4);
    struct bytes gz = gzip_bytes(text.data, text.len);
    struct bytes *inputs[] = {&text, &gz};
    for (int i = 0; i < 2; i++) {
        struct mem_raw m = mem_raw(inputs[i]->data, inputs[i]->len, 10);
        m.fail_at = 100;
        m.fail_errno = EACCES;
        struct source *s = source_new((struct pgn_source){mem_read, &m});
        struct bytes out = {NULL, 0, 0};
        errno = 0;
        cr_assert_eq(drain(s, 16, &out), -1);
        cr_assert_eq(errno, EACCES);
        cr_assert_not_null(strstr(source_error(s), "read error"), "%s", source_error(s));
        free(out.data);
        source_free(s);
    }
    /* Failing on the very first (sniffing) read. */
    struct mem_raw m = mem_raw(text.data, text.len, 10);
    m.fail_at = 0;
    m.fail_errno = EISDIR;
    struct source *s = source_new((struct pgn_source){mem_read, &m});
    cr_assert_eq(source_sniff(s), SOURCE_FORMAT_UNKNOWN);
    char c;
    errno = 0;
    cr_assert_eq(source_read(s, &c, 1), -1);
    cr_assert_eq(errno, EISDIR);
    cr_assert_not_null(source_error(s));
    source_free(s);
    source_free(NULL);
    free(gz.data);
    free(text.data);
}

Test(source, a_reader_reads_games_from_compressed_bytes)
{
    struct bytes text = sample_text(25);
    struct bytes zs = zstd_bytes(text.data, text.len, 0);
    struct mem_raw m = mem_raw(zs.data, zs.len, 333);
    struct source *s = source_new((struct pgn_source){mem_read, &m});
    struct pgn_reader *r = pgn_reader_new(source_as_pgn_source(s), "t.pgn.zst", NULL);
    struct pgn_game game;
    struct diag err;
    int n = 0, rc;
    while ((rc = pgn_reader_next(r, &game, &err)) == 1)
        n++;
    cr_assert_eq(rc, 0, "%s", err.message);
    cr_assert_eq(n, 25);
    cr_assert_eq(pgn_reader_bytes(r), text.len);
    pgn_reader_free(r);
    source_free(s);
    free(zs.data);
    free(text.data);
}
