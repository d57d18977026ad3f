/*
 * test_select.c - select.c: the expression parser's errors, the comparison rules
 * (bytes, numbers, dates with ?? parts, missing tags), and the position key (equal
 * positions by transposition, the e.p. square only when a capture is legal: poskey.c,
 * which --reaches and threefold use).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "board/fen.h"
#include "pgn/pgn_reader.h"
#include "board/poskey.h"
#include "game/select.h"

static uint64_t key_of_fen(const char *fen)
{
    struct position pos;
    struct diag err;
    cr_assert_eq(fen_parse(&pos, fen, strlen(fen), false, &err), 0, "%s: %s", fen, err.message);
    return poskey_of(&pos);
}

Test(select, transposition_same_key)
{
    /* 1.e4 e5 2.Nf3 and 1.Nf3 e5 2.e4: the FEN of the second names e3, which no black
     * pawn can take: the same position. */
    uint64_t a = key_of_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    uint64_t b = key_of_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq e3 0 2");
    cr_assert_eq(a, b);
    cr_assert_neq(a, key_of_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 1 2"));
    cr_assert_neq(a, key_of_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b Kkq - 1 2"));
}

Test(select, ep_counts_when_capturable)
{
    /* After 1.e4 d5 2.e5 f5 White may take on f6. */
    uint64_t with = key_of_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    uint64_t without = key_of_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
    cr_assert_neq(with, without);
}

static void expect_error(const char *expr, const char *words)
{
    struct select *s = select_new();
    char why[512] = "";
    cr_assert_eq(select_add_where(s, expr, why, sizeof why), -1, "%s accepted", expr);
    cr_assert(strstr(why, words), "%s: '%s' lacks '%s'", expr, why, words);
    /* A refused expression adds nothing (the library goes on with the selection). */
    cr_assert(!select_has_criteria(s), "%s: refused but a criterion was added", expr);
    select_free(s);
}

/* Lists are taken whole or not at all: a bad name leaves the selection as it was. */
Test(select, refused_lists_change_nothing)
{
    struct select *s = select_new();
    char why[512] = "";
    cr_assert_eq(select_add_result(s, "1-0,2-0", why, sizeof why), -1);
    cr_assert(strstr(why, "not '2-0'"), "%s", why);
    cr_assert_eq(select_add_ending(s, "checkmate,mate", why, sizeof why), -1);
    cr_assert_eq(select_add_has(s, "ILLEGAL,NOPE", why, sizeof why), -1);
    cr_assert(strstr(why, "unknown code 'NOPE'"), "%s", why);
    cr_assert_eq(select_add_occurs(s, "capture,castle", why, sizeof why), -1);
    cr_assert(strstr(why, "not 'castle'"), "%s", why);
    /* The second signature is bad: the first is not kept either. */
    cr_assert_eq(select_add_material(s, "KRvK,KRvKk", why, sizeof why), -1);
    cr_assert(strstr(why, "not 'KRvKk'"), "%s", why);
    cr_assert_eq(select_add_moves(s, "e4 e5 Nf9", why, sizeof why), -1);
    cr_assert(strstr(why, "'Nf9' is no move"), "%s", why);
    cr_assert(!select_has_criteria(s));
    select_free(s);
}

Test(select, malformed_expressions)
{
    expect_error("Event", "no operator");
    expect_error("", "no operator");
    expect_error("= x", "no tag name");
    expect_error("Ev-ent = x", "'-' is neither");
    expect_error("Event ~ (", "missing closing parenthesis at offset 1");
}

/* One game with these tags; selected by expr? */
static bool holds(const char *tags, const char *expr)
{
    char pgn[512];
    snprintf(pgn, sizeof pgn, "%s\n1. e4 *\n", tags);
    struct pgn_reader *rd = pgn_reader_from_memory(pgn, strlen(pgn), "t", NULL);
    struct pgn_game g;
    struct diag err;
    cr_assert_eq(pgn_reader_next(rd, &g, &err), 1);
    struct select *s = select_new();
    char why[256];
    cr_assert_eq(select_add_where(s, expr, why, sizeof why), 0, "%s: %s", expr, why);
    struct select_scratch *x = select_scratch_new(s);
    enum select_verdict v = select_by_tags(s, x, &g);
    select_scratch_free(x);
    select_free(s);
    pgn_reader_free(rd);
    return v == SELECT_KEEP;
}

Test(select, dates)
{
    const char *known = "[Date \"2014.11.23\"]", *month = "[Date \"2014.??.??\"]";
    const char *none = "[Date \"????.??.??\"]";
    cr_assert(holds(known, "Date >= 2014"));
    cr_assert(holds(month, "Date >= 2014"));
    cr_assert(holds(month, "Date <= 2014"));
    cr_assert(!holds(month, "Date > 2014"));
    cr_assert(holds(known, "Date >= 2014.11"));
    cr_assert(!holds(month, "Date >= 2014.11")); /* the month is unknown: false */
    cr_assert(holds(month, "Date < 2015.01.01")); /* the year decides first */
    cr_assert(holds(known, "Date > 2014.11.22"));
    cr_assert(!holds(known, "Date > 2014.11.23"));
    cr_assert(!holds(none, "Date < 3000"));
    cr_assert(!holds(none, "Date > 1000"));
    cr_assert(holds("[UTCDate \"2020.01.02\"]", "UTCDate < 2021"));
    /* YYYY alone is a date only for the date tags: elsewhere it is a number. */
    cr_assert(holds("[WhiteElo \"2100\"]", "WhiteElo > 2014"));
    cr_assert(holds("[Mine \"2020.05.01\"]", "Mine > 2020.04.30"));
}

Test(select, numbers_bytes_missing)
{
    cr_assert(holds("[WhiteElo \"2700\"]", "WhiteElo >= 2700"));
    cr_assert(holds("[WhiteElo \"950\"]", "WhiteElo < 2700")); /* not bytewise */
    cr_assert(!holds("[WhiteElo \"-\"]", "WhiteElo < 2700"));
    cr_assert(!holds("[WhiteElo \"-\"]", "WhiteElo > 2700"));
    cr_assert(holds("[Black \"Botvinnik\"]", "Black < Carlsen"));
    cr_assert(holds("[Event \"x\"]", "Event = \"x\""));
    cr_assert(!holds("[Event \"x\"]", "Missing = x"));
    cr_assert(!holds("[Event \"x\"]", "Missing ~ ."));
    cr_assert(!holds("[Event \"x\"]", "Missing < 5"));
    cr_assert(holds("[Event \"x\"]", "Missing != x"));
    cr_assert(holds("[Event \"x\"]", "Missing !~ x"));
    cr_assert(holds("[Event \"Tata Steel\"]", "Event ~ (?i)^tata"));
    cr_assert(!holds("[Event \"Tata Steel\"]", "Event ~ ^tata"));
}
