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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/cpu.h"

/**
 * The last cut c with from <= c < len whose whole line (up to its line end) is in
 * d[0, len), so that the reader sees the tag pair it may have to parse there; SIZE_MAX
 * when there is none.
 */
size_t pgn_split_find_cut(const char *d, size_t from, size_t len);

/**
 * A sync point: where the whole-file reader surely starts a game with nothing pending,
 * whatever came before, so that a reader started there (--range) reads every later game
 * exactly as the whole-file reader does.  It is a line that starts with '[' after one or
 * more blank lines (spaces and tabs only), where the last non-blank line before them
 * ends with a result token (1-0, 0-1, 1/2-1/2, *) after a space, a tab or nothing, and
 * holds no byte that could open, close or belong to anything spanning bytes other than
 * moves: no [ ] { } ; " % < > and no control byte.  Why that suffices, state by state:
 * inside a {comment} (it cannot close on that line), the blank line and the '[' line
 * end the comment there, which the reader decides by pgn_tag_line_ends_comment() on the
 * bytes that follow: so the '[' line must be a real tag pair with no '}' after it before
 * a '{' (within PGN_COMMENT_LOOKAHEAD bytes, all in d[0, n)); in movetext at any depth, a '[' ends the game; anywhere else
 * the line's tokens are movetext and its result ends the game (depth 0) or leaves the
 * reader in movetext (depth > 0); tag values, escape lines and reserved tokens end at
 * their line's end.  Only whitespace follows, so no diagnostic waits for the new game.
 *
 * Returns the last sync point p with p <= pos and p < n in d[0, n), or SIZE_MAX when
 * there is none.  at_file_start: d[0] is the file's first byte (0 is then a sync point,
 * and a line starting at 0 is known to start a line).  at_file_end: d[n - 1] is the file's
 * last byte.  Give the PGN_COMMENT_LOOKAHEAD bytes after pos too (or up to the file's
 * end): without them a '[' line's comment rule is undecided, and it is no sync point.
 */
size_t pgn_split_last_sync(const char *d, size_t n, size_t pos, bool at_file_start,
                           bool at_file_end);

/**
 * Line ends in d[0, n) as the reader counts them: LF, CRLF and a lone CR each end one
 * line.  A CR at d[n - 1] counts as a line end: call it where d[n] is not LF (a cut).
 */
uint64_t pgn_split_count_lines(const char *d, size_t n);

/** The same by the path of `level` (cpu.h), which this CPU must run: the tests hold each
 * path to the others. */
uint64_t pgn_split_count_lines_at(const char *d, size_t n, enum cpu_level level);

#endif
