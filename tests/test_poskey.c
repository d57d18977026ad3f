/* test_poskey.c - position keys: what counts (board, side, castling, a legal en passant),
 * what does not (move counters, an en passant square no pawn can use), and the key
 * carried move by move equal to the key computed afresh on every ply of real games. */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers/helpers.h"
#include "board/attacks.h"
#include "board/fen.h"
#include "game/game.h"
#include "board/poskey.h"
#include "board/rules.h"

static void suite_init(void) { attacks_init(); }

TestSuite(poskey, .init = suite_init);

static uint64_t key_of(const char *fen)
{
    struct position pos;
    struct diag err;
    cr_assert_eq(fen_parse(&pos, fen, strlen(fen), false, &err), 0, "%s: %s", fen, err.message);
    return poskey_of(&pos);
}

Test(poskey, counters_do_not_count)
{
    cr_expect_eq(key_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
                 key_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 12 40"));
}

Test(poskey, unusable_en_passant_does_not_count)
{
    /* After 1. e4 no black pawn can take on e3. */
    cr_expect_eq(key_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
                 key_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
}

Test(poskey, legal_en_passant_counts)
{
    /* 1. e4 Nf6 2. e5 d5: exd6 is legal. */
    cr_expect_neq(key_of("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3"),
                  key_of("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3"));
}

Test(poskey, side_and_castling_count)
{
    const char *base = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    cr_expect_neq(key_of(base), key_of("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"));
    cr_expect_neq(key_of(base), key_of("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1"));
    cr_expect_neq(key_of(base), key_of("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1"));
    cr_expect_neq(key_of(base), key_of("r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1"));
    cr_expect_neq(key_of(base), key_of("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1"));
}

Test(poskey, pieces_count)
{
    cr_expect_neq(key_of("4k3/8/8/8/8/8/8/4K2R w - - 0 1"), key_of("4k3/8/8/8/8/8/8/4K1R1 w - - 0 1"));
    cr_expect_neq(key_of("4k3/8/8/8/8/8/8/4K2R w - - 0 1"), key_of("4k3/8/8/8/8/8/8/4K2Q w - - 0 1"));
    cr_expect_neq(key_of("4k3/8/8/8/8/8/8/4K2R w - - 0 1"), key_of("4k3/8/8/8/8/8/8/4K2r w - - 0 1"));
}

/* Every ply of every mainline: the carried key equals a fresh one.  Captures,
 * en passant, promotions and castling (Chess960's too) all occur in these files. */
static void carried_equals_fresh(const char *path)
{
    size_t len;
    char *data = th_slurp(path, &len);
    struct diag err;
    struct game_options opts = {0};
    struct game_replayer *rp = game_replayer_new(&opts, &err);
    struct pgn_reader *rd = pgn_reader_from_memory(data, len, path, NULL);
    struct pgn_game g;
    size_t plies = 0;
    while (pgn_reader_next(rd, &g, &err) == 1) {
        const struct game_record *rec = game_replay(rp, &g);
        if (!rec->started || rec->start.variant)
            continue;
        struct position before = rec->start, after;
        struct poskey_carry key;
        poskey_carry_init(&key, &before);
        for (size_t i = 0; i < rec->mainline_count; i++, plies++) {
            after = before;
            position_do_move(&after, rec->mainline[i]);
            cr_assert_eq(poskey_carry_move(&key, &before, &after), poskey_of(&after),
                         "%s game %llu ply %zu", path, (unsigned long long)g.index, i + 1);
            before = after;
        }
    }
    cr_expect_gt(plies, 1000, "%s: %zu plies", path, plies);
    pgn_reader_free(rd);
    game_replayer_free(rp);
    free(data);
}

Test(poskey, carried_key_equals_fresh_key)
{
    carried_equals_fresh("testdata/pgn/tcec/TCEC_Season_10_-_Superfinal.pgn");
    carried_equals_fresh("testdata/pgn/tcec/TCEC_Season_16_-_Frc_Sufi.pgn");
    carried_equals_fresh("testdata/pgn/pgn-extract/fischer.pgn");
    carried_equals_fresh("testdata/pgn/chess.js/benchmark.pgn");
}

static uint64_t variant_key_of(enum variant v, const char *fen)
{
    struct position pos;
    struct diag err;
    cr_assert_eq(fen_parse_variant(&pos, fen, strlen(fen), false, v, &err), 0, "%s: %s", fen,
                 err.message);
    return poskey_of(&pos);
}

/* A variant's state is part of the position for repetitions (python-chess's
 * _transposition_key and chessops agree): pockets and promoted marks in Crazyhouse,
 * the checks left in Three-check. */
Test(poskey, variant_state_counts)
{
    cr_expect_neq(variant_key_of(VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/R3K3[N] w - - 0 1"),
                  variant_key_of(VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/R3K3[n] w - - 0 1"));
    cr_expect_neq(variant_key_of(VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/R3K3[] w - - 0 1"),
                  variant_key_of(VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/R3K3[P] w - - 0 1"));
    cr_expect_neq(variant_key_of(VARIANT_CRAZYHOUSE, "4k3/7Q/8/8/8/8/8/R3K3[] w - - 0 1"),
                  variant_key_of(VARIANT_CRAZYHOUSE, "4k3/7Q~/8/8/8/8/8/R3K3[] w - - 0 1"));
    cr_expect_eq(variant_key_of(VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/R3K3[Nb] w - - 0 1"),
                 variant_key_of(VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/R3K3/bN w - - 7 30"));
    cr_expect_neq(variant_key_of(VARIANT_THREE_CHECK, "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1"),
                  variant_key_of(VARIANT_THREE_CHECK, "4k3/8/8/8/8/8/8/R3K3 w - - 2+3 0 1"));
    cr_expect_eq(variant_key_of(VARIANT_THREE_CHECK, "4k3/8/8/8/8/8/8/R3K3 w - - 2+3 0 1"),
                 variant_key_of(VARIANT_THREE_CHECK, "4k3/8/8/8/8/8/8/R3K3 w - - 4 9 +1+0"));
}

/* The carried key follows drops, captures into the pocket and promotions with '~'. */
Test(poskey, carried_key_in_crazyhouse)
{
    struct position pos;
    struct diag err;
    const char *fen = "4k3/1P6/8/8/8/8/8/R3K3[Nn] w - - 0 1";
    cr_assert_eq(fen_parse_variant(&pos, fen, strlen(fen), false, VARIANT_CRAZYHOUSE, &err), 0,
                 "%s", err.message);
    struct poskey_carry carry;
    poskey_carry_init(&carry, &pos);
    for (int ply = 0; ply < 40; ply++) {
        struct move moves[MAX_MOVES];
        int n = rules_legal_moves(&pos, moves);
        if (n == 0)
            break;
        for (int i = 0; i < n; i++) { /* every move: promotions, drops, captures */
            struct poskey_carry c = carry;
            struct position next = pos;
            rules_do_move(&next, moves[i]);
            cr_assert_eq(poskey_carry_move(&c, &pos, &next), poskey_of(&next), "ply %d move %d",
                         ply, i);
        }
        struct position before = pos;
        rules_do_move(&pos, moves[(ply * 7) % n]);
        poskey_carry_move(&carry, &before, &pos);
    }
}

/* Without its variant part, a variant position keys as the board alone (--reaches). */
Test(poskey, variant_part_comes_off)
{
    const char *board = "4k3/7Q/8/8/8/8/8/R3K3 w - - 0 1";
    struct position pos;
    struct diag err;
    const char *zh = "4k3/7Q~/8/8/8/8/8/R3K3[Nnp] w - - 0 1";
    cr_assert_eq(fen_parse_variant(&pos, zh, strlen(zh), false, VARIANT_CRAZYHOUSE, &err), 0);
    cr_expect_eq(poskey_of(&pos) ^ poskey_variant(&pos), key_of(board));
    const char *tc = "4k3/7Q/8/8/8/8/8/R3K3 w - - 1+2 0 1";
    cr_assert_eq(fen_parse_variant(&pos, tc, strlen(tc), false, VARIANT_THREE_CHECK, &err), 0);
    cr_expect_eq(poskey_of(&pos) ^ poskey_variant(&pos), key_of(board));
    cr_expect_eq(poskey_variant(&pos) != 0, true);
}
