/* test_rules.c - the rules module's facts about a position, per variant: how it ends the
 * game (rules_ending).  Expected values from the variants' published rules, each
 * position checked with chessops 0.15.1 (lichess's library: Position.outcome(),
 * isVariantEnd(), isInsufficientMaterial()), which python-chess 1.11.2 agrees with. */
#include <criterion/criterion.h>
#include <string.h>

#include "board/attacks.h"
#include "board/fen.h"
#include "board/rules.h"

static void suite_init(void) { attacks_init(); }

TestSuite(rules, .init = suite_init);

static struct position parse(enum variant v, const char *fen)
{
    struct position pos;
    struct diag err;
    cr_assert_eq(fen_parse_variant(&pos, fen, strlen(fen), false, v, &err), 0, "%s: %s", fen,
                 err.message);
    return pos;
}

static void expect_ending(enum variant v, const char *fen, const char *name, int winner)
{
    struct position pos = parse(v, fen);
    int w = 99;
    enum ending e = rules_ending(&pos, &w);
    cr_expect_str_eq(ending_name(e), name, "%s %s", variant_name(v), fen);
    cr_expect_eq(w, winner, "%s %s: winner %d, not %d", variant_name(v), fen, w, winner);
}

Test(rules, standard_endings)
{
    expect_ending(VARIANT_STANDARD, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                  "none", -1);
    /* Fool's mate. */
    expect_ending(VARIANT_STANDARD, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
                  "checkmate", BLACK);
    expect_ending(VARIANT_STANDARD, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "stalemate", -1);
    /* Standard chess leaves a dead position to --ending insufficient. */
    expect_ending(VARIANT_STANDARD, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "none", -1);
}

Test(rules, each_variant_rule_has_its_name)
{
    expect_ending(VARIANT_ATOMIC, "4k3/8/8/8/8/8/8/8 w - - 0 1", "king-exploded", BLACK);
    expect_ending(VARIANT_KING_OF_THE_HILL, "4k3/8/8/8/4K3/8/8/8 b - - 0 1", "king-of-the-hill",
                  WHITE);
    expect_ending(VARIANT_THREE_CHECK, "4k3/8/8/8/8/8/8/4K2R b - - 0+2 0 1", "three-checks", WHITE);
    expect_ending(VARIANT_RACING_KINGS, "K7/8/8/8/8/8/8/7k w - - 0 1", "racing-kings", WHITE);
    expect_ending(VARIANT_RACING_KINGS, "K6k/8/8/8/8/8/8/8 w - - 0 1", "racing-kings", -1);
    expect_ending(VARIANT_HORDE, "4k3/8/8/8/8/8/8/8 w - - 0 1", "horde-wiped-out", BLACK);
    /* Antichess: the side to move wins with no piece left, or with no move. */
    expect_ending(VARIANT_ANTICHESS, "8/8/8/8/8/8/8/k7 w - - 0 1", "antichess", WHITE);
    expect_ending(VARIANT_ANTICHESS, "8/8/8/8/8/p7/P7/8 w - - 0 1", "antichess", WHITE);
    expect_ending(VARIANT_ATOMIC, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "insufficient", -1);
    expect_ending(VARIANT_KING_OF_THE_HILL, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "none", -1);
    expect_ending(VARIANT_RACING_KINGS, "8/8/8/8/8/8/k6K/8 w - - 0 1", "none", -1);
}

/* Every value has a name; past the last there is none (the API says "unknown"). */
Test(rules, ending_names)
{
    for (int e = 0; e < ENDING_COUNT; e++)
        cr_expect(ending_name((enum ending)e) != NULL, "%d", e);
    cr_expect_null(ending_name(ENDING_COUNT));
    cr_expect_str_eq(ending_name(ENDING_NONE), "none");
    cr_expect_str_eq(ending_name(ENDING_CHECKMATE), "checkmate");
    cr_expect_str_eq(ending_name(ENDING_STALEMATE), "stalemate");
}

/* Draws by material (chessops isInsufficientMaterial(), python-chess agrees): Crazyhouse
 * counts the pockets, Three-check only bare kings, King of the Hill and Racing Kings
 * never (a bare king still reaches its goal). */
Test(rules, insufficient_material_per_variant)
{
    expect_ending(VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1", "insufficient", -1);
    expect_ending(VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1", "insufficient", -1);
    expect_ending(VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K1B1[] w - - 0 1", "insufficient", -1);
    expect_ending(VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K1N1[n] w - - 0 1", "none", -1);
    expect_ending(VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", "none", -1);
    expect_ending(VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4KN~2[] w - - 0 1", "none", -1);
    expect_ending(VARIANT_THREE_CHECK, "4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1", "insufficient", -1);
    expect_ending(VARIANT_THREE_CHECK, "4k3/8/8/8/8/8/8/4KN2 w - - 3+3 0 1", "none", -1);
    expect_ending(VARIANT_KING_OF_THE_HILL, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "none", -1);
    expect_ending(VARIANT_RACING_KINGS, "8/8/8/8/8/8/k6K/8 w - - 0 1", "none", -1);
}
