/*
 * test_perft.c - the move generator against the perft suites in testdata/perft/.
 *
 * Every position of every suite must parse, and every depth whose expected count is
 * at most 100,000 must match (bulk counting keeps that to seconds, even under ASan).
 * With PGNKIT_SLOW=1 every depth of every position is checked (hours: random.perft alone
 * holds 4.3e12 nodes); PGNKIT_PERFT_MAX_NODES=N sets another cap.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/attacks.h"
#include "board/fen.h"
#include "board/variant.h"
#include "board/rules.h"

enum { NODE_LIMIT = 100000, MAX_DEPTHS = 16, MAX_REPORTS = 10 };

struct perft_case {
    char name[64];
    char fen[128];
    enum variant variant;
    int line;
    int depths;
    int depth[MAX_DEPTHS];
    uint64_t nodes[MAX_DEPTHS];
};

struct suite_totals {
    int positions;
    int checked;  /* (position, depth) pairs compared */
    int failures;
};

static void suite_init(void) { attacks_init(); }

TestSuite(perft, .init = suite_init, .timeout = 600);

/* PGNKIT_PERFT_MAX_NODES=N picks another cap (handy for a partial deep run). */
static uint64_t node_limit(void)
{
    const char *slow = getenv("PGNKIT_SLOW");
    const char *cap = getenv("PGNKIT_PERFT_MAX_NODES");
    if (cap && *cap)
        return strtoull(cap, NULL, 10);
    return slow && strcmp(slow, "1") == 0 ? UINT64_MAX : NODE_LIMIT;
}

static void check_case(const struct perft_case *pc, int every_nth, int offset,
                       struct suite_totals *t)
{
    if (every_nth > 1 && pc->line % every_nth != offset)
        return;
    struct position pos;
    struct diag err;
    t->positions++;
    if (fen_parse_variant(&pos, pc->fen, strlen(pc->fen), false, pc->variant, &err) != 0) {
        if (t->failures++ < MAX_REPORTS)
            cr_expect(false, "%s (line %d): FEN rejected: %s (column %u): %s", pc->name, pc->line,
                      err.message, (unsigned)err.col, pc->fen);
        return;
    }
    uint64_t limit = node_limit();
    for (int i = 0; i < pc->depths; i++) {
        if (pc->nodes[i] > limit)
            continue;
        uint64_t got = rules_perft(&pos, pc->depth[i]);
        t->checked++;
        if (got != pc->nodes[i] && t->failures++ < MAX_REPORTS)
            cr_expect(false, "%s (line %d) depth %d: got %llu, want %llu: %s", pc->name,
                      pc->line, pc->depth[i], (unsigned long long)got,
                      (unsigned long long)pc->nodes[i], pc->fen);
    }
}

static FILE *open_suite(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s (run the tests from the repository root)", path);
    return f;
}

/* Ethereal's EPD: "<fen> ;D1 n ;D2 n ...". */
static struct suite_totals run_epd(const char *path, int every_nth, int offset)
{
    struct suite_totals t = {0, 0, 0};
    char line[1024];
    FILE *f = open_suite(path);
    for (int lineno = 1; fgets(line, sizeof line, f); lineno++) {
        struct perft_case pc = {.line = lineno};
        char *semi = strchr(line, ';');
        if (!semi)
            continue;
        size_t len = (size_t)(semi - line);
        while (len && line[len - 1] == ' ')
            len--;
        cr_assert_lt(len, sizeof pc.fen);
        memcpy(pc.fen, line, len);
        pc.fen[len] = '\0';
        snprintf(pc.name, sizeof pc.name, "%.40s:%d", path, lineno);
        for (char *p = semi; p && pc.depths < MAX_DEPTHS; p = strchr(p + 1, ';')) {
            int d;
            unsigned long long n;
            if (sscanf(p, ";D%d %llu", &d, &n) == 2) {
                pc.depth[pc.depths] = d;
                pc.nodes[pc.depths++] = n;
            }
        }
        check_case(&pc, every_nth, offset, &t);
    }
    fclose(f);
    return t;
}

/* python-chess records: "id", "epd" (4 fields), then "perft <depth> <nodes>" lines. */
static struct suite_totals run_perft_variant(const char *path, enum variant variant,
                                             int every_nth, int offset)
{
    struct suite_totals t = {0, 0, 0};
    struct perft_case pc;
    bool have = false;
    char line[1024];
    FILE *f = open_suite(path);
    for (int lineno = 1; fgets(line, sizeof line, f); lineno++) {
        line[strcspn(line, "\r\n")] = '\0';
        int d;
        unsigned long long n;
        if (strncmp(line, "id ", 3) == 0) {
            if (have)
                check_case(&pc, every_nth, offset, &t);
            memset(&pc, 0, sizeof pc);
            pc.variant = variant;
            snprintf(pc.name, sizeof pc.name, "%.60s", line + 3);
            pc.line = lineno;
            have = true;
        } else if (strncmp(line, "epd ", 4) == 0) {
            cr_assert_lt(strlen(line + 4), sizeof pc.fen);
            strcpy(pc.fen, line + 4);
        } else if (sscanf(line, "perft %d %llu", &d, &n) == 2 && pc.depths < MAX_DEPTHS) {
            pc.depth[pc.depths] = d;
            pc.nodes[pc.depths++] = n;
        }
    }
    if (have)
        check_case(&pc, every_nth, offset, &t);
    fclose(f);
    return t;
}

static struct suite_totals run_perft_file(const char *path, int every_nth, int offset)
{
    return run_perft_variant(path, VARIANT_STANDARD, every_nth, offset);
}

static void report(const char *what, struct suite_totals t, int want_positions)
{
    cr_log_info("%s: %d positions, %d (position, depth) counts verified", what, t.positions,
                t.checked);
    cr_assert_eq(t.failures, 0, "%s: %d failures", what, t.failures);
    if (want_positions)
        cr_assert_eq(t.positions, want_positions, "%s: read %d positions, want %d", what,
                     t.positions, want_positions);
}

Test(perft, standard_suite_matches_every_small_count)
{
    report("standard.epd", run_epd("testdata/perft/standard.epd", 1, 0), 128);
}

Test(perft, fischer_suite_in_shredder_fen_matches_every_small_count)
{
    report("fischer.epd", run_epd("testdata/perft/fischer.epd", 1, 0), 960);
}

Test(perft, tricky_positions_match_including_xfen_and_impossible_checks)
{
    report("tricky.perft", run_perft_file("testdata/perft/tricky.perft", 1, 0), 19);
}

/* The random suite is split in four parts by record line so the parts run in parallel. */
Test(perft, random_suite_part_one_matches)
{
    report("random.perft 1/4", run_perft_file("testdata/perft/random.perft", 4, 0), 0);
}
Test(perft, random_suite_part_two_matches)
{
    report("random.perft 2/4", run_perft_file("testdata/perft/random.perft", 4, 1), 0);
}
Test(perft, random_suite_part_three_matches)
{
    report("random.perft 3/4", run_perft_file("testdata/perft/random.perft", 4, 2), 0);
}
Test(perft, random_suite_part_four_matches)
{
    report("random.perft 4/4", run_perft_file("testdata/perft/random.perft", 4, 3), 0);
}

Test(perft, depth_zero_is_one_node)
{
    struct position pos;
    position_set_start(&pos);
    cr_assert_eq(rules_perft(&pos, 0), 1);
}

/* The lichess variants: python-chess's suites (giveaway.perft is Antichess: no castling
 * rights in it) and a King of the Hill suite, testdata/variants/perft/README.md. */
Test(perft, crazyhouse_suite_matches)
{
    report("crazyhouse.perft",
           run_perft_variant("testdata/variants/perft/crazyhouse.perft", VARIANT_CRAZYHOUSE, 1, 0),
           5);
}
Test(perft, atomic_suite_matches)
{
    report("atomic.perft",
           run_perft_variant("testdata/variants/perft/atomic.perft", VARIANT_ATOMIC, 1, 0), 7);
}
Test(perft, antichess_suite_matches)
{
    report("giveaway.perft",
           run_perft_variant("testdata/variants/perft/giveaway.perft", VARIANT_ANTICHESS, 1, 0),
           3);
}
Test(perft, king_of_the_hill_suite_matches)
{
    report("kingofthehill.perft",
           run_perft_variant("testdata/variants/perft/kingofthehill.perft",
                             VARIANT_KING_OF_THE_HILL, 1, 0),
           9);
}
Test(perft, three_check_suite_matches)
{
    report("3check.perft",
           run_perft_variant("testdata/variants/perft/3check.perft", VARIANT_THREE_CHECK, 1, 0),
           2);
}
Test(perft, racing_kings_suite_matches)
{
    report("racingkings.perft",
           run_perft_variant("testdata/variants/perft/racingkings.perft", VARIANT_RACING_KINGS, 1,
                             0),
           3);
}
Test(perft, horde_suite_matches)
{
    report("horde.perft",
           run_perft_variant("testdata/variants/perft/horde.perft", VARIANT_HORDE, 1, 0), 3);
}

/* variant_set_start() builds each start position by hand (the rules do not parse FEN):
 * byte for byte the position lichess's start FEN parses to, and consistent. */
Test(perft, variant_start_positions_are_the_lichess_fens)
{
    static const char *const fens[VARIANT_COUNT] = {
        [VARIANT_STANDARD] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        [VARIANT_CRAZYHOUSE] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        [VARIANT_ATOMIC] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        [VARIANT_ANTICHESS] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        [VARIANT_KING_OF_THE_HILL] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        [VARIANT_THREE_CHECK] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
        [VARIANT_RACING_KINGS] = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
        [VARIANT_HORDE] =
            "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
    };
    for (int v = 0; v < VARIANT_COUNT; v++) {
        struct position built, parsed;
        struct diag err;
        memset(&built, 0x55, sizeof built);
        memset(&parsed, 0xaa, sizeof parsed);
        variant_set_start(&built, (enum variant)v);
        cr_assert_eq(fen_parse_variant(&parsed, fens[v], strlen(fens[v]), false, (enum variant)v,
                                       &err), 0, "%s", fens[v]);
        cr_assert(memcmp(&built, &parsed, sizeof built) == 0, "%s", variant_name((enum variant)v));
        cr_assert(rules_position_ok(&built), "%s", variant_name((enum variant)v));
    }
}
