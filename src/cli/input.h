/* input.h - open a named input ("-" = standard input) as a pgn_reader, member by member. */
#ifndef PGNKIT_CLI_INPUT_H
#define PGNKIT_CLI_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "pgn/pgn_reader.h"
#include "io/source.h"

struct readahead;

struct input {
    const char *name;   /* the path, or "archive.zip:member.pgn" inside an archive; lives
                         * as long as the process (the summary keeps it) */
    const char *path;   /* as given ("<stdin>" for "-") */
    int fd;
    uint64_t size;      /* 0 when unknown (pipes, compressed input) */
    /* A regular file's size on disk, compressed or not (0: a pipe), and the bytes taken
     * from it so far (its position, after a 7z seek too): how far a compressed input
     * is, whose decoded size is not known.  raw_bytes is written by whichever thread
     * decodes (readahead.h) and read by the progress line: __atomic, relaxed. */
    uint64_t file_size;
    uint64_t raw_bytes;
    struct source *src; /* undoes compression and archives, found by content; reads fd */
    struct readahead *ahead; /* decodes src on a thread of its own; NULL for plain text */
    bool decode_ahead;       /* start it at the next read */
    struct pgn_reader *reader;
    const struct pgn_limits *limits;
    uint64_t bytes_read; /* bytes read as PGN (decompressed), once the run is over */
    /* Told of every read (NULL: nobody), so that progress moves by bytes even inside one
     * huge game or a long stretch of blanks, where no game ends. */
    struct progress *progress;
    uint64_t bytes_so_far; /* decompressed bytes read until now */
    /* The memory decoding the current member takes: the decoder's window and state
     * (source_decoder_bytes) and the read-ahead's blocks; 0 for plain text. */
    size_t decoder_bytes;
    /* The current member's first bytes, read ahead of the reader by input_member_small
     * and handed to it first: peek[peek_pos, peek_len), then -1 with peek_errno if
     * reading them failed. */
    char *peek;
    size_t peek_len, peek_pos;
    int peek_errno;
    /* The reader's blocks (input.c, input_take): whence each block it holds came (the
     * read-ahead's ring, or one of the two staging blocks), oldest first. */
    bool from_ring[2];
    unsigned held;
    char *stage[2];
    unsigned stage_next;
    bool ahead_plain; /* a plain pipe: read on a thread of its own by the serial run */
    bool at_start;    /* a regular file whose descriptor was at its first byte: mappable */
};

/** Read from the input's (decompressing) source, counting the bytes for progress. */
ssize_t input_source_read(struct input *in, char *buf, size_t cap);

/** Whether the current member of an archive ends within its first `bytes` bytes (not
 *  counting the first member of a plain input: false).  They are read now, on this
 *  thread, and handed to the reader first: a run may then read a small member alone
 *  rather than start threads for it. */
bool input_member_small(struct input *in, size_t bytes);

/*
 * Decode the current member on the calling thread, as it is read, rather than on a
 * thread of its own (readahead.h): for a parallel run whose threads take every core
 * already, where a decoding thread only takes turns with them (pipeline.c).  Call before
 * the member's first read.  True when that changed anything (decoder_bytes no longer
 * counts the read-ahead's blocks); false for plain text.
 */
bool input_decode_here(struct input *in);

/* A reader of the input's plain text, from the line start at->offset on, that maps the
 * file rather than reads it; NULL where that cannot be (not a regular file's plain
 * text, or the file cannot be mapped): read it then. */
struct pgn_reader *input_map_at(struct input *in, const struct pgn_resume *at);

/*
 * Returns 0, or -1 after printing why (no such file, a directory, unreadable, no PGN
 * text, a damaged archive).  *in must stay where it is until input_close: the reader
 * refers to it.
 */
int input_open(struct input *in, const char *path, const struct pgn_limits *limits);

/*
 * After the reader has ended: on to the archive's next .pgn member, with a new reader and
 * name.  1 when there is one, 0 when there is none (always, for a file that is no
 * archive), -1 after printing why.
 */
int input_next_member(struct input *in);

void input_close(struct input *in);

/* Why the last read failed, in one line (e.g. "gzip data is truncated"), or NULL. */
const char *input_error(const struct input *in);

#endif
