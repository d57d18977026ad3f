/*
 * source_sniff.h - what the first bytes of an input are (private to the source layer).
 *
 * Two questions, asked of two different byte strings:
 *   sniff_container: the raw bytes of a file or pipe - a compressor or archive the source
 *     reads (gzip, zstd, and what libarchive reads: bzip2, xz, zip, 7z, tar, ...), a known
 *     format that is no text at all (PDF, ELF, images, ...), or, by default, text;
 *   sniff_text: the first decoded bytes of a stream or archive member - UTF-16 (by BOM or
 *     by its NUL pattern), binary data, a known non-text format, or text (UTF-8 or any
 *     ASCII-compatible 8-bit encoding, which the reader and pgn_text.h deal with).
 * Pure functions of the bytes; no state.
 */
#ifndef PGNKIT_SOURCE_SNIFF_H
#define PGNKIT_SOURCE_SNIFF_H

#include <stddef.h>

enum sniff_kind {
    SNIFF_TEXT = 0,
    SNIFF_GZIP,     /* decoded by zlib directly */
    SNIFF_ZSTD,     /* decoded by libzstd directly */
    SNIFF_ARCHIVE,  /* decoded by libarchive: compressors and archives */
    SNIFF_UTF16LE,  /* sniff_text only */
    SNIFF_UTF16BE,  /* sniff_text only */
    SNIFF_FOREIGN,  /* no PGN text: what names it */
};

struct sniff {
    enum sniff_kind kind;
    const char *what; /* "zip archive", "a PDF document", "binary data", ...; NULL for text */
    size_t skip;      /* bytes of a byte-order mark to drop (UTF-16) */
};

/* The magic bytes a reader of the raw stream needs to have seen: a tar header's "ustar". */
enum { SNIFF_RAW_BYTES = 512, SNIFF_TEXT_BYTES = 4096 };

/** The container: p[0, n) are the first bytes of the raw input (fewer only at its end). */
struct sniff sniff_container(const unsigned char *p, size_t n);

/** The content: p[0, n) are the first decoded bytes of a stream or archive member. */
struct sniff sniff_text(const unsigned char *p, size_t n);

#endif
