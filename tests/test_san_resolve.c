/*
 * test_san_resolve.c - SAN parts to moves on hand-built positions.
 *
 * Every expectation is argued in the comment above its position, square by square,
 * not taken from running the code.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "board/attacks.h"
#include "board/fen.h"
#include "board/movegen.h"
#include "san/san.h"
#include "san/san_resolve.h"
#include "board/uci.h"
#include "helpers/helpers.h"
#include "san/san_resolve_internal.h"

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

static void resolve_with(const char *fen, bool chess960, const char *token,
                         const struct san_options *opts, struct san_outcome *out,
                         struct position *pos)
{
    struct diag err;
    cr_assert_eq(fen_parse(pos, fen, strlen(fen), chess960, &err), 0, "bad test FEN: %s",
                 err.message);
    struct san san;
    cr_assert_eq(san_decode(matcher, token, strlen(token), &san), 0, "cannot decode %s", token);
    static struct position after;
    out->after = &after;
    san_resolve(pos, &san, opts, out);
}

static void resolve(const char *fen, const char *token, bool lenient, struct san_outcome *out,
                    struct position *pos)
{
    struct san_options opts = {.lenient = lenient};
    resolve_with(fen, false, token, &opts, out, pos);
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

/* san_write_marked() writes the mark it is given (the replay's finding) and plays
 * nothing: in the discovered position Rc2-c5 opens the bishop's b1-h7 diagonal to the
 * king (san_write: "Rcc5+", c as the a5 rook also reaches c5), and marked with '#' or
 * nothing it is written exactly so.  The pinned_knight position: the e2 knight attacks
 * c3 too but is pinned, so b1-c3 needs no hint ("Nc3"): the rival test that skips the
 * legal move list must not add one. */
Test(san_resolve, a_marked_san_writes_the_mark_given)
{
    struct position pos;
    struct diag err;
    cr_assert_eq(fen_parse(&pos, discovered, strlen(discovered), false, &err), 0);
    char s[16];
    struct move rcc5 = {square_make(2, 1), square_make(2, 4), 0, 0};
    san_write(&pos, rcc5, s);
    cr_assert_str_eq(s, "Rcc5+");
    cr_assert_eq(san_write_marked(&pos, rcc5, '+', s), 5);
    cr_assert_str_eq(s, "Rcc5+");
    san_write_marked(&pos, rcc5, '#', s);
    cr_assert_str_eq(s, "Rcc5#");
    san_write_marked(&pos, rcc5, 0, s);
    cr_assert_str_eq(s, "Rcc5");
    cr_assert_eq(fen_parse(&pos, pinned_knight, strlen(pinned_knight), false, &err), 0);
    struct move nc3 = {square_make(1, 0), square_make(2, 2), 0, 0};
    san_write(&pos, nc3, s);
    cr_assert_str_eq(s, "Nc3");
    san_write_marked(&pos, nc3, 0, s);
    cr_assert_str_eq(s, "Nc3");
    san_write_marked(&pos, (struct move){0, 0, 0, MOVE_NULL}, '+', s);
    cr_assert_str_eq(s, "--");
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

/* ---- issue 14: castling written as a king move, b-pawn reasons, a missing file ---- */

static const char *problem_text(const struct san_outcome *o, enum diag_code code)
{
    for (int i = 0; i < o->problem_count; i++)
        if (o->problems[i].code == code)
            return o->problems[i].message;
    return NULL;
}

/*
 * Every king move that names a castling square: the king's destination of standard
 * castling (g/c file) and the rook's square (h/a file, with or without x), both colours,
 * in standard chess; in Chess960 only the rook's square (the king's g1 may be a plain
 * move there).  Each is castling with a NONSTANDARD warning, O-O or O-O-O by the side it
 * names; under --strict an ILLEGAL error and no move.
 */
struct king_castle_case {
    const char *fen;
    bool chess960;
    const char *token;
    const char *san; /* the castling it is */
};

static const struct king_castle_case king_castles[] = {
    /* Standard: Ke1/Ke8 with all four rooks at home. */
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, "Kg1", "O-O"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, "Kh1", "O-O"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, "Kxh1", "O-O"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, "Kc1", "O-O-O"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, "Ka1", "O-O-O"},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, "Kxa1", "O-O-O"},
    {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false, "Kg8", "O-O"},
    {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false, "Kh8", "O-O"},
    {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false, "Kxh8", "O-O"},
    {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false, "Kc8", "O-O-O"},
    {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false, "Ka8", "O-O-O"},
    {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", false, "Kxa8", "O-O-O"},
    /* Chess960: kings on b1/b8, rooks on a and h (rights HAha). */
    {"rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", true, "Kh1", "O-O"},
    {"rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", true, "Kxh1", "O-O"},
    {"rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", true, "Ka1", "O-O-O"},
    {"rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", true, "Kxa1", "O-O-O"},
    {"rk5r/8/8/8/8/8/8/RK5R b HAha - 0 1", true, "Kh8", "O-O"},
    {"rk5r/8/8/8/8/8/8/RK5R b HAha - 0 1", true, "Kxh8", "O-O"},
    {"rk5r/8/8/8/8/8/8/RK5R b HAha - 0 1", true, "Ka8", "O-O-O"},
    {"rk5r/8/8/8/8/8/8/RK5R b HAha - 0 1", true, "Kxa8", "O-O-O"},
    /* Chess960 with the king on g1/g8, next to its h rook: Kh1 is O-O. */
    {"r5kr/8/8/8/8/8/8/R5KR w HAha - 0 1", true, "Kh1", "O-O"},
    {"r5kr/8/8/8/8/8/8/R5KR b HAha - 0 1", true, "Kh8", "O-O"},
};

Test(san_resolve, every_king_move_to_a_castling_square_is_castling_with_a_warning)
{
    for (size_t i = 0; i < sizeof king_castles / sizeof *king_castles; i++) {
        const struct king_castle_case *c = &king_castles[i];
        struct san_outcome o;
        struct position pos;
        struct san_options opts = {0};
        resolve_with(c->fen, c->chess960, c->token, &opts, &o, &pos);
        cr_assert(o.ok, "%s in %s: %s", c->token, c->fen,
                  o.problem_count ? o.problems[0].message : "?");
        cr_expect(o.move.flags & MOVE_CASTLE, "%s", c->token);
        char san[16];
        san_write(&pos, o.move, san);
        cr_expect_str_eq(san, c->san, "%s in %s", c->token, c->fen);
        const char *why = problem_text(&o, DIAG_NONSTANDARD);
        cr_expect(why && strstr(why, "castling written as a king move"), "%s: %s", c->token,
                  why ? why : "no NONSTANDARD warning");
        cr_expect_eq(has_problem(&o, DIAG_CAPTURE_SPURIOUS), strchr(c->token, 'x') != NULL,
                     "%s: x on castling captures nothing", c->token);

        struct san_options strict = {.strict = true};
        resolve_with(c->fen, c->chess960, c->token, &strict, &o, &pos);
        cr_expect_not(o.ok, "%s under --strict", c->token);
        cr_expect(has_problem(&o, DIAG_ILLEGAL), "%s under --strict", c->token);
    }
}

/* In Chess960 a king next to its destination makes a plain move: Kc1 from b1 is one
 * square, no castling and no warning. */
Test(san_resolve, a_chess960_king_step_is_no_castling)
{
    struct san_outcome o;
    struct position pos;
    struct san_options opts = {0};
    resolve_with("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", true, "Kc1", &opts, &o, &pos);
    cr_assert(o.ok);
    cr_expect_not(o.move.flags & MOVE_CASTLE);
    cr_expect_eq(o.problem_count, 0);
}

/* Long algebraic e1g1 (UCI's spelling) keeps its LONG warning and is no error under
 * --strict: it names the origin square, not a king "move" of two squares in SAN. */
Test(san_resolve, uci_castling_keeps_its_long_algebraic_warning)
{
    struct san_outcome o;
    struct position pos;
    struct san_options strict = {.strict = true};
    resolve_with("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, "e1g1", &strict, &o, &pos);
    cr_assert(o.ok);
    cr_expect(o.move.flags & MOVE_CASTLE);
}

/* The b-pawn's own reason when both readings of a lower-case b fail (issue 14.5). */
struct b_pawn_case {
    const char *fen;
    const char *token;
    const char *reason;  /* in the message */
    bool bishop_named;   /* the bishop reading is mentioned */
};

static const struct b_pawn_case b_pawns[] = {
    /* Ka5 Pb5 / Pc5 (just pushed) Rh5: en passant would open the fifth rank. */
    {"8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", "bxc6", "en passant", false},
    /* Pb7, Black Ra8: b7xa8 must name its promotion piece. */
    {"r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "bxa8", "must promote", false},
    /* Kb1 Pb5 / Rb8 Nc6: the pawn is pinned on the b-file. */
    {"1r2k3/8/2n5/1P6/8/8/8/1K6 w - - 0 1", "bxc6", "pinned", false},
    /* Ke1 in check from Rh1: b5xc6 does not end it. */
    {"4k3/8/2n5/1P6/8/8/8/4K2r w - - 0 1", "bxc6", "in check", false},
    /* As the pinned pawn, plus a Be4 that reaches c6 but is pinned by Bg6 on the
     * b1-g6 diagonal: both readings fail, both reasons are given. */
    {"1r2k3/8/2n3b1/1P6/4B3/8/8/1K6 w - - 0 1", "bxc6", "pinned", true},
    /* Black: Kb8 Pb4 / Rb1 Nc3, the pawn pinned on the b-file. */
    {"1k6/8/8/8/1p6/2N5/8/1R2K3 b - - 0 1", "bxc3", "pinned", false},
};

Test(san_resolve, a_failed_b_pawn_capture_gives_the_pawns_reason)
{
    for (size_t i = 0; i < sizeof b_pawns / sizeof *b_pawns; i++) {
        const struct b_pawn_case *c = &b_pawns[i];
        struct san_outcome o;
        struct position pos;
        struct san_options opts = {0};
        resolve_with(c->fen, false, c->token, &opts, &o, &pos);
        cr_assert_not(o.ok, "%s in %s", c->token, c->fen);
        const char *msg = problem_text(&o, DIAG_ILLEGAL);
        cr_assert(msg, "%s: no ILLEGAL", c->token);
        cr_expect(strstr(msg, c->reason), "%s in %s: %s", c->token, c->fen, msg);
        cr_expect_eq(strstr(msg, "bishop") != NULL, c->bishop_named, "%s in %s: %s", c->token,
                     c->fen, msg);
    }
}

/* Bxc6 written bxc6 still resolves to the bishop when no pawn can take (no b-file hint
 * on the bishop: it stands on e4). */
Test(san_resolve, a_lower_case_b_is_the_bishop_when_no_pawn_can_take)
{
    assert_move("4k3/8/2n5/8/4B3/8/8/4K3 w - - 0 1", "bxc6", "e4c6");
}

/* Pd3 takes the c4 knight; "c4" leaves out the origin file (issue 14.6). */
Test(san_resolve, a_pawn_capture_without_its_file_says_the_file_is_missing)
{
    struct san_outcome o;
    struct position pos;
    resolve("4k3/8/8/8/2n5/3P4/8/4K3 w - - 0 1", "c4", false, &o, &pos);
    cr_assert(o.ok);
    const char *msg = problem_text(&o, DIAG_CAPTURE_MISSING);
    cr_assert(msg);
    cr_expect(strstr(msg, "origin file") && strstr(msg, "dxc4"), "%s", msg);
}

/* e.p. and ++ when true are clean by default, NONSTANDARD under --strict (issue 14.12).
 * Pe5 / Pd5 just pushed: exd6 is en passant.  Re1 Ne4 / Ke8: Nf6 checks e8 and opens
 * the e-file, a double check. */
Test(san_resolve, true_ep_and_double_check_marks_are_clean_unless_strict)
{
    static const struct {
        const char *fen, *token;
    } cases[] = {
        {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6e.p."},
        {"4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1", "Nf6++"},
    };
    for (size_t i = 0; i < 2; i++) {
        struct san_outcome o;
        struct position pos;
        struct san_options opts = {0}, strict = {.strict = true};
        resolve_with(cases[i].fen, false, cases[i].token, &opts, &o, &pos);
        cr_assert(o.ok, "%s", cases[i].token);
        cr_expect_eq(o.problem_count, 0, "%s: %s", cases[i].token,
                     o.problem_count ? o.problems[0].message : "");
        resolve_with(cases[i].fen, false, cases[i].token, &strict, &o, &pos);
        cr_assert(o.ok, "%s", cases[i].token);
        const char *msg = problem_text(&o, DIAG_NONSTANDARD);
        cr_expect(msg && strstr(msg, "export format"), "%s under --strict", cases[i].token);
    }
}

/* Every legal move of every position of random.perft (checks, pins, en passant,
 * promotions, castling: the shortcut for the usual move and the general resolution both
 * see many) written as canonical SAN resolves back to that move, with no problem, and
 * to the position position_do_move() makes, its check and mate found as san_write()
 * marks them; under --strict too (minimal disambiguation is never over-disambiguated). */
Test(san_resolve, canonical_san_of_every_legal_move_resolves_back_to_it, .timeout = 120)
{
    FILE *f = fopen("testdata/perft/random.perft", "r");
    cr_assert_not_null(f);
    char fen[256];
    long moves_seen = 0;
    static const struct san_options plain = {0}, strict = {.strict = true};
    struct position pos;
    while (th_next_epd(f, &pos, fen, sizeof fen)) {
        struct move moves[MAX_MOVES];
        int n = movegen_legal(&pos, moves);
        for (int i = 0; i < n; i++) {
            char text[16];
            size_t len = san_write(&pos, moves[i], text);
            struct position want = pos;
            position_do_move(&want, moves[i]);
            struct san san;
            cr_assert_eq(san_decode(matcher, text, len, &san), 0, "%s", text);
            for (int k = 0; k < 2; k++) {
                struct position after;
                struct san_outcome o;
                o.after = &after;
                san_resolve(&pos, &san, k ? &strict : &plain, &o);
                cr_assert(o.ok && o.problem_count == 0, "%s in %s: %s", text, fen,
                          o.problem_count ? o.problems[0].message : "not ok");
                cr_assert(o.move.from == moves[i].from && o.move.to == moves[i].to &&
                              o.move.promo == moves[i].promo,
                          "%s in %s", text, fen);
                cr_assert(memcmp(&after, &want, sizeof want) == 0, "%s in %s", text, fen);
                char mark = text[len - 1];
                cr_assert_eq(o.gives_mate, mark == '#', "%s in %s", text, fen);
                cr_assert_eq(o.gives_check, mark == '#' || mark == '+', "%s in %s", text,
                             fen);
            }
            moves_seen++;
        }
    }
    fclose(f);
    cr_assert_gt(moves_seen, 100000);
}

/*
 * The replay's usual move (san_quick_move, san_play_in_place, san_quick_outcome) is
 * san_resolve() played in place: wherever san_quick_move() takes a move, the move, what
 * it gives, the problems and the position after are san_resolve()'s (the oracle), and
 * san_unplay_quick() gives back the position before, byte for byte; wherever it declines,
 * nothing is written.  Every legal move of the random perft positions, written as
 * canonical SAN, without its check mark (MATE_MISSING, CHECK_MISSING) and with a '+' or
 * '#' it does not earn (CHECK_SPURIOUS, MATE_SPURIOUS).
 */
static void quick_against_resolve(const struct position *pos, const char *text, size_t len,
                                  long *taken)
{
    static const struct san_options plain = {0};
    struct san san;
    if (san_decode(matcher, text, len, &san) != 0)
        return;
    struct position after, in_place = *pos, before;
    struct san_outcome want, got;
    want.after = &after;
    san_resolve(pos, &san, &plain, &want);
    struct move m = {0xee, 0xee, 0xee, 0xee};
    if (!san_quick_move(&in_place, &san, &m)) {
        cr_assert(m.from == 0xee && m.to == 0xee && m.promo == 0xee && m.flags == 0xee,
                  "%.*s: m written", (int)len, text);
        return;
    }
    (*taken)++;
    struct quick_undo undo;
    struct quick_played p = san_play_in_place(&in_place, m, &undo);
    san_quick_outcome(&san, m, p, &got);
    cr_assert(want.ok && got.ok, "%.*s", (int)len, text);
    cr_assert_eq(san_quick_claims_exact(&san, m, p), want.problem_count == 0, "%.*s", (int)len,
                 text);
    /* As the replay asks it, mate not yet known (san_play_in_place_lazy): the same answer
     * for a move that does not mate; one that does has its marks right when they claim
     * the check and nothing more, its mate test waiting for later. */
    struct quick_played lazy = {p.checkers, false};
    if (!want.gives_mate)
        cr_assert_eq(san_quick_claims_exact(&san, m, lazy), want.problem_count == 0,
                     "%.*s, mate not asked", (int)len, text);
    else
        cr_assert_eq(san_quick_claims_exact(&san, m, lazy), san.checks == 1 && !san.mate,
                     "%.*s, mate not asked", (int)len, text);
    cr_assert(memcmp(&want.move, &got.move, sizeof got.move) == 0, "%.*s", (int)len, text);
    cr_assert(want.gives_check == got.gives_check && want.gives_mate == got.gives_mate,
              "%.*s", (int)len, text);
    cr_assert_eq(want.problem_count, got.problem_count, "%.*s", (int)len, text);
    for (int k = 0; k < got.problem_count; k++)
        cr_assert(want.problems[k].code == got.problems[k].code &&
                      strcmp(want.problems[k].message, got.problems[k].message) == 0,
                  "%.*s", (int)len, text);
    cr_assert(memcmp(&after, &in_place, sizeof after) == 0, "%.*s: after", (int)len, text);
    san_unplay_quick(&before, &in_place, &undo);
    cr_assert(memcmp(&before, pos, sizeof before) == 0, "%.*s: before", (int)len, text);
}

Test(san_resolve, quick_in_place_is_resolve_on_a_copy, .timeout = 120)
{
    FILE *f = fopen("testdata/perft/random.perft", "r");
    cr_assert_not_null(f);
    char fen[256];
    long taken = 0, marks = 0;
    struct position pos;
    while (th_next_epd(f, &pos, fen, sizeof fen)) {
        struct move moves[MAX_MOVES];
        int n = movegen_legal(&pos, moves);
        for (int i = 0; i < n; i++) {
            char text[20];
            size_t len = san_write(&pos, moves[i], text);
            quick_against_resolve(&pos, text, len, &taken);
            if (text[len - 1] == '+' || text[len - 1] == '#') {
                quick_against_resolve(&pos, text, len - 1, &marks);
            } else {
                text[len] = '+';
                quick_against_resolve(&pos, text, len + 1, &marks);
                text[len] = '#'; /* MATE_SPURIOUS, on a move that gives no check */
                quick_against_resolve(&pos, text, len + 1, &marks);
            }
        }
    }
    fclose(f);
    /* Most moves are the usual kind (the rest: castling, promotions, en passant, moves
     * out of double check, two pieces of a kind that reach the square). */
    cr_assert_gt(taken, 50000);
    cr_assert_gt(marks, 50000);
}

/* What san_quick_move() takes for text in pos is the one legal move (movegen_legal: the
 * oracle that shares no code with the SAN paths) of the written piece to the written
 * square from the written file, if any; then san_resolve() agrees (quick_against_resolve). */
static void quick_against_legal(const struct position *pos, const char *text, size_t len,
                                long *taken)
{
    struct san san;
    struct move m;
    if (san_decode(matcher, text, len, &san) != 0)
        return;
    struct position copy = *pos;
    if (!san_quick_move(&copy, &san, &m))
        return;
    struct move moves[MAX_MOVES];
    int n = movegen_legal(pos, moves), fits = 0, same = 0;
    for (int i = 0; i < n; i++) {
        if (moves[i].to != san.to || piece_type_of(pos->board[moves[i].from]) != san.piece ||
            (san.from_file >= 0 && square_file(moves[i].from) != san.from_file))
            continue;
        fits++;
        same += moves[i].from == m.from && moves[i].flags == m.flags && moves[i].promo == m.promo;
    }
    cr_assert(fits == 1 && same == 1, "%.*s: %d legal moves fit", (int)len, text, fits);
    quick_against_resolve(pos, text, len, taken);
}

/* Every piece (not king) or pawn move text onto every square, legal or not, in pos:
 * quick_against_legal. */
static void every_target(const struct position *pos, long *taken)
{
    static const char pieces[] = "NBRQ"; /* king steps: the test above */
    for (int to = 0; to < 64; to++) {
        char sq[2] = {(char)('a' + to % 8), (char)('1' + to / 8)}, text[8];
        for (const char *pc = pieces; *pc; pc++) {
            int len = snprintf(text, sizeof text, "%c%c%c", *pc, sq[0], sq[1]);
            quick_against_legal(pos, text, (size_t)len, taken);
            len = snprintf(text, sizeof text, "%cx%c%c", *pc, sq[0], sq[1]);
            quick_against_legal(pos, text, (size_t)len, taken);
        }
        quick_against_legal(pos, sq, 2, taken);
        for (int df = -1; df <= 1; df += 2) {
            if (to % 8 + df < 0 || to % 8 + df > 7)
                continue;
            int len = snprintf(text, sizeof text, "%cx%c%c", sq[0] + df, sq[0], sq[1]);
            quick_against_legal(pos, text, (size_t)len, taken);
        }
    }
}

/*
 * Out of check (one checker): the quick path's blocks and captures of the checker are
 * san_resolve()'s, and every other move it leaves alone.  The positions in check are
 * those after each legal move of the random perft positions that gives check.
 */
Test(san_resolve, quick_out_of_check_is_resolve, .timeout = 120)
{
    FILE *f = fopen("testdata/perft/random.perft", "r");
    cr_assert_not_null(f);
    char fen[256];
    long taken = 0, checks = 0;
    struct position pos;
    while (th_next_epd(f, &pos, fen, sizeof fen)) {
        struct move moves[MAX_MOVES];
        int n = movegen_legal(&pos, moves);
        for (int i = 0; i < n; i++) {
            struct position after = pos;
            position_do_move(&after, moves[i]);
            if (!after.checkers)
                continue;
            checks++;
            every_target(&after, &taken);
        }
    }
    fclose(f);
    cr_assert_gt(checks, 1000);
    cr_assert_gt(taken, 1000);
}
