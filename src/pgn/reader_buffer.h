/*
 * reader_buffer.h - what reader_buffer.c offers the reader's other files: reads into the
 * input buffer (r->in, reader_input.h) and the indices that move with it, streaming skips
 * that keep nothing, the growth of the per-game token and tag arrays with the inline
 * emit() and push_tag() that call it, a game's skipping once over a limit, and
 * diagnostics.  The lexers, pgn_comments.c, pgn_tags.c and pgn_reader.c call these;
 * reader_buffer.c calls none of theirs.
 */
#ifndef PGNKIT_READER_BUFFER_H
#define PGNKIT_READER_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgn/reader_state.h"

void add_diag(struct pgn_reader *r, enum diag_code code, uint64_t line, uint64_t col,
              const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * Read more bytes (or map more of a mapped file).  Keeps the current game (or, when skipping, everything from r->scan.pos);
 * the data may move: callers subtract r->in.shift from their indices.  mark: the bytes
 * before it surely belong to the current game (the size limit is checked on them).
 * Returns 1 when bytes were added, 0 at the end of input, -1 on an I/O error.
 */
int reader_fill(struct pgn_reader *r, size_t mark);
/* Read map->fd by mapping it (pgn_reader_new_mapped); false, with nothing changed, when
 * it is no regular file with bytes in it or cannot be mapped. */
bool reader_map_start(struct pgn_reader *r, const struct pgn_file_map *map);
/* Read blocks from src, parsed in place (pgn_reader_new_blocks). */
void reader_blocks_start(struct pgn_reader *r, const struct pgn_block_source *src);
/* Hand back the blocks held (the reader is being freed). */
void reader_blocks_end(struct pgn_reader *r);
/* Unmap a mapped file's window (the reader is being freed). */
void reader_unmap(struct pgn_reader *r);
/* Read until the bytes from i (a construct cut by the end of the data) at least double;
 * returns where i's byte now is, or SIZE_MAX on an I/O error. */
size_t reader_read_more(struct pgn_reader *r, size_t i);
/* Skip a UTF-8 byte-order mark at the start of the input. */
void skip_bom(struct pgn_reader *r);
/* Skip to the end of the line (not consumed), keeping nothing.  SIZE_MAX on I/O error. */
size_t skip_line(struct pgn_reader *r, size_t i);
/* Skip the rest of a token run, keeping nothing.  SIZE_MAX on I/O error. */
size_t skip_run(struct pgn_reader *r, size_t i);
/* Keep nothing more of this game (its tag names stay known); called while the game's
 * bytes are still in the buffer (before reader_fill() moves them). */
void start_skipping(struct pgn_reader *r);
/* The game passed max_game_tokens (emit() at tok_limit): it is skipped from here on, as
 * one over max_game_bytes is.  While a part is read again: more tokens than the first
 * reading found there (a bug), the rest dropped. */
READER_COLD void tokens_over_limit(struct pgn_reader *r);
/* Out of line and cold: keeps emit() and push_tag() small enough to inline without
 * register spills. */
READER_COLD void grow_tokens(struct pgn_reader *r);
READER_COLD void grow_tags(struct pgn_reader *r);
/* Hash the names of the tags kept that are not in r->tag.names yet. */
void name_set_catch_up(struct pgn_reader *r);

/* Tokens are dropped while the game is skipped or inside variations nested too deep. */
static inline bool tokens_kept(const struct pgn_reader *r)
{
    return !r->skipping && r->scan.depth <= r->lim.max_depth;
}

static inline void emit(struct pgn_reader *r, const char *text, size_t len, uint64_t line,
                        uint64_t col, enum pgn_token_kind kind)
{
    if (!tokens_kept(r))
        return;
    if (r->tok.ntok >= r->tok.tok_limit) {
        tokens_over_limit(r);
        return;
    }
    if (r->tok.ntok == r->tok.tok_cap)
        grow_tokens(r);
    /* A token keeps its line's low 32 bits (pgn_token_line) and a clamped column. */
    r->tok.toks[r->tok.ntok++] = (struct pgn_token){.text = text, .len = (uint32_t)len,
                                            .line = (uint32_t)line,
                                            .col = col > UINT32_MAX ? UINT32_MAX : (uint32_t)col,
                                            .kind = (uint8_t)kind};
}

/* A new tag at the end of the game's tags, for the caller to fill. */
static inline struct pgn_tag *push_tag(struct pgn_reader *r)
{
    if (r->tag.ntag == r->tag.tag_cap)
        grow_tags(r);
    return &r->tag.tags[r->tag.ntag++];
}

#endif
