/**
 * pgn_comments.h - the reader's rule for a tag pair line inside a {comment}, which
 * pgn_split's sync points use too (the reader's comments: pgn_comments_internal.h).
 */
#ifndef PGNKIT_PGN_COMMENTS_H
#define PGNKIT_PGN_COMMENTS_H

#include <stdbool.h>
#include <stddef.h>

/** How far past a tag pair line inside a comment the reader looks for the comment's '}'. */
#define PGN_COMMENT_LOOKAHEAD ((size_t)64 << 10)

/**
 * The reader's rule for a line starting with '[' (at d[k]) after a blank line inside a
 * {comment}: 1 when it ends the comment there, which then never closed (the line is a
 * real tag pair, [Name "value"], and no '}' follows within PGN_COMMENT_LOOKAHEAD bytes
 * before a '{', the next game's comment); 0 when the comment goes on (a '[%clk ...]'
 * line, a lone '[', or a tag pair in a comment that closes); -1 when d[0, n) ends before
 * that is decided.  at_end: n is the end of the input (then never -1: an unfinished tag
 * line is none, an unfinished lookahead finds no '}').  pgn_split's sync points use it.
 */
int pgn_tag_line_ends_comment(const char *d, size_t n, size_t k, bool at_end);

#endif
