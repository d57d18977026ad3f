/*
 * test_writer_fen.c - `fen --every` rebuilds only the ranks a move touched; every line
 * must still equal a FEN written from scratch (fen_write) for the same ply.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers/helpers.h"
#include "pgnkit/fen.h"
#include "pgnkit/game.h"
#include "pgnkit/writer.h"

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
