/*
 * eco_option.h - --eco-file FILE: read a user's ECO file (pgn-extract's eco.pgn format,
 * game/eco_file.h) once, at start, before any input is opened.
 */
#ifndef PGNKIT_CLI_ECO_OPTION_H
#define PGNKIT_CLI_ECO_OPTION_H

#include "game/eco_file.h"

/* The book of the ECO file at path, or NULL after saying on stderr why (the file cannot
 * be read: its name and the system's reason; a bad entry: FILE:LINE:COL and what is
 * wrong).  Either is a usage error (exit 2). */
struct eco_book *eco_option_load(const char *path);

#endif
