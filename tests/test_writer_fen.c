/*
 * test_writer_fen.c - `fen --every` rebuilds only the ranks a move touched; every line
 * must still equal a FEN written from scratch (fen_write) for the same ply.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers/helpers.h"
#include "board/fen.h"
#include "game/game.h"
#include "board/movegen.h"
#include "write/writer.h"

/* Castling both ways, e.p., promotions, null moves, Chess960, FEN starts. */
static const char *const files[] = {
    "testdata/pgn/pgn-extract/odds.pgn",          "testdata/pgn/pgn-extract/test-7.pgn",
    "testdata/pgn/pgn-extract/test-promotion-in.pgn", "testdata/pgn/pgn-extract/petrosian.pgn",
    "testdata/pgn/pgn-extract/test-allownullmoves.pgn", "testdata/pgn/chess.js/benchmark.pgn",
    "testdata/pgn/tcec/TCEC_Season_16_-_Frc_Sufi.pgn",
};

static void check_file(const char *path, unsigned flags)
{
    size_t len;
    char *data = th_slurp(path, &len);
    struct game_options gopts = {0};
    struct diag err;
    struct game_replayer *r = game_replayer_new(&gopts, &err);
    struct pgn_reader *reader = pgn_reader_from_memory(data, len, path, NULL);
    struct writer_options wopts = {.fen_mode = FEN_MODE_EVERY, .fen_flags = flags};
    struct buf out;
    buf_init(&out);
    struct pgn_game g;
    size_t plies = 0;
    while (pgn_reader_next(reader, &g, &err) == 1) {
        const struct game_record *rec = game_replay(r, &g);
        buf_clear(&out);
        writer_fen(&out, rec, &wopts);
        struct position pos = rec->start;
        const char *line = out.data;
        for (size_t i = 0; i < rec->mainline_count; i++, plies++) {
            position_do_move(&pos, rec->mainline[i]);
            char want[FEN_MAX + 32];
            int n = snprintf(want, sizeof want, "%llu\t%zu\t", (unsigned long long)g.index, i + 1);
            fen_write(&pos, want + n, sizeof want - (size_t)n, flags);
            const char *eol = strchr(line, '\n');
            cr_assert_not_null(eol);
            cr_assert_eq((size_t)(eol - line), strlen(want), "%s game %llu ply %zu", path,
                         (unsigned long long)g.index, i + 1);
            cr_assert(memcmp(line, want, strlen(want)) == 0, "%s: %.*s vs %s", path,
                      (int)(eol - line), line, want);
            line = eol + 1;
        }
    }
    cr_assert_gt(plies, 0);
    buf_release(&out);
    pgn_reader_free(reader);
    game_replayer_free(r);
    free(data);
}

Test(writer_fen, every_ply_equals_a_fen_written_from_scratch)
{
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        check_file(files[i], 0);
        check_file(files[i], FEN_EP_LEGAL);
        check_file(files[i], FEN_SHREDDER);
    }
}

/* The lines writer_fen writes for a game of `count` moves from *start, each checked
 * against fen_write of the position position_do_move reached. */
static void check_moves(const struct position *start, const struct move *moves, size_t count,
                        unsigned flags, const char *fen)
{
    struct pgn_game g = {.index = 7};
    struct game_record rec = {.game = &g, .started = true, .start = *start,
                              .mainline = moves, .mainline_count = count};
    struct writer_options wopts = {.fen_mode = FEN_MODE_EVERY, .fen_flags = flags};
    struct buf out, want;
    buf_init(&out);
    buf_init(&want);
    writer_fen(&out, &rec, &wopts);
    struct position pos = *start;
    for (size_t i = 0; i < count; i++) {
        position_do_move(&pos, moves[i]);
        char text[FEN_MAX];
        fen_write(&pos, text, sizeof text, flags);
        buf_printf(&want, "7\t%zu\t%s\n", i + 1, text);
    }
    cr_assert_str_eq(out.data ? out.data : "", want.data, "from %s, flags %u", fen, flags);
    buf_release(&out);
    buf_release(&want);
}

/* Every legal move of pos, and with `replies` every legal reply to it: castling both
 * ways, rights lost by a king's or rook's move or a capture on a rook's square, double
 * pushes then e.p. captures (or not), promotions. */
static long check_position(const struct position *pos, const char *fen, bool replies)
{
    static const unsigned flag_sets[] = {0, FEN_EP_LEGAL, FEN_SHREDDER};
    struct move moves[MAX_MOVES], next[MAX_MOVES];
    int n = movegen_legal(pos, moves);
    long games = 0;
    for (int i = 0; i < n; i++) {
        struct position after = *pos;
        position_do_move(&after, moves[i]);
        int k = replies ? movegen_legal(&after, next) : 0;
        for (size_t f = 0; f < sizeof flag_sets / sizeof *flag_sets; f++) {
            check_moves(pos, &moves[i], 1, flag_sets[f], fen);
            for (int j = 0; j < k; j++) {
                struct move two[2] = {moves[i], next[j]};
                check_moves(pos, two, 2, flag_sets[f], fen);
            }
        }
        games += 1 + k;
    }
    return games;
}

/* Every position of an EPD file (th_next_epd_line), with its replies. */
static long check_epd_file(const char *path, bool chess960)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    struct position pos;
    char fen[512];
    long games = 0;
    while (th_next_epd_line(f, chess960, &pos, fen, sizeof fen))
        games += check_position(&pos, fen, true);
    fclose(f);
    return games;
}

Test(writer_fen, every_move_and_reply_of_the_perft_positions_equals_fen_write, .timeout = 240)
{
    long games = check_epd_file("testdata/perft/standard.epd", false);
    games += check_epd_file("testdata/perft/fischer.epd", true); /* X-FEN and Shredder rights */
    FILE *f = fopen("testdata/perft/random.perft", "r");
    cr_assert_not_null(f);
    char fen[256];
    struct position pos;
    while (th_next_epd(f, &pos, fen, sizeof fen))
        games += check_position(&pos, fen, false);
    fclose(f);
    cr_assert_gt(games, 500000);
}
