/* test_api.c - the public API (pgnkit.h) on games whose moves and positions are worked
 * out by hand here; under make asan, LeakSanitizer checks that readers and detached
 * games free everything. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pgnkit/pgnkit.h"

static const char two_games[] =
    "[Event \"Ruy\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n"
    "1. e4 { [%clk 0:03:00] [%eval 0.31] } e5 { [%clk 0:02:59.5] } 2. Nf3 { [%eval #-2] } "
    "Nc6 3. Bb5 a6 *\n\n"
    "[Event \"Bad\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 Nf6 *\n";

static pgnkit_reader *open_text(const char *text)
{
    pgnkit_error err;
    pgnkit_reader *r = pgnkit_open_memory(text, strlen(text), "mem.pgn", NULL, &err);
    cr_assert_not_null(r, "%s", err.message);
    return r;
}

static char *str(pgnkit_str s)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "%.*s", (int)s.len, s.ptr ? s.ptr : "");
    return buf;
}

Test(api, version_macros_match_the_library)
{
    cr_assert_eq(pgnkit_version_number(), PGNKIT_VERSION_NUMBER);
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", PGNKIT_VERSION_MAJOR, PGNKIT_VERSION_MINOR,
             PGNKIT_VERSION_PATCH);
    cr_assert_str_eq(pgnkit_version(), want);
}

/* 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6: six plies, each from the opening position by hand. */
Test(api, moves_positions_tags_and_comments)
{
    pgnkit_reader *r = open_text(two_games);
    pgnkit_game *g;
    pgnkit_error err;
    cr_assert_eq(pgnkit_next(r, &g, &err), 1);
    cr_assert_eq(pgnkit_game_index(g), 1);
    cr_assert_eq(pgnkit_game_offset(g), 0);
    cr_assert_eq(pgnkit_game_line(g), 1);
    cr_assert_str_eq(pgnkit_game_file(g), "mem.pgn");
    cr_assert_eq(pgnkit_game_status(g), PGNKIT_STATUS_OK);
    cr_assert_eq(pgnkit_game_tag_count(g), 4);
    cr_assert_str_eq(str(pgnkit_game_tag_value(g, "White")), "A");
    cr_assert_null(pgnkit_game_tag_value(g, "white").ptr, "tag names are case-sensitive");
    cr_assert_str_eq(str(pgnkit_game_result(g)), "*");
    static const char *const uci[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"};
    static const char *const san[] = {"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"};
    cr_assert_eq(pgnkit_game_ply_count(g), 6);
    for (size_t ply = 1; ply <= 6; ply++) {
        char text[PGNKIT_SAN_MAX];
        cr_assert_eq(pgnkit_game_uci(g, ply, text), strlen(uci[ply - 1]));
        cr_assert_str_eq(text, uci[ply - 1]);
        pgnkit_game_san(g, ply, text);
        cr_assert_str_eq(text, san[ply - 1]);
    }
    char fen[PGNKIT_FEN_MAX];
    pgnkit_game_fen(g, 6, fen);
    cr_assert_str_eq(fen, "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4");
    pgnkit_game_fen(g, 1, fen); /* backwards: the cursor starts over */
    cr_assert_str_eq(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    pgnkit_game_fen(g, 0, fen);
    cr_assert_str_eq(fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    cr_assert_eq(pgnkit_game_uci(g, 7, fen), 0, "past the end");
    double seconds;
    cr_assert_eq(pgnkit_game_clock(g, 1, &seconds), 1);
    cr_assert_float_eq(seconds, 180.0, 1e-9);
    cr_assert_eq(pgnkit_game_clock(g, 2, &seconds), 1);
    cr_assert_float_eq(seconds, 179.5, 1e-9);
    cr_assert_eq(pgnkit_game_clock(g, 3, &seconds), 0);
    pgnkit_eval ev;
    cr_assert_eq(pgnkit_game_eval(g, 1, &ev), 1);
    cr_assert(!ev.is_mate && ev.pawns == 0.31);
    cr_assert_eq(pgnkit_game_eval(g, 3, &ev), 1);
    cr_assert(ev.is_mate && ev.mate_in == -2);
    cr_assert_eq(pgnkit_game_eval(g, 4, &ev), 0);
    pgnkit_close(r);
}

/* 2. Ke3: the e1 king cannot reach e3 (two squares), so the mainline stops at ply 3. */
Test(api, illegal_moves_are_diagnostics_not_errors)
{
    pgnkit_reader *r = open_text(two_games);
    pgnkit_game *g;
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    cr_assert_eq(pgnkit_game_status(g), PGNKIT_STATUS_ERRORS);
    cr_assert_eq(pgnkit_game_ply_count(g), 2);
    cr_assert_eq(pgnkit_game_error_ply(g), 3);
    cr_assert_geq(pgnkit_game_diagnostic_count(g), 1);
    pgnkit_diagnostic d;
    cr_assert_eq(pgnkit_game_diagnostic(g, 0, &d), 0);
    cr_assert_str_eq(d.code, "ILLEGAL");
    cr_assert_eq(d.is_error, 1);
    cr_assert_eq(d.ply, 3);
    cr_assert_str_eq(d.san, "Ke3");
    cr_assert_eq(d.line, 11);
    cr_assert_eq(pgnkit_game_diagnostic(g, 99, &d), -1);
    cr_assert_eq(pgnkit_next(r, &g, NULL), 0, "two games, then the end");
    pgnkit_close(r);
}

Test(api, a_detached_game_outlives_the_next_one_and_the_reader)
{
    pgnkit_reader *r = open_text(two_games);
    pgnkit_game *g;
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    pgnkit_game *kept = pgnkit_game_detach(g);
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    pgnkit_close(r);
    char text[PGNKIT_FEN_MAX];
    cr_assert_str_eq(str(pgnkit_game_tag_value(kept, "Event")), "Ruy");
    cr_assert_str_eq(pgnkit_game_file(kept), "mem.pgn");
    cr_assert_eq(pgnkit_game_ply_count(kept), 6);
    pgnkit_game_san(kept, 5, text);
    cr_assert_str_eq(text, "Bb5");
    double seconds;
    cr_assert_eq(pgnkit_game_clock(kept, 2, &seconds), 1);
    cr_assert_float_eq(seconds, 179.5, 1e-9);
    cr_assert_str_eq(str(pgnkit_game_result(kept)), "*");
    pgnkit_game_free(kept);
    pgnkit_game_free(NULL);
}

Test(api, file_and_descriptor_sources)
{
    char path[] = "/tmp/pgnkit-api-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, two_games, strlen(two_games)), (ssize_t)strlen(two_games));
    lseek(fd, 0, SEEK_SET);
    pgnkit_game *g;
    pgnkit_reader *r = pgnkit_open_fd(fd, "fd.pgn", NULL, NULL);
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    cr_assert_str_eq(pgnkit_game_file(g), "fd.pgn");
    pgnkit_close(r);
    cr_assert_neq(fcntl(fd, F_GETFD), -1, "the caller's descriptor stays open");
    close(fd);
    r = pgnkit_open_path(path, NULL, NULL);
    int games = 0;
    while (pgnkit_next(r, &g, NULL) == 1)
        games++;
    cr_assert_eq(games, 2);
    pgnkit_close(r);
    unlink(path);
}

Test(api, open_failures_are_error_values)
{
    pgnkit_error err;
    cr_assert_null(pgnkit_open_path("/nonexistent/x.pgn", NULL, &err));
    cr_assert_eq(err.code, ENOENT);
    cr_assert(strstr(err.message, "/nonexistent/x.pgn"), "%s", err.message);
    cr_assert_null(pgnkit_open_path("/tmp", NULL, &err));
    cr_assert_eq(err.code, EISDIR);
    cr_assert_null(pgnkit_open_path("/nonexistent/x.pgn", NULL, NULL), "err may be NULL");
}

Test(api, options_reach_the_replay)
{
    /* Nbd2 from the start position: only the b1 knight can reach d2 (g1 cannot), so the
     * b is an origin hint that is not needed: a warning only under strict. */
    static const char text[] = "1. d4 d5 2. Nbd2 *\n";
    pgnkit_options opts;
    pgnkit_options_init(&opts);
    pgnkit_game *g;
    pgnkit_reader *r = pgnkit_open_memory(text, strlen(text), NULL, &opts, NULL);
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    cr_assert_eq(pgnkit_game_status(g), PGNKIT_STATUS_OK);
    pgnkit_close(r);
    opts.flags = PGNKIT_STRICT;
    r = pgnkit_open_memory(text, strlen(text), NULL, &opts, NULL);
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    cr_assert_eq(pgnkit_game_status(g), PGNKIT_STATUS_WARNINGS);
    pgnkit_diagnostic d;
    pgnkit_game_diagnostic(g, 0, &d);
    cr_assert_str_eq(d.code, "OVER_DISAMBIGUATED");
    pgnkit_close(r);
}

Test(api, ep_legal_names_the_square_only_when_a_capture_exists)
{
    /* After 1. e4 no black pawn can take on e3; after 2... f5 the e5 pawn can take f6. */
    static const char text[] = "1. e4 d5 2. e5 f5 *\n";
    pgnkit_options opts;
    pgnkit_options_init(&opts);
    opts.flags = PGNKIT_EP_LEGAL;
    pgnkit_game *g;
    pgnkit_reader *r = pgnkit_open_memory(text, strlen(text), NULL, &opts, NULL);
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    char fen[PGNKIT_FEN_MAX];
    pgnkit_game_fen(g, 1, fen);
    cr_assert_str_eq(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    pgnkit_game_fen_ep(g, 1, fen, 0);
    cr_assert_str_eq(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    pgnkit_game_fen(g, 4, fen);
    cr_assert_str_eq(fen, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    pgnkit_game *kept = pgnkit_game_detach(g);
    pgnkit_close(r);
    pgnkit_game_fen(kept, 1, fen);
    cr_assert_str_eq(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    pgnkit_game_free(kept);
}

/* Save g and load it back: a game answering every question as g does. */
static pgnkit_game *save_and_load(pgnkit_game *g)
{
    size_t len = pgnkit_game_save(g, NULL, 0);
    char *data = malloc(len);
    cr_assert_eq(pgnkit_game_save(g, data, len), len);
    pgnkit_error err;
    for (size_t cut = 0; cut < len; cut++) {
        cr_assert_null(pgnkit_game_load(data, cut, &err), "a save cut at %zu loaded", cut);
        cr_assert_eq(err.code, EINVAL);
    }
    pgnkit_game *copy = pgnkit_game_load(data, len, &err);
    cr_assert_not_null(copy, "%s", err.message);
    free(data);
    return copy;
}

static void assert_same_game(pgnkit_game *a, pgnkit_game *b)
{
    cr_assert_str_eq(pgnkit_game_file(a), pgnkit_game_file(b));
    cr_assert_eq(pgnkit_game_index(a), pgnkit_game_index(b));
    cr_assert_eq(pgnkit_game_offset(a), pgnkit_game_offset(b));
    cr_assert_eq(pgnkit_game_bytes(a), pgnkit_game_bytes(b));
    cr_assert_eq(pgnkit_game_line(a), pgnkit_game_line(b));
    cr_assert_eq(pgnkit_game_status(a), pgnkit_game_status(b));
    cr_assert_eq(pgnkit_game_ending(a), pgnkit_game_ending(b));
    cr_assert_eq(pgnkit_game_error_ply(a), pgnkit_game_error_ply(b));
    char want[256];
    snprintf(want, sizeof want, "%s", str(pgnkit_game_result(a)));
    cr_assert_str_eq(str(pgnkit_game_result(b)), want);
    cr_assert_eq(pgnkit_game_tag_count(a), pgnkit_game_tag_count(b));
    for (size_t i = 0; i < pgnkit_game_tag_count(a); i++) {
        pgnkit_str name, value, copy_name, copy_value;
        pgnkit_game_tag(a, i, &name, &value);
        pgnkit_game_tag(b, i, &copy_name, &copy_value);
        snprintf(want, sizeof want, "%s", str(name));
        cr_assert_str_eq(str(copy_name), want);
        snprintf(want, sizeof want, "%s", str(value));
        cr_assert_str_eq(str(copy_value), want);
    }
    cr_assert_eq(pgnkit_game_ply_count(a), pgnkit_game_ply_count(b));
    for (size_t ply = 0; ply <= pgnkit_game_ply_count(a); ply++) {
        char x[PGNKIT_FEN_MAX], y[PGNKIT_FEN_MAX];
        cr_assert_eq(pgnkit_game_fen(a, ply, x), pgnkit_game_fen(b, ply, y));
        cr_assert_str_eq(x, y);
        cr_assert_eq(pgnkit_game_san(a, ply, x), pgnkit_game_san(b, ply, y));
        cr_assert_str_eq(x, y);
        double s = 0, t = 0;
        cr_assert_eq(pgnkit_game_clock(a, ply, &s), pgnkit_game_clock(b, ply, &t));
        cr_assert_eq(s, t);
        pgnkit_eval e = {0}, f = {0};
        cr_assert_eq(pgnkit_game_eval(a, ply, &e), pgnkit_game_eval(b, ply, &f));
        cr_assert(e.is_mate == f.is_mate && e.pawns == f.pawns && e.mate_in == f.mate_in);
    }
    cr_assert_eq(pgnkit_game_diagnostic_count(a), pgnkit_game_diagnostic_count(b));
    for (size_t i = 0; i < pgnkit_game_diagnostic_count(a); i++) {
        pgnkit_diagnostic d, e;
        pgnkit_game_diagnostic(a, i, &d);
        pgnkit_game_diagnostic(b, i, &e);
        cr_assert_str_eq(d.code, e.code);
        cr_assert(d.is_error == e.is_error && d.line == e.line && d.col == e.col &&
                  d.ply == e.ply);
        cr_assert_str_eq(d.message, e.message);
        cr_assert_str_eq(d.san, e.san);
        cr_assert_str_eq(d.fen, e.fen);
        cr_assert_str_eq(d.candidates, e.candidates);
    }
}

Test(api, a_saved_game_loads_as_the_same_game)
{
    pgnkit_reader *r = open_text(two_games);
    pgnkit_game *g;
    for (int i = 0; i < 2; i++) { /* clocks and evals; then an illegal move */
        cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
        pgnkit_game *copy = save_and_load(g);
        assert_same_game(g, copy);
        pgnkit_game *again = save_and_load(copy); /* a loaded game saves too */
        assert_same_game(g, again);
        pgnkit_game_free(again);
        pgnkit_game_free(copy);
    }
    cr_assert_eq(pgnkit_game_diagnostic_count(g), 1);
    pgnkit_close(r);
    pgnkit_error err;
    cr_assert_null(pgnkit_game_load("PGNKITG", 8, &err));
    cr_assert_eq(err.code, EINVAL);
}

/* Write text to dir/name. */
static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

/*
 * An archive made here by zip(1): a.pgn (two games), notes.txt (not PGN: passed over), b.pgn
 * (one game), in that order.  The library reads every .pgn member, as the command line does
 * (it read only the first before): games named "archive.zip:a.pgn", index and line counted
 * per member, and pgnkit_game_member() names the member, a detached game's too.
 */
Test(api, every_pgn_member_of_an_archive_in_order)
{
    char dir[] = "/tmp/pgnkit-api-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    write_file(dir, "a.pgn", two_games);
    write_file(dir, "notes.txt", "[Event \"not read\"]\n\n1. d4 *\n");
    write_file(dir, "b.pgn", "\n[Event \"B1\"]\n\n1. c4 *\n");
    char cmd[1024], zip[600];
    snprintf(cmd, sizeof cmd, "cd %s && zip -q archive.zip a.pgn notes.txt b.pgn", dir);
    cr_assert_eq(system(cmd), 0, "zip(1) is needed: %s", cmd);
    snprintf(zip, sizeof zip, "%s/archive.zip", dir);

    pgnkit_error err;
    pgnkit_reader *r = pgnkit_open_path(zip, NULL, &err);
    cr_assert_not_null(r, "%s", err.message);
    static const struct {
        const char *member, *event;
        uint64_t index, line;
    } want[] = {{"a.pgn", "Ruy", 1, 1}, {"a.pgn", "Bad", 2, 8}, {"b.pgn", "B1", 1, 2}};
    pgnkit_game *g, *kept = NULL;
    for (size_t k = 0; k < 3; k++) {
        cr_assert_eq(pgnkit_next(r, &g, &err), 1, "game %zu: %s", k + 1, err.message);
        char file[700];
        snprintf(file, sizeof file, "%s:%s", zip, want[k].member);
        cr_assert_str_eq(pgnkit_game_file(g), file);
        cr_assert_str_eq(pgnkit_game_member(g), want[k].member);
        cr_assert_str_eq(str(pgnkit_game_tag_value(g, "Event")), want[k].event);
        cr_assert_eq(pgnkit_game_index(g), want[k].index);
        cr_assert_eq(pgnkit_game_line(g), want[k].line);
        if (k == 1)
            kept = pgnkit_game_detach(g);
    }
    cr_assert_eq(pgnkit_next(r, &g, &err), 0, "three games, then the end");
    cr_assert_eq(pgnkit_next(r, &g, &err), 0, "the end stays the end");
    pgnkit_close(r);
    cr_assert_str_eq(pgnkit_game_member(kept), "a.pgn");
    pgnkit_game_free(kept);

    r = open_text(two_games);
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    cr_assert_null(pgnkit_game_member(g), "no archive, no member");
    pgnkit_close(r);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

static bool same_text(pgnkit_str s, const char *want)
{
    return s.ptr && s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

/* The comments of nodes 1..4 of comments_text, by hand: one-line comments trimmed (kept
 * as places in the input bytes), two joined by a space, a line comment without its ';'. */
static const char comments_text[] = "1. e4 { a [%clk 0:01:00] } e5 {one} { two } "
                                    "2. Nf3 {multi \n line} Nc6 ;line comment\n *\n\n";
static const char *const comments_want[] = {"a [%clk 0:01:00]", "one two", "multi\n line",
                                            "line comment"};

static void check_comment_batch(pgnkit_game *g)
{
    pgnkit_str c[6];
    cr_assert_eq(pgnkit_game_node_comments(g, 1, 6, c), 4, "four nodes, no more");
    for (size_t i = 0; i < 4; i++)
        cr_assert(same_text(c[i], comments_want[i]), "node %zu: '%.*s'", i + 1,
                  (int)c[i].len, c[i].ptr ? c[i].ptr : "");
    cr_assert_eq(pgnkit_game_node_comments(g, 0, 2, c + 4), 0, "node 0 is no move");
    cr_assert_eq(pgnkit_game_node_comments(g, 5, 1, c + 4), 0);
    cr_assert_eq(pgnkit_game_node_comments(g, 4, 2, c + 4), 1);
    double clock;
    cr_assert(pgnkit_game_clock(g, 1, &clock) && clock == 60.0);
    /* Asked NUL-terminated: the same text, and the batch's pointers still valid. */
    for (size_t i = 0; i < 4; i++) {
        pgnkit_str n = pgnkit_game_node_comment(g, i + 1);
        cr_assert(same_text(n, comments_want[i]) && n.ptr[n.len] == '\0');
        cr_assert(same_text(c[i], comments_want[i]));
    }
}

Test(api, node_comments_in_a_batch_then_nul_terminated)
{
    size_t len = strlen(comments_text);
    char *text = malloc(2 * len + 1); /* the game twice */
    memcpy(text, comments_text, len);
    memcpy(text + len, comments_text, len + 1);
    pgnkit_error err;
    pgnkit_reader *r = pgnkit_open_memory(text, 2 * len, "mem.pgn", NULL, &err);
    cr_assert_not_null(r, "%s", err.message);
    pgnkit_game *g;
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    /* A detached game's tree asked for (replayed from its bytes) makes the next ones built
     * at detach, with places in the detached game's own copy of its bytes: still there
     * with the reader and its input gone (overwritten first, so that places in them would
     * show). */
    pgnkit_game *first = pgnkit_game_detach(g);
    pgnkit_str c;
    cr_assert_eq(pgnkit_game_node_comments(first, 2, 1, &c), 1);
    cr_assert(same_text(c, "one two"));
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    pgnkit_game *second = pgnkit_game_detach(g);
    check_comment_batch(g); /* the reader's game: places in the reader's bytes */
    pgnkit_close(r);
    memset(text, 'X', 2 * len);
    free(text);
    check_comment_batch(first);
    check_comment_batch(second);
    size_t size = pgnkit_game_save(second, NULL, 0);
    char *saved = malloc(size);
    cr_assert_eq(pgnkit_game_save(second, saved, size), size);
    pgnkit_game *loaded = pgnkit_game_load(saved, size, &err);
    cr_assert_not_null(loaded, "%s", err.message);
    check_comment_batch(loaded);
    free(saved);
    pgnkit_game_free(loaded);
    pgnkit_game_free(first);
    pgnkit_game_free(second);
}

/*
 * The move tree: 1. e4 {a} e5 $1 (1... c5?! {b} (1... e6 2. d4) 2. Nf3) {c} 2. Nf3! *
 * Nodes 1..3 are the mainline plies; the variation moves follow in file order: c5 (4),
 * e6 (5) and d4 (6) in the variation nested after c5, Nf3 (7) after c5.  The
 * FENs are worked out by hand from the opening position.
 */
Test(api, move_tree_comments_nags_and_variations)
{
    static const char text[] = "{ Before  \n it }  1. e4 { a [%clk 0:01:00] } e5 $1 "
                               "(1... c5?! {b} (1... e6 2. d4) 2. Nf3) {c} 2. Nf3! *\n";
    pgnkit_reader *r = open_text(text);
    pgnkit_game *g;
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    cr_assert_str_eq(str(pgnkit_game_comment(g)), "Before\n it");
    cr_assert_eq(pgnkit_game_node_count(g), 7);
    pgnkit_node n;
    cr_assert_eq(pgnkit_game_node(g, 8, &n), -1);
    cr_assert_eq(pgnkit_game_node(g, 0, &n), -1);
    cr_assert_null(pgnkit_game_node_comment(g, 0).ptr);
    cr_assert_null(pgnkit_game_node_comment(g, 8).ptr);
    cr_assert_str_eq(str(pgnkit_game_node_comment(g, 4)), "b");
    cr_assert_null(pgnkit_game_node_comment(g, 3).ptr, "Nf3! has none");
    cr_assert_eq(pgnkit_game_node(g, 1, &n), 0);
    cr_assert_str_eq(str(n.comment), "a [%clk 0:01:00]");
    cr_assert(n.has_clock && n.clock == 60.0 && !n.has_eval);
    cr_assert_eq(n.next, 2);
    cr_assert_eq(pgnkit_game_node(g, 2, &n), 0);
    cr_assert_str_eq(str(n.comment), "c", "the comment after the variation is e5's");
    cr_assert(n.nag_count == 1 && n.nags[0] == 1);
    cr_assert_eq(n.variation, 4);
    cr_assert_eq(pgnkit_game_node(g, 4, &n), 0);
    cr_assert(n.ply == 2 && n.parent == 1 && n.next == 7 && n.variation == 5);
    cr_assert(n.next_variation == 0 && n.nag_count == 1 && n.nags[0] == 6);
    cr_assert_str_eq(str(n.comment), "b");
    char buf[PGNKIT_FEN_MAX];
    pgnkit_game_node_san(g, 4, buf);
    cr_assert_str_eq(buf, "c5");
    pgnkit_game_node_uci(g, 6, buf);
    cr_assert_str_eq(buf, "d2d4");
    pgnkit_game_node_fen(g, 6, buf);
    cr_assert_str_eq(buf, "rnbqkbnr/pppp1ppp/4p3/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq d3 0 2");
    pgnkit_game_node_fen(g, 7, buf);
    cr_assert_str_eq(buf, "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    cr_assert_eq(pgnkit_game_node(g, 3, &n), 0);
    cr_assert(n.nag_count == 1 && n.nags[0] == 1 && n.next == 0, "Nf3! is $1");
    pgnkit_game *kept = pgnkit_game_detach(g);
    pgnkit_close(r);
    cr_assert_eq(pgnkit_game_node_count(kept), 7);
    pgnkit_game_node_san(kept, 5, buf);
    cr_assert_str_eq(buf, "e6");
    cr_assert_eq(pgnkit_game_node(kept, 5, &n), 0);
    cr_assert(n.next == 6 && n.parent == 1);
    cr_assert_str_eq(str(pgnkit_game_comment(kept)), "Before\n it");
    double clock;
    cr_assert(pgnkit_game_clock(kept, 1, &clock) && clock == 60.0);
    pgnkit_game_free(kept);
}

/* d's tree is g's: the same nodes, links, comments, NAGs, clocks, evals and positions. */
static void assert_same_tree(pgnkit_game *d, pgnkit_game *g)
{
    cr_assert_eq(pgnkit_game_node_count(d), pgnkit_game_node_count(g));
    cr_assert_str_eq(str(pgnkit_game_comment(d)), str(pgnkit_game_comment(g)));
    for (size_t i = 1; i <= pgnkit_game_node_count(g); i++) {
        pgnkit_node a, b;
        char sa[PGNKIT_FEN_MAX], sb[PGNKIT_FEN_MAX];
        cr_assert_eq(pgnkit_game_node(g, i, &a), 0);
        cr_assert_eq(pgnkit_game_node(d, i, &b), 0);
        cr_assert(a.ply == b.ply && a.parent == b.parent && a.next == b.next &&
                  a.variation == b.variation && a.next_variation == b.next_variation);
        cr_assert(a.comment.len == b.comment.len && (!a.comment.len ||
                  memcmp(a.comment.ptr, b.comment.ptr, a.comment.len) == 0), "node %zu", i);
        pgnkit_str c = pgnkit_game_node_comment(d, i);
        cr_assert(c.ptr == b.comment.ptr && c.len == b.comment.len, "node %zu", i);
        cr_assert(a.starting_comment.len == b.starting_comment.len, "node %zu", i);
        cr_assert(a.nag_count == b.nag_count && a.has_clock == b.has_clock &&
                  a.clock == b.clock && a.has_eval == b.has_eval &&
                  a.eval.pawns == b.eval.pawns && a.is_check == b.is_check);
        for (size_t k = 0; k < a.nag_count; k++)
            cr_assert_eq(a.nags[k], b.nags[k]);
        pgnkit_game_node_fen(g, i, sa);
        pgnkit_game_node_fen(d, i, sb);
        cr_assert_str_eq(sa, sb);
        pgnkit_game_node_san(g, i, sa);
        pgnkit_game_node_san(d, i, sb);
        cr_assert_str_eq(sa, sb);
    }
}

/* A game detached before any question about its tree builds it from its own bytes once
 * its reader is gone: the same nodes, comments, NAGs, clocks and evals as the reader's
 * game gives (the test above checks those by hand), here in Latin-1, which both must
 * decode alike; and a save of it holds the tree too. */
Test(api, a_tree_asked_only_after_detach_is_the_readers_tree)
{
    static const char text[] = "{ Caf\xe9 } 1. e4 { a [%clk 0:01:00] } e5 $1 "
                               "(1... c5?! {b [%eval -0.5]} (1... e6 2. d4) 2. Nf3) {c} 2. Nf3! *\n";
    pgnkit_reader *r = open_text(text), *r2 = open_text(text);
    pgnkit_game *g, *g2;
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    cr_assert_eq(pgnkit_next(r2, &g2, NULL), 1);
    pgnkit_game *kept = pgnkit_game_detach(g2);
    pgnkit_close(r2);
    pgnkit_game *copy = save_and_load(kept);
    pgnkit_game *kept2 = pgnkit_game_detach(g);
    double c1, c2;
    cr_assert(pgnkit_game_clock(kept2, 1, &c1) && c1 == 60.0, "clocks first: the tree too");
    pgnkit_game_free(kept2);
    cr_assert_str_eq(str(pgnkit_game_comment(kept)), "Caf\xc3\xa9");
    cr_assert(pgnkit_game_clock(kept, 1, &c2) && c2 == 60.0);
    assert_same_tree(kept, g);
    assert_same_tree(copy, g);
    pgnkit_node n;
    cr_assert_eq(pgnkit_game_node(kept, 4, &n), 0);
    cr_assert(n.has_eval && n.eval.pawns == -0.5 && n.nag_count == 1 && n.nags[0] == 6);
    pgnkit_game_free(kept);
    pgnkit_game_free(copy);
    pgnkit_close(r);
}

/* Once a detached game's tree was asked for, the next games detached from the same reader
 * have theirs built at detach from the reader's tokens, until one of those goes unasked:
 * whichever way it is built, a game's tree is the one its reader's game gives (a second
 * reader over the same text, each game's tree asked there). */
Test(api, trees_built_at_detach_are_the_readers_trees)
{
    static const char game[] = "[Event \"x\"]\n\n{ Caf\xe9 } 1. e4 { a [%clk 0:01:00] } e5 $1 "
                               "(1... c5?! {b [%eval -0.5]} (1... e6 2. d4) 2. Nf3) {c} "
                               "2. Nf3+! $14 { d } (2. d4 { e }) *\n\n";
    char text[8 * sizeof game];
    text[0] = '\0';
    for (int i = 0; i < 7; i++)
        strcat(text, game);
    pgnkit_reader *r = open_text(text), *ref = open_text(text);
    /* Asked or not, in turn: asked (a replay), asked (built at detach), unasked (built
     * for nothing), asked (a replay again), asked, unasked, asked. */
    static const bool ask[] = {true, true, false, true, true, false, true};
    pgnkit_game *g, *want;
    for (size_t i = 0; i < sizeof ask / sizeof *ask; i++) {
        cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
        cr_assert_eq(pgnkit_next(ref, &want, NULL), 1);
        pgnkit_game *d = pgnkit_game_detach(g);
        if (ask[i])
            assert_same_tree(d, want);
        pgnkit_game_free(d);
    }
    pgnkit_close(r);
    pgnkit_close(ref);
}

/* Games whose movetext is their mainline with at most one one-line comment a move (a
 * light tree: comments read without nodes, nodes made on the first question) and games
 * that stop being so part way (a second comment, a NAG, a comment over two lines): the
 * same comments, clocks, check marks and links either way, by hand.  Each game is read
 * three ways: detached and asked for its comments first (after the first game's replay,
 * its tree is built at detach), the reader's own game asked for its comments and then
 * detached (a copy of its tree), and that reader's game itself. */
struct light_case {
    const char *text;
    size_t plies;
    const char *comments[8]; /* per ply; NULL: none */
    int check[8];            /* per ply: 0, 1 check, 2 mate */
    double clock1;           /* ply 1's clock, or -1 */
    int nag3;                /* ply 3's one NAG, or 0 */
};

static const struct light_case light_cases[] = {
    {"1. e4 { [%clk 0:03:00] } e5 { [%clk 0:02:59] } 2. Qh5 Nc6 { x } 3. Bc4 Nf6 "
     "4. Qxf7# 1-0\n\n",
     7, {"[%clk 0:03:00]", "[%clk 0:02:59]", NULL, "x"}, {0, 0, 0, 0, 0, 0, 2}, 180, 0},
    {"1. e4 {a} e5 {b} { c } 2. Nf3 $1 Nc6 *\n\n", 4, {"a", "b c"}, {0}, -1, 1},
    {"1. d4 { one\r\n two } d5 2. c4 *\n\n", 3, {"one\n two"}, {0}, -1, 0},
    {"1. e4 {\tp q\t} e5 ; [%clk 0:00:07] line\n2. Bc4 Nc6 3. Bxf7+ *\n\n", 5,
     {"p q", "[%clk 0:00:07] line"}, {0, 0, 0, 0, 1}, -1, 0},
};

static void check_light_case(pgnkit_game *g, const struct light_case *c, bool comments_first)
{
    pgnkit_str got[8];
    if (comments_first) {
        cr_assert_eq(pgnkit_game_node_comments(g, 1, 8, got), c->plies);
        for (size_t i = 0; i < c->plies; i++)
            cr_assert(c->comments[i] ? same_text(got[i], c->comments[i]) : !got[i].ptr,
                      "%s: ply %zu", c->text, i + 1);
        cr_assert_null(pgnkit_game_comment(g).ptr);
    }
    cr_assert_eq(pgnkit_game_node_count(g), c->plies);
    for (size_t i = 0; i < c->plies; i++) {
        pgnkit_node n;
        cr_assert_eq(pgnkit_game_node(g, i + 1, &n), 0);
        cr_assert(c->comments[i] ? same_text(n.comment, c->comments[i]) : !n.comment.ptr,
                  "%s: ply %zu", c->text, i + 1);
        cr_assert(n.ply == i + 1 && n.parent == i && n.next == (i + 1 < c->plies ? i + 2 : 0) &&
                  !n.variation && !n.next_variation && !n.starting_comment.ptr);
        cr_assert(n.is_check == (c->check[i] != 0) && n.is_checkmate == (c->check[i] == 2),
                  "%s: ply %zu", c->text, i + 1);
        cr_assert_eq(n.nag_count, i == 2 && c->nag3 ? 1u : 0u);
        if (n.nag_count)
            cr_assert_eq(n.nags[0], c->nag3);
        cr_assert(i || n.has_clock == (c->clock1 >= 0));
        cr_assert(i || !n.has_clock || n.clock == c->clock1);
    }
}

Test(api, light_trees_and_trees_that_stop_being_light)
{
    char text[1024] = "1. e4 e5 *\n\n"; /* asked after detach: the next built at detach */
    for (size_t i = 0; i < sizeof light_cases / sizeof *light_cases; i++)
        strcat(text, light_cases[i].text);
    pgnkit_reader *r = open_text(text), *own = open_text(text);
    pgnkit_game *g, *o;
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    pgnkit_game *d = pgnkit_game_detach(g);
    cr_assert_eq(pgnkit_game_node_count(d), 2);
    pgnkit_game_free(d);
    cr_assert_eq(pgnkit_next(own, &o, NULL), 1);
    for (size_t i = 0; i < sizeof light_cases / sizeof *light_cases; i++) {
        const struct light_case *c = &light_cases[i];
        cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
        d = pgnkit_game_detach(g);
        check_light_case(d, c, true);
        pgnkit_game_free(d);
        cr_assert_eq(pgnkit_next(own, &o, NULL), 1);
        pgnkit_str first;
        cr_assert_eq(pgnkit_game_node_comments(o, 1, 1, &first), 1);
        d = pgnkit_game_detach(o);
        check_light_case(d, c, true);
        check_light_case(o, c, false);
        pgnkit_game_free(d);
    }
    pgnkit_close(r);
    pgnkit_close(own);
}

/* ---- the board ---- */

static pgnkit_board *board(const char *fen, const char *variant)
{
    pgnkit_error err = {0};
    pgnkit_board *b = pgnkit_board_new(fen, variant, &err);
    cr_assert_not_null(b, "%s", err.message);
    return b;
}

static const char *board_fen(const pgnkit_board *b, int ep_legal)
{
    static char buf[PGNKIT_BOARD_FEN_MAX];
    size_t n = pgnkit_board_fen(b, ep_legal, buf, sizeof buf);
    cr_assert_eq(n, strlen(buf));
    return buf;
}

static const char *push_san(pgnkit_board *b, const char *san)
{
    static char uci[PGNKIT_UCI_MAX];
    pgnkit_move_error err;
    cr_assert_eq(pgnkit_board_push_san(b, san, uci, &err), 0, "%s: %s", san, err.error.message);
    return uci;
}

static const char *push_uci(pgnkit_board *b, const char *uci)
{
    static char san[PGNKIT_SAN_MAX];
    pgnkit_move_error err;
    cr_assert_eq(pgnkit_board_push_uci(b, uci, san, &err), 0, "%s: %s", uci, err.error.message);
    return san;
}

Test(board, start_position_has_twenty_moves_and_e4_sets_the_ep_square)
{
    pgnkit_board *b = board(NULL, NULL);
    const char *start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    cr_assert_str_eq(board_fen(b, 0), start);
    cr_assert_str_eq(pgnkit_board_variant(b), "Standard");
    char moves[PGNKIT_BOARD_MOVES_MAX][PGNKIT_UCI_MAX];
    size_t n = pgnkit_board_legal_moves(b, moves, PGNKIT_BOARD_MOVES_MAX);
    cr_assert_eq(n, 20, "16 pawn moves and 4 knight moves");
    int seen = 0;
    for (size_t i = 0; i < n; i++)
        seen += strcmp(moves[i], "e2e4") == 0 || strcmp(moves[i], "g1f3") == 0;
    cr_assert_eq(seen, 2);
    cr_assert_eq(pgnkit_board_turn(b), 'w');
    cr_assert_eq(pgnkit_board_piece_at(b, pgnkit_board_square("e1")), 'K');
    cr_assert_eq(pgnkit_board_piece_at(b, pgnkit_board_square("d8")), 'q');
    cr_assert_eq(pgnkit_board_piece_at(b, pgnkit_board_square("e4")), 0);
    cr_assert_eq(pgnkit_board_piece_at(b, 64), -1);
    cr_assert_eq(pgnkit_board_piece_at(b, -1), -1);
    cr_assert_eq(pgnkit_board_square("e4"), 28);
    cr_assert_eq(pgnkit_board_square("i1"), -1);
    cr_assert_eq(pgnkit_board_square("e44"), -1);
    cr_assert_eq(pgnkit_board_square(NULL), -1);

    cr_assert_str_eq(push_san(b, "e4"), "e2e4");
    /* The PGN standard names e3 after any double push; python-chess only when a black
     * pawn could take, and none stands on d4 or f4. */
    cr_assert_str_eq(board_fen(b, 0), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    cr_assert_str_eq(board_fen(b, 1), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    cr_assert_eq(pgnkit_board_turn(b), 'b');
    cr_assert_eq(pgnkit_board_piece_at(b, 28), 'P');
    char small[10];
    cr_assert_eq(pgnkit_board_fen(b, 0, small, sizeof small), 59, "the whole length");
    cr_assert_str_eq(small, "rnbqkbnr/", "a NUL-terminated prefix");
    pgnkit_board_free(b);
}

Test(board, scholars_mate_ends_in_checkmate)
{
    pgnkit_board *b = board(NULL, "standard");
    cr_assert_str_eq(push_san(b, "e4"), "e2e4");
    cr_assert_str_eq(push_san(b, "e5"), "e7e5");
    cr_assert_str_eq(push_uci(b, "f1c4"), "Bc4");
    cr_assert_str_eq(push_uci(b, "b8c6"), "Nc6");
    cr_assert_str_eq(push_uci(b, "d1h5"), "Qh5");
    cr_assert_str_eq(push_san(b, "Nf6??"), "g8f6", "a glyph suffix is no part of the move");
    char san[PGNKIT_SAN_MAX];
    cr_assert_eq(pgnkit_board_san(b, "h5f7", san, NULL), 0);
    cr_assert_str_eq(san, "Qxf7#", "san() plays nothing");
    cr_assert_eq(pgnkit_board_turn(b), 'w');
    cr_assert_str_eq(push_uci(b, "h5f7"), "Qxf7#");
    cr_assert(pgnkit_board_is_check(b) && pgnkit_board_is_checkmate(b));
    cr_assert(!pgnkit_board_is_stalemate(b));
    cr_assert_eq(pgnkit_board_legal_moves(b, NULL, 0), 0);
    pgnkit_move_error err;
    cr_assert_eq(pgnkit_board_push_san(b, "a6", NULL, &err), -1);
    cr_assert_str_eq(err.code, "MOVE_AFTER_END");
    cr_assert_eq(pgnkit_board_push_uci(b, "a7a6", NULL, &err), -1);
    cr_assert_str_eq(err.code, "MOVE_AFTER_END");
    pgnkit_board_free(b);
}

Test(board, stalemate)
{
    /* Black's king on h8: g8 and g7 are the queen's, h7 the king's; h8 is not attacked. */
    pgnkit_board *b = board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", NULL);
    cr_assert(!pgnkit_board_is_check(b) && !pgnkit_board_is_checkmate(b));
    cr_assert(pgnkit_board_is_stalemate(b));
    cr_assert_eq(pgnkit_board_legal_moves(b, NULL, 0), 0);
    pgnkit_board_free(b);
}

Test(board, ambiguous_illegal_and_garbage_moves_are_errors_that_play_nothing)
{
    /* Knights on b1 and f1 both reach d2. */
    const char *fen = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
    pgnkit_board *b = board(fen, NULL);
    pgnkit_move_error err;
    cr_assert_eq(pgnkit_board_push_san(b, "Nd2", NULL, &err), -1);
    cr_assert_str_eq(err.code, "AMBIGUOUS");
    cr_assert_eq(err.error.code, EINVAL);
    cr_assert_eq(err.candidate_count, 2);
    cr_assert(strcmp(err.candidates[0], "b1d2") == 0 || strcmp(err.candidates[1], "b1d2") == 0);
    cr_assert(strcmp(err.candidates[0], "f1d2") == 0 || strcmp(err.candidates[1], "f1d2") == 0);
    cr_assert_str_eq(board_fen(b, 0), fen, "nothing played");
    char san[PGNKIT_SAN_MAX];
    cr_assert_eq(pgnkit_board_san(b, "f1d2", san, &err), 0);
    cr_assert_str_eq(san, "Nfd2");
    cr_assert_eq(pgnkit_board_push_san(b, "Ne4", NULL, &err), -1);
    cr_assert_str_eq(err.code, "ILLEGAL", "no knight reaches e4");
    cr_assert_eq(pgnkit_board_push_san(b, "hello", NULL, &err), -1);
    cr_assert_str_eq(err.code, "SYNTAX");
    cr_assert_eq(pgnkit_board_push_san(b, "", NULL, &err), -1);
    cr_assert_str_eq(err.code, "SYNTAX");
    cr_assert_eq(pgnkit_board_push_san(b, NULL, NULL, NULL), -1);
    cr_assert_eq(pgnkit_board_push_uci(b, "b1d3", NULL, &err), -1);
    cr_assert_str_eq(err.code, "ILLEGAL");
    cr_assert_eq(pgnkit_board_push_uci(b, "b1d2x", NULL, &err), -1);
    cr_assert_str_eq(err.code, "SYNTAX");
    cr_assert_eq(pgnkit_board_push_uci(b, NULL, NULL, &err), -1);
    cr_assert_str_eq(err.code, "SYNTAX");
    cr_assert_eq(pgnkit_board_san(b, "\xff\xfe", NULL, &err), -1);
    cr_assert_str_eq(err.code, "SYNTAX");
    cr_assert_str_eq(board_fen(b, 0), fen, "nothing played");
    cr_assert_str_eq(push_san(b, "Nbd2"), "b1d2");
    cr_assert_eq(pgnkit_board_turn(b), 'b');
    pgnkit_board_free(b);

    b = board(NULL, NULL);
    cr_assert_eq(pgnkit_board_push_san(b, "e5", NULL, &err), -1);
    cr_assert_str_eq(err.code, "ILLEGAL", "a pawn on e2 cannot reach e5");
    cr_assert_eq(pgnkit_board_push_uci(b, "e2e5", NULL, &err), -1);
    cr_assert_str_eq(err.code, "ILLEGAL");
    cr_assert_eq(pgnkit_board_push_uci(b, "e1g1", NULL, &err), -1);
    cr_assert_str_eq(err.code, "ILLEGAL", "f1 and g1 are occupied");
    cr_assert_str_eq(push_uci(b, "0000"), "--", "a null move, as python-chess plays it");
    cr_assert_eq(pgnkit_board_turn(b), 'b');
    pgnkit_board_free(b);
    b = board("4k3/8/8/8/8/8/8/4K2r w - - 0 1", NULL);
    cr_assert_eq(pgnkit_board_push_uci(b, "0000", NULL, &err), -1);
    cr_assert_str_eq(err.code, "ILLEGAL", "no null move in check");
    pgnkit_board_free(b);
}

Test(board, castling_in_uci_both_ways_and_copies_are_independent)
{
    pgnkit_board *b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", NULL);
    pgnkit_board *c = pgnkit_board_copy(b);
    cr_assert_str_eq(push_uci(b, "e1g1"), "O-O");
    cr_assert_str_eq(push_uci(c, "e1h1"), "O-O", "king takes rook, as python-chess takes it");
    cr_assert_str_eq(board_fen(b, 0), board_fen(c, 0));
    cr_assert_str_eq(board_fen(b, 0), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    cr_assert_str_eq(push_san(c, "O-O-O"), "e8c8");
    cr_assert_eq(pgnkit_board_turn(b), 'b', "the copy's move is not b's");
    pgnkit_board_free(b);
    pgnkit_board_free(c);
}

Test(board, bad_fen_and_variant_are_errors)
{
    pgnkit_error err = {0};
    cr_assert_null(pgnkit_board_new("not a fen", NULL, &err));
    cr_assert_eq(err.code, EINVAL);
    cr_assert(strlen(err.message) > 0);
    cr_assert_null(pgnkit_board_new("8/8/8/8/8/8/8/8 w - - 0 1", NULL, &err), "no kings");
    cr_assert_null(pgnkit_board_new(NULL, "bughouse", &err));
    cr_assert(strstr(err.message, "bughouse") != NULL, "%s", err.message);
    cr_assert_null(pgnkit_board_new("", NULL, NULL), "err may be NULL");
    pgnkit_board_free(NULL);
}

Test(board, crazyhouse_drops)
{
    pgnkit_board *b = board(NULL, "crazyhouse");
    cr_assert_str_eq(pgnkit_board_variant(b), "Crazyhouse");
    cr_assert_str_eq(push_san(b, "e4"), "e2e4");
    cr_assert_str_eq(push_san(b, "d5"), "d7d5");
    cr_assert_str_eq(push_san(b, "exd5"), "e4d5");
    cr_assert_str_eq(push_san(b, "Qxd5"), "d8d5");
    /* Each side took a pawn: White's pocket holds one, and e4 is empty again. */
    cr_assert_str_eq(board_fen(b, 0), "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3");
    char moves[PGNKIT_BOARD_MOVES_MAX][PGNKIT_UCI_MAX];
    size_t n = pgnkit_board_legal_moves(b, moves, PGNKIT_BOARD_MOVES_MAX);
    int drop = 0;
    for (size_t i = 0; i < n; i++)
        drop += strcmp(moves[i], "P@e4") == 0;
    cr_assert_eq(drop, 1);
    pgnkit_board *c = pgnkit_board_copy(b);
    cr_assert_str_eq(push_uci(b, "P@e4"), "P@e4");
    cr_assert_str_eq(push_san(c, "P@e4"), "P@e4");
    cr_assert_str_eq(board_fen(b, 0), board_fen(c, 0));
    cr_assert_eq(pgnkit_board_piece_at(b, 28), 'P');
    pgnkit_move_error err;
    cr_assert_eq(pgnkit_board_push_uci(b, "P@e4", NULL, &err), -1, "e4 is taken now");
    cr_assert_str_eq(err.code, "ILLEGAL");
    cr_assert_str_eq(push_uci(b, "P@e5"), "P@e5", "Black's pawn: UCI drops are upper case");
    pgnkit_board_free(b);
    pgnkit_board_free(c);
}

/* ---- game selection (pgnkit_reader_option) and byte ranges (pgnkit_open_range) ---- */

/* 1 and 4 are the same game; 2 ends in checkmate (fool's mate); 3 has an illegal move;
 * 5 is a Sicilian (1. e4 c5: the book's B20) whose own ECO tag says A00. */
static const char five_games[] =
    "[White \"Anna\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n"
    "[White \"Bob\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n"
    "[White \"Anna\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke3 *\n\n"
    "[White \"Anna\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n"
    "[White \"Carl\"]\n[ECO \"A00\"]\n[Result \"*\"]\n\n1. e4 c5 *\n";

/* The indexes of the games r yields, as digits ("134"); r is closed. */
static char *indexes(pgnkit_reader *r)
{
    static char out[16];
    size_t n = 0;
    pgnkit_game *g;
    pgnkit_error err;
    int rc;
    while ((rc = pgnkit_next(r, &g, &err)) == 1 && n + 1 < sizeof out)
        out[n++] = (char)('0' + pgnkit_game_index(g));
    cr_assert_eq(rc, 0, "%s", err.message);
    out[n] = '\0';
    pgnkit_close(r);
    return out;
}

/* A reader over five_games with the options names[i] = values[i]. */
static pgnkit_reader *selecting(const char *const *names, const char *const *values, size_t n)
{
    pgnkit_reader *r = open_text(five_games);
    pgnkit_error err;
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(pgnkit_reader_option(r, names[i], values[i], &err), 0, "%s", err.message);
    return r;
}

Test(select, options_select_as_the_cli_keeping_the_input_indexes)
{
    cr_assert_str_eq(indexes(selecting(NULL, NULL, 0)), "12345");
    cr_assert_str_eq(indexes(selecting((const char *[]){"where"},
                                       (const char *[]){"White = Anna"}, 1)), "134");
    /* Selection first, then games with errors, then duplicates of games kept. */
    cr_assert_str_eq(indexes(selecting((const char *[]){"where", "skip-invalid"},
                                       (const char *[]){"White = Anna", NULL}, 2)), "14");
    cr_assert_str_eq(indexes(selecting((const char *[]){"where", "skip-invalid", "dedupe"},
                                       (const char *[]){"White = Anna", "1", "true"}, 3)), "1");
    cr_assert_str_eq(indexes(selecting((const char *[]){"ending"},
                                       (const char *[]){"checkmate"}, 1)), "2");
    /* "invert" given before its criterion, as the CLI allows. */
    cr_assert_str_eq(indexes(selecting((const char *[]){"invert", "result"},
                                       (const char *[]){NULL, "1-0"}, 2)), "235");
    /* Plies played: game 3 stops at its illegal third move. */
    cr_assert_str_eq(indexes(selecting((const char *[]){"plies", "player"},
                                       (const char *[]){"2:2", "^(Bob|Anna)$"}, 2)), "134");
    cr_assert_str_eq(indexes(selecting((const char *[]){"reaches"},
        (const char *[]){"rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"}, 1)),
        "5");
    /* ECO criteria read the tag, or with classify the book's name for the game. */
    cr_assert_str_eq(indexes(selecting((const char *[]){"where"},
                                       (const char *[]){"ECO = B20"}, 1)), "");
    cr_assert_str_eq(indexes(selecting((const char *[]){"where", "classify"},
                                       (const char *[]){"ECO = B20", NULL}, 2)), "5");
    cr_assert_str_eq(indexes(selecting((const char *[]){"classify", "where"},
                                       (const char *[]){"1", "Opening ~ ^Sicilian"}, 2)), "5");
}

Test(select, encoding_decodes_tag_values)
{
    static const char latin1[] = "[White \"Jos\xe9\"]\n\n1. e4 *\n";
    pgnkit_reader *r = pgnkit_open_memory(latin1, strlen(latin1), NULL, NULL, NULL);
    cr_assert_eq(pgnkit_reader_option(r, "encoding", "latin1", NULL), 0);
    pgnkit_game *g;
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    cr_assert_str_eq(str(pgnkit_game_tag_value(g, "White")), "Jos\xc3\xa9");
    cr_assert_eq(pgnkit_game_status(g), PGNKIT_STATUS_OK, "named: no ENCODING warning");
    pgnkit_close(r);
}

Test(select, bad_options_are_einval_with_the_clis_message)
{
    pgnkit_reader *r = open_text(five_games);
    pgnkit_error err;
    cr_assert_eq(pgnkit_reader_option(r, "nope", "1", &err), -1);
    cr_assert_eq(err.code, EINVAL);
    cr_assert(strstr(err.message, "unknown option '--nope'"), "%s", err.message);
    cr_assert_eq(pgnkit_reader_option(r, "plies", "9:3", &err), -1);
    cr_assert_str_eq(err.message, "--plies wants MIN:MAX (either may be empty, MIN <= MAX), "
                                  "not '9:3'");
    cr_assert_eq(pgnkit_reader_option(r, "encoding", "ebcdic", &err), -1);
    cr_assert_str_eq(err.message, "--encoding is auto, utf-8, latin1 or cp1252, not 'ebcdic'");
    cr_assert_eq(pgnkit_reader_option(r, "dedupe", "maybe", &err), -1);
    /* A message longer than err.message: whole from pgnkit_reader_message. */
    cr_assert_eq(pgnkit_reader_option(r, "has", "NOPE", &err), -1);
    const char *whole = pgnkit_reader_message(r);
    cr_assert_gt(strlen(whole), sizeof err.message - 1);
    cr_assert_eq(strncmp(whole, err.message, sizeof err.message - 1), 0);
    cr_assert(strstr(whole, "ILLEGAL"), "%s", whole);
    /* invert alone has nothing to invert: checked on demand and by the first next. */
    cr_assert_eq(pgnkit_reader_option(r, "invert", NULL, &err), 0);
    cr_assert_eq(pgnkit_reader_check_options(r, &err), -1);
    cr_assert(strstr(err.message, "--invert needs a criterion"), "%s", err.message);
    pgnkit_game *g;
    cr_assert_eq(pgnkit_next(r, &g, &err), -1);
    cr_assert_eq(err.code, EINVAL);
    cr_assert_eq(pgnkit_next(r, &g, &err), 0, "the reader is finished");
    pgnkit_close(r);
    /* Options are fixed by the first next. */
    r = open_text(five_games);
    cr_assert_eq(pgnkit_next(r, &g, &err), 1);
    cr_assert_eq(pgnkit_reader_option(r, "result", "1-0", &err), -1);
    cr_assert_eq(err.code, EINVAL);
    pgnkit_close(r);
}

/* The line of byte off of text: 1 + the line ends before it, counted here. */
static uint64_t line_of(const char *text, uint64_t off)
{
    uint64_t line = 1;
    for (uint64_t i = 0; i < off; i++)
        line += text[i] == '\n';
    return line;
}

Test(range, a_byte_range_yields_its_games_as_the_whole_file_reads_them)
{
    char path[] = "/tmp/pgnkit-range-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    size_t len = strlen(five_games);
    cr_assert_eq(write(fd, five_games, len), (ssize_t)len);
    close(fd);
    /* Where each game starts: its '[' at the start of a line. */
    uint64_t starts[5];
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (five_games[i] == '[' && (i == 0 || five_games[i - 1] == '\n') &&
            strncmp(five_games + i, "[White", 6) == 0)
            starts[n++] = i;
    cr_assert_eq(n, 5);
    pgnkit_error err;
    pgnkit_game *g;
    /* Games 3 and 4: a range from inside game 2 to inside game 4 holds their starts. */
    pgnkit_reader *r = pgnkit_open_range(path, starts[1] + 1, starts[3] + 1, NULL, &err);
    cr_assert_not_null(r, "%s", err.message);
    for (int i = 2; i <= 3; i++) {
        cr_assert_eq(pgnkit_next(r, &g, &err), 1, "%s", err.message);
        cr_assert_eq(pgnkit_game_offset(g), starts[i]);
        cr_assert_eq(pgnkit_game_line(g), line_of(five_games, starts[i]));
        cr_assert_eq(pgnkit_game_index(g), 0, "indexes are unknown past a sync point");
    }
    cr_assert_eq(pgnkit_next(r, &g, &err), 0);
    pgnkit_close(r);
    /* From byte 0 the indexes are known; the end UINT64_MAX is the file's end; options
     * apply within the range. */
    r = pgnkit_open_range(path, 0, UINT64_MAX, NULL, &err);
    cr_assert_eq(pgnkit_reader_option(r, "skip-invalid", NULL, &err), 0);
    cr_assert_str_eq(indexes(r), "1245");
    r = pgnkit_open_range(path, starts[4], starts[4], NULL, &err);
    cr_assert_str_eq(indexes(r), "", "an empty range holds no game");
    cr_assert_null(pgnkit_open_range(path, 9, 3, NULL, &err));
    cr_assert_eq(err.code, EINVAL);
    cr_assert_str_eq(err.message, "--range 9:3 is reversed: END is before START");
    cr_assert_null(pgnkit_open_range(path, len + 1, UINT64_MAX, NULL, &err));
    cr_assert_eq(err.code, EINVAL);
    cr_assert(strstr(err.message, "is past the end of"), "%s", err.message);
    cr_assert_null(pgnkit_open_range("/nonexistent/x.pgn", 0, 1, NULL, &err));
    cr_assert_eq(err.code, ENOENT);
    unlink(path);
}

/* A mate distance no int holds is no eval (comment.h), not a wrapped cast: #99999999999
 * once came out as mate in -2147483648.  The largest int is still a mate; the move after
 * the bad one takes its own [%eval] (the first well-formed one of its comments). */
Test(api, eval_mate_out_of_int_range_is_no_eval)
{
    pgnkit_reader *r = open_text("1. e4 { [%eval #99999999999] } e5 { [%eval #-99999999999] } "
                                 "2. Nf3 { [%eval #2147483647] } Nc6 { [%eval #-2147483648] "
                                 "} { [%eval -0.5] } *\n");
    pgnkit_game *g;
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    pgnkit_eval ev;
    cr_assert_eq(pgnkit_game_eval(g, 1, &ev), 0);
    cr_assert_eq(pgnkit_game_eval(g, 2, &ev), 0);
    cr_assert_eq(pgnkit_game_eval(g, 3, &ev), 1);
    cr_assert(ev.is_mate && ev.mate_in == 2147483647);
    cr_assert_eq(pgnkit_game_eval(g, 4, &ev), 1);
    cr_assert(!ev.is_mate && ev.pawns == -0.5, "the bad #-2147483648 is skipped");
    pgnkit_node n;
    cr_assert_eq(pgnkit_game_node(g, 1, &n), 0);
    cr_assert(!n.has_eval);
    pgnkit_close(r);
}

/* A node's clock and eval are the first well-formed [%clk] and [%eval] comment by
 * comment, whether parsed while the tree is built (a node with two comments) or from its
 * joined text on first use (one comment): by hand, e4 59 s (its first comment's clock
 * is malformed), e5 none ("[%clk" ends its comment: joined to the next one's text it
 * would read 58 s), Nf3 eval 0.5 across CR LF, Nc6 none (a comment's first [%clk] is the
 * one read), Bb5 60 s and mate in 3 from two comments.  The reader's game, a detached
 * one and a loaded one agree, and with pgnkit_game_clock's walk of the tokens. */
Test(api, node_clocks_and_evals_comment_by_comment)
{
    static const char text[] = "1. e4 { [%clk 1:00:0x] } { [%clk 0:00:59] } e5 {[%clk} "
                               "{0:00:58]} 2. Nf3 {\r\n [%eval\r\n 0.5 ] \r\n} Nc6 "
                               "{ [%clk x] [%clk 0:01:00] } 3. Bb5 { [%clk 0:01:00] } "
                               "{ [%eval #3] [%clk 0:00:01] } *\n";
    static const struct {
        bool has_clock;
        double clock;
        bool has_eval, mate;
        double pawns;
        int mate_in;
    } want[] = {{true, 59, false, false, 0, 0}, {false, 0, false, false, 0, 0},
                {false, 0, true, false, 0.5, 0}, {false, 0, false, false, 0, 0},
                {true, 60, true, true, 0, 3}};
    pgnkit_reader *r = open_text(text), *walked = open_text(text);
    pgnkit_game *g, *w;
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    cr_assert_eq(pgnkit_next(walked, &w, NULL), 1);
    pgnkit_game *d = pgnkit_game_detach(g);
    char saved[4096];
    size_t len = pgnkit_game_save(d, saved, sizeof saved);
    cr_assert(len <= sizeof saved);
    pgnkit_game *l = pgnkit_game_load(saved, len, NULL);
    cr_assert_not_null(l);
    pgnkit_game *games[] = {g, d, l};
    for (size_t k = 0; k < 3; k++)
        for (size_t ply = 1; ply <= 5; ply++) {
            pgnkit_node n;
            cr_assert_eq(pgnkit_game_node(games[k], ply, &n), 0);
            cr_assert(n.has_clock == want[ply - 1].has_clock &&
                          (!n.has_clock || n.clock == want[ply - 1].clock),
                      "game %zu ply %zu", k, ply);
            cr_assert(n.has_eval == want[ply - 1].has_eval &&
                          (!n.has_eval || (n.eval.is_mate == want[ply - 1].mate &&
                                           n.eval.pawns == want[ply - 1].pawns &&
                                           n.eval.mate_in == want[ply - 1].mate_in)),
                      "game %zu ply %zu", k, ply);
            double clock;
            pgnkit_eval ev;
            cr_assert_eq(pgnkit_game_clock(w, ply, &clock), n.has_clock, "ply %zu", ply);
            cr_assert_eq(pgnkit_game_eval(w, ply, &ev), n.has_eval, "ply %zu", ply);
        }
    pgnkit_game_free(l);
    pgnkit_game_free(d);
    pgnkit_close(r);
    pgnkit_close(walked);
}

/* pgnkit_game_pgn: `pgnkit pgn`'s bytes (the roster filled as writer_pgn.c says), the
 * same from the reader's game, a detached one and a loaded one; a prefix and the whole
 * size when cap is short. */
Test(api, game_pgn_is_the_cli_output_for_every_kind_of_game)
{
    static const char want[] = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
                               "[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n"
                               "[Result \"*\"]\n\n1. e4 { hi } 1... e5 ( 1... c5 ) *\n\n";
    pgnkit_reader *r = open_text("1. e4 {hi} e5 (c5) *\n");
    pgnkit_game *g;
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    char out[512];
    size_t len = pgnkit_game_pgn(g, out, sizeof out);
    cr_assert_eq(len, strlen(want));
    cr_assert(memcmp(out, want, len) == 0, "%.*s", (int)len, out);
    pgnkit_game *d = pgnkit_game_detach(g);
    size_t saved = pgnkit_game_save(d, NULL, 0);
    char *bytes = malloc(saved);
    pgnkit_game_save(d, bytes, saved);
    pgnkit_close(r); /* the copies outlive the reader */
    pgnkit_game *l = pgnkit_game_load(bytes, saved, NULL);
    cr_assert_not_null(l);
    pgnkit_game *copies[] = {d, l};
    for (size_t i = 0; i < 2; i++) {
        memset(out, 'x', sizeof out);
        cr_assert_eq(pgnkit_game_pgn(copies[i], out, 10), strlen(want));
        cr_assert(memcmp(out, want, 10) == 0 && out[10] == 'x', "a 10-byte prefix");
        cr_assert_eq(pgnkit_game_pgn(copies[i], out, sizeof out), strlen(want));
        cr_assert(memcmp(out, want, strlen(want)) == 0);
    }
    free(bytes);
    pgnkit_game_free(d);
    pgnkit_game_free(l);
}

/* PGNKIT_NO_VARIATIONS: as `pgnkit pgn --no-variations`, the variation is left out. */
Test(api, game_pgn_with_no_variations)
{
    pgnkit_options opts;
    pgnkit_options_init(&opts);
    opts.flags = PGNKIT_NO_VARIATIONS;
    static const char text[] = "1. e4 (1. d4) e5 *\n";
    pgnkit_reader *r = pgnkit_open_memory(text, strlen(text), "m", &opts, NULL);
    pgnkit_game *g;
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    pgnkit_game *d = pgnkit_game_detach(g);
    char out[512];
    size_t len = pgnkit_game_pgn(d, out, sizeof out);
    cr_assert(len > 10 && len < sizeof out);
    out[len] = '\0';
    cr_assert(strstr(out, "\n\n1. e4 e5 *\n\n") != NULL, "%s", out);
    cr_assert_eq(pgnkit_game_pgn(g, NULL, 0), len);
    pgnkit_game_free(d);
    pgnkit_close(r);
}

/* The game's text as pgnkit_game_pgn() writes it (a detached game replays its bytes). */
static char *pgn_of(pgnkit_game *g)
{
    size_t n = pgnkit_game_pgn(g, NULL, 0);
    char *text = malloc(n + 1);
    cr_assert_not_null(text);
    cr_assert_eq(pgnkit_game_pgn(g, text, n + 1), n);
    text[n] = '\0';
    return text;
}

/* A game that starts after another's result on its line, with a '%': in the file that
 * '%' is a bad token, not an escape line (it does not begin its line), and so it must
 * stay when the game's bytes are read again alone, by a detached or a loaded copy (the
 * api fuzz target found the copy reading "%d4 d5 *" as an escape line: no moves). */
Test(api, a_game_that_starts_inside_a_line_reads_the_same_alone)
{
    pgnkit_reader *r = open_text("1. e4 e5 * %d4 d5 *\n");
    pgnkit_game *g;
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    cr_assert_eq(pgnkit_next(r, &g, NULL), 1);
    char *want = pgn_of(g);
    cr_assert(strstr(want, "not replayed") != NULL, "the reader's game: %s", want);
    pgnkit_game *d = pgnkit_game_detach(g);
    pgnkit_game *loaded = save_and_load(d);
    char *detached = pgn_of(d), *reloaded = pgn_of(loaded);
    cr_assert_str_eq(detached, want);
    cr_assert_str_eq(reloaded, want);
    free(reloaded);
    free(detached);
    free(want);
    pgnkit_game_free(loaded);
    pgnkit_game_free(d);
    pgnkit_close(r);
}
