/*
 * file_range.h - where to start reading a byte range of a PGN file (--range START:END,
 * the API's pgnkit_open_range) so that its games read exactly as the whole-file reader
 * reads them.
 *
 * What it promises: the resume point is decided from the bytes just before START alone
 * (the last sync point at or before it, pgn_split_last_sync), plus one pass counting the
 * line ends before that point, so line numbers stay those of the whole file.  Game
 * indexes are not known unless the sync point is byte 0 (counting games would mean
 * reading them).  Reads with pread: the descriptor's offset is not moved.
 */
#ifndef PGNKIT_IO_FILE_RANGE_H
#define PGNKIT_IO_FILE_RANGE_H

#include <stdint.h>

#include "pgn/pgn_reader.h"

enum file_range_status {
    FILE_RANGE_OK = 0,
    FILE_RANGE_READ_ERROR = -1, /* errno says why */
    FILE_RANGE_TOO_MANY_LINES = -2,
};

/*
 * The resume point of the reader for the games starting at start or later in the plain
 * file fd of size bytes (start <= size): the sync point's offset, its line, and whether
 * game indexes are unknown.
 */
enum file_range_status file_range_resume(int fd, uint64_t start, uint64_t size,
                                         struct pgn_resume *at);

#endif
