/*
 * test_corpus.c - every shared PGN file converts exactly as its expected output says.
 *
 * Expectations come from an independent implementation (testdata/README.md):
 * X.pgnextract.tsv where it exists (PGN-standard game splitting), else X.oracle.tsv.
 * Per game: status (ok / error), the UCI moves played (before the error, if any) and
 * the final FEN.  The mutants file must report the planted code at the planted ply and
 * nothing else.  The few inputs that are not PGN are checked for clear diagnostics.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers/helpers.h"
#include "base/buf.h"
#include "board/fen.h"
#include "game/game.h"
#include "pgn/pgn_reader.h"
#include "board/uci.h"
#include "board/rules.h"

/* One expected game: fields of an oracle line, pointing into the loaded file. */
struct expected {
    bool ok;
    const char *moves;
    const char *fen;
};

static size_t parse_expectations(char *text, struct expected **out)
{
    size_t cap = 64, n = 0;
    struct expected *e = malloc(cap * sizeof *e);
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char *f[4] = {0};
        int k = 0;
        for (char *p = line; k < 4; k++) {
            f[k] = p;
            char *tab = strchr(p, '\t');
            if (!tab)
                break;
            *tab = '\0';
            p = tab + 1;
        }
        if (n == cap)
            e = realloc(e, (cap *= 2) * sizeof *e);
        e[n].ok = strcmp(f[1], "ok") == 0;
        e[n].moves = f[2] ? f[2] : "";
        e[n].fen = f[3] ? f[3] : "";
        n++;
    }
    *out = e;
    return n;
}

static void uci_line(const struct game_record *rec, struct buf *b)
{
    buf_clear(b);
    struct position pos = rec->start;
    for (size_t i = 0; i < rec->mainline_count; i++) {
        char m[8];
        size_t len = uci_write_move(&pos, rec->mainline[i], false, m);
        if (i)
            buf_putc(b, ' ');
        buf_append(b, m, len);
        rules_do_move(&pos, rec->mainline[i]);
    }
    if (!b->data)
        buf_puts(b, "");
}

static void first_error(const struct game_record *rec, char *msg, size_t cap)
{
    snprintf(msg, cap, "(none)");
    for (size_t i = 0; i < rec->diags.count; i++)
        if (rec->diags.items[i].severity == DIAG_ERROR) {
            snprintf(msg, cap, "%s %llu:%llu %s", diag_code_name(rec->diags.items[i].code),
                     (unsigned long long)rec->diags.items[i].line,
                     (unsigned long long)rec->diags.items[i].col,
                     rec->diags.items[i].message);
            return;
        }
}

/* Compare one game with its expectation; returns the number of mismatches (0 or 1). */
static int compare_game(const char *name, const struct game_record *rec,
                        const struct expected *e, struct buf *b)
{
    uci_line(rec, b);
    char fen[128] = "";
    if (rec->started)
        fen_write(&rec->final, fen, sizeof fen, 0);
    bool ok = rec->status != GAME_ERRORS && rec->status != GAME_SKIPPED;
    if (ok == e->ok && strcmp(b->data, e->moves) == 0 && strcmp(fen, e->fen) == 0)
        return 0;
    char err[300];
    first_error(rec, err, sizeof err);
    cr_log_error("%s game %llu: status %s (expected %s), first error %s\n  moves %s\n"
                 "  expect %s\n  fen %s\n  expect %s",
                 name, (unsigned long long)rec->game->index, ok ? "ok" : "error",
                 e->ok ? "ok" : "error", err, b->data, e->moves, fen, e->fen);
    return 1;
}

static int compare_file(const char *pgn, const char *expect_path)
{
    size_t len, elen;
    char *data = th_slurp(pgn, &len);
    char *etext = th_slurp(expect_path, &elen);
    struct expected *e;
    size_t expected_games = parse_expectations(etext, &e);

    struct game_options opts = {0};
    struct diag err;
    struct game_replayer *r = game_replayer_new(&opts, &err);
    cr_assert_not_null(r);
    struct pgn_reader *reader = pgn_reader_from_memory(data, len, pgn, NULL);
    struct pgn_game g;
    struct buf b;
    buf_init(&b);
    size_t games = 0;
    int mismatches = 0;
    while (pgn_reader_next(reader, &g, &err) == 1) {
        const struct game_record *rec = game_replay(r, &g);
        if (games < expected_games)
            mismatches += compare_game(pgn, rec, &e[games], &b);
        games++;
    }
    if (games != expected_games) {
        cr_log_error("%s: %zu games read, %zu expected", pgn, games, expected_games);
        mismatches++;
    }
    buf_release(&b);
    pgn_reader_free(reader);
    game_replayer_free(r);
    free(e);
    free(etext);
    free(data);
    return mismatches;
}

static const char *const pgn_files[] = {
    "chess.js/1.pgn", "chess.js/2.pgn", "chess.js/3.pgn", "chess.js/benchmark.pgn",
    "pgn-extract/barnes-horton.pgn", "pgn-extract/bots.pgn", "pgn-extract/eco.pgn",
    "pgn-extract/fischer.pgn", "pgn-extract/fools-mate.pgn", "pgn-extract/najdorf.pgn",
    "pgn-extract/odds.pgn", "pgn-extract/petrosian.pgn", "pgn-extract/test-7.pgn",
    "pgn-extract/test-C.pgn", "pgn-extract/test-F-text.pgn", "pgn-extract/test-P.pgn",
    "pgn-extract/test-Ta.pgn", "pgn-extract/test-allownullmoves.pgn",
    "pgn-extract/test-checkmate.pgn", "pgn-extract/test-e.pgn", "pgn-extract/test-fifty.pgn",
    "pgn-extract/test-fixresulttags-in.pgn", "pgn-extract/test-fuzzydepth.pgn",
    "pgn-extract/test-hash.pgn", "pgn-extract/test-long-line.pgn",
    "pgn-extract/test-matchplylimit.pgn", "pgn-extract/test-nagcomments.pgn",
    "pgn-extract/test-nobadresults.pgn", "pgn-extract/test-nochecks.pgn",
    "pgn-extract/test-promotion-in.pgn", "pgn-extract/test-repetition.pgn",
    "pgn-extract/test-s.pgn", "pgn-extract/test-setup-in.pgn", "pgn-extract/test-seventyfive.pgn",
    "pgn-extract/test-splitvariants.pgn", "pgn-extract/test-stalemate.pgn",
    "pgn-extract/test-startply.pgn", "pgn-extract/test-t.pgn",
    "python-chess/anastasian-lewis.pgn", "python-chess/chessbase-empty-line.pgn",
    "python-chess/cutechess-fischerrandom.pgn", "python-chess/kasparov-deep-blue-1997.pgn",
    "python-chess/molinari-bordais-1979.pgn", "python-chess/nepomniachtchi-liren-game1.pgn",
    "python-chess/stockfish-learning.pgn", "python-chess/uci-moves.pgn",
    "python-chess/utf8-bom.pgn", "scalachess/pgn-render-wcc2023.pgn", "tcec/TCEC_Cup_9_Final.pgn",
    "tcec/TCEC_Match_1.pgn", "tcec/TCEC_Season_10_-_Superfinal.pgn",
    "tcec/TCEC_Season_16_-_Frc_Sufi.pgn", "tcec/TCEC_Season_20_-_Frc3_League_A.pgn",
    "tcec/TCEC_Season_22_-_Grob_10x_Odds.pgn", "tcec/TCEC_Season_24_-_Knight_Odds_Bonus.pgn",
    "tcec/TCEC_Season_25_-_Starting_Position_Vvltc_Bonus.pgn",
    "tcec/TCEC_Season_28_-_Entrance_League_Tiebreak_1.pgn", "mutants/mutants.pgn",
};

static bool exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

Test(corpus, every_shared_pgn_file_matches_its_expected_output, .timeout = 120)
{
    int total = 0;
    for (size_t i = 0; i < sizeof pgn_files / sizeof *pgn_files; i++) {
        char pgn[256], expect[300];
        snprintf(pgn, sizeof pgn, "testdata/pgn/%s", pgn_files[i]);
        snprintf(expect, sizeof expect, "%s.pgnextract.tsv", pgn);
        if (!exists(expect))
            snprintf(expect, sizeof expect, "%s.oracle.tsv", pgn);
        int m = compare_file(pgn, expect);
        if (m)
            cr_log_error("%s: %d mismatches", pgn, m);
        total += m;
    }
    cr_assert_eq(total, 0, "%d games differ from their expected output", total);
}

/* chess-openings rows are TSV (eco, name, movetext): each movetext is one game. */
Test(corpus, every_opening_line_matches_its_expected_output, .timeout = 120)
{
    static const char *const files[] = {"a", "b", "c", "d", "e"};
    struct game_options opts = {0};
    struct diag err;
    struct game_replayer *r = game_replayer_new(&opts, &err);
    struct buf b;
    buf_init(&b);
    int mismatches = 0;
    for (size_t f = 0; f < 5; f++) {
        char path[128], expect_path[160];
        snprintf(path, sizeof path, "testdata/pgn/chess-openings/%s.tsv", files[f]);
        snprintf(expect_path, sizeof expect_path, "%s.oracle.tsv", path);
        size_t len, elen;
        char *data = th_slurp(path, &len), *etext = th_slurp(expect_path, &elen);
        struct expected *e;
        size_t n = parse_expectations(etext, &e);
        size_t row = 0;
        char *save = NULL;
        strtok_r(data, "\n", &save); /* header */
        for (char *line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            char *movetext = strrchr(line, '\t') + 1;
            struct pgn_reader *reader =
                pgn_reader_from_memory(movetext, strlen(movetext), path, NULL);
            struct pgn_game g;
            cr_assert_eq(pgn_reader_next(reader, &g, &err), 1);
            cr_assert_lt(row, n);
            mismatches += compare_game(path, game_replay(r, &g), &e[row], &b);
            pgn_reader_free(reader);
            row++;
        }
        cr_assert_eq(row, n, "%s: %zu rows, %zu expected", path, row, n);
        free(e);
        free(etext);
        free(data);
    }
    buf_release(&b);
    game_replayer_free(r);
    cr_assert_eq(mismatches, 0);
}

/* ---- mutants: the planted defect, at the planted ply, and nothing else ---- */

static enum diag_code code_for_kind(const char *kind)
{
    static const struct {
        const char *kind;
        enum diag_code code;
    } table[] = {
        {"ambiguous", DIAG_AMBIGUOUS},          {"check-for-mate", DIAG_MATE_MISSING},
        {"illegal-castle", DIAG_ILLEGAL},       {"illegal-pinned", DIAG_ILLEGAL},
        {"illegal-unreachable", DIAG_ILLEGAL},  {"mate-for-check", DIAG_MATE_SPURIOUS},
        {"missing-capture", DIAG_CAPTURE_MISSING}, {"missing-check", DIAG_CHECK_MISSING},
        {"overdisambiguated", DIAG_OVER_DISAMBIGUATED},
        {"spurious-capture", DIAG_CAPTURE_SPURIOUS}, {"spurious-check", DIAG_CHECK_SPURIOUS},
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (strcmp(kind, table[i].kind) == 0)
            return table[i].code;
    cr_assert_fail("unknown mutant kind %s", kind);
    return DIAG_OK;
}

Test(corpus, every_mutant_reports_the_planted_code_at_the_planted_ply, .timeout = 60)
{
    size_t len, mlen;
    char *data = th_slurp("testdata/pgn/mutants/mutants.pgn", &len);
    char *manifest = th_slurp("testdata/pgn/mutants/mutants.manifest.tsv", &mlen);
    struct game_options opts = {.san = {.strict = true}};
    struct diag err;
    struct game_replayer *r = game_replayer_new(&opts, &err);
    struct pgn_reader *reader = pgn_reader_from_memory(data, len, "mutants.pgn", NULL);
    char *save = NULL;
    strtok_r(manifest, "\n", &save); /* header */
    int bad = 0, games = 0;
    for (char *line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        unsigned game, ply;
        char kind[32];
        cr_assert_eq(sscanf(line, "%u\t%u\t%31s", &game, &ply, kind), 3);
        struct pgn_game g;
        cr_assert_eq(pgn_reader_next(reader, &g, &err), 1, "game %u missing", game);
        cr_assert_eq(g.index, game);
        const struct game_record *rec = game_replay(r, &g);
        enum diag_code want = code_for_kind(kind);
        bool found = false;
        for (size_t i = 0; i < rec->diags.count; i++) {
            const struct diag *d = &rec->diags.items[i];
            if (d->code == want && d->ply == ply && !found) {
                found = true;
                continue;
            }
            cr_log_error("mutant %u (%s at ply %u): unplanted %s at ply %u: %s", game, kind, ply,
                         diag_code_name(d->code), d->ply, d->message);
            bad++;
        }
        if (!found) {
            cr_log_error("mutant %u: %s at ply %u not reported", game, kind, ply);
            bad++;
        }
        games++;
    }
    cr_assert_eq(games, 440);
    cr_assert_eq(bad, 0, "%d mutant problems", bad);
    pgn_reader_free(reader);
    game_replayer_free(r);
    free(manifest);
    free(data);
}
