/* test_attacks.c - the attack tables against hand-worked squares and a slow ray walk. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "board/attacks.h"
#include "board/attacks_internal.h"
#include "board/bitboard.h"

static void suite_init(void) { attacks_init(); }

TestSuite(attacks, .init = suite_init);

static int sq(const char *name) { return square_make(name[0] - 'a', name[1] - '1'); }

static bitboard squares(const char *list)
{
    bitboard b = 0;
    for (const char *p = list; *p; p += 2) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        b |= bb_square(sq(p));
    }
    return b;
}

/* The slow reference: walk each ray until the edge or the first blocker. */
static bitboard slow_slider(int from, bitboard occ, bool diagonal)
{
    static const int dirs[2][4][2] = {{{1, 0}, {-1, 0}, {0, 1}, {0, -1}},
                                      {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}};
    bitboard out = 0;
    for (int d = 0; d < 4; d++) {
        int f = square_file(from), r = square_rank(from);
        for (;;) {
            f += dirs[diagonal][d][0];
            r += dirs[diagonal][d][1];
            if (f < 0 || f > 7 || r < 0 || r > 7)
                break;
            out |= bb_square(square_make(f, r));
            if (bb_has(occ, square_make(f, r)))
                break;
        }
    }
    return out;
}

Test(attacks, knight_in_the_corner_reaches_two_squares)
{
    cr_assert_eq(attacks_knight(sq("a1")), squares("b3 c2"));
    cr_assert_eq(bb_count(attacks_knight(sq("d4"))), 8);
}

Test(attacks, king_on_the_edge_reaches_five_squares)
{
    cr_assert_eq(attacks_king(sq("e1")), squares("d1 f1 d2 e2 f2"));
}

Test(attacks, pawns_capture_diagonally_forward_for_their_colour)
{
    cr_assert_eq(attacks_pawn(WHITE, sq("e4")), squares("d5 f5"));
    cr_assert_eq(attacks_pawn(WHITE, sq("a2")), squares("b3"));
    cr_assert_eq(attacks_pawn(BLACK, sq("h7")), squares("g6"));
}

Test(attacks, rook_stops_at_the_first_blocker_and_includes_it)
{
    cr_assert_eq(attacks_rook(sq("a1"), squares("a4 d1")), squares("a2 a3 a4 b1 c1 d1"));
}

Test(attacks, bishop_and_queen_on_an_empty_board)
{
    cr_assert_eq(attacks_bishop(sq("c1"), 0), squares("b2 a3 d2 e3 f4 g5 h6"));
    cr_assert_eq(bb_count(attacks_queen(sq("d4"), 0)), 27);
    cr_assert_eq(attacks_piece(QUEEN, sq("d4"), 0), attacks_queen(sq("d4"), 0));
    cr_assert_eq(attacks_piece(KNIGHT, sq("d4"), 0), attacks_knight(sq("d4")));
}

Test(attacks, magic_lookups_agree_with_a_slow_ray_walk)
{
    uint64_t s = UINT64_C(0x9E3779B97F4A7C15);
    for (int i = 0; i < 2000; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        bitboard occ = s & (s >> 3); /* about a quarter of the board */
        for (int from = 0; from < 64; from++) {
            cr_assert_eq(attacks_rook(from, occ), slow_slider(from, occ, false));
            cr_assert_eq(attacks_bishop(from, occ), slow_slider(from, occ, true));
        }
    }
}

/* The squares whose occupancy matters to a slider on `from`: each ray but its last
 * square (a piece there blocks nothing further). */
static bitboard relevant(int from, bool diagonal)
{
    bitboard out = 0, all = slow_slider(from, 0, diagonal);
    for (int s = 0; s < 64; s++) {
        int df = square_file(s) - square_file(from), dr = square_rank(s) - square_rank(from);
        int f = square_file(s) + (df > 0) - (df < 0), r = square_rank(s) + (dr > 0) - (dr < 0);
        if (bb_has(all, s) && f >= 0 && f < 8 && r >= 0 && r < 8 && bb_has(all, square_make(f, r)))
            out |= bb_square(s);
    }
    return out;
}

static bitboard slider_at(enum attacks_form f, bool diagonal, int from, bitboard occ)
{
    return diagonal ? attacks_bishop_at(f, from, occ) : attacks_rook_at(f, from, occ);
}

/* One occupancy: each form this build filled gives what the ray walk gives (so the two
 * agree with each other), and the lookup the hot paths use gives the same. */
static void check_forms(bool diagonal, int from, bitboard occ, const bool built[2])
{
    bitboard want = slow_slider(from, occ, diagonal);
    for (int f = ATTACKS_FORM_MAGIC; f <= ATTACKS_FORM_PEXT; f++)
        if (built[f])
            cr_assert_eq(slider_at((enum attacks_form)f, diagonal, from, occ), want,
                         "%s %s on %d, occupancy %#llx", f ? "PEXT" : "magic",
                         diagonal ? "bishop" : "rook", from, (unsigned long long)occ);
    cr_assert_eq(diagonal ? attacks_bishop(from, occ) : attacks_rook(from, occ), want);
}

/* The default build has both forms where the CPU runs PEXT fast (base/cpu.h) and uses
 * PEXT (the magic one filled when attacks_form_built() asks, below); elsewhere the magic
 * form alone; a BMI2 build (-march=native) the PEXT form alone.
 * Every subset of every square's relevant squares (the whole index space of both forms),
 * with random pieces beyond them, then random boards of three densities. */
Test(attacks, slider_forms_agree_on_every_square_and_occupancy)
{
    bool built[2] = {attacks_form_built(ATTACKS_FORM_MAGIC),
                     attacks_form_built(ATTACKS_FORM_PEXT)};
    cr_assert(built[0] || built[1]);
    /* Which forms were checked, said with --verbose.  Not cr_log_warn: Criterion 2.4 then
     * exits 1 with every test passing (seen under qemu-aarch64, where only magic is
     * built). */
    if (built[0] && built[1])
        cr_log_info("slider forms checked: magic and PEXT (this CPU runs PEXT fast)");
    else
        cr_log_info("slider forms checked: %s only (%s)", built[0] ? "magic" : "PEXT",
                    built[0] ? "this CPU has no fast PEXT, or the build no PEXT"
                             : "a BMI2 build has no magic tables");
    cr_assert_eq(relevant(sq("a1"), false), squares("a2 a3 a4 a5 a6 a7 b1 c1 d1 e1 f1 g1"));
    cr_assert_eq(relevant(sq("d4"), true), squares("b2 c3 e5 f6 g7 c5 b6 e3 f2"));
    uint64_t s = UINT64_C(0x2545F4914F6CDD1D);
    for (int diagonal = 0; diagonal < 2; diagonal++) {
        for (int from = 0; from < 64; from++) {
            bitboard mask = relevant(from, diagonal), b = 0;
            do {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                check_forms(diagonal, from, b | (s & ~mask & ~bb_square(from)), built);
                b = (b - mask) & mask;
            } while (b);
        }
    }
    for (int i = 0; i < 30000; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        bitboard occ = i % 3 == 0 ? s : i % 3 == 1 ? s & (s >> 5) : s & (s >> 5) & (s >> 11);
        for (int from = 0; from < 64; from++) {
            check_forms(false, from, occ, built);
            check_forms(true, from, occ, built);
        }
    }
}

Test(attacks, between_holds_the_squares_strictly_inside_a_line)
{
    cr_assert_eq(attacks_between(sq("a1"), sq("h8")), squares("b2 c3 d4 e5 f6 g7"));
    cr_assert_eq(attacks_between(sq("e1"), sq("e3")), squares("e2"));
    cr_assert_eq(attacks_between(sq("e1"), sq("f1")), 0);
    cr_assert_eq(attacks_between(sq("a1"), sq("b3")), 0);
}

Test(attacks, line_runs_from_edge_to_edge_through_both_squares)
{
    cr_assert_eq(attacks_line(sq("c3"), sq("a1")), squares("a1 b2 c3 d4 e5 f6 g7 h8"));
    cr_assert_eq(attacks_line(sq("b1"), sq("b8")), bb_file(1));
    cr_assert_eq(attacks_line(sq("a1"), sq("b3")), 0);
}

/* Every square at file/rank distance (df, dr) from `from` that `keep` accepts: the step
 * pieces by their definition, not by a list of deltas. */
static bitboard slow_steps(int from, bool (*keep)(int df, int dr))
{
    bitboard out = 0;
    for (int t = 0; t < 64; t++)
        if (keep(square_file(t) - square_file(from), square_rank(t) - square_rank(from)))
            out |= bb_square(t);
    return out;
}
static bool knight_step(int df, int dr) { return abs(df * dr) == 2; }
static bool king_step(int df, int dr) { return (df || dr) && abs(df) <= 1 && abs(dr) <= 1; }
static bool white_pawn_step(int df, int dr) { return dr == 1 && abs(df) == 1; }
static bool black_pawn_step(int df, int dr) { return dr == -1 && abs(df) == 1; }

Test(attacks, step_and_reach_tables_hold_every_square)
{
    for (int s = 0; s < 64; s++) {
        bitboard rook = slow_slider(s, 0, false), bishop = slow_slider(s, 0, true);
        cr_assert_eq(attacks_knight(s), slow_steps(s, knight_step), "knight on %d", s);
        cr_assert_eq(attacks_king(s), slow_steps(s, king_step), "king on %d", s);
        cr_assert_eq(attacks_pawn(WHITE, s), slow_steps(s, white_pawn_step), "pawn on %d", s);
        cr_assert_eq(attacks_pawn(BLACK, s), slow_steps(s, black_pawn_step), "pawn on %d", s);
        cr_assert_eq(att_reach(PAWN, s), 0);
        cr_assert_eq(att_reach(KNIGHT, s), slow_steps(s, knight_step), "reach on %d", s);
        cr_assert_eq(att_reach(BISHOP, s), bishop, "reach on %d", s);
        cr_assert_eq(att_reach(ROOK, s), rook, "reach on %d", s);
        cr_assert_eq(att_reach(QUEEN, s), rook | bishop, "reach on %d", s);
        cr_assert_eq(att_reach(KING, s), slow_steps(s, king_step), "reach on %d", s);
    }
}

/* Every pair: walk from a toward b one step at a time when they share a rank, file or
 * diagonal; the line walks from a both ways to the edges. */
Test(attacks, between_and_line_hold_every_pair)
{
    for (int a = 0; a < 64; a++) {
        for (int b = 0; b < 64; b++) {
            int df = square_file(b) - square_file(a), dr = square_rank(b) - square_rank(a);
            bitboard between = 0, line = 0;
            if (a != b && (df == 0 || dr == 0 || abs(df) == abs(dr))) {
                int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
                for (int f = square_file(a) + sf, r = square_rank(a) + sr;
                     f != square_file(b) || r != square_rank(b); f += sf, r += sr)
                    between |= bb_square(square_make(f, r));
                for (int way = -1; way <= 1; way += 2)
                    for (int f = square_file(a), r = square_rank(a);
                         f >= 0 && f < 8 && r >= 0 && r < 8; f += way * sf, r += way * sr)
                        line |= bb_square(square_make(f, r));
            }
            cr_assert_eq(attacks_between(a, b), between, "between %d and %d", a, b);
            cr_assert_eq(attacks_line(a, b), line, "line through %d and %d", a, b);
        }
    }
}

Test(attacks, init_twice_is_harmless)
{
    attacks_init();
    cr_assert_eq(attacks_knight(sq("a1")), squares("b3 c2"));
}
