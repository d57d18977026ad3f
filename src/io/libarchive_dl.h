/*
 * libarchive_dl.h - libarchive's functions, loaded at the first input that needs them
 * (private to the source layer).
 *
 * Why not linked: libarchive brings libxml2, ICU and libstdc++ (and nettle, lzma, lz4,
 * bz2, acl) into every process, and their relocations and constructors touch ~2.5 MB of
 * pages at start-up (smaps of a `pgnkit uci` run: 2.5 of its 4.9 MB of shared libraries)
 * whether or not an input is an archive.  gzip and zstd, the usual compressors, are
 * decoded by zlib and libzstd directly (source.c); libarchive is opened (dlopen) only
 * for the rest: bzip2, xz, zip, 7z, tar, ...
 *
 * The headers still come from libarchive-dev (the table's types are its prototypes), so
 * a mismatch is a compile error, not a crash.
 */
#ifndef PGNKIT_LIBARCHIVE_DL_H
#define PGNKIT_LIBARCHIVE_DL_H

#include <archive.h>
#include <archive_entry.h>

/* Every libarchive function source.c calls. */
#define LIBARCHIVE_FUNCS(X)                                                                    \
    X(archive_read_new)                                                                        \
    X(archive_read_free)                                                                       \
    X(archive_read_support_filter_all)                                                         \
    X(archive_read_support_format_all)                                                         \
    X(archive_read_support_format_raw)                                                         \
    X(archive_read_set_read_callback)                                                          \
    X(archive_read_set_seek_callback)                                                          \
    X(archive_read_set_callback_data)                                                          \
    X(archive_read_open1)                                                                      \
    X(archive_read_next_header)                                                                \
    X(archive_read_data)                                                                       \
    X(archive_format)                                                                          \
    X(archive_filter_code)                                                                     \
    X(archive_filter_bytes)                                                                    \
    X(archive_error_string)                                                                    \
    X(archive_set_error)                                                                       \
    X(archive_entry_pathname)                                                                  \
    X(archive_entry_filetype)

struct libarchive_api {
#define LIBARCHIVE_FIELD(f) __typeof__(f) *f;
    LIBARCHIVE_FUNCS(LIBARCHIVE_FIELD)
#undef LIBARCHIVE_FIELD
};

/** The functions, loaded once per process (thread-safe); NULL when libarchive cannot be
 * loaded, with *why saying what is missing (a static string). */
const struct libarchive_api *libarchive_dl(const char **why);

#endif
