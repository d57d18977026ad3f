/*
 * test_san_resolve.c - SAN parts to moves on hand-built positions.
 *
 * Every expectation is argued in the comment above its position, square by square,
 * not taken from running the code.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "pgnkit/attacks.h"
#include "pgnkit/fen.h"
#include "pgnkit/san.h"
#include "pgnkit/san_resolve.h"
#include "pgnkit/uci.h"

static struct san_matcher *matcher;

static void setup(void)
{
    attacks_init();
    struct diag err;
    matcher = san_matcher_new(SAN_LETTERS_ENGLISH, &err);
    cr_assert_not_null(matcher);
}

static void teardown(void) { san_matcher_free(matcher); }

TestSuite(san_resolve, .init = setup, .fini = teardown);

static void resolve(const char *fen, const char *token, bool lenient, struct san_outcome *out,
                    struct position *pos)
{
    struct diag err;
    cr_assert_eq(fen_parse(pos, fen, strlen(fen), false, &err), 0, "bad test FEN: %s",
                 err.message);
    struct san san;
    cr_assert_eq(san_decode(matcher, token, strlen(token), &san), 0, "cannot decode %s", token);
    struct san_options opts = {.lenient = lenient};
    static struct position after;
    out->after = &after;
    san_resolve(pos, &san, &opts, out);
}

static bool has_problem(const struct san_outcome *o, enum diag_code code)
{
    for (int i = 0; i < o->problem_count; i++)
        if (o->problems[i].code == code)
            return true;
    return false;
}

static void assert_move(const char *fen, const char *token, const char *uci)
{
    struct san_outcome o;
    struct position pos;
    resolve(fen, token, false, &o, &pos);
    cr_assert(o.ok, "%s in %s: %s", token, fen, o.problem_count ? o.problems[0].message : "?");
    char got[8];
    uci_write_move(&pos, o.move, false, got);
    cr_assert_str_eq(got, uci, "%s in %s", token, fen);
}

static void assert_error(const char *fen, const char *token, enum diag_code code)
{
    struct san_outcome o;
    struct position pos;
    resolve(fen, token, false, &o, &pos);
    cr_assert_not(o.ok, "%s in %s should fail", token, fen);
    cr_assert_eq(o.problems[o.problem_count - 1].code, code, "%s: got %s (%s)", token,
                 diag_code_name(o.problems[o.problem_count - 1].code),
                 o.problems[o.problem_count - 1].message);
}

/* White Ke1, Ne2, Nb1; Black Kg8, Re8.  Both knights reach c3 (b1-c3, e2-c3), but the
 * e2 knight stands between the e1 king and the e8 rook: only b1-c3 is legal. */
static const char *const pinned_knight = "4r1k1/8/8/8/8/8/4N3/1N2K3 w - - 0 1";

Test(san_resolve, a_pinned_knight_is_no_candidate)
{
    assert_move(pinned_knight, "Nc3", "b1c3");
}

Test(san_resolve, moving_the_pinned_knight_is_illegal_and_says_pinned)
{
    struct san_outcome o;
    struct position pos;
    resolve(pinned_knight, "Nec3", false, &o, &pos);
    cr_assert_not(o.ok);
    cr_assert_eq(o.problems[0].code, DIAG_ILLEGAL);
    cr_assert(strstr(o.problems[0].message, "pinned"), "%s", o.problems[0].message);
}

/* White Ka1, Bb1, Rc2, Ra5; Black Kh7.  Rc2-c5 (c3, c4 empty) and Ra5-c5 (b5 empty) both
 * reach c5.  Only Rc2-c5 opens the b1-h7 diagonal (c2 d3 e4 f5 g6 h7): a discovered
 * check.  So "Rc5+" names c2c5 alone; plain "Rc5" claims nothing and stays ambiguous. */
static const char *const discovered = "8/7k/8/R7/8/8/2R5/KB6 w - - 0 1";

Test(san_resolve, a_check_mark_decides_between_two_rooks_with_a_warning)
{
    struct san_outcome o;
    struct position pos;
    resolve(discovered, "Rc5+", false, &o, &pos);
    cr_assert(o.ok);
    char got[8];
    uci_write_move(&pos, o.move, false, got);
    cr_assert_str_eq(got, "c2c5");
    cr_assert(has_problem(&o, DIAG_UNDER_DISAMBIGUATED));
    cr_assert(o.gives_check);
}

Test(san_resolve, without_a_deciding_mark_two_rooks_are_ambiguous_and_both_listed)
{
    struct san_outcome o;
    struct position pos;
    resolve(discovered, "Rc5", false, &o, &pos);
    cr_assert_not(o.ok);
    cr_assert_eq(o.problems[0].code, DIAG_AMBIGUOUS);
    cr_assert_eq(o.candidate_count, 2);
    cr_assert(strstr(o.problems[0].message, "Rac5"), "%s", o.problems[0].message);
    cr_assert(strstr(o.problems[0].message, "Rcc5"), "%s", o.problems[0].message);
}

Test(san_resolve, lenient_takes_the_first_ambiguous_candidate_as_a_warning)
{
    struct san_outcome o;
    struct position pos;
    resolve(discovered, "Rc5", true, &o, &pos);
    cr_assert(o.ok);
    cr_assert_eq(o.problems[0].code, DIAG_AMBIGUOUS);
    cr_assert_eq(o.problems[0].severity, DIAG_WARNING);
}

/* White Ka5, Pb5; Black Pc5 (just double-pushed: e.p. square c6), Rh5, Ke1.  bxc6 e.p.
 * would empty b5 and c5 together and open the fifth rank from h5 to the a5 king. */
Test(san_resolve, en_passant_that_opens_the_rank_to_the_king_is_illegal)
{
    assert_error("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", "bxc6", DIAG_ILLEGAL);
}

/* Same, without the rook: the capture is legal and removes the c5 pawn. */
Test(san_resolve, en_passant_without_the_pin_is_legal)
{
    assert_move("8/8/8/KPp5/8/8/8/4k3 w - c6 0 1", "bxc6", "b5c6");
}

/* White Ke1, Ra1, Rh1; Black Kg8, Rf8.  The f8 rook attacks f1, which the king crosses
 * castling short; the long side (d1, c1) is not attacked and b1 is empty. */
static const char *const castle_through = "5rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1";

Test(san_resolve, castling_through_an_attacked_square_is_refused)
{
    assert_error(castle_through, "O-O", DIAG_ILLEGAL);
}

Test(san_resolve, castling_the_other_way_is_fine)
{
    assert_move(castle_through, "O-O-O", "e1c1");
}

Test(san_resolve, castling_with_zeros_is_accepted_with_a_warning)
{
    struct san_outcome o;
    struct position pos;
    resolve(castle_through, "0-0-0", false, &o, &pos);
    cr_assert(o.ok);
    cr_assert(has_problem(&o, DIAG_NONSTANDARD));
}

/* White Pe7, Ke1; Black Ka2.  e8 is empty: the pawn may advance but must promote. */
static const char *const promotion = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1";

Test(san_resolve, a_promotion_names_its_piece)
{
    assert_move(promotion, "e8=Q", "e7e8q");
    assert_move(promotion, "e8=N", "e7e8n");
}

Test(san_resolve, a_pawn_reaching_the_last_rank_without_a_piece_is_illegal)
{
    assert_error(promotion, "e8", DIAG_ILLEGAL);
}

/* After 1. f3 e5 2. g4: Qh4 checks along h4-g3-f2-e1 (g3 and f2 are empty since the f-
 * and g-pawns moved).  The king has no flight (d1 queen, f1 bishop, d2/e2 pawns; f2 is
 * on the queen's line), nothing can take h4 or stand on g3 or f2: mate. */
static const char *const before_fools_mate =
    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2";

Test(san_resolve, mate_without_hash_is_a_warning_not_a_loss)
{
    struct san_outcome o;
    struct position pos;
    resolve(before_fools_mate, "Qh4", false, &o, &pos);
    cr_assert(o.ok);
    cr_assert(o.gives_mate);
    cr_assert(has_problem(&o, DIAG_MATE_MISSING));
}

Test(san_resolve, a_correct_mate_mark_raises_nothing)
{
    struct san_outcome o;
    struct position pos;
    resolve(before_fools_mate, "Qh4#", false, &o, &pos);
    cr_assert(o.ok);
    cr_assert_eq(o.problem_count, 0, "%s", o.problems[0].message);
}

/* From the start: e4 gives no check, captures nothing. */
static const char *const start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

Test(san_resolve, false_marks_are_each_a_warning)
{
    struct san_outcome o;
    struct position pos;
    resolve(start, "e4+", false, &o, &pos);
    cr_assert(o.ok);
    cr_assert(has_problem(&o, DIAG_CHECK_SPURIOUS));
    resolve(start, "Nxf3", false, &o, &pos);
    cr_assert(o.ok);
    cr_assert(has_problem(&o, DIAG_CAPTURE_SPURIOUS));
    resolve(start, "e4#", false, &o, &pos);
    cr_assert(has_problem(&o, DIAG_MATE_SPURIOUS));
}

Test(san_resolve, long_algebraic_and_uci_tokens_resolve_by_the_piece_on_the_origin)
{
    assert_move(start, "e2e4", "e2e4");
    assert_move(start, "g1f3", "g1f3");
    assert_move(start, "Ng1-f3", "g1f3");
}

Test(san_resolve, unreachable_squares_are_illegal_with_a_reason)
{
    struct san_outcome o;
    struct position pos;
    resolve(start, "Nd4", false, &o, &pos);
    cr_assert_not(o.ok);
    cr_assert_eq(o.problems[0].code, DIAG_ILLEGAL);
    cr_assert(strstr(o.problems[0].message, "knight"), "%s", o.problems[0].message);
}

/* Fool's mate played (1. f3 e5 2. g4 Qh4#): White is checkmated, so any move comes
 * after the end of the game. */
Test(san_resolve, a_move_after_checkmate_is_reported_as_such)
{
    assert_error("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "a3",
                 DIAG_MOVE_AFTER_END);
}

Test(san_resolve, canonical_san_disambiguates_minimally)
{
    struct position pos;
    struct diag err;
    cr_assert_eq(fen_parse(&pos, discovered, strlen(discovered), false, &err), 0);
    char s[16];
    san_write(&pos, (struct move){square_make(2, 1), square_make(2, 4), 0, 0}, s);
    cr_assert_str_eq(s, "Rcc5+");
    san_write(&pos, (struct move){square_make(0, 4), square_make(2, 4), 0, 0}, s);
    cr_assert_str_eq(s, "Rac5");
}

/* Every lenient form has its own words in the NONSTANDARD message (Pe4's were missing,
 * and the message was an uninitialised buffer). */
Test(san_resolve, every_nonstandard_form_is_named)
{
    static const char *const cases[][2] = {
        {"Pe4", "non-standard notation accepted: an explicit pawn letter"},
        {"e2-e4", "non-standard notation accepted: long algebraic notation"},
        {"nf3", "non-standard notation accepted: a lower-case piece letter"},
    };
    const char *initial = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct san_outcome o;
        struct position pos;
        resolve(initial, cases[k][0], false, &o, &pos);
        cr_assert(o.ok, "%s", cases[k][0]);
        cr_assert(has_problem(&o, DIAG_NONSTANDARD), "%s: no NONSTANDARD", cases[k][0]);
        cr_assert_str_eq(o.problems[0].message, cases[k][1]);
    }
}

/* From the start only one knight reaches f3, so g1 names more than SAN needs: long
 * algebraic, accepted with a warning (SPEC §3.6).  In the discovered-check position the
 * rooks on a5 and c2 differ in file, so "Rc2c5" is also more than needed. */
Test(san_resolve, a_full_origin_square_not_needed_is_long_algebraic)
{
    struct san_outcome o;
    struct position pos;
    resolve(start, "Ng1f3", false, &o, &pos);
    cr_assert(o.ok);
    cr_assert(has_problem(&o, DIAG_NONSTANDARD));
    resolve(discovered, "Rc2c5+", false, &o, &pos);
    cr_assert(o.ok);
    cr_assert(has_problem(&o, DIAG_NONSTANDARD));
    resolve(start, "Nf3", false, &o, &pos);
    cr_assert_eq(o.problem_count, 0);
}
