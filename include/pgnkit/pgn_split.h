/**
 * pgn_split.h - where a PGN byte stream may be cut into pieces that read alone the way
 * they read in the whole stream, so that several threads can each read one piece.
 *
 * A cut is a guess, made without reading the games: a line that starts with '[' after a
 * result token (1-0, 0-1, 1/2-1/2 or *) and nothing but whitespace.  In real files that
 * is where the reader starts a game, but not always: a result token may end a comment's
 * line or an escape line inside a tag section.  So the reader checks every cut
 * (pgn_reader_restart: no game crosses it), and a caller whose guess was wrong reads on
 * from the piece's start on one thread.
 */
#ifndef PGNKIT_PGN_SPLIT_H
#define PGNKIT_PGN_SPLIT_H

#include <stddef.h>
#include <stdint.h>

/**
 * The last cut c with from <= c < len whose whole line (up to its line end) is in
 * d[0, len), so that the reader sees the tag pair it may have to parse there; SIZE_MAX
 * when there is none.
 */
size_t pgn_split_find_cut(const char *d, size_t from, size_t len);

/**
 * Line ends in d[0, n) as the reader counts them: LF, CRLF and a lone CR each end one
 * line.  A CR at d[n - 1] counts as a line end: call it where d[n] is not LF (a cut).
 */
uint64_t pgn_split_count_lines(const char *d, size_t n);

#endif
