/**
 * types.h - the domain scalars every module shares.
 *
 * Squares are 0..63 with a1 = 0, b1 = 1, ..., h8 = 63 (rank * 8 + file).
 * Ownership rule for the whole project: arguments are borrowed for the call only;
 * a function that keeps a pointer says "retains" in its doc comment.
 */
#ifndef PGNKIT_TYPES_H
#define PGNKIT_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t bitboard;

enum color { WHITE = 0, BLACK = 1, COLOR_COUNT = 2 };

enum piece_type {
    PAWN = 0,
    KNIGHT = 1,
    BISHOP = 2,
    ROOK = 3,
    QUEEN = 4,
    KING = 5,
    PIECE_TYPE_COUNT = 6,
    NO_PIECE_TYPE = 6
};

/* A piece on the board: colour and type packed as (color << 3) | type, plus
 * PIECE_PROMOTED on a Crazyhouse piece that was a pawn (it goes back to the pocket as one):
 * the mark rides along with the piece, so struct position needs no separate mask. */
enum { PIECE_NONE = 0xff, PIECE_PROMOTED = 0x10 };

static inline uint8_t piece_make(enum color c, enum piece_type t)
{
    return (uint8_t)((c << 3) | t);
}
static inline enum piece_type piece_type_of(uint8_t piece) { return (enum piece_type)(piece & 7); }
static inline enum color piece_color_of(uint8_t piece) { return (enum color)((piece >> 3) & 1); }

enum { SQ_NONE = 64, SQUARE_COUNT = 64 };

static inline int square_make(int file, int rank) { return rank * 8 + file; }
static inline int square_file(int sq) { return sq & 7; }
static inline int square_rank(int sq) { return sq >> 3; }

enum move_flags {
    MOVE_CAPTURE = 1 << 0,     /* removes an enemy piece (including en passant) */
    MOVE_EN_PASSANT = 1 << 1,
    MOVE_CASTLE = 1 << 2,      /* from = king square, to = castling rook's square */
    MOVE_DOUBLE_PUSH = 1 << 3,
    MOVE_NULL = 1 << 4,        /* "--" / "Z0": side to move passes */
    MOVE_DROP = 1 << 5,        /* Crazyhouse: from = to, promo = the piece type dropped */
};

/* The rules a position is played by (position.variant).  Standard chess is 0, so a
 * zeroed position is a standard one; Chess960 is standard chess with position.chess960. */
enum variant {
    VARIANT_STANDARD = 0,
    VARIANT_CRAZYHOUSE,
    VARIANT_ATOMIC,
    VARIANT_ANTICHESS,
    VARIANT_KING_OF_THE_HILL,
    VARIANT_THREE_CHECK,
    VARIANT_RACING_KINGS,
    VARIANT_HORDE,
    VARIANT_COUNT
};

/**
 * A move, 4 bytes, passed by value.  Castling is always encoded king-takes-rook
 * (from = king, to = rook), which covers Chess960 uniformly; writers convert to
 * e1g1 style where the output wants it.  promo is a piece_type (KNIGHT..QUEEN)
 * or 0 when the move is not a promotion (KING too in Antichess).  A Crazyhouse drop has
 * MOVE_DROP, from = to and promo = the piece type dropped.
 */
struct move {
    uint8_t from;
    uint8_t to;
    uint8_t promo;
    uint8_t flags;
};
_Static_assert(sizeof(struct move) == 4, "struct move must stay 4 bytes");

/* 218 is the most in standard chess; Crazyhouse drops add up to 5 x 62. */
enum { MAX_MOVES = 640 };

/** A borrowed byte range; not NUL-terminated unless said so. */
struct slice {
    const char *ptr;
    size_t len;
};

#endif
