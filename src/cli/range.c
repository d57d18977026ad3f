/*
 * range.c - --range START:END.  A ranged run reads the games whose first byte lies in
 * [START, END) of one regular file, so that any ranges tiling a file read every game
 * exactly once, as one run over the whole file would.
 *
 * Where to start reading is decided from the bytes just before START alone: the last
 * sync point at or before START (io/file_range.h, which the API's ranges share), where
 * the whole-file reader surely starts a game afresh.  The reader starts there and the
 * run skips the games before START (run_serial).  Line numbers stay those of the whole file: the line ends before
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
#include "io/file_range.h"
#include "io/source.h"

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
    struct pgn_resume at;
    enum file_range_status got = file_range_resume(in->fd, cfg->range.start, size, &at);
    if (got != FILE_RANGE_OK || lseek(in->fd, (off_t)at.offset, SEEK_SET) < 0) {
        fprintf(stderr, "pgnkit: cannot read %s: %s\n", shown(path),
                got == FILE_RANGE_TOO_MANY_LINES ? "too many lines" : strerror(errno));
        goto fail;
    }
    pgn_reader_free(in->reader);
    in->reader = input_map_at(in, &at);
    if (!in->reader) {
        source_free(in->src);
        in->src = source_new(pgn_source_fd(&in->fd));
        in->reader = pgn_reader_new_at(source_as_pgn_source(in->src), in->name, &cfg->limits, &at);
    }
    in->size = size;
    return 0;
fail:
    input_close(in);
    return 2;
}
