/**
 * opening.h - name a game's opening: ECO code and name from a book of positions.
 *
 * A book maps position keys (poskey.h: board, side to move, castling, legal en passant;
 * not the move counters) to an opening.  A game is classified by the LAST position of
 * its mainline that is in the book, so transpositions classify by where the game went,
 * not by the order of its moves, and leaving the book keeps the last name found.  Only
 * games of standard chess from the standard start position are classified; any other
 * start (a FEN, a variant, Chess960) gives none, since the book's names describe play
 * from the standard start.
 *
 * Cost: one hash-table probe per mainline ply at most, and none once no position of the
 * book can still be reached (captures, and pawns leaving their home rank, are for good:
 * the book says how many pieces a position with those home pawns needs).  Nothing here
 * allocates; a book is constant data (the CLI links one generated at build time from
 * data/openings/, see tools/gen_openings.c) and may be shared by threads.
 */
#ifndef PGNKIT_OPENING_H
#define PGNKIT_OPENING_H

#include <stddef.h>
#include <stdint.h>

#include "board/poskey.h"
#include "board/position.h"

struct opening {
    const char *eco;  /* "B90" */
    const char *name; /* "Sicilian Defense: Najdorf Variation", UTF-8 */
    /* An ECO file's Variation and SubVariation tags (eco_file.h); NULL when none (the
     * built-in book's names hold the variation after a colon). */
    const char *variation, *subvariation;
};

/*
 * What a book read from an ECO file adds (eco_file.h): pgn-extract -e's rules, measured
 * against pgn-extract 19.04 itself.  A line matches a position the game reaches at most
 * SLACK plies after the line's own length (a game that wanders into a book position
 * late is not classified by it); when lines share a position, the one the game
 * followed move for move wins, else the first of them in the file.
 */
enum { OPENING_LINE_SLACK = 6 };
struct opening_lines {
    const uint32_t *plies;    /* per opening: the length of its line */
    const uint32_t *first;    /* per opening: where its moves start in moves */
    const struct move *moves;
    const uint32_t *next;     /* per opening: 1 + the next opening at its position, 0 none */
};

/* The pawns still on their home ranks, as reach[] indexes them: White's rank 2 in bits
 * 0-7, Black's rank 7 in bits 8-15. */
static inline unsigned opening_home_pawns(const struct position *pos)
{
    bitboard pawns = pos->by_type[PAWN];
    return (unsigned)(((pawns & pos->by_color[WHITE]) >> 8) & 0xff) |
           (unsigned)(((pawns & pos->by_color[BLACK]) >> 40) & 0xff00);
}

struct opening_book {
    const uint64_t *keys;     /* slot_mask + 1 slots, open addressing, linear probing */
    const uint16_t *slots;    /* per slot: 1 + the index in openings, 0 for an empty slot */
    uint32_t slot_mask;       /* the slot count (a power of two, at most half full) - 1 */
    const struct opening *openings;
    uint32_t count;
    struct poskey_carry start; /* the key of the standard start position, to carry on */
    /* reach[opening_home_pawns(pos)]: the fewest pieces of a book position whose home
     * pawns are all home in pos too (33: none).  Pawns never come back home and pieces
     * never come back, so a position with fewer pieces than that reaches no book
     * position any more. */
    const uint8_t *reach;
    const struct opening_lines *lines; /* an ECO file's book; NULL for the built-in one */
};

/** The opening whose position has this key, or NULL. */
const struct opening *opening_lookup(const struct opening_book *book, uint64_t key);

/**
 * The opening of the game that starts at start and plays moves[0, count) (legal moves,
 * as game_record.mainline has them): the last position in the book, or NULL when none
 * is, or when start is not the standard start position of standard chess.
 */
const struct opening *opening_classify(const struct opening_book *book,
                                       const struct position *start, const struct move *moves,
                                       size_t count);

#endif
