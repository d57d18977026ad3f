/*
 * file_range.c - the resume point of a byte range (file_range.h), moved here from the
 * CLI's --range so that the API reads a range exactly as the command line does.
 */
#include "io/file_range.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

#include "pgn/pgn_split.h"
#include "base/xalloc.h"

enum { SYNC_WINDOW_FIRST = 64 * 1024, SYNC_WINDOW = 1 << 20, COUNT_BLOCK = 1 << 20 };

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
            if (got == 0)
                errno = EIO; /* the file shrank under us */
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

enum file_range_status file_range_resume(int fd, uint64_t start, uint64_t size,
                                         struct pgn_resume *at)
{
    uint64_t sync = find_sync(fd, start, size);
    if (sync == UINT64_MAX)
        return FILE_RANGE_READ_ERROR;
    uint64_t lines = count_lines_before(fd, sync);
    if (lines == UINT64_MAX)
        return FILE_RANGE_READ_ERROR;
    if (lines >= UINT32_MAX)
        return FILE_RANGE_TOO_MANY_LINES;
    *at = (struct pgn_resume){.offset = sync, .line = lines + 1, .games_unknown = sync > 0};
    return FILE_RANGE_OK;
}
