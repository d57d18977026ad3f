/*
 * pgn_comments_internal.h - what pgn_comments.c offers pgn_lexer.c: a {comment} scanned
 * to its end, with the rule that a tag pair line after a blank line ends a comment that
 * never closes (the stretches searched in vain: r->scan.no_close, no_open).
 */
#ifndef PGNKIT_PGN_COMMENTS_INTERNAL_H
#define PGNKIT_PGN_COMMENTS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "pgn/reader_state.h"

/*
 * Scan the {comment} whose '{' is at index i.  Returns the index after it.  When it never
 * closes and a tag line after a blank line ends it, returns that '[' index and sets
 * *boundary.  Returns SIZE_MAX on an I/O error.
 */
size_t scan_comment(struct pgn_reader *r, size_t i, bool *boundary);

#endif
