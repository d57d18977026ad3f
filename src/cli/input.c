/*
 * input.c - inputs by name: files, "-" for standard input; refuses directories clearly.
 * Compressed input and archives are recognised by their first bytes, whatever the name,
 * and decoded on the fly by the library's source.h; each .pgn member of an archive is
 * read as an input of its own, named "archive.zip:member.pgn".
 *
 * Input that is decoded (compressed, archived, UTF-16) is decoded on a thread of its own
 * (readahead.h), a member at a time, whatever --jobs says: with --jobs 1 it overlaps
 * with parsing on a second core, with --jobs N it keeps the reading thread, which also
 * cuts chunks and replays, from doing the decoding too, unless the run's threads take
 * every core already (input_decode_here).  Plain text is read directly: a regular file
 * by mapping it at --jobs 1 (input_map_at), a pipe made 1 MiB deep first (grow_pipe).
 */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include "cli/input.h"

#include "cli/output.h"
#include "cli/progress.h"
#include "cli/readahead.h"
#include "cli/shown.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"

static ssize_t decode(void *ctx, char *buf, size_t cap) { return source_read(ctx, buf, cap); }

/* The member's decoding on its own thread, from its first read on (not before: until
 * then the source is this thread's, e.g. for --range's look at it). */
static void start_decoding(struct input *in)
{
    in->decode_ahead = false;
    if (!in->ahead)
        in->ahead = readahead_new();
    if (readahead_start(in->ahead, decode, in->src) != 0) {
        readahead_free(in->ahead); /* no thread: decoded here, as it is read */
        in->ahead = NULL;
    }
}

/* A member's first bytes are decoded here, as they are read: a member that ends within
 * them costs no thread start (an archive of 160,000 empty members started 160,000
 * threads).  Past them the decoding runs ahead on its own thread. */
enum { DECODE_HERE_BYTES = 2 * READAHEAD_BLOCK };

/* From peek[] what input_member_small read; -1 once it is handed out when reading it
 * failed; 0 when there is nothing (left) in it. */
static ssize_t read_peek(struct input *in, char *buf, size_t cap)
{
    size_t n = in->peek_len - in->peek_pos;
    if (n == 0 && in->peek_errno) {
        errno = in->peek_errno;
        return -1;
    }
    if (n > cap)
        n = cap;
    memcpy(buf, in->peek + in->peek_pos, n);
    in->peek_pos += n;
    return (ssize_t)n;
}

bool input_member_small(struct input *in, size_t bytes)
{
    if (!source_member(in->src) || in->bytes_so_far || in->peek_len)
        return false;
    in->peek = xrealloc(in->peek, bytes);
    in->peek_pos = in->peek_len = 0;
    in->peek_errno = 0;
    while (in->peek_len < bytes) {
        ssize_t got = source_read(in->src, in->peek + in->peek_len, bytes - in->peek_len);
        if (got < 0)
            in->peek_errno = errno;
        if (got <= 0)
            return true; /* an error too: nothing more comes of the member */
        in->peek_len += (size_t)got;
    }
    return false;
}

/* got bytes more read (a read's result: nothing when it is 0 or -1), for progress. */
static ssize_t count_read(struct input *in, ssize_t got)
{
    if (got > 0) {
        in->bytes_so_far += (uint64_t)got;
        if (in->progress)
            progress_bytes(in->progress, in->bytes_so_far);
    }
    return got;
}

static bool peek_left(const struct input *in)
{
    return in->peek_pos < in->peek_len || in->peek_errno;
}

/* Past a member's first DECODE_HERE_BYTES (and what input_member_small peeked), decoded
 * input is read ahead on its own thread; plain_too: a plain pipe as well, for the serial
 * run's blocks (input_take), where its read's copy is then made on the other core. */
static void read_ahead_when_due(struct input *in, bool plain_too)
{
    bool wanted = in->decode_ahead || (plain_too && in->ahead_plain);
    if (!wanted || in->bytes_so_far < DECODE_HERE_BYTES || peek_left(in))
        return;
    in->ahead_plain = false;
    start_decoding(in);
}

ssize_t input_source_read(struct input *in, char *buf, size_t cap)
{
    if (peek_left(in))
        return count_read(in, read_peek(in, buf, cap));
    read_ahead_when_due(in, false);
    bool ahead = in->ahead && in->ahead->running;
    return count_read(in, ahead ? readahead_read(in->ahead, buf, cap)
                                : source_read(in->src, buf, cap));
}

/*
 * A pipe holds 64 KiB by default: the reader, which asks for 1 MiB, got 64 KiB a read and
 * then found the pipe empty, slept until the writer refilled it, and so on 1,566 times
 * for lichess x44 (100 MB) where a file takes ~100 reads; each sleep costs a wake-up,
 * and on a busy machine a turn on the CPU, for both sides.  1 MiB (Linux's
 * /proc/sys/fs/pipe-max-size by default) lets the writer run a read's worth ahead:
 * 104 reads, about the context switches of a file.  The pages are the kernel's, not the
 * process's RSS.  Best effort: where the system allows less (a lower pipe-max-size, the
 * user's quota of pipe pages), a quarter, then a sixteenth; else the pipe keeps its size.
 */
enum { PIPE_BYTES = 1 << 20 };

static void grow_pipe(int fd)
{
#ifdef F_SETPIPE_SZ
    int now = fcntl(fd, F_GETPIPE_SZ);
    for (int size = PIPE_BYTES; now >= 0 && size > now; size /= 4)
        if (fcntl(fd, F_SETPIPE_SZ, size) >= 0)
            break;
#else
    (void)fd;
#endif
}

/* The raw source: the file's bytes, counted (input.h: raw_bytes). */
static ssize_t raw_read(void *ctx, char *buf, size_t cap)
{
    struct input *in = ctx;
    for (;;) {
        ssize_t got = read(in->fd, buf, cap);
        if (got > 0)
            __atomic_fetch_add(&in->raw_bytes, (uint64_t)got, __ATOMIC_RELAXED);
        if (got >= 0 || errno != EINTR)
            return got;
    }
}

static int64_t raw_seek(void *ctx, int64_t offset, int whence)
{
    struct input *in = ctx;
    off_t at = lseek(in->fd, (off_t)offset, whence);
    if (at >= 0)
        __atomic_store_n(&in->raw_bytes, (uint64_t)at, __ATOMIC_RELAXED);
    return (int64_t)at;
}

/*
 * Member names outlive their input: the summary prints them at the end of the run.  They
 * are kept in one list for the process (reachable, so not a leak).
 */
static char **member_names;
static size_t member_name_count, member_name_cap;

static const char *member_name(const char *path, const char *member)
{
    size_t len = strlen(path) + 1 + strlen(member);
    char *name = xmalloc(len + 1);
    snprintf(name, len + 1, "%s:%s", path, member);
    xgrow((void **)&member_names, &member_name_cap, member_name_count + 1, sizeof *member_names);
    member_names[member_name_count++] = name;
    return name;
}

/* A mapped file's progress: the offset mapped up to, as reads would have counted it. */
static void mapped_bytes(void *ctx, uint64_t bytes)
{
    struct input *in = ctx;
    in->bytes_so_far = bytes;
    if (in->progress)
        progress_bytes(in->progress, bytes);
}

/*
 * A mapped file that shrinks under the reader takes its pages with it, and touching one
 * raises SIGBUS: said as what it is, with the temporary outputs removed and status 2,
 * rather than a crash.  The name of the file being mapped is the CLI's own state, set
 * before the reader maps anything.
 */
static const char *volatile mapped_name;

static void say_raw(const char *text)
{
    if (write(STDERR_FILENO, text, strlen(text)) < 0)
        return; /* nothing more to say where stderr is gone */
}

static void file_shrank(int sig)
{
    (void)sig;
    say_raw("pgnkit: ");
    say_raw(mapped_name ? mapped_name : "input");
    say_raw(": the file shrank while it was being read; the output is incomplete\n");
    output_die();
}

/*
 * Plain text in a regular file is mapped rather than read (pgn_reader_new_mapped): no
 * copy of every byte into the reader's buffer, ~6% of `uci`'s time on lichess's games.
 * Not an archive's member, nor decoded text, whose bytes are not the file's.
 */
struct pgn_reader *input_map_at(struct input *in, const struct pgn_resume *at)
{
    if (!in->file_size || !in->at_start || source_member(in->src) ||
        source_format(in->src) != SOURCE_FORMAT_PLAIN || source_text_encoding(in->src))
        return NULL;
    mapped_name = in->name;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = file_shrank;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
    return pgn_reader_new_mapped_at(&(struct pgn_file_map){in->fd, mapped_bytes, in, 0},
                                    in->name, in->limits, at);
}

/*
 * What is not mapped is handed to the reader a block at a time (pgn_reader_new_blocks):
 * from the read-ahead's ring while its thread runs, parsed there, not copied; before it
 * runs (a member's first bytes, decoded here) or where no thread could start, read into
 * one of two staging blocks of the input's own, in turn (the reader holds two at most,
 * and one when it takes another).
 */
static int input_take(void *ctx, char **data, size_t *len, size_t *room)
{
    struct input *in = ctx;
    read_ahead_when_due(in, true);
    if (in->ahead && in->ahead->running) {
        int st = readahead_take(in->ahead, data, len);
        if (st <= 0)
            return st;
        in->from_ring[in->held++] = true;
        count_read(in, (ssize_t)*len);
        *room = READAHEAD_ROOM;
        return 1;
    }
    unsigned k = in->stage_next;
    if (!in->stage[k])
        in->stage[k] = xmalloc(READAHEAD_ROOM + READAHEAD_BLOCK);
    ssize_t got = input_source_read(in, in->stage[k] + READAHEAD_ROOM, READAHEAD_BLOCK);
    if (got <= 0)
        return (int)got;
    in->stage_next ^= 1;
    in->from_ring[in->held++] = false;
    *data = in->stage[k] + READAHEAD_ROOM;
    *len = (size_t)got;
    *room = READAHEAD_ROOM;
    return 1;
}

static void input_release(void *ctx)
{
    struct input *in = ctx;
    if (in->from_ring[0])
        readahead_release(in->ahead);
    in->from_ring[0] = in->from_ring[1];
    in->held--;
}

/* A reader for the source's current member, named after it. */
static void start_reader(struct input *in)
{
    const char *member = source_member(in->src);
    in->name = member ? member_name(in->path, member) : in->path;
    in->reader = input_map_at(in, &(struct pgn_resume){0, 0, 0, false});
    in->held = 0;
    if (!in->reader)
        in->reader = pgn_reader_new_blocks(
            &(struct pgn_block_source){input_take, input_release, in}, in->name, in->limits);
    in->decode_ahead = source_format(in->src) != SOURCE_FORMAT_PLAIN ||
                       source_text_encoding(in->src) != NULL;
    /* Asked now: once the read-ahead runs, the source is its thread's. */
    in->decoder_bytes = source_decoder_bytes(in->src) +
                        (in->decode_ahead ? sizeof(struct readahead) : 0);
}

int input_open(struct input *in, const char *path, const struct pgn_limits *limits)
{
    memset(in, 0, sizeof *in);
    bool is_stdin = strcmp(path, "-") == 0;
    in->path = in->name = is_stdin ? "<stdin>" : path;
    in->limits = limits;
    in->fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (in->fd < 0) {
        fprintf(stderr, "pgnkit: cannot open %s: %s\n", shown(path), strerror(errno));
        return -1;
    }
    struct stat st;
    bool regular = false;
    if (fstat(in->fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            fprintf(stderr, "pgnkit: cannot read %s: it is a directory\n", shown(path));
            if (!is_stdin)
                close(in->fd);
            in->fd = -1;
            return -1;
        }
        regular = S_ISREG(st.st_mode);
        if (S_ISFIFO(st.st_mode))
            grow_pipe(in->fd);
        in->ahead_plain = !regular && sysconf(_SC_NPROCESSORS_ONLN) > 1;
        if (regular)
            in->size = in->file_size = (uint64_t)st.st_size;
        /* Standard input may be a file read from the middle ({ read line; pgnkit -; }
         * < F): what is read is from there on, which mapping from 0 would not give. */
        in->at_start = regular && lseek(in->fd, 0, SEEK_CUR) == 0;
    }
    in->src = source_new((struct pgn_source){raw_read, in});
    if (regular)
        source_set_seek(in->src, raw_seek);
    /* Decoded bytes are no guide to a compressed file's size: its progress counts the
     * bytes taken from the file (raw_bytes against file_size). */
    enum source_format format = source_sniff(in->src);
    if (format != SOURCE_FORMAT_PLAIN || source_text_encoding(in->src))
        in->size = 0;
    if (source_error(in->src) && (format == SOURCE_FORMAT_NOT_TEXT ||
                                  format == SOURCE_FORMAT_UNKNOWN)) {
        fprintf(stderr, "pgnkit: %s: %s\n", shown(in->path), shown(source_error(in->src)));
        input_close(in);
        return -1;
    }
    start_reader(in);
    return 0;
}

bool input_decode_here(struct input *in)
{
    if (!in->decode_ahead)
        return false;
    in->decode_ahead = false;
    in->decoder_bytes -= sizeof(struct readahead);
    return true;
}

int input_next_member(struct input *in)
{
    readahead_stop(in->ahead); /* the source is this thread's again */
    int rc = source_next_member(in->src);
    if (rc < 0)
        fprintf(stderr, "pgnkit: %s: %s\n", shown(in->path), shown(source_error(in->src)));
    if (rc <= 0)
        return rc;
    pgn_reader_free(in->reader);
    in->bytes_read = 0;
    in->peek_len = in->peek_pos = 0;
    in->peek_errno = 0;
    start_reader(in);
    return 1;
}

void input_close(struct input *in)
{
    pgn_reader_free(in->reader); /* first: it hands back the blocks it holds */
    in->reader = NULL;
    readahead_free(in->ahead);
    in->ahead = NULL;
    free(in->peek);
    in->peek = NULL;
    free(in->stage[0]);
    free(in->stage[1]);
    in->stage[0] = in->stage[1] = NULL;
    source_free(in->src);
    in->src = NULL;
    if (in->fd > STDIN_FILENO)
        close(in->fd);
    in->fd = -1;
}

const char *input_error(const struct input *in)
{
    /* While the decoding thread runs, the source is its own: only an error it handed
     * on is asked about (and it has stopped at that error). */
    if (!in->src || (in->ahead && in->ahead->running && !readahead_failed(in->ahead)))
        return NULL;
    return source_error(in->src);
}
