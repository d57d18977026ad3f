/* test_polyglot.c - Polyglot book keys against the test keys the Polyglot book format
 * publishes (its "test positions" list: the start position and the lines after it,
 * en passant cases included), and its en passant rule: the file counts only when a pawn
 * of the side to move stands beside the double-pushed pawn. */
#include <criterion/criterion.h>
#include <string.h>

#include "board/attacks.h"
#include "board/fen.h"
#include "board/polyglot.h"

static void suite_init(void) { attacks_init(); }

TestSuite(polyglot, .init = suite_init);

static uint64_t key_of(const char *fen)
{
    struct position pos;
    struct diag err;
    cr_assert_eq(fen_parse(&pos, fen, strlen(fen), false, &err), 0, "%s: %s", fen, err.message);
    return polyglot_key(&pos);
}

/* The format's published keys, each after the moves named. */
Test(polyglot, published_test_keys)
{
    static const struct {
        const char *fen;
        uint64_t key;
    } cases[] = {
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9cull},
        /* e2e4 */
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196ull},
        /* e2e4 d7d5 */
        {"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0ull},
        /* e2e4 d7d5 e4e5 */
        {"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4ull},
        /* e2e4 d7d5 e4e5 f7f5: the e5 pawn may take on f6 */
        {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78ull},
        /* ... e1e2 */
        {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652a607ca3f242c1ull},
        /* ... e8f7 */
        {"rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00fdd303c946bdd9ull},
        /* a2a4 b7b5 h2h4 b5b4 c2c4: the b4 pawn may take on c3 */
        {"rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637ull},
        /* ... b4c3 a1a3 */
        {"rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5c3f9b829b279560ull},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        cr_expect_eq(key_of(cases[i].fen), cases[i].key, "%s: %016llx, want %016llx",
                     cases[i].fen, (unsigned long long)key_of(cases[i].fen),
                     (unsigned long long)cases[i].key);
}

/* After 1. e4 no black pawn stands beside e4: the e3 square does not count. */
Test(polyglot, en_passant_without_a_capturer_does_not_count)
{
    cr_expect_eq(key_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
                 key_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
}

/* A capturer that stands beside the pawn counts even when the capture is illegal (the
 * pawn is pinned): Polyglot's rule is not the legal-capture one. */
Test(polyglot, en_passant_counts_for_a_pinned_capturer)
{
    const char *with = "8/8/8/KPp4r/8/8/8/7k w - c6 0 2";
    const char *without = "8/8/8/KPp4r/8/8/8/7k w - - 0 2";
    cr_expect_neq(key_of(with), key_of(without));
}

Test(polyglot, counters_do_not_count)
{
    cr_expect_eq(key_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
                 key_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7 30"));
}
