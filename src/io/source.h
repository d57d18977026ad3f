/**
 * source.h - byte sources that undo compression and archives, recognised by content.
 *
 * A struct source wraps a raw struct pgn_source (a file, a pipe, memory) and looks at
 * its first bytes, never at a name:
 *   - gzip (1f 8b) is inflated with zlib, zstd (28 b5 2f fd, or a skippable frame) is
 *     decoded with libzstd's streaming API; concatenated gzip members and zstd frames are
 *     read one after another, as gzip -d and zstd -d do;
 *   - everything libarchive reads (bzip2, xz, lzip, lz4, compress; zip, 7z, tar with any
 *     of those, a tar inside gzip or zstd too, RAR) goes through libarchive.  An archive's members named *.pgn (any
 *     case), regular files only, are read one after another in archive order
 *     (source_next_member); its other members are passed over.  An archive with no such
 *     member is an error (an Office document, a zip of something else).  Zip and tar are
 *     read front to back, so pipes work and a damaged archive gives the members before
 *     the damage; 7z needs source_set_seek (a regular file);
 *   - a known non-text format (PDF, ELF, Windows executable, PNG/JPEG/GIF/TIFF/WebP
 *     image, Office 97 document, ...) or binary data is an error that names it;
 *   - anything else is text, passed through unchanged (UTF-8, or an 8-bit encoding the
 *     reader deals with), except UTF-16 (a byte-order mark, or NULs in every other byte
 *     of the first bytes), which is transcoded to UTF-8 as it streams (unpaired
 *     surrogates become U+FFFD).  Offsets downstream count the UTF-8 bytes.
 * The sniffed bytes are kept in a buffer, so the raw source is never seeked (except for
 * 7z): pipes and standard input work.
 *
 * Errors are values: a raw read error, corrupt or truncated data, or bytes after the
 * last gzip member make the read return -1 with errno set (EIO for data problems,
 * EINVAL for input that is no PGN text, the raw errno for read errors) and
 * source_error() describe it in one line.  An error is final: every later read returns
 * -1 again.  The bytes decoded before the damage are handed out first.
 *
 * Memory: about 80 KiB of buffers plus the decoder's state (zlib: 32 KiB window; zstd:
 * the window the stream asks for, up to zstd's default limit of 128 MiB, as zstd -d
 * without --memory; a larger window is an error that says so; libarchive: what the
 * format needs, e.g. xz's dictionary): source_decoder_bytes.
 * Not thread-safe; one source per stream.
 */
#ifndef PGNKIT_SOURCE_H
#define PGNKIT_SOURCE_H

#include <stdint.h>

#include "pgn/pgn_reader.h"

/** What the first bytes said. */
enum source_format {
    SOURCE_FORMAT_UNKNOWN = 0, /* not sniffed yet, or the sniffing read failed */
    SOURCE_FORMAT_PLAIN,
    SOURCE_FORMAT_GZIP,
    SOURCE_FORMAT_ZSTD,
    SOURCE_FORMAT_ARCHIVE,  /* through libarchive: see source_container() */
    SOURCE_FORMAT_NOT_TEXT, /* no PGN text (PDF, image, binary, ...): source_error() */
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
 * Read the first bytes now (blocking on a pipe until 512 bytes or the end arrive; for an
 * archive, up to its first .pgn member; then the first 4 KiB of text) and say what they
 * are.  Optional: the first read does it anyway.  A failed read or a damaged archive
 * gives SOURCE_FORMAT_UNKNOWN, content that is no text SOURCE_FORMAT_NOT_TEXT, both with
 * source_error() saying why.
 */
enum source_format source_sniff(struct source *s);

/** The format found so far (SOURCE_FORMAT_UNKNOWN before the first read or sniff). */
enum source_format source_format(const struct source *s);

/** "plain", "gzip", "zstd", "archive", "not text" or "unknown". */
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

/**
 * After the current member's last byte (a read gave 0): move to the archive's next .pgn
 * member.  1 when there is one (reads go on with its bytes), 0 when there is none (and
 * always for input that is not an archive), -1 on an error (source_error).
 */
int source_next_member(struct source *s);

/** The current archive member's name, or NULL (plain, compressed or not sniffed). */
const char *source_member(const struct source *s);

/** "gzip", "bzip2", "zip archive", "tar archive", ...; NULL for plain text. */
const char *source_container(const struct source *s);

/** "UTF-16LE" or "UTF-16BE" when the current member is transcoded, else NULL. */
const char *source_text_encoding(const struct source *s);

/**
 * Let the source seek its raw input: seek(raw.ctx, offset, whence) as lseek(2).  Only
 * 7z archives use it (their index is at the end).  Call before the first read.
 */
void source_set_seek(struct source *s, int64_t (*seek)(void *ctx, int64_t offset, int whence));

/** Raw (compressed) bytes taken from the raw source so far. */
uint64_t source_raw_bytes(const struct source *s);

/**
 * The memory the decoder holds for the current stream, in bytes, once sniffed: for zstd
 * its context and window (the window the first frame asks for, e.g. 8 MiB for zstd -19,
 * up to 128 MiB for --long=27; a later frame with a larger window grows it), for gzip
 * zlib's 32 KiB window and state.  0 for plain text, and for what libarchive decodes
 * (not known here: xz -9, for one, holds a 64 MiB dictionary).  The pages are resident
 * once that many bytes have been decoded.  Not while another thread reads the source.
 */
size_t source_decoder_bytes(const struct source *s);

#endif
