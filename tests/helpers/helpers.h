/* helpers.h - what several test suites share. */
#ifndef PGNKIT_TEST_HELPERS_H
#define PGNKIT_TEST_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "board/position.h"

/** The whole file, NUL-terminated, in malloc'd memory (free it); fails the test if it
 * cannot be read.  *len gets its size. */
char *th_slurp(const char *path, size_t *len);

/** The next position of a perft suite (its "epd FEN" lines, as in testdata/perft/random.perft):
 * parsed into *pos (the test fails if it does not parse), its FEN text into fen (for
 * messages).  False at the end of the file. */
bool th_next_epd(FILE *f, struct position *pos, char *fen, size_t cap);

/** The next position of an EPD file (the FEN before " ;", as in testdata/perft/standard.epd
 * and fischer.epd; blank lines skipped): parsed into *pos, Chess960 rights read as such
 * when chess960 (the test fails if it does not parse), its FEN text into fen (for
 * messages).  False at the end of the file. */
bool th_next_epd_line(FILE *f, bool chess960, struct position *pos, char *fen, size_t cap);

#endif
