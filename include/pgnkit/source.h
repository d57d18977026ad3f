/**
 * source.h - byte sources that undo compression, recognised by content, not by name.
 *
 * A struct source wraps a raw struct pgn_source (a file, a pipe, memory) and looks at
 * its first bytes: gzip (1f 8b) is inflated with zlib, zstd (28 b5 2f fd, or a skippable
 * frame 5? 2a 4d 18) is decoded with libzstd's streaming API, anything else is passed
 * through unchanged.  Concatenated gzip members and multiple zstd frames are read one
 * after another, as gzip -d and zstd -d do.  The sniffed bytes are kept in a buffer, so
 * the raw source is never seeked: pipes and standard input work.
 *
 * Errors are values: a raw read error, corrupt or truncated compressed data, or bytes
 * after the last gzip member make the read return -1 with errno set (EIO for data
 * problems, the raw errno for read errors) and source_error() describe it in one line.
 * An error is final: every later read returns -1 again.
 *
 * Memory: one 64 KiB input buffer plus the decoder's state (zlib: 32 KiB window; zstd:
 * up to its default window limit of 128 MiB, as zstd -d; larger windows are an error).
 * Not thread-safe; one source per stream.
 */
#ifndef PGNKIT_SOURCE_H
#define PGNKIT_SOURCE_H

#include <stdint.h>

#include "pgnkit/pgn_reader.h"

/** What the first bytes said. */
enum source_format {
    SOURCE_FORMAT_UNKNOWN = 0, /* not sniffed yet, or the sniffing read failed */
    SOURCE_FORMAT_PLAIN,
    SOURCE_FORMAT_GZIP,
    SOURCE_FORMAT_ZSTD,
};

struct source;

/**
 * A new source over raw, which it retains (raw.ctx must outlive the source).  Reads
 * nothing yet.  Free with source_free().  Never returns NULL (allocation failure aborts).
 */
struct source *source_new(struct pgn_source raw);

/** Free s and its decoder state; NULL is a no-op.  Does not close the raw source. */
void source_free(struct source *s);

/**
 * Read the first bytes now (blocking on a pipe until 4 bytes or the end arrive) and say
 * what they are.  Optional: the first read does it anyway.  A failed read gives
 * SOURCE_FORMAT_UNKNOWN and is reported by the next read.
 */
enum source_format source_sniff(struct source *s);

/** The format found so far (SOURCE_FORMAT_UNKNOWN before the first read or sniff). */
enum source_format source_format(const struct source *s);

/** "plain", "gzip", "zstd" or "unknown". */
const char *source_format_name(enum source_format format);

/**
 * The decompressed bytes as a pgn_source for pgn_reader_new().  The result refers to s:
 * s must outlive every use of it.
 */
struct pgn_source source_as_pgn_source(struct source *s);

/**
 * Read up to cap decompressed bytes into buf: bytes read, 0 at the end, -1 on an error
 * (errno set, see source_error).  read(2)-like; the same function source_as_pgn_source
 * hands out.
 */
ssize_t source_read(struct source *s, char *buf, size_t cap);

/**
 * One line saying why the last read failed, e.g. "gzip data is corrupt (invalid block
 * type)", "zstd data is truncated", "read error: Is a directory"; NULL when no read has
 * failed.  Valid until source_free.
 */
const char *source_error(const struct source *s);

/** Raw (compressed) bytes taken from the raw source so far. */
uint64_t source_raw_bytes(const struct source *s);

#endif
