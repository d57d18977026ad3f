/*
 * test_movegen.c - hand-worked move generation cases: pins, en passant with a pin
 * along the rank, castling refusals and their reasons, Chess960 castling where the
 * king or the rook stays put, movegen_legal_to, movegen_is_legal, making moves and
 * writing them as UCI.  Expected counts are worked out by hand in the comments.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "board/attacks.h"
#include "board/bitboard.h"
#include "board/fen.h"
#include "board/movegen.h"
#include "board/uci.h"
#include "helpers/helpers.h"

static void suite_init(void) { attacks_init(); }

TestSuite(movegen, .init = suite_init);

static int sq(const char *name) { return square_make(name[0] - 'a', name[1] - '1'); }

static struct position parse(const char *fen)
{
    struct position pos;
    struct diag err;
    cr_assert_eq(fen_parse(&pos, fen, strlen(fen), false, &err), 0, "%s: %s", fen, err.message);
    return pos;
}

static struct move mv(const char *from, const char *to, int promo, int flags)
{
    return (struct move){(uint8_t)sq(from), (uint8_t)sq(to), (uint8_t)promo, (uint8_t)flags};
}

/* Is there a generated move from -> to (any promotion)? */
static bool has_move(const struct move *list, int n, const char *from, const char *to)
{
    for (int i = 0; i < n; i++)
        if (list[i].from == sq(from) && list[i].to == sq(to))
            return true;
    return false;
}

static int count_legal(const char *fen)
{
    struct position pos = parse(fen);
    struct move list[MAX_MOVES];
    return movegen_legal(&pos, list);
}

Test(movegen, knight_pinned_on_a_file_cannot_move)
{
    /* Ne2 is pinned by Re7 against Ke1: only Kd1 Kf1 Kd2 Kf2. */
    struct position pos = parse("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    struct move list[MAX_MOVES];
    int n = movegen_legal(&pos, list);
    cr_assert_eq(n, 4);
    for (int i = 0; i < n; i++)
        cr_assert_neq(list[i].from, sq("e2"));
    cr_assert_eq(position_pinned(&pos), bb_square(sq("e2")));
}

Test(movegen, rook_pinned_on_a_file_moves_along_it)
{
    /* Re2 pinned on the e-file: e3 e4 e5 e6 xe7 (5) plus four king moves. */
    cr_assert_eq(count_legal("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1"), 9);
}

Test(movegen, bishop_pinned_on_a_diagonal_may_only_take_the_pinner)
{
    /* Bd2 pinned by bc3: only Bxc3; king: d1 e2 f1 f2. */
    struct position pos = parse("4k3/8/8/8/8/2b5/3B4/4K3 w - - 0 1");
    struct move list[MAX_MOVES];
    int n = movegen_legal(&pos, list);
    cr_assert_eq(n, 5);
    cr_assert(has_move(list, n, "d2", "c3"));
}

Test(movegen, en_passant_that_uncovers_a_rook_along_the_rank_is_illegal)
{
    /* bxc6 e.p. would empty b5 and c5 and open h5-a5.  Left: b6, Ka4 Ka6 Kb6 (Kb4 is
     * attacked by c5). */
    const char *fen = "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1";
    struct position pos = parse(fen);
    struct move list[MAX_MOVES];
    int n = movegen_legal(&pos, list);
    cr_assert_eq(n, 4);
    cr_assert_not(has_move(list, n, "b5", "c6"));
    cr_assert_eq(pos.ep_square, sq("c6"), "the PGN-standard e.p. square is kept");
    cr_assert_not(position_ep_legal(&pos));
    cr_assert_eq(movegen_legal_to(&pos, PAWN, sq("c6"), ~(bitboard)0, list), 0);
    char out[128];
    fen_write(&pos, out, sizeof out, FEN_EP_LEGAL);
    cr_assert_str_eq(out, "8/8/8/KPp4r/8/8/8/4k3 w - - 0 1");
}

Test(movegen, en_passant_without_the_rook_is_legal)
{
    /* Same without the rook: the four moves above plus bxc6. */
    struct position pos = parse("8/8/8/KPp5/8/8/8/4k3 w - c6 0 1");
    struct move list[MAX_MOVES];
    int n = movegen_legal(&pos, list);
    cr_assert_eq(n, 5);
    cr_assert(position_ep_legal(&pos));
    cr_assert_eq(movegen_legal_to(&pos, PAWN, sq("c6"), ~(bitboard)0, list), 1);
    cr_assert_eq(list[0].from, sq("b5"));
    cr_assert_eq(list[0].flags, MOVE_CAPTURE | MOVE_EN_PASSANT);
    position_do_move(&pos, list[0]);
    cr_assert_eq(pos.board[sq("c5")], PIECE_NONE, "the captured pawn is gone");
    cr_assert_eq(pos.board[sq("c6")], piece_make(WHITE, PAWN));
    cr_assert(position_ok(&pos));
}

Test(movegen, en_passant_may_block_a_diagonal_check)
{
    /* Qf1 checks Kb5 through e2 d3 c4; exd3 e.p. lands on d3 and blocks. */
    struct position pos = parse("8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1");
    cr_assert(position_in_check(&pos));
    cr_assert(position_ep_legal(&pos));
}

Test(movegen, castling_through_an_attacked_square_is_refused)
{
    /* rf2 covers f1: no O-O; O-O-O passes d1 c1, both safe. */
    struct position pos = parse("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
    struct move m;
    const char *why = NULL;
    cr_assert_not(movegen_castle(&pos, CASTLE_KING_SIDE, &m, &why));
    cr_assert_str_eq(why, "king passes through an attacked square");
    cr_assert(movegen_castle(&pos, CASTLE_QUEEN_SIDE, &m, &why));
    cr_assert_eq(m.from, sq("e1"));
    cr_assert_eq(m.to, sq("a1"));
    cr_assert_eq(m.flags, MOVE_CASTLE);
    cr_assert(movegen_is_legal(&pos, mv("e1", "a1", 0, MOVE_CASTLE)));
    cr_assert_not(movegen_is_legal(&pos, mv("e1", "h1", 0, MOVE_CASTLE)));
}

Test(movegen, castling_reasons_name_what_is_wrong)
{
    struct move m;
    const char *why = NULL;
    struct position pos = parse("4k3/8/8/8/8/8/6r1/R3K2R w KQ - 0 1");
    cr_assert_not(movegen_castle(&pos, CASTLE_KING_SIDE, &m, &why));
    cr_assert_str_eq(why, "king would be in check");

    pos = parse("4k3/8/8/8/8/8/8/R3K2r w Q - 0 1");
    cr_assert_not(movegen_castle(&pos, CASTLE_QUEEN_SIDE, &m, &why));
    cr_assert_str_eq(why, "king is in check");
    cr_assert_not(movegen_castle(&pos, CASTLE_KING_SIDE, &m, &why));
    cr_assert_str_eq(why, "no castling right");

    position_set_start(&pos);
    cr_assert_not(movegen_castle(&pos, CASTLE_KING_SIDE, &m, &why));
    cr_assert_str_eq(why, "path is blocked");
    cr_assert_not(movegen_castle(&pos, CASTLE_QUEEN_SIDE, &m, NULL));
}

Test(movegen, queen_side_castling_ignores_an_attack_on_b1)
{
    /* rb8 covers b1, which only the rook crosses. */
    struct position pos = parse("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    struct move m;
    cr_assert(movegen_castle(&pos, CASTLE_QUEEN_SIDE, &m, NULL));
}

Test(movegen, chess960_castling_with_the_king_staying_on_g1)
{
    /* Kg1 Rh1: O-O leaves the king on g1 and brings the rook to f1 across it. */
    struct position pos = parse("4k3/8/8/8/8/8/8/6KR w K - 0 1");
    cr_assert(pos.chess960);
    struct move m;
    const char *why = NULL;
    cr_assert(movegen_castle(&pos, CASTLE_KING_SIDE, &m, &why), "%s", why);
    cr_assert_eq(m.from, sq("g1"));
    cr_assert_eq(m.to, sq("h1"));
    char uci[8];
    uci_write_move(&pos, m, false, uci);
    cr_assert_str_eq(uci, "g1h1");
    position_do_move(&pos, m);
    cr_assert_eq(pos.board[sq("g1")], piece_make(WHITE, KING));
    cr_assert_eq(pos.board[sq("f1")], piece_make(WHITE, ROOK));
    cr_assert_eq(pos.board[sq("h1")], PIECE_NONE);
    cr_assert_eq(pos.castle_rook[WHITE][CASTLE_KING_SIDE], SQ_NONE);
    cr_assert(position_ok(&pos));
}

Test(movegen, chess960_castling_with_the_rook_staying_on_d1)
{
    /* Kf1 Rd1: O-O-O takes the king across d1 to c1; the rook stays. */
    struct position pos = parse("4k3/8/8/8/8/8/8/3R1K2 w Q - 0 1");
    struct move m;
    cr_assert(movegen_castle(&pos, CASTLE_QUEEN_SIDE, &m, NULL));
    position_do_move(&pos, m);
    cr_assert_eq(pos.board[sq("c1")], piece_make(WHITE, KING));
    cr_assert_eq(pos.board[sq("d1")], piece_make(WHITE, ROOK));
    cr_assert_eq(pos.king_square[WHITE], sq("c1"));
}

Test(movegen, chess960_castling_rook_that_shields_the_king_is_refused)
{
    /* ra1 Rb1 Kc1: after O-O-O (king stays c1, rook to d1) ra1 would give check. */
    struct position pos = parse("4k3/8/8/8/8/8/8/rRK5 w Q - 0 1");
    struct move m;
    const char *why = NULL;
    cr_assert_not(movegen_castle(&pos, CASTLE_QUEEN_SIDE, &m, &why));
    cr_assert_str_eq(why, "king would be in check");
}

Test(movegen, legal_to_finds_the_piece_that_can_land)
{
    struct position pos;
    struct move list[MAX_MOVES];
    position_set_start(&pos);
    cr_assert_eq(movegen_legal_to(&pos, KNIGHT, sq("f3"), ~(bitboard)0, list), 1);
    cr_assert_eq(list[0].from, sq("g1"));
    cr_assert_eq(movegen_legal_to(&pos, PAWN, sq("e4"), ~(bitboard)0, list), 1);
    cr_assert_eq(list[0].from, sq("e2"));
    cr_assert_eq(list[0].flags, MOVE_DOUBLE_PUSH);
    cr_assert_eq(movegen_legal_to(&pos, PAWN, sq("e3"), ~(bitboard)0, list), 1);
    cr_assert_eq(list[0].flags, 0);
    cr_assert_eq(movegen_legal_to(&pos, PAWN, sq("e5"), ~(bitboard)0, list), 0);
    cr_assert_eq(movegen_legal_to(&pos, BISHOP, sq("e2"), ~(bitboard)0, list), 0);
    cr_assert_eq(movegen_legal_to(&pos, KING, sq("e2"), ~(bitboard)0, list), 0);
}

Test(movegen, legal_to_returns_both_knights_and_honours_the_origin_mask)
{
    struct position pos = parse("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    struct move list[MAX_MOVES];
    cr_assert_eq(movegen_legal_to(&pos, KNIGHT, sq("d2"), ~(bitboard)0, list), 2);
    cr_assert_eq(movegen_legal_to(&pos, KNIGHT, sq("d2"), bb_file(1), list), 1);
    cr_assert_eq(list[0].from, sq("b1"));
}

Test(movegen, legal_to_leaves_out_a_pinned_knight)
{
    /* Nb3 and Ne2 both reach d4, but Ne2 is pinned by re7. */
    struct position pos = parse("4k3/4r3/8/8/8/1N6/4N3/4K3 w - - 0 1");
    struct move list[MAX_MOVES];
    cr_assert_eq(movegen_legal_to(&pos, KNIGHT, sq("d4"), ~(bitboard)0, list), 1);
    cr_assert_eq(list[0].from, sq("b3"));
}

Test(movegen, legal_to_gives_one_move_per_promotion_piece)
{
    struct position pos = parse("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    struct move list[MAX_MOVES];
    cr_assert_eq(movegen_legal_to(&pos, PAWN, sq("b8"), ~(bitboard)0, list), 4);
    int seen = 0;
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(list[i].flags, 0);
        seen |= 1 << list[i].promo;
    }
    cr_assert_eq(seen, (1 << KNIGHT) | (1 << BISHOP) | (1 << ROOK) | (1 << QUEEN));
    cr_assert_eq(movegen_legal_to(&pos, PAWN, sq("a8"), ~(bitboard)0, list), 4);
    cr_assert_eq(list[0].flags, MOVE_CAPTURE);
}

Test(movegen, legal_to_in_check_allows_only_blocks_and_captures)
{
    /* ra1 checks Ke1 along the first rank; Nb3 can block on c1 or take on a1. */
    struct position pos = parse("4k3/8/8/8/8/1N6/8/r3K3 w - - 0 1");
    struct move list[MAX_MOVES];
    cr_assert_eq(movegen_legal_to(&pos, KNIGHT, sq("c1"), ~(bitboard)0, list), 1);
    cr_assert_eq(movegen_legal_to(&pos, KNIGHT, sq("d2"), ~(bitboard)0, list), 0);
    cr_assert_eq(movegen_legal_to(&pos, KNIGHT, sq("a1"), ~(bitboard)0, list), 1);
    cr_assert_eq(list[0].flags, MOVE_CAPTURE);
    /* The king may not stay on the rank, not even on f1 behind itself. */
    cr_assert_eq(movegen_legal_to(&pos, KING, sq("d1"), ~(bitboard)0, list), 0);
    cr_assert_eq(movegen_legal_to(&pos, KING, sq("f1"), ~(bitboard)0, list), 0);
    cr_assert_eq(movegen_legal_to(&pos, KING, sq("e2"), ~(bitboard)0, list), 1);
}

Test(movegen, is_legal_accepts_long_algebraic_moves_without_flags)
{
    struct position pos;
    position_set_start(&pos);
    cr_assert(movegen_is_legal(&pos, mv("e2", "e4", 0, 0)));
    cr_assert(movegen_is_legal(&pos, mv("g1", "f3", 0, 0)));
    cr_assert_not(movegen_is_legal(&pos, mv("e2", "e5", 0, 0)));
    cr_assert_not(movegen_is_legal(&pos, mv("e7", "e5", 0, 0)));
    cr_assert_not(movegen_is_legal(&pos, mv("e1", "h1", 0, MOVE_CASTLE)));
    cr_assert_not(movegen_is_legal(&pos, mv("e2", "e4", QUEEN, 0)));
    cr_assert(movegen_is_legal(&pos, mv("a1", "a1", 0, MOVE_NULL)));

    pos = parse("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    cr_assert_not(movegen_is_legal(&pos, mv("b7", "b8", 0, 0)), "a promotion needs a piece");
    cr_assert(movegen_is_legal(&pos, mv("b7", "b8", KNIGHT, 0)));

    pos = parse("4k3/8/8/8/8/8/8/4K2r w - - 0 1");
    cr_assert_not(movegen_is_legal(&pos, mv("e1", "e1", 0, MOVE_NULL)), "no null move in check");
}

Test(movegen, stalemate_and_mate_have_no_legal_move)
{
    struct position pos = parse("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    cr_assert_not(position_has_legal_move(&pos));
    cr_assert_not(position_in_check(&pos));
    pos = parse("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    cr_assert_not(position_has_legal_move(&pos));
    cr_assert(position_in_check(&pos));
    position_set_start(&pos);
    cr_assert(position_has_legal_move(&pos));
}

/* Stalemates out of check where a pawn, knight or slider could move but for a pin, a
 * block or its own pieces: the test's shortcut out of check (a piece on no line through
 * its king moves freely) must not take them for moves.  Worked out by hand, and held to
 * the full generator. */
Test(movegen, stalemate_with_pinned_or_blocked_pieces)
{
    static const char *const stalemates[] = {
        /* White: Ka4, Pb4 pinned along rank 4 by Rd4; a3 (Bc1), a5 (Bd8), b3 (Nd2) and
         * b5 (Rb8) are attacked. */
        "1r1b4/7k/8/8/KP1r4/8/3n4/2b5 w - - 0 1",
        /* The same with a knight pinned on b4. */
        "1r1b4/7k/8/8/KN1r4/8/3n4/2b5 w - - 0 1",
        /* Black: Kh8 boxed by Qf7 and Kg6, Pa5 blocked by Pa4 (on no line through h8). */
        "7k/5Q2/6K1/p7/P7/8/8/8 b - - 0 1",
        /* White: Kh1, Pf2 and Ph2 blocked by Pf3 and Ph3 (which attack g2), Bg1 between
         * its own pawns. */
        "k7/8/8/8/8/5p1p/5P1P/6BK w - - 0 1",
        /* Black: Ka8 boxed by Qc7; Ng1 (on no line through a8) reaching only its own
         * pawns e2, f3 and h3, which Ke1, Pf2 and Ph2 block. */
        "k7/2Q5/8/8/8/5p1p/4pP1P/4K1n1 b - - 0 1",
        /* Black: Ka8 boxed by Qc7; Bh4 (on no line through a8) between its own pawns g5
         * and g3, which Pg4 and Pg2 block. */
        "k7/2Q5/8/6p1/6Pb/6p1/6P1/4K3 b - - 0 1",
        /* Black: Ka8 boxed by Qc7; Rh7 (on no line through a8) between its own Bh8 and
         * pawns g7 and h6, which Pg6 and Ph5 block. */
        "k6b/2Q3pr/6Pp/7P/8/8/8/4K3 b - - 0 1",
    };
    for (size_t i = 0; i < sizeof stalemates / sizeof *stalemates; i++) {
        struct position pos = parse(stalemates[i]);
        struct move moves[MAX_MOVES];
        cr_assert_not(position_in_check(&pos), "%s", stalemates[i]);
        cr_assert_eq(movegen_legal(&pos, moves), 0, "%s", stalemates[i]);
        cr_assert_not(position_has_legal_move(&pos), "%s", stalemates[i]);
    }
    /* One piece set free: each has exactly the moves counted by hand. */
    static const struct {
        const char *fen;
        int moves;
    } free[] = {
        /* Rg3 (on no line through a4): 7 on the g-file, 7 along rank 3. */
        {"1r1b4/7k/8/8/KP1r4/6R1/3n4/2b5 w - - 0 1", 14},
        /* Pa5 with a4 empty: a4. */
        {"7k/5Q2/6K1/p7/8/P7/8/8 b - - 0 1", 1},
        /* Nb3 (on no line through h1): a1, c1, d2, d4, c5, a5. */
        {"k7/8/8/8/8/1N3p1p/5P1P/6BK w - - 0 1", 6},
    };
    for (size_t i = 0; i < sizeof free / sizeof *free; i++) {
        struct position pos = parse(free[i].fen);
        struct move moves[MAX_MOVES];
        cr_assert_eq(movegen_legal(&pos, moves), free[i].moves, "%s", free[i].fen);
        cr_assert(position_has_legal_move(&pos), "%s", free[i].fen);
    }
}

Test(movegen, capturing_a_castling_rook_removes_that_right)
{
    /* Rxa8: White loses Q (its rook moved), Black loses q (its rook was taken). */
    struct position pos = parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 10");
    position_do_move(&pos, mv("a1", "a8", 0, MOVE_CAPTURE));
    char out[128];
    fen_write(&pos, out, sizeof out, 0);
    cr_assert_str_eq(out, "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 10");
    position_do_move(&pos, mv("e8", "d7", 0, 0));
    fen_write(&pos, out, sizeof out, 0);
    cr_assert_str_eq(out, "R6r/3k4/8/8/8/8/8/4K2R w K - 1 11");
}

Test(movegen, null_move_flips_the_side_and_clears_en_passant)
{
    struct position pos = parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    position_do_move(&pos, mv("a1", "a1", 0, MOVE_NULL));
    char out[128];
    fen_write(&pos, out, sizeof out, 0);
    cr_assert_str_eq(out, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
}

Test(movegen, double_push_sets_the_ep_square_even_without_a_capturer)
{
    struct position pos;
    position_set_start(&pos);
    position_do_move(&pos, mv("e2", "e4", 0, MOVE_DOUBLE_PUSH));
    cr_assert_eq(pos.ep_square, sq("e3"));
    cr_assert_not(position_ep_legal(&pos));
}

Test(movegen, uci_writes_castling_both_ways_and_promotions)
{
    struct position pos = parse("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1");
    char out[8];
    cr_assert_eq(uci_write_move(&pos, mv("e1", "h1", 0, MOVE_CASTLE), false, out), 4);
    cr_assert_str_eq(out, "e1g1");
    uci_write_move(&pos, mv("e1", "a1", 0, MOVE_CASTLE), false, out);
    cr_assert_str_eq(out, "e1c1");
    uci_write_move(&pos, mv("e1", "h1", 0, MOVE_CASTLE), true, out);
    cr_assert_str_eq(out, "e1h1");
    cr_assert_eq(uci_write_move(&pos, mv("b7", "a8", QUEEN, MOVE_CAPTURE), false, out), 5);
    cr_assert_str_eq(out, "b7a8q");
    uci_write_move(&pos, mv("a1", "a1", 0, MOVE_NULL), false, out);
    cr_assert_str_eq(out, "0000");
}

/* uci_put_move_sep() (its one-store path for the usual move, on a little-endian
 * machine) against uci_write_move() and the separator written after it: every from-to
 * pair with each flag alone and each promotion, in standard chess and Chess960, with
 * and without king-takes-rook, into a buffer that already holds other bytes (the store
 * writes past the move; those bytes must be the next move's to overwrite, not the
 * caller's). */
Test(movegen, uci_put_move_sep_is_uci_write_move_and_the_separator)
{
    static const int flags[] = {0,         MOVE_CAPTURE, MOVE_EN_PASSANT, MOVE_CASTLE,
                                MOVE_DOUBLE_PUSH, MOVE_NULL,    MOVE_DROP};
    struct position pos[2];
    position_set_start(&pos[0]);
    pos[1] = pos[0];
    pos[1].chess960 = true;
    long checked = 0;
    for (int p = 0; p < 2; p++)
        for (int ktr = 0; ktr < 2; ktr++)
            for (int from = 0; from < 64; from++)
                for (int to = 0; to < 64; to++)
                    for (size_t f = 0; f < sizeof flags / sizeof *flags; f++)
                        for (int promo = 0; promo <= KING; promo++) {
                            struct move m = {(uint8_t)from, (uint8_t)to, (uint8_t)promo,
                                             (uint8_t)flags[f]};
                            char want[16], got[16];
                            memset(got, '#', sizeof got);
                            size_t n = uci_write_move(&pos[p], m, ktr, want);
                            want[n] = '\t';
                            size_t k = uci_put_move_sep(&pos[p], m, ktr, '\t', got);
                            cr_assert_eq(k, n + 1, "%d-%d f%d p%d", from, to, flags[f], promo);
                            cr_assert(memcmp(got, want, k) == 0, "%d-%d f%d p%d: %.*s", from,
                                      to, flags[f], promo, (int)k, got);
                            for (size_t b = 8; b < sizeof got; b++)
                                cr_assert_eq(got[b], '#', "%d-%d: byte %zu", from, to, b);
                            checked++;
                        }
    cr_assert_eq(checked, 2L * 2 * 64 * 64 * 7 * (KING + 1));
}

#ifdef UCI_PUT_MOVES4
/* uci_put_moves4() against uci_write_move() of each move and a blank: every from-to pair
 * in each of the four places of a group (the other three random usual moves, castling
 * among them), castling written both ways (king's destination, or the rook's square as
 * with king-takes-rook), and groups holding one null move, drop or promotion, which it
 * leaves to the caller.  It writes no byte past its 32. */
Test(movegen, uci_put_moves4_is_four_moves_and_blanks)
{
    struct position pos;
    position_set_start(&pos);
    static const int flags[] = {0, MOVE_CAPTURE, MOVE_EN_PASSANT, MOVE_DOUBLE_PUSH,
                                MOVE_CASTLE, 0, MOVE_CAPTURE, 0};
    static const int unusual[][2] = {{0, KNIGHT}, {0, QUEEN}, {0, KING},
                                     {MOVE_NULL, 0}, {MOVE_DROP, PAWN}, {MOVE_DROP, 0}};
    unsigned seed = 12345;
    long checked = 0;
    for (int king = 0; king < 2; king++)
        for (int place = 0; place < 4; place++)
            for (int from = 0; from < 64; from++)
                for (int to = 0; to < 64; to++)
                    for (int f = 0; f < 2; f++) {
                        struct move m[4];
                        for (int k = 0; k < 4; k++) {
                            seed = seed * 1103515245u + 12345u;
                            m[k] = (struct move){(uint8_t)(seed >> 8 & 63),
                                                 (uint8_t)(seed >> 16 & 63), 0,
                                                 (uint8_t)flags[seed >> 24 & 7]};
                        }
                        m[place] = (struct move){(uint8_t)from, (uint8_t)to, 0,
                                                 (uint8_t)(f ? MOVE_CASTLE : 0)};
                        char want[40], got[40];
                        size_t n = 0;
                        for (int k = 0; k < 4; k++) {
                            n += uci_write_move(&pos, m[k], !king, want + n);
                            want[n++] = ' ';
                        }
                        memset(got, '#', sizeof got);
                        cr_assert(uci_put_moves4(m, king, got));
                        cr_assert_eq(n, 20);
                        cr_assert(memcmp(got, want, 20) == 0, "%d-%d at %d: %.20s / %.20s",
                                  from, to, place, got, want);
                        for (size_t b = 32; b < sizeof got; b++)
                            cr_assert_eq(got[b], '#');
                        for (size_t u = 0; u < sizeof unusual / sizeof *unusual; u++) {
                            struct move odd[4] = {m[0], m[1], m[2], m[3]};
                            odd[place].flags = (uint8_t)(odd[place].flags | unusual[u][0]);
                            odd[place].promo = (uint8_t)unusual[u][1];
                            cr_assert_not(uci_put_moves4(odd, king, got),
                                          "%d-%d at %d, unusual %zu", from, to, place, u);
                        }
                        checked++;
                    }
    cr_assert_eq(checked, 2L * 4 * 64 * 64 * 2);
}
#endif

Test(movegen, every_generated_move_is_legal_by_every_other_test)
{
    /* Kiwipete: movegen_legal, movegen_legal_to and movegen_is_legal must agree. */
    struct position pos =
        parse("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    struct move list[MAX_MOVES], to_list[MAX_MOVES];
    int n = movegen_legal(&pos, list);
    cr_assert_eq(n, 48);
    int non_castle = 0;
    for (int i = 0; i < n; i++) {
        cr_assert(movegen_is_legal(&pos, list[i]));
        if (list[i].flags & MOVE_CASTLE)
            continue;
        non_castle++;
        enum piece_type t = piece_type_of(pos.board[list[i].from]);
        int k = movegen_legal_to(&pos, t, list[i].to, bb_square(list[i].from), to_list);
        bool found = false;
        for (int j = 0; j < k; j++)
            found |= to_list[j].promo == list[i].promo && to_list[j].flags == list[i].flags;
        cr_assert(found, "move %d not found by movegen_legal_to", i);
    }
    cr_assert_eq(non_castle, 46);
}

/* position_ok (cached checkers included) holds after every move, and
 * position_has_legal_move stops early; it must agree with the full generator on every
 * position of random.perft (9 of which have no legal move), and after every legal move
 * from those positions (checks and evasions are where the early exits differ). */
Test(movegen, has_legal_move_agrees_with_the_generator_on_the_random_suite, .timeout = 60)
{
    FILE *f = fopen("testdata/perft/random.perft", "r");
    cr_assert_not_null(f);
    char fen[256];
    int positions = 0, without_moves = 0;
    struct position pos;
    while (th_next_epd(f, &pos, fen, sizeof fen)) {
        struct move moves[MAX_MOVES];
        int n = movegen_legal(&pos, moves);
        cr_assert_eq(position_has_legal_move(&pos), n > 0, "%s", fen);
        without_moves += n == 0;
        for (int i = 0; i < n; i++) {
            struct position next = pos;
            position_do_move(&next, moves[i]);
            cr_assert(position_ok(&next), "%s after move %d", fen, i);
            struct move replies[MAX_MOVES];
            cr_assert_eq(position_has_legal_move(&next), movegen_legal(&next, replies) > 0);
        }
        positions++;
    }
    fclose(f);
    cr_assert_gt(positions, 6000);
    cr_assert_geq(without_moves, 9);
}

/*
 * position_do_castle() against position_do_move() (the general path) for every legal
 * castling met on random walks: from positions where castling checks along the rank
 * and the file, is blocked or runs through attacks, and from Chess960 starts with the
 * king and rook on the usual squares and elsewhere (the fall-back).  The two positions
 * must be the same byte for byte.
 */
static int castlings_compared(const char *fen, bool chess960, unsigned walks, uint32_t seed)
{
    struct position start;
    struct diag err;
    cr_assert_eq(fen_parse(&start, fen, strlen(fen), chess960, &err), 0, "%s: %s", fen, err.message);
    int compared = 0;
    for (unsigned w = 0; w < walks; w++) {
        struct position pos = start;
        for (int ply = 0; ply < 60; ply++) {
            struct move list[MAX_MOVES];
            int n = movegen_legal(&pos, list);
            if (n == 0)
                break;
            for (int i = 0; i < n; i++) {
                if (!(list[i].flags & MOVE_CASTLE))
                    continue;
                struct position general = pos, fast = pos;
                position_do_move(&general, list[i]);
                position_do_castle(&fast, list[i]);
                cr_assert(memcmp(&general, &fast, sizeof general) == 0,
                          "%s: castling %d-%d after %d plies differs", fen, list[i].from,
                          list[i].to, ply);
                compared++;
            }
            seed = seed * 1664525u + 1013904223u;
            position_do_move(&pos, list[(seed >> 8) % (uint32_t)n]);
        }
    }
    return compared;
}

Test(movegen, castling_played_directly_is_the_general_move)
{
    int n = 0;
    /* Both sides free to castle, sliders and knights about. */
    n += castlings_compared("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            false, 200, 1);
    /* O-O-O checks along the d-file; O-O checks along the f-file. */
    n += castlings_compared("3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1", false, 50, 2);
    n += castlings_compared("5k2/8/8/8/8/8/8/R3K2R w KQ - 0 1", false, 50, 3);
    /* The enemy king on the back rank: the rook's check along the rank. */
    n += castlings_compared("8/8/8/8/8/8/8/R3K2k w Q - 0 1", false, 1, 4);
    n += castlings_compared("8/8/8/8/8/8/8/k3K2R w K - 0 1", false, 1, 4);
    n += castlings_compared("r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1", false, 50, 5);
    /* Chess960: king and rooks on the usual squares, then elsewhere (the fall-back). */
    n += castlings_compared("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", true, 200, 6);
    n += castlings_compared("bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w FDfd - 0 1", true, 200, 7);
    n += castlings_compared("rk4r1/8/8/8/8/8/8/RK4R1 w GAga - 0 1", true, 100, 8);
    cr_assert_gt(n, 500, "only %d castlings compared", n);
}
