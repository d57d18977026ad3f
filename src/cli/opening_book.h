/*
 * opening_book.h - the opening book the CLI classifies with: lichess's chess-openings
 * (data/openings/, CC0), compiled in at build time (tools/gen_openings.c writes
 * build/<profile>/gen/opening_book.c), so the program needs no data file at run time.
 */
#ifndef PGNKIT_CLI_OPENING_BOOK_H
#define PGNKIT_CLI_OPENING_BOOK_H

#include "game/opening.h"

extern const struct opening_book opening_book_lichess;

#endif
