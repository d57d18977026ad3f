/* test_attacks.c - the attack tables against hand-worked squares and a slow ray walk. */
#include <criterion/criterion.h>

#include "board/attacks.h"
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

Test(attacks, init_twice_is_harmless)
{
    attacks_init();
    cr_assert_eq(attacks_knight(sq("a1")), squares("b3 c2"));
}
