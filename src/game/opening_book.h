/*
 * opening_book.h - the opening book the CLI and the API (--classify, classify=) classify
 * with: lichess's chess-openings (data/openings/, CC0), compiled in at build time
 * (tools/gen_openings.c writes build/<profile>/gen/opening_book.c, which the library
 * holds), so neither the program nor the library needs a data file at run time.
 */
#ifndef PGNKIT_GAME_OPENING_BOOK_H
#define PGNKIT_GAME_OPENING_BOOK_H

#include "game/opening.h"

extern const struct opening_book opening_book_lichess;

#endif
