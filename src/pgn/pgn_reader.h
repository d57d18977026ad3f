/**
 * pgn_reader.h - a streaming PGN reader: bytes in, one tokenized game at a time out.
 *
 * Reads any size with memory bounded by the largest game (limits below).  Splits games
 * the PGN-standard way: a game ends at its result token at depth 0, where a tag section
 * starts, or at the end of input; blank lines inside movetext do not end a game.  An
 * unterminated comment or variation ends at a blank line followed by a tag-pair line,
 * so it cannot swallow the next game (pgn_tag_line_ends_comment: a comment that closes
 * soon after such a line is not cut).  In movetext only a '[' that begins its line and is
 * followed by a tag name and '"' starts a tag section; any other '[' is the game's own:
 * "[%...]" up to ']' on its line is a comment (one NONSTANDARD warning per game: braces
 * lost by a broken export), else an UNEXPECTED_CHAR.  Every byte position is known as 1-based line
 * and column (bytes); LF, CRLF and lone CR end lines; a UTF-8 BOM is skipped.  A control
 * byte (ctrl.h) anywhere in a game -- tag value, comment, escape line, between tokens (read
 * as a blank there) -- is one CONTROL_BYTE warning per game, at the first one.
 *
 * Reserved tokens: the PGN standard (8.2.6) reserves '<' ... '>' for future expansion.
 * '<' up to the next '>' on the same line (at most max_token_bytes) is one token that is
 * skipped wherever it stands, the tag section included (so HTML's <br /> line breaks do
 * not split a game).  The first one in a game is reported as an UNEXPECTED_CHAR error
 * (the code's own severity: the text is not clean PGN, though nothing of the game is
 * lost); later ones in the same game are skipped silently.  A '<' with no '>' on its
 * line is an unexpected byte, as are ']' '}' '"' and a lone '>'.
 *
 * The reader does not know chess: move tokens are passed on as text for san.h.
 * Not thread-safe; one reader per input stream.
 *
 * The types a game comes in (tokens, tags, parts), the limits and the source are in
 * pgn_reader_types.h, the tag line rule inside comments in pgn_comments.h: both are
 * included here, so that this header still gives the whole reader.
 */
#ifndef PGNKIT_PGN_READER_H
#define PGNKIT_PGN_READER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/cpu.h"
#include "base/diag.h"
#include "board/types.h"
#include "pgn/pgn_comments.h"
#include "pgn/pgn_reader_types.h"

struct pgn_reader;

/** A reader over src (retained until pgn_reader_free); name is retained too. */
struct pgn_reader *pgn_reader_new(struct pgn_source src, const char *name,
                                  const struct pgn_limits *limits);
/** A reader over an in-memory buffer (retained; not copied). */
struct pgn_reader *pgn_reader_from_memory(const char *data, size_t len, const char *name,
                                          const struct pgn_limits *limits);
void pgn_reader_free(struct pgn_reader *r);

/**
 * Where a reader starts when a file is read in pieces (the --jobs pipeline): a line start
 * between two games, as the whole-file reader would be there.
 */
struct pgn_resume {
    uint64_t offset; /* file offset of that byte; 0 is the file's start (a BOM is skipped) */
    uint64_t line;   /* its 1-based line number */
    uint64_t games;  /* games before it: the next game's index is games + 1 */
    bool games_unknown; /* games before it not counted (--range): every index is 0 */
};

/** A reader over src, whose first byte is the file's byte at->offset. */
struct pgn_reader *pgn_reader_new_at(struct pgn_source src, const char *name,
                                     const struct pgn_limits *limits,
                                     const struct pgn_resume *at);

/**
 * A reader over the blocks src hands over, parsed where they lie (pgn_block_source): the
 * same games, diagnostics and offsets as pgn_reader_new over a source giving the same
 * bytes, without copying them into a buffer of its own.  The blocks it holds are handed
 * back by pgn_reader_free.
 */
struct pgn_reader *pgn_reader_new_blocks(const struct pgn_block_source *src, const char *name,
                                         const struct pgn_limits *limits);

/**
 * A reader over the plain text of the regular file map->fd, from its first byte, that
 * maps the file a window at a time (mmap) instead of copying it into a buffer (read):
 * the same games, diagnostics and offsets as pgn_reader_new over a source reading the
 * file, without the copy (~6% of `uci`'s time on lichess's games).  No decoding: the
 * caller has found the text plain.  Bytes the file gains while it is read are read too.
 * NULL when the file is no regular file, is empty, or cannot be mapped: read it with
 * pgn_reader_new then.  The file must not shrink while it is read: the pages gone would
 * raise SIGBUS when touched (the CLI reports that and exits; see cli/input.c).
 */
struct pgn_reader *pgn_reader_new_mapped(const struct pgn_file_map *map, const char *name,
                                         const struct pgn_limits *limits);
/** The same, starting at the file's byte at->offset (a line start between two games, as
 *  for pgn_reader_new_at): a --range of the file. */
struct pgn_reader *pgn_reader_new_mapped_at(const struct pgn_file_map *map, const char *name,
                                            const struct pgn_limits *limits,
                                            const struct pgn_resume *at);

/**
 * Point a memory reader at another piece of a file: data[0, len) is the file from
 * at->offset on.  A game that would start at data[stop] or later is not read (there
 * pgn_reader_next returns 0): it belongs to the next piece.  The bytes from stop on are
 * still read as lookahead, and a game that starts before stop is read to its end, past
 * stop if that is where it ends.  The token, tag and scratch arrays are kept and reused.
 */
void pgn_reader_restart(struct pgn_reader *r, const char *data, size_t len, size_t stop,
                        const struct pgn_resume *at);

/**
 * Once pgn_reader_next has returned 0 on a restarted reader: whether its stop was not a
 * clean place between two games, so that the pieces would not read as the whole file
 * does.  That is when something read began before stop and ended after it (a game, or
 * comments that made no game), or a diagnostic (a control byte between games) was
 * waiting for the game at stop.  The piece must then be read with more bytes.
 */
bool pgn_reader_stop_crossed(const struct pgn_reader *r);

/**
 * Keep the tokens of every game read since the last restart, instead of reusing them for
 * the next game (memory readers only; off by default): a caller can then hold all the
 * games of a piece without copying their tokens.  The array still moves when it grows:
 * a game's tokens stay at the same index from pgn_reader_kept_tokens() as when the game
 * was returned, and are valid until the next restart.  Turned off between games, the
 * tokens kept so far stay (until the next restart); later games' go after them.
 */
void pgn_reader_keep_tokens(struct pgn_reader *r, bool keep);

/** Read by the vector paths of `level` (cpu.h) rather than the best this CPU runs, which
 * a new reader takes; `level` must be one this CPU runs.  The tests hold each path to
 * the others with it. */
void pgn_reader_set_cpu(struct pgn_reader *r, enum cpu_level level);
const struct pgn_token *pgn_reader_kept_tokens(const struct pgn_reader *r);

/**
 * Read the next game into *game.  Returns 1 with a game, 0 at the end of input, -1 on
 * an I/O error (then *err is filled with DIAG_IO; the reader is finished).
 */
int pgn_reader_next(struct pgn_reader *r, struct pgn_game *game, struct diag *err);

/** Bytes consumed so far (for progress and the summary). */
uint64_t pgn_reader_bytes(const struct pgn_reader *r);

/**
 * A source reading the file descriptor *fd with read(2), retrying EINTR.  Retains fd (the
 * pointer): it must outlive the reader.  The caller opens and closes the descriptor.
 */
struct pgn_source pgn_source_fd(int *fd);

#endif
