/*
 * range.c - --range START:END.  A ranged run reads the games whose first byte lies in
 * [START, END) of one regular file, so that any ranges tiling a file read every game
 * exactly once, as one run over the whole file would.
 *
 * Where to start reading is decided from the bytes just before START alone: the last
 * sync point at or before START (pgn_split_last_sync), where the whole-file reader surely
 * starts a game afresh.  The reader starts there and the run skips the games before
 * START (run_serial).  Line numbers stay those of the whole file: the line ends before
 * the sync point are counted (one read of those bytes, at memory speed).  Game indexes
 * are not known unless the sync point is byte 0: counting games would mean reading them.
 */
#include "cli/range.h"
#include "cli/shown.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pgn/pgn_reader.h"
#include "pgn/pgn_split.h"
#include "io/source.h"
#include "base/xalloc.h"

enum { SYNC_WINDOW_FIRST = 64 * 1024, SYNC_WINDOW = 1 << 20, COUNT_BLOCK = 1 << 20 };

static int parse_offset(const char *s, const char *end, uint64_t *out)
{
    if (s == end || *s < '0' || *s > '9')
        return -1;
    uint64_t v = 0;
    for (; s < end && *s >= '0' && *s <= '9'; s++) {
        if (v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    uint64_t scale = 1;
    if (s < end && (*s == 'K' || *s == 'k'))
        scale = 1024, s++;
    else if (s < end && *s == 'M')
        scale = 1024 * 1024, s++;
    else if (s < end && *s == 'G')
        scale = 1024ULL * 1024 * 1024, s++;
    if (s != end || v > UINT64_MAX / scale)
        return -1;
    *out = v * scale;
    return 0;
}

int range_parse(const char *arg, struct byte_range *r, char *why, size_t why_len)
{
    const char *colon = strchr(arg, ':');
    if (!colon) {
        snprintf(why, why_len, "--range wants START:END in bytes, not '%s'", arg);
        return -1;
    }
    struct byte_range v = {.set = true, .end = UINT64_MAX};
    if (parse_offset(arg, colon, &v.start) != 0 ||
        (colon[1] && parse_offset(colon + 1, colon + strlen(colon), &v.end) != 0)) {
        snprintf(why, why_len, "--range wants START:END in bytes (suffixes K, M, G), not '%s'",
                 arg);
        return -1;
    }
    if (v.end < v.start) {
        snprintf(why, why_len, "--range %s is reversed: END is before START", arg);
        return -1;
    }
    *r = v;
    return 0;
}

static void range_usage(const char *fmt, const char *path, const char *what)
{
    fputs("pgnkit: ", stderr);
    fprintf(stderr, fmt, shown(path), shown(what));
    fputc('\n', stderr);
}

/* Read exactly len bytes at off (short only at the end of the file).  -1 on error. */
static ssize_t read_at(int fd, char *buf, size_t len, uint64_t off)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = pread(fd, buf + got, len - got, (off_t)(off + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (ssize_t)got;
}

/* The last sync point at or before start, found by windows read backwards from start
 * (64 KiB, doubling up to SYNC_WINDOW), each with the bytes after it that the reader's
 * comment rule looks at (PGN_COMMENT_LOOKAHEAD), into one buffer.  A file with no sync
 * point before start (a clock comment on every movetext line) is scanned down to byte 0,
 * which is one, and never held: a window doubling until it held a sync point took the
 * whole prefix (289 MB for --range 280M:).  Each window overlaps the one after it by a
 * quarter of the later one, so that a sync point whose lines before it begin before the
 * later window is seen whole in the earlier one; one whose context is longer still is
 * passed over for an earlier one, which reads the same.  UINT64_MAX on a read error. */
static uint64_t find_sync(int fd, uint64_t start, uint64_t size)
{
    uint64_t stop = start < size ? start + 1 : size; /* the byte at start is looked at */
    uint64_t pos = start, window = SYNC_WINDOW_FIRST;
    char *buf = xmalloc(SYNC_WINDOW + PGN_COMMENT_LOOKAHEAD + 1);
    for (;;) {
        uint64_t ahead = size - stop < PGN_COMMENT_LOOKAHEAD ? size - stop : PGN_COMMENT_LOOKAHEAD;
        uint64_t from = stop > window ? stop - window : 0;
        ssize_t got = read_at(fd, buf, (size_t)(stop + ahead - from), from);
        if (got < 0)
            break;
        size_t p = pgn_split_last_sync(buf, (size_t)got, (size_t)(pos - from), from == 0,
                                       from + (uint64_t)got >= size);
        if (p != SIZE_MAX || from == 0) { /* byte 0 is a sync point */
            free(buf);
            return p != SIZE_MAX ? from + p : 0;
        }
        if (window < SYNC_WINDOW)
            window *= 2;
        stop = from + window / 4;
        pos = stop - 1;
    }
    free(buf);
    return UINT64_MAX;
}

/* Line ends before off, counted as the reader counts them.  UINT64_MAX on a read error. */
static uint64_t count_lines_before(int fd, uint64_t off)
{
    char *buf = xmalloc(COUNT_BLOCK);
    uint64_t lines = 0, at = 0;
    while (at < off) {
        size_t want = off - at < COUNT_BLOCK ? (size_t)(off - at) : COUNT_BLOCK;
        ssize_t got = read_at(fd, buf, want, at);
        if (got <= 0) {
            lines = UINT64_MAX;
            break;
        }
        size_t n = (size_t)got;
        /* A CR at a block's end may be half of a CRLF: it goes with the next block. */
        if (buf[n - 1] == '\r' && at + n < off && n > 1)
            n--;
        lines += pgn_split_count_lines(buf, n);
        at += n;
    }
    free(buf);
    return lines;
}

int range_open(struct input *in, const char *path, const struct config *cfg)
{
    if (strcmp(path, "-") == 0) {
        fputs("pgnkit: --range needs a file: standard input cannot seek\n", stderr);
        return 2;
    }
    if (input_open(in, path, &cfg->limits) != 0)
        return 2;
    struct stat st = {0};
    if (fstat(in->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        range_usage("--range needs a regular file it can seek in; %s is %s", path,
                    S_ISFIFO(st.st_mode) ? "a pipe" : "not a regular file");
        goto fail;
    }
    enum source_format format = source_sniff(in->src);
    if (format != SOURCE_FORMAT_PLAIN || source_text_encoding(in->src)) {
        /* "zstd-compressed", "a zip archive", "UTF-16LE text" */
        const char *what = source_container(in->src);
        char kind[64];
        if (!what)
            snprintf(kind, sizeof kind, "%s text", source_text_encoding(in->src));
        else if (strstr(what, "archive"))
            snprintf(kind, sizeof kind, "a %s", what);
        else
            snprintf(kind, sizeof kind, "%s-compressed", what);
        range_usage("--range cannot split %s: it is %s, whose bytes are not the text's, so it "
                    "cannot be cut at byte offsets (run it whole)", path, kind);
        goto fail;
    }
    uint64_t size = (uint64_t)st.st_size;
    if (cfg->range.start > size) {
        fprintf(stderr, "pgnkit: --range START %llu is past the end of %s (%llu bytes)\n",
                (unsigned long long)cfg->range.start, shown(path), (unsigned long long)size);
        goto fail;
    }
    uint64_t sync = find_sync(in->fd, cfg->range.start, size);
    uint64_t lines = sync == UINT64_MAX ? UINT64_MAX : count_lines_before(in->fd, sync);
    if (lines == UINT64_MAX || lines >= UINT32_MAX ||
        lseek(in->fd, (off_t)sync, SEEK_SET) < 0) {
        fprintf(stderr, "pgnkit: cannot read %s: %s\n", shown(path),
                lines >= UINT32_MAX && errno == 0 ? "too many lines" : strerror(errno));
        goto fail;
    }
    pgn_reader_free(in->reader);
    source_free(in->src);
    in->src = source_new(pgn_source_fd(&in->fd));
    struct pgn_resume at = {.offset = sync, .line = (uint64_t)lines + 1,
                            .games_unknown = sync > 0};
    in->reader = pgn_reader_new_at(source_as_pgn_source(in->src), in->name, &cfg->limits, &at);
    in->size = size;
    return 0;
fail:
    input_close(in);
    return 2;
}
