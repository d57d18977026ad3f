/*
 * attacks.c - attack tables: pawn, knight, king lookups, fancy magic bitboards for
 * sliders, and the between/line tables.  Built once by attacks_init() through
 * pthread_once (magics found by a fixed-seed search, so the tables are the same on
 * every run) and read-only afterwards.  Knows nothing about positions.
 */
#include "pgnkit/attacks.h"

#include <pthread.h>
#include <stddef.h>

#include "attacks_internal.h"
#include "pgnkit/bitboard.h"

bitboard attacks_pawn_table[COLOR_COUNT][SQUARE_COUNT];
bitboard attacks_knight_table[SQUARE_COUNT];
bitboard attacks_king_table[SQUARE_COUNT];
bitboard attacks_between_table[SQUARE_COUNT][SQUARE_COUNT];
bitboard attacks_line_table[SQUARE_COUNT][SQUARE_COUNT];
struct attacks_magic attacks_rook_magics[SQUARE_COUNT];
struct attacks_magic attacks_bishop_magics[SQUARE_COUNT];
static bitboard rook_storage[0x19000];  /* 102400: sum of 2^bits over all squares */
static bitboard bishop_storage[0x1480]; /* 5248 */
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

/* Slow ray walk, used only to fill the tables. */
static bitboard slide(const int dirs[4][2], int sq, bitboard occ)
{
    bitboard out = 0;
    for (int d = 0; d < 4; d++) {
        int f = square_file(sq) + dirs[d][0], r = square_rank(sq) + dirs[d][1];
        while (f >= 0 && f < 8 && r >= 0 && r < 8) {
            int s = square_make(f, r);
            out |= bb_square(s);
            if (bb_has(occ, s))
                break;
            f += dirs[d][0];
            r += dirs[d][1];
        }
    }
    return out;
}

static bitboard step_set(int sq, const int (*deltas)[2], int n)
{
    bitboard out = 0;
    for (int i = 0; i < n; i++) {
        int f = square_file(sq) + deltas[i][0], r = square_rank(sq) + deltas[i][1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8)
            out |= bb_square(square_make(f, r));
    }
    return out;
}

/* xorshift64* as in Stockfish's PRNG; sparse numbers make good magic candidates. */
static uint64_t prng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

static unsigned magic_index(const struct attacks_magic *m, bitboard occ)
{
    return (unsigned)(((occ & m->mask) * m->magic) >> m->shift);
}

/* Find a magic for every square by trial (the seeds per rank make it quick). */
static void init_magics(struct attacks_magic *table, bitboard *storage, const int dirs[4][2])
{
    static const uint64_t seeds[8] = {728, 10316, 55013, 32803, 12281, 15100, 16645, 255};
    bitboard occupancy[4096], reference[4096];
    int epoch[4096] = {0}, cnt = 0;
    bitboard *next = storage;

    for (int sq = 0; sq < SQUARE_COUNT; sq++) {
        bitboard edges = ((bb_rank(0) | bb_rank(7)) & ~bb_rank(square_rank(sq))) |
                         ((bb_file(0) | bb_file(7)) & ~bb_file(square_file(sq)));
        struct attacks_magic *m = &table[sq];
        m->mask = slide(dirs, sq, 0) & ~edges;
        m->shift = (unsigned)(64 - bb_count(m->mask));
        bitboard *slots = next;
        m->attacks = next;

        /* Carry-Rippler: enumerate every subset of the mask. */
        int size = 0;
        bitboard b = 0;
        do {
            occupancy[size] = b;
            reference[size] = slide(dirs, sq, b);
            size++;
            b = (b - m->mask) & m->mask;
        } while (b);
        next += size;

        uint64_t seed = seeds[square_rank(sq)];
        for (int i = 0; i < size;) {
            do {
                m->magic = prng_next(&seed) & prng_next(&seed) & prng_next(&seed);
            } while (bb_count((m->magic * m->mask) >> 56) < 6);
            /* epoch[] marks which slots this attempt wrote, so no clearing is needed. */
            cnt++;
            for (i = 0; i < size; i++) {
                unsigned idx = magic_index(m, occupancy[i]);
                if (epoch[idx] < cnt) {
                    epoch[idx] = cnt;
                    slots[idx] = reference[i];
                } else if (slots[idx] != reference[i]) {
                    break;
                }
            }
        }
    }
}

static void init_tables(void)
{
    static const int knight_d[8][2] = {{1, 2},  {2, 1},  {2, -1}, {1, -2},
                                       {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king_d[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                     {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int wpawn_d[2][2] = {{-1, 1}, {1, 1}};
    static const int bpawn_d[2][2] = {{-1, -1}, {1, -1}};

    for (int sq = 0; sq < SQUARE_COUNT; sq++) {
        attacks_knight_table[sq] = step_set(sq, knight_d, 8);
        attacks_king_table[sq] = step_set(sq, king_d, 8);
        attacks_pawn_table[WHITE][sq] = step_set(sq, wpawn_d, 2);
        attacks_pawn_table[BLACK][sq] = step_set(sq, bpawn_d, 2);
    }
    init_magics(attacks_rook_magics, rook_storage, rook_dirs);
    init_magics(attacks_bishop_magics, bishop_storage, bishop_dirs);

    for (int a = 0; a < SQUARE_COUNT; a++) {
        for (int b = 0; b < SQUARE_COUNT; b++) {
            if (a == b)
                continue;
            bitboard ab = bb_square(a) | bb_square(b);
            /* Rays from a stopped by b meet rays from b stopped by a exactly between
             * them; empty-board rays through both meet exactly on their line. */
            const int(*dirs)[2] = bb_has(slide(rook_dirs, a, 0), b)     ? rook_dirs
                                  : bb_has(slide(bishop_dirs, a, 0), b) ? bishop_dirs
                                                                        : NULL;
            if (!dirs)
                continue;
            attacks_between_table[a][b] = slide(dirs, a, ab) & slide(dirs, b, ab);
            attacks_line_table[a][b] = (slide(dirs, a, 0) & slide(dirs, b, 0)) | ab;
        }
    }
}

void attacks_init(void) { pthread_once(&init_once, init_tables); }

bitboard attacks_pawn(enum color c, int sq) { return attacks_pawn_table[c][sq]; }
bitboard attacks_knight(int sq) { return attacks_knight_table[sq]; }
bitboard attacks_king(int sq) { return attacks_king_table[sq]; }

bitboard attacks_bishop(int sq, bitboard occupied) { return att_bishop(sq, occupied); }
bitboard attacks_rook(int sq, bitboard occupied) { return att_rook(sq, occupied); }
bitboard attacks_queen(int sq, bitboard occupied) { return att_queen(sq, occupied); }

bitboard attacks_piece(enum piece_type t, int sq, bitboard occupied)
{
    switch (t) {
    case KNIGHT: return attacks_knight_table[sq];
    case BISHOP: return attacks_bishop(sq, occupied);
    case ROOK: return attacks_rook(sq, occupied);
    case QUEEN: return attacks_queen(sq, occupied);
    case KING: return attacks_king_table[sq];
    default: return 0;
    }
}

bitboard attacks_between(int a, int b) { return att_between(a, b); }
bitboard attacks_line(int a, int b) { return att_line(a, b); }
