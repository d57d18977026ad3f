/*
 * reader_tags.h - the game's tag pairs as the streaming reader keeps them (struct
 * reader_tags, r->tag of struct pgn_reader, reader_state.h).
 *
 * Written by pgn_tags.c (parsing, keeping, the escaped values' scratch, the names' set,
 * bad_string) and by pgn_lexer_fast.c's usual tag pairs through push_tag(); grown, moved
 * with the data and emptied for a skipped game by reader_buffer.c; cleared for each game
 * and handed out by pgn_reader.c.
 */
#ifndef PGNKIT_READER_TAGS_H
#define PGNKIT_READER_TAGS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/name_set.h"
#include "pgn/pgn_reader_types.h"

struct reader_tags {
    /* The tags as handed out, built as they are read: names and unescaped values point
     * into data and move with it (make_room); an escaped value has a NULL pointer until
     * finish_game, as scratch may still move: those values lie in scratch in tag order. */
    struct pgn_tag *tags;
    size_t ntag, tag_cap;
    struct name_set names; /* this game's tag names (tag_is_dup) */
    size_t tags_in_set; /* tags[0, tags_in_set) are in names */
    char *scratch;
    size_t scratch_len, scratch_cap;
    bool bad_string;   /* an unterminated tag value: a tag line after a blank line starts anew */
};

#endif
