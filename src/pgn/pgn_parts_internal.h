/*
 * pgn_parts_internal.h - what pgn_parts.c offers pgn_reader.c: a game in parts (its
 * state: r->parts, reader_parts.h), cut as it is read, handed out, and a part read
 * again.
 */
#ifndef PGNKIT_PGN_PARTS_INTERNAL_H
#define PGNKIT_PGN_PARTS_INTERNAL_H

#include <stddef.h>

#include "pgn/reader_state.h"

/* Start the game's parts: none cut yet, no result seen; after reset_game's tok0. */
void parts_reset(struct pgn_reader *r);
/* The scan is between two steps at i with the part being read due for a cut
 * (ntok >= part_stop): cut it here, or at the move before, when that is safe. */
READER_COLD void part_due(struct pgn_reader *r, size_t i);
/* The game's last token kept (the part being read may be empty), or NULL. */
const struct pgn_token *parts_last_token(const struct pgn_reader *r);
/* The game just read, as handed out: its tokens (part 0), parts and last result, for a
 * game of the given end offset.  Sets what load_part needs. */
void parts_finish(struct pgn_reader *r, struct pgn_game *game, uint64_t end);
/* Set the reader to read part k (1 <= k < part_count) again from r->scan.pos, its state kept
 * in *saved: the scan ends at the end of the data, the part's end. */
void relex_begin(struct pgn_reader *r, size_t k, struct pgn_reader *saved);
/* The part read, and the reader as it was. */
struct pgn_part relex_end(struct pgn_reader *r, size_t k, const struct pgn_reader *saved);

#endif
