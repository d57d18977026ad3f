/*
 * reader_tokens.h - the game's tokens as the streaming reader keeps them (struct
 * reader_tokens, r->tok of struct pgn_reader, reader_state.h).
 *
 * Filled by the lexers (pgn_lexer_fast.c, pgn_lexer.c, pgn_comments.c) through emit()
 * (reader_buffer.h); grown, moved with the data and emptied for a skipped game by
 * reader_buffer.c; cut into parts by pgn_parts.c, which also sets tok_limit (and moves
 * tokens down behind part 0); tok0 set by pgn_reader.c at each game's start.
 */
#ifndef PGNKIT_READER_TOKENS_H
#define PGNKIT_READER_TOKENS_H

#include <stddef.h>

#include "pgn/pgn_reader_types.h"

struct reader_tokens {
    struct pgn_token *toks;
    size_t ntok, tok_cap;
    size_t tok_limit; /* toks index where the game passes max_game_tokens */
    size_t tok0;      /* the game's first token: 0, or after the kept games' (keep_tokens) */
};

#endif
