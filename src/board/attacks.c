/*
 * attacks.c - attack tables: pawn, knight, king lookups, fancy magic bitboards for
 * sliders, and the between/line tables.  Built once by attacks_init() through
 * pthread_once from the empty-board rays and stored magic numbers (a fixed-seed search
 * stands behind them) and read-only afterwards; the PEXT slider tables too, where the
 * CPU runs PEXT fast (attacks_internal.h says which build fills which).  Knows nothing
 * about positions.
 */
#include "board/attacks.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/cpu.h"
#include "board/attacks_internal.h"
#include "board/bitboard.h"

bitboard attacks_pawn_table[COLOR_COUNT][SQUARE_COUNT];
bitboard attacks_knight_table[SQUARE_COUNT];
bitboard attacks_king_table[SQUARE_COUNT];
bitboard attacks_between_table[SQUARE_COUNT][SQUARE_COUNT];
bitboard attacks_line_table[SQUARE_COUNT][SQUARE_COUNT];
bitboard attacks_reach_table[PIECE_TYPE_COUNT][SQUARE_COUNT];
struct attacks_magic attacks_rook_magics[SQUARE_COUNT];
struct attacks_magic attacks_bishop_magics[SQUARE_COUNT];
/* Slots: 102400 rook and 5248 bishop (the sum of 2^bits over all squares).  The packed
 * tables are filled where the CPU runs PEXT fast, the magic ones where it does not; what
 * is not filled stays untouched zero pages (no memory, no start-up).  A CPU that uses
 * PEXT fills its magic tables only when attacks_form_built() or attacks_*_at() asks
 * for them (tests holding the two forms equal), under magic_once. */
static bitboard rook_storage[0x19000];
static bitboard bishop_storage[0x1480];
static uint16_t rook_packed[0x19000];
static uint16_t bishop_packed[0x1480];
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static pthread_once_t magic_once = PTHREAD_ONCE_INIT;

/* Opposite directions side by side (d and d ^ 1): the line table pairs them. */
static const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_dirs[4][2] = {{1, 1}, {-1, -1}, {1, -1}, {-1, 1}};

/* The empty-board ray from each square in each of a slider's four directions. */
typedef bitboard rays[4][SQUARE_COUNT];

static void rays_fill(rays ray, const int dirs[4][2])
{
    for (int d = 0; d < 4; d++) {
        for (int sq = 0; sq < SQUARE_COUNT; sq++) {
            bitboard out = 0;
            int f = square_file(sq) + dirs[d][0], r = square_rank(sq) + dirs[d][1];
            for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += dirs[d][0], r += dirs[d][1])
                out |= bb_square(square_make(f, r));
            ray[d][sq] = out;
        }
    }
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

/*
 * Magic multipliers, found once by a trial search (xorshift64* seeded as Stockfish seeds
 * it, sparse candidates kept when each square's occupancies collide only where their
 * attack sets are equal) and stored, so that start-up only fills the tables.  Nothing
 * checks them at run time: test_attacks looks up every occupancy of every square.
 */
static const uint64_t rook_magic_numbers[64] = {
    UINT64_C(0x0a80004000801220), UINT64_C(0x8040004010002008),
    UINT64_C(0x2080200010008008), UINT64_C(0x1100100008210004),
    UINT64_C(0xc200209084020008), UINT64_C(0x2100010004000208),
    UINT64_C(0x0400081000822421), UINT64_C(0x0200010422048844),
    UINT64_C(0x0800800080400024), UINT64_C(0x0001402000401000),
    UINT64_C(0x3000801000802001), UINT64_C(0x4400800800100083),
    UINT64_C(0x0904802402480080), UINT64_C(0x4040800400020080),
    UINT64_C(0x0018808042000100), UINT64_C(0x4040800080004100),
    UINT64_C(0x0040048001458024), UINT64_C(0x00a0004000205000),
    UINT64_C(0x3100808010002000), UINT64_C(0x4825010010000820),
    UINT64_C(0x5004808008000401), UINT64_C(0x2024818004000a00),
    UINT64_C(0x0005808002000100), UINT64_C(0x2100060004806104),
    UINT64_C(0x0080400880008421), UINT64_C(0x4062220600410280),
    UINT64_C(0x010a004a00108022), UINT64_C(0x0000100080080080),
    UINT64_C(0x0021000500080010), UINT64_C(0x0044000202001008),
    UINT64_C(0x0000100400080102), UINT64_C(0xc020128200040545),
    UINT64_C(0x0080002000400040), UINT64_C(0x0000804000802004),
    UINT64_C(0x0000120022004080), UINT64_C(0x010a386103001001),
    UINT64_C(0x9010080080800400), UINT64_C(0x8440020080800400),
    UINT64_C(0x0004228824001001), UINT64_C(0x000000490a000084),
    UINT64_C(0x0080002000504000), UINT64_C(0x200020005000c000),
    UINT64_C(0x0012088020420010), UINT64_C(0x0010010080080800),
    UINT64_C(0x0085001008010004), UINT64_C(0x0002000204008080),
    UINT64_C(0x0040413002040008), UINT64_C(0x0000304081020004),
    UINT64_C(0x0080204000800080), UINT64_C(0x3008804000290100),
    UINT64_C(0x1010100080200080), UINT64_C(0x2008100208028080),
    UINT64_C(0x5000850800910100), UINT64_C(0x8402019004680200),
    UINT64_C(0x0120911028020400), UINT64_C(0x0000008044010200),
    UINT64_C(0x0020850200244012), UINT64_C(0x0020850200244012),
    UINT64_C(0x0000102001040841), UINT64_C(0x140900040a100021),
    UINT64_C(0x000200282410a102), UINT64_C(0x000200282410a102),
    UINT64_C(0x000200282410a102), UINT64_C(0x4048240043802106),
};
static const uint64_t bishop_magic_numbers[64] = {
    UINT64_C(0x40106000a1160020), UINT64_C(0x0020010250810120),
    UINT64_C(0x2010010220280081), UINT64_C(0x002806004050c040),
    UINT64_C(0x0002021018000000), UINT64_C(0x2001112010000400),
    UINT64_C(0x0881010120218080), UINT64_C(0x1030820110010500),
    UINT64_C(0x0000120222042400), UINT64_C(0x2000020404040044),
    UINT64_C(0x8000480094208000), UINT64_C(0x0003422a02000001),
    UINT64_C(0x000a220210100040), UINT64_C(0x8004820202226000),
    UINT64_C(0x0018234854100800), UINT64_C(0x0100004042101040),
    UINT64_C(0x0004001004082820), UINT64_C(0x0010000810010048),
    UINT64_C(0x1014004208081300), UINT64_C(0x2080818802044202),
    UINT64_C(0x0040880c00a00100), UINT64_C(0x0080400200522010),
    UINT64_C(0x0001000188180b04), UINT64_C(0x0080249202020204),
    UINT64_C(0x1004400004100410), UINT64_C(0x00013100a0022206),
    UINT64_C(0x2148500001040080), UINT64_C(0x4241080011004300),
    UINT64_C(0x4020848004002000), UINT64_C(0x10101380d1004100),
    UINT64_C(0x0008004422020284), UINT64_C(0x01010a1041008080),
    UINT64_C(0x0808080400082121), UINT64_C(0x0808080400082121),
    UINT64_C(0x0091128200100c00), UINT64_C(0x0202200802010104),
    UINT64_C(0x8c0a020200440085), UINT64_C(0x01a0008080b10040),
    UINT64_C(0x0889520080122800), UINT64_C(0x100902022202010a),
    UINT64_C(0x04081a0816002000), UINT64_C(0x0000681208005000),
    UINT64_C(0x8170840041008802), UINT64_C(0x0a00004200810805),
    UINT64_C(0x0830404408210100), UINT64_C(0x2602208106006102),
    UINT64_C(0x1048300680802628), UINT64_C(0x2602208106006102),
    UINT64_C(0x0602010120110040), UINT64_C(0x0941010801043000),
    UINT64_C(0x000040440a210428), UINT64_C(0x0008240020880021),
    UINT64_C(0x0400002012048200), UINT64_C(0x00ac102001210220),
    UINT64_C(0x0220021002009900), UINT64_C(0x84440c080a013080),
    UINT64_C(0x0001008044200440), UINT64_C(0x0004c04410841000),
    UINT64_C(0x2000500104011130), UINT64_C(0x1a0c010011c20229),
    UINT64_C(0x0044800112202200), UINT64_C(0x0434804908100424),
    UINT64_C(0x0300404822c08200), UINT64_C(0x48081010008a2a80),
};

/* The squares a blocker on q hides from a slider on sq: q's own ray onward, in the
 * direction from sq to q (q is on one of sq's rays). */
static bitboard beyond(const rays ray, int sq, int q)
{
    int d = 0;
    while (!bb_has(ray[d][sq], q))
        d++;
    return ray[d][q];
}

#if PGNKIT_ATTACKS_PEXT_ALWAYS || PGNKIT_ATTACKS_PEXT_DISPATCH
static uint16_t packed_under(bitboard b, bitboard reach) { return (uint16_t)att_pext(b, reach); }
#else
static uint16_t packed_under(bitboard b, bitboard reach) { return (void)b, (void)reach, 0; }
#endif

/* The second half of a doubling: to[i] is from[i] less the cut (restrict: the halves
 * are apart, so the compiler may vectorize). */
static void cut_copy(bitboard *restrict to, const bitboard *restrict from, size_t n, bitboard cut)
{
    for (size_t i = 0; i < n; i++)
        to[i] = from[i] & ~cut;
}
static void cut_copy16(uint16_t *restrict to, const uint16_t *restrict from, size_t n, uint16_t cut)
{
    for (size_t i = 0; i < n; i++)
        to[i] = from[i] & (uint16_t)~cut;
}

/*
 * One square's slots.  Slot i of the PEXT form belongs to the occupancy holding the
 * k-th lowest square of the mask where bit k of i is set.  Each blocker cuts its own ray
 * beyond it, whatever else stands there, so an attack set is the reach less the union
 * of its blockers' cuts: the slots double per mask square, i + 2^k from i (the packed
 * ones under `reach`, where a cut is packed as the sets are).  The magic form takes the
 * same sets in the same order: counting subsets up (Carry-Rippler) gives PEXT's order.
 */
static void fill_square(const struct attacks_magic *m, bitboard *slots, uint16_t *packed,
                        const rays ray, int sq)
{
    /* Scratch, static to keep 32 KiB off the stack; only touched under init_once, or
     * under magic_once after it. */
    static bitboard att[4096];
    size_t n = 1;

    att[0] = m->reach;
    if (packed)
        packed[0] = (uint16_t)((1u << bb_count(m->reach)) - 1);
    for (bitboard rest = m->mask; rest; n *= 2) {
        bitboard cut = beyond(ray, sq, bb_pop(&rest));
        if (slots)
            cut_copy(att + n, att, n, cut);
        if (packed)
            cut_copy16(packed + n, packed, n, packed_under(cut, m->reach));
    }
    if (!slots)
        return;
    /* Locals: the stores could alias *m for all the compiler knows. */
    bitboard occ = 0, mask = m->mask, magic = m->magic;
    unsigned shift = m->shift;
    for (size_t i = 0; i < n; i++) {
        slots[(occ * magic) >> shift] = att[i];
        occ = (occ - mask) & mask;
    }
}

/* Set up every square's lookup and fill its tables: the PEXT one if `pext`, else the
 * magic one (its pointer is set unless PEXT is all this build has, for fill_magic).  A
 * square's relevant squares (its mask) are those a piece on can hide another: every ray
 * square but the last. */
static void init_slider(struct attacks_magic *table, bitboard *storage, uint16_t *packed,
                        const rays ray, const uint64_t *magics, bool pext)
{
    size_t next = 0;
    for (int sq = 0; sq < SQUARE_COUNT; sq++) {
        struct attacks_magic *m = &table[sq];
        m->mask = m->reach = 0;
        for (int d = 0; d < 4; d++) {
            m->reach |= ray[d][sq];
            for (bitboard b = ray[d][sq]; b;) {
                int q = bb_pop(&b);
                if (ray[d][q])
                    m->mask |= bb_square(q);
            }
        }
        m->shift = (unsigned)(64 - bb_count(m->mask));
        m->magic = magics[sq];
        m->attacks = PGNKIT_ATTACKS_PEXT_ALWAYS ? NULL : storage + next;
        m->packed = pext ? packed + next : NULL;
        fill_square(m, pext ? NULL : storage + next, pext ? packed + next : NULL, ray, sq);
        next += (size_t)1 << bb_count(m->mask);
    }
}

/* The magic slots that init_slider() left to fill, in the same places. */
static void fill_magic_table(const struct attacks_magic *table, bitboard *storage, const rays ray)
{
    size_t next = 0;
    for (int sq = 0; sq < SQUARE_COUNT; sq++) {
        fill_square(&table[sq], storage + next, NULL, ray, sq);
        next += (size_t)1 << bb_count(table[sq].mask);
    }
}

/* Between and line, pair by pair along each ray: b on a's ray d, the squares between are
 * that ray less b and b's own ray onward; the line is a's rays both ways (d, d ^ 1) and a. */
static void init_lines(const rays ray)
{
    for (int a = 0; a < SQUARE_COUNT; a++) {
        for (int d = 0; d < 4; d++) {
            bitboard line = ray[d][a] | ray[d ^ 1][a] | bb_square(a);
            for (bitboard rest = ray[d][a]; rest;) {
                int b = bb_pop(&rest);
                attacks_between_table[a][b] = ray[d][a] & ~ray[d][b] & ~bb_square(b);
                attacks_line_table[a][b] = line;
            }
        }
    }
}

/* Written once by init_tables(); fill_magic() reads them after it. */
static rays rook_rays, bishop_rays;

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
    /* The one run-time choice here (base/cpu.h): made once, and the tables it picks
     * are all that records it. */
    bool pext = PGNKIT_ATTACKS_PEXT_ALWAYS || (PGNKIT_ATTACKS_PEXT_DISPATCH && cpu_fast_pext());
    rays_fill(rook_rays, rook_dirs);
    rays_fill(bishop_rays, bishop_dirs);
    init_slider(attacks_rook_magics, rook_storage, rook_packed, rook_rays, rook_magic_numbers,
                pext);
    init_slider(attacks_bishop_magics, bishop_storage, bishop_packed, bishop_rays,
                bishop_magic_numbers, pext);
    init_lines(rook_rays);
    init_lines(bishop_rays);

    for (int sq = 0; sq < SQUARE_COUNT; sq++) {
        attacks_reach_table[KNIGHT][sq] = attacks_knight_table[sq];
        attacks_reach_table[BISHOP][sq] = attacks_bishop_magics[sq].reach;
        attacks_reach_table[ROOK][sq] = attacks_rook_magics[sq].reach;
        attacks_reach_table[QUEEN][sq] = attacks_bishop_magics[sq].reach | attacks_rook_magics[sq].reach;
        attacks_reach_table[KING][sq] = attacks_king_table[sq];
    }
}

void attacks_init(void) { pthread_once(&init_once, init_tables); }

/* Where the CPU uses PEXT, nothing but the two functions below reads the magic tables,
 * so they are filled at the first call (after attacks_init(), which they require). */
static void fill_magic(void)
{
    if (!attacks_rook_magics[0].attacks || !attacks_rook_magics[0].packed)
        return; /* a PEXT-only build, or the magic form filled by init_tables() */
    fill_magic_table(attacks_rook_magics, rook_storage, rook_rays);
    fill_magic_table(attacks_bishop_magics, bishop_storage, bishop_rays);
}

bitboard attacks_pawn(enum color c, int sq) { return attacks_pawn_table[c][sq]; }
bitboard attacks_knight(int sq) { return attacks_knight_table[sq]; }
bitboard attacks_king(int sq) { return attacks_king_table[sq]; }

bitboard attacks_bishop(int sq, bitboard occupied) { return att_bishop(sq, occupied); }
bitboard attacks_rook(int sq, bitboard occupied) { return att_rook(sq, occupied); }
bitboard attacks_queen(int sq, bitboard occupied) { return att_queen(sq, occupied); }

bitboard attacks_piece(enum piece_type t, int sq, bitboard occupied)
{
    return att_piece(t, sq, occupied);
}

bitboard attacks_between(int a, int b) { return att_between(a, b); }

bool attacks_form_built(enum attacks_form f)
{
    if (f == ATTACKS_FORM_PEXT)
        return attacks_rook_magics[0].packed != NULL;
    pthread_once(&magic_once, fill_magic);
    return attacks_rook_magics[0].attacks != NULL;
}

static bitboard slider_at(enum attacks_form f, const struct attacks_magic *m, bitboard occ)
{
    if (f == ATTACKS_FORM_MAGIC)
        pthread_once(&magic_once, fill_magic);
#if PGNKIT_ATTACKS_PEXT_ALWAYS || PGNKIT_ATTACKS_PEXT_DISPATCH
    if (f == ATTACKS_FORM_PEXT)
        return att_magic_pext(m, occ);
#endif
    (void)f;
    return att_magic_mul(m, occ);
}

bitboard attacks_rook_at(enum attacks_form f, int sq, bitboard occupied)
{
    return slider_at(f, &attacks_rook_magics[sq], occupied);
}
bitboard attacks_bishop_at(enum attacks_form f, int sq, bitboard occupied)
{
    return slider_at(f, &attacks_bishop_magics[sq], occupied);
}
bitboard attacks_line(int a, int b) { return att_line(a, b); }
