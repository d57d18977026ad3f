/* test_pgn_split.c - cut guesses and line counts for reading a PGN stream in pieces. */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers/helpers.h"
#include "pgn/pgn_reader.h"
#include "pgn/pgn_split.h"

/* ---- helpers ---------------------------------------------------------------------------- */

/* The cut search may look anywhere in [0, len) but no further: exact-size heap copies let
 * ASan see a read past the end. */
static char *exact_copy(const char *s, size_t len)
{
    char *d = calloc(len ? len : 1, 1);
    memcpy(d, s, len);
    return d;
}

static size_t find_cut_in(const char *s, size_t from, size_t len)
{
    char *d = exact_copy(s, len);
    size_t cut = pgn_split_find_cut(d, from, len);
    free(d);
    return cut;
}

/* `before` then `after`: the cut is where `after` starts. */
static void assert_cut_between(const char *before, const char *after)
{
    char s[512];
    snprintf(s, sizeof s, "%s%s", before, after);
    size_t got = find_cut_in(s, 1, strlen(s));
    cr_assert_eq(got, strlen(before), "in \"%s\": cut at %zu, expected %zu", s, got,
                 strlen(before));
}

static void assert_no_cut(const char *s)
{
    size_t got = find_cut_in(s, 1, strlen(s));
    cr_assert_eq(got, SIZE_MAX, "in \"%s\": cut at %zu, expected none", s, got);
}

static unsigned next_random(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return *seed >> 16;
}

/* ---- find_cut --------------------------------------------------------------------------- */

Test(pgn_split, a_tag_line_after_each_result_is_a_cut)
{
    assert_cut_between("1. e4 1-0\n", "[Event \"x\"]\n");
    assert_cut_between("1. e4 0-1\n", "[Event \"x\"]\n");
    assert_cut_between("1. e4 1/2-1/2\n", "[Event \"x\"]\n");
    assert_cut_between("1. e4 *\n", "[Event \"x\"]\n");
    /* The result may open the text: nothing before it is still "whitespace before". */
    assert_cut_between("*\n", "[Event \"x\"]\n");
}

Test(pgn_split, whitespace_of_any_kind_may_stand_between_result_and_tag_line)
{
    assert_cut_between("e4 1-0\n\n\n", "[A \"1\"]\n");
    assert_cut_between("e4 1-0 \t \n  \n", "[A \"1\"]\n");
    assert_cut_between("e4 0-1\r\n\r\n", "[A \"1\"]\r\n");
    assert_cut_between("e4 0-1\r\r", "[A \"1\"]\r");
    assert_cut_between("e4 1/2-1/2\n\r\n\r", "[A \"1\"]\n");
    assert_cut_between("e4\t*\t\r\n", "[A \"1\"]\n");
}

Test(pgn_split, the_last_cut_is_returned)
{
    assert_cut_between("[A \"1\"]\n\n1. e4 1-0\n\n[A \"2\"]\n\n1. d4 0-1\n\n",
                       "[A \"3\"]\n\n1. c4 *\n");
    /* Its line not whole: the one before it is the last that counts. */
    static const char s[] = "e4 1-0\n[A \"2\"]\nd4 *\n[A \"3\"]";
    cr_assert_eq(find_cut_in(s, 1, sizeof s - 1), 7);
}

Test(pgn_split, a_tag_line_whose_line_end_is_not_in_the_piece_is_no_cut)
{
    assert_no_cut("e4 1-0\n[Event \"x\"]");
    assert_no_cut("e4 1-0\n[");
    /* The same bytes, the line end cut off by len. */
    static const char s[] = "e4 1-0\n[Event \"x\"]\n";
    cr_assert_eq(find_cut_in(s, 1, sizeof s - 2), SIZE_MAX);
    cr_assert_eq(find_cut_in(s, 1, sizeof s - 1), 7);
    /* A lone CR as the last byte ends the line. */
    cr_assert_eq(find_cut_in("e4 1-0\n[Event \"x\"]\r", 1, 19), 7);
}

Test(pgn_split, brackets_that_do_not_follow_a_result_line_are_no_cuts)
{
    assert_no_cut("e4 1-0 [A \"1\"]\n");             /* not at a line start */
    assert_no_cut("e4 1-0\n [A \"1\"]\n");           /* indented */
    assert_no_cut("[A \"1-0\"]\n[B \"2\"]\n");       /* after another tag line */
    assert_no_cut("e4 { 1-0 }\n[A \"1\"]\n");        /* after a comment */
    assert_no_cut("e4 {1-0}\n[A \"1\"]\n");
    assert_no_cut("e4 10-1\n[A \"1\"]\n");           /* no whitespace before the result */
    assert_no_cut("e4 x1-0\n[A \"1\"]\n");
    assert_no_cut("e4 21/2-1/2\n[A \"1\"]\n");
    assert_no_cut("e4 e5*\n[A \"1\"]\n");
    assert_no_cut("e4 1-0.\n[A \"1\"]\n");           /* more after the result */
    assert_no_cut("e4 1-0\n\n(\n[A \"1\"]\n");
    assert_no_cut("");
    assert_no_cut("no brackets at all 1-0\n");
}

Test(pgn_split, index_zero_and_bytes_before_from_are_never_cuts)
{
    assert_no_cut("[A \"1\"]\n1-0\n");
    static const char s[] = "1-0\n[A \"1\"]\n";
    cr_assert_eq(find_cut_in(s, 0, sizeof s - 1), 4);
    cr_assert_eq(find_cut_in(s, 4, sizeof s - 1), 4);
    cr_assert_eq(find_cut_in(s, 5, sizeof s - 1), SIZE_MAX);
    cr_assert_eq(find_cut_in(s, sizeof s - 1, sizeof s - 1), SIZE_MAX);
    /* Looking back past `from` for the result is fine: only the cut must be at or after it. */
    static const char t[] = "1-0\n\n\n[A \"1\"]\n";
    cr_assert_eq(find_cut_in(t, 6, sizeof t - 1), 6);
}

/* The rule of pgn_split.h written out forwards, the plain way. */
static bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static bool result_ends_at(const char *d, size_t e)
{
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
    for (size_t k = 0; k < 4; k++) {
        size_t n = strlen(results[k]);
        if (e < n || strncmp(d + e - n, results[k], n) != 0)
            continue;
        if (e == n || is_ws(d[e - n - 1]))
            return true;
    }
    return false;
}

static size_t reference_cut(const char *d, size_t from, size_t len)
{
    size_t last = SIZE_MAX;
    for (size_t c = from > 0 ? from : 1; c < len; c++) {
        if (d[c] != '[' || (d[c - 1] != '\n' && d[c - 1] != '\r'))
            continue;
        size_t e = c;
        while (e > 0 && is_ws(d[e - 1]))
            e--;
        bool line_end = false;
        for (size_t k = c; k < len && !line_end; k++)
            line_end = d[k] == '\n' || d[k] == '\r';
        if (result_ends_at(d, e) && line_end)
            last = c;
    }
    return last;
}

Test(pgn_split, random_fragments_cut_where_the_rule_says)
{
    static const char *const frags[] = {"1-0", "0-1", "1/2-1/2", "*", "[", "[A \"1\"]", "\n",
                                        "\r", "\r\n", " ", "\t", "e4", "}", "x", "10-1", "2"};
    unsigned seed = 777;
    char buf[256];
    for (int iter = 0; iter < 20000; iter++) {
        size_t len = 0;
        int parts = (int)(next_random(&seed) % 24);
        for (int k = 0; k < parts; k++) {
            const char *f = frags[next_random(&seed) % (sizeof frags / sizeof frags[0])];
            size_t fl = strlen(f);
            if (len + fl > sizeof buf)
                break;
            memcpy(buf + len, f, fl);
            len += fl;
        }
        size_t from = len ? next_random(&seed) % (len + 1) : 0;
        size_t want = reference_cut(buf, from, len);
        size_t got = find_cut_in(buf, from, len);
        cr_assert_eq(got, want, "iteration %d, from %zu, \"%.*s\": cut at %zu, expected %zu",
                     iter, from, (int)len, buf, got, want);
    }
}

/* ---- count_lines ------------------------------------------------------------------------ */

static uint64_t reference_lines(const char *d, size_t n)
{
    uint64_t lines = 0;
    for (size_t i = 0; i < n; i++) {
        if (d[i] == '\n')
            lines++;
        else if (d[i] == '\r' && !(i + 1 < n && d[i + 1] == '\n'))
            lines++;
    }
    return lines;
}

/* n bytes drawn from a four-letter alphabet. */
static void fill_random(char *buf, size_t n, const char alphabet[4], unsigned *seed)
{
    for (size_t k = 0; k < n; k++)
        buf[k] = alphabet[next_random(seed) % 4];
}

/* The count of each path this CPU runs (base/cpu.h), which must agree. */
static uint64_t count_lines_in(const char *s, size_t n)
{
    char *d = exact_copy(s, n);
    uint64_t lines = pgn_split_count_lines(d, n);
    for (int level = CPU_BASE; level <= (int)cpu_level(); level++)
        cr_assert_eq(pgn_split_count_lines_at(d, n, (enum cpu_level)level), lines,
                     "cpu level %d counts otherwise (%zu bytes)", level, n);
    free(d);
    return lines;
}

Test(pgn_split, line_ends_count_as_the_reader_counts_them)
{
    cr_assert_eq(count_lines_in("", 0), 0);
    cr_assert_eq(count_lines_in("a", 1), 0);
    cr_assert_eq(count_lines_in("\n", 1), 1);
    cr_assert_eq(count_lines_in("\r", 1), 1);
    cr_assert_eq(count_lines_in("\r\n", 2), 1);
    cr_assert_eq(count_lines_in("\n\r", 2), 2);
    cr_assert_eq(count_lines_in("\r\r\n", 3), 2);
    cr_assert_eq(count_lines_in("\r\n\n", 3), 2);
    /* A CR before the end of the range counts even if the byte after the range is LF. */
    cr_assert_eq(count_lines_in("a\r\n", 2), 1);
}

/* Buffers of 0-300 random bytes count what a byte loop counts; with add_cr, again with
 * one CR put at a random position of each. */
static void check_random_buffers(const char alphabet[4], unsigned seed, int iterations,
                                 bool add_cr)
{
    char buf[300];
    for (int iter = 0; iter < iterations; iter++) {
        size_t n = (size_t)iter % (sizeof buf + 1);
        fill_random(buf, n, alphabet, &seed);
        uint64_t want = reference_lines(buf, n), got = count_lines_in(buf, n);
        cr_assert_eq(got, want, "iteration %d, %zu bytes: %llu lines, expected %llu", iter, n,
                     (unsigned long long)got, (unsigned long long)want);
        if (add_cr && n) {
            size_t at = next_random(&seed) % n;
            char was = buf[at];
            buf[at] = '\r';
            cr_assert_eq(count_lines_in(buf, n), reference_lines(buf, n), "CR at %zu of %zu", at, n);
            buf[at] = was;
        }
    }
}

Test(pgn_split, random_buffers_count_what_a_byte_loop_counts)
{
    static const char alphabet[] = {'\n', '\r', 'a', ' '};
    check_random_buffers(alphabet, 4242, 20000, false);
}

/* Without any CR (the usual file), where the count takes its LF-only path; then one CR
 * at each position of such a buffer, which sends it back to the exact count. */
Test(pgn_split, buffers_without_cr_count_what_a_byte_loop_counts)
{
    static const char alphabet[] = {'\n', 'a', ' ', 'b'};
    check_random_buffers(alphabet, 99, 6000, true);
}

/* One CRLF or lone CR at each position, the range ending on either side of its LF: the
 * vector blocks (16 or 32 bytes) see the LF only through their one-byte lookahead. */
Test(pgn_split, a_crlf_across_a_vector_block_boundary_counts_once)
{
    char buf[160];
    for (size_t p = 0; p + 2 < sizeof buf; p++) {
        memset(buf, 'a', sizeof buf);
        buf[p] = '\r';
        buf[p + 1] = '\n';
        for (size_t n = p + 1; n <= sizeof buf; n++)
            cr_assert_eq(count_lines_in(buf, n), 1, "CRLF at %zu, %zu bytes", p, n);
        buf[p + 1] = 'a';
        for (size_t n = p + 1; n <= sizeof buf; n++)
            cr_assert_eq(count_lines_in(buf, n), 1, "lone CR at %zu, %zu bytes", p, n);
    }
    memset(buf, '\r', sizeof buf);
    for (size_t n = 0; n <= sizeof buf; n++)
        cr_assert_eq(count_lines_in(buf, n), n, "%zu lone CRs", n);
    for (size_t k = 0; k < sizeof buf; k += 2)
        buf[k + 1] = '\n';
    for (size_t n = 0; n <= sizeof buf; n++)
        cr_assert_eq(count_lines_in(buf, n), (n + 1) / 2, "CRLFs, %zu bytes", n);
}

/* Each game starts on the line the split's count gives for its offset: the pipeline
 * numbers a piece's lines with that count. */
static void assert_game_lines_match(const char *what, const char *s, size_t len)
{
    struct pgn_reader *r = pgn_reader_from_memory(s, len, what, NULL);
    struct pgn_game g;
    size_t games = 0;
    while (pgn_reader_next(r, &g, NULL) == 1) {
        games++;
        uint64_t line = 1 + pgn_split_count_lines(s, (size_t)g.offset);
        cr_assert_eq(line, g.line, "%s game %llu at offset %llu: the reader says line %llu, "
                     "the count %llu", what, (unsigned long long)g.index,
                     (unsigned long long)g.offset, (unsigned long long)g.line, (unsigned long long)line);
    }
    cr_assert_gt(games, 0, "%s has no games", what);
    pgn_reader_free(r);
}

/* The file with every LF turned into `eol` (NULL: as it is). */
static char *with_line_ends(const char *s, size_t len, const char *eol, size_t *out_len)
{
    char *d = malloc(2 * len + 1);
    size_t n = 0;
    for (size_t k = 0; k < len; k++) {
        if (s[k] == '\n' && eol) {
            memcpy(d + n, eol, strlen(eol));
            n += strlen(eol);
        } else {
            d[n++] = s[k];
        }
    }
    *out_len = n;
    return d;
}

Test(pgn_split, real_files_start_their_games_on_the_counted_lines)
{
    static const char *const files[] = {
        "testdata/pgn/tcec/TCEC_Match_1.pgn", /* CRLF */
        "testdata/pgn/pgn-extract/fischer.pgn",
        "testdata/pgn/python-chess/utf8-bom.pgn",
        "testdata/pgn/mutants/mutants.pgn",
    };
    static const char *const eols[] = {NULL, "\r\n", "\r"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        size_t len;
        char *s = th_slurp(files[k], &len);
        for (size_t e = 0; e < sizeof eols / sizeof eols[0]; e++) {
            if (eols[e] && memchr(s, '\r', len))
                continue; /* already mixed: a conversion would not be what it says */
            size_t n;
            char *t = with_line_ends(s, len, eols[e], &n);
            char what[256];
            snprintf(what, sizeof what, "%s (LF as %s)", files[k],
                     !eols[e] ? "is" : eols[e][1] ? "CRLF" : "CR");
            assert_game_lines_match(what, t, n);
            free(t);
        }
        free(s);
    }
}

/* ---- sync points (--range) ----------------------------------------------------------------
 *
 * The promise: a reader started at a sync point p reads exactly the games the whole-file
 * reader reads from p on (same offsets, lengths, lines, tags, tokens and diagnostics),
 * and no game of the whole-file reading spans p.  Checked for the sync point found at
 * every position of edge-case texts (each also with CRLF, lone CR and a BOM) and of
 * random texts built from the fragments that change the reader's state.
 */

struct read_game {
    uint64_t offset, bytes;
    uint64_t line;
    size_t tags, tokens, diags;
    uint32_t diag_key; /* the codes, lines and columns of the diagnostics, mixed */
};

static size_t read_games(struct pgn_reader *r, struct read_game *out, size_t cap)
{
    struct pgn_game g;
    size_t n = 0;
    while (pgn_reader_next(r, &g, NULL) == 1) {
        cr_assert_lt(n, cap);
        uint32_t key = 0;
        for (size_t k = 0; k < g.diags.count; k++)
            key = key * 31u + (uint32_t)g.diags.items[k].code * 7u +
                  (uint32_t)g.diags.items[k].line * 3u + (uint32_t)g.diags.items[k].col;
        out[n++] = (struct read_game){g.offset, g.bytes, g.line, g.tag_count, g.token_count,
                                      g.diags.count, key};
    }
    return n;
}

static const struct pgn_limits sync_limits = {.max_game_bytes = 96};

static void assert_sync_point_reads_as_whole(const char *d, size_t len, size_t p,
                                             const struct read_game *whole, size_t nwhole,
                                             const struct pgn_limits *lim)
{
    static struct read_game part[4096];
    struct pgn_reader *r = pgn_reader_from_memory("", 0, "t", lim);
    struct pgn_resume at = {.offset = p, .line = 1 + pgn_split_count_lines(d, p),
                            .games_unknown = p > 0};
    pgn_reader_restart(r, d + p, len - p, SIZE_MAX, &at);
    size_t npart = read_games(r, part, 4096);
    pgn_reader_free(r);
    size_t first = 0;
    while (first < nwhole && whole[first].offset < p) {
        cr_assert_leq(whole[first].offset + whole[first].bytes, p,
                      "a game from %llu spans the sync point %zu in \"%.*s\"",
                      (unsigned long long)whole[first].offset, p, (int)len, d);
        first++;
    }
    cr_assert_eq(npart, nwhole - first, "from sync point %zu: %zu games, whole file: %zu, in \"%.*s\"",
                 p, npart, nwhole - first, (int)len, d);
    for (size_t k = 0; k < npart; k++)
        cr_assert(memcmp(&part[k], &whole[first + k], sizeof part[k]) == 0,
                  "game %zu from sync point %zu (offset %llu) differs in \"%.*s\"", k, p,
                  (unsigned long long)part[k].offset, (int)len, d);
}

/* Every position's sync point: at or before it, and reading as the whole file reads. */
static void assert_sync_points_sound(const char *s, size_t len, const struct pgn_limits *lim)
{
    static struct read_game whole[4096];
    char *d = exact_copy(s, len);
    struct pgn_reader *r = pgn_reader_from_memory(d, len, "t", lim);
    size_t nwhole = read_games(r, whole, 4096);
    pgn_reader_free(r);
    size_t last = SIZE_MAX;
    for (size_t pos = 0; pos <= len; pos++) {
        size_t p = pgn_split_last_sync(d, len, pos, true, true);
        cr_assert_leq(p, pos);
        if (p != last)
            assert_sync_point_reads_as_whole(d, len, p, whole, nwhole, lim);
        last = p;
    }
    free(d);
}

/* s, and s with CRLF, with lone CR, and after a BOM. */
static void assert_sync_sound_in_every_spelling(const char *s)
{
    size_t len = strlen(s), n;
    assert_sync_points_sound(s, len, NULL);
    assert_sync_points_sound(s, len, &sync_limits);
    for (int k = 0; k < 2; k++) {
        char *t = with_line_ends(s, len, k ? "\r" : "\r\n", &n);
        assert_sync_points_sound(t, n, NULL);
        free(t);
    }
    char *b = malloc(len + 3);
    memcpy(b, "\xef\xbb\xbf", 3);
    memcpy(b + 3, s, len);
    assert_sync_points_sound(b, len + 3, NULL);
    free(b);
}

static size_t sync_in(const char *s, size_t pos)
{
    char *d = exact_copy(s, strlen(s));
    size_t p = pgn_split_last_sync(d, strlen(s), pos, true, true);
    free(d);
    return p;
}

Test(pgn_split, a_tag_line_after_a_blank_line_after_a_result_line_is_a_sync_point)
{
    const char *s = "[Event \"a\"]\n\n1. e4 1-0\n\n[Event \"b\"]\n\n1. d4 0-1\n";
    size_t b = (size_t)(strstr(s, "[Event \"b\"]") - s);
    cr_assert_eq(sync_in(s, b), b);          /* exactly at a game start */
    cr_assert_eq(sync_in(s, b + 3), b);      /* inside its tag section */
    cr_assert_eq(sync_in(s, b - 1), 0);      /* just before it */
    cr_assert_eq(sync_in(s, 0), 0);          /* at 0 */
    cr_assert_eq(sync_in(s, strlen(s)), b);  /* at the end */
}

Test(pgn_split, no_sync_point_where_the_state_before_is_not_known)
{
    /* No blank line; a result inside a line comment, an escape line, a tag line, a
     * string; a control byte on the blank line; a result glued to a move. */
    const char *no[] = {
        "1. e4 1-0\n[Event \"b\"]\n",
        "1. e4 ; so 1-0\n\n[Event \"b\"]\n",
        "% 1-0\n\n[Event \"b\"]\n",
        "[Event \"x\" 1-0\n\n[Event \"b\"]\n",
        "[Event \"x 1-0\n\n[Event \"b\"]\n",
        "1. e4 1-0\n\x01\n[Event \"b\"]\n",
        "1. e4 {c} 1-0\n\n[Event \"b\"]\n",
        "1. e41-0\n\n[Event \"b\"]\n",
        "1. e4 1-0\n\n [Event \"b\"]\n",
    };
    for (size_t k = 0; k < sizeof no / sizeof *no; k++)
        cr_assert_eq(sync_in(no[k], strlen(no[k])), 0, "a sync point in \"%s\"", no[k]);
    /* Not at the start of the data and no line start seen: none at all. */
    const char *s = "e4 1-0\n\n[Event \"b\"]\n";
    char *d = exact_copy(s, strlen(s));
    cr_assert_eq(pgn_split_last_sync(d, strlen(s), strlen(s), false, true), SIZE_MAX);
    free(d);
}

Test(pgn_split, sync_points_read_as_the_whole_file_in_edge_cases)
{
    const char *cases[] = {
        /* a cut inside a tag section */
        "[Event \"a\"]\n[Site \"b\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n[Site \"c\"]\n\n1. d4 0-1\n",
        /* a comment holding a result line and a tag-like line */
        "[Event \"a\"]\n\n1. e4 {a comment\n1-0\n\n[Event \"fake\"]\nstill} e5 1-0\n\n"
        "[Event \"b\"]\n\n1. d4 *\n",
        /* a string holding a result, a tag section with blank lines and a repeated tag */
        "[Event \"a 1-0\n\n[Site \"x\"]\n\n1. e4 1-0\n\n[Event \"c\"]\n\n[Site \"d\"]\n\n"
        "[Event \"e\"]\n\n1. c4 1/2-1/2\n",
        /* a comment after the result, a line comment, an escape line, an open variation */
        "1. e4 1-0 {after}\n1-0\n\n[Event \"a\"]\n1. e4 ; note 1-0\n\n[Event \"b\"]\n"
        "% esc 1-0\n\n[Event \"c\"]\n\n1. e4 (1. d4 1-0\n\n[Event \"d\"]\n\n1. Nf3 *\n\n",
        /* no movetext, no result, junk and control bytes between games */
        "[Event \"a\"]\n\n[Event \"b\"]\n\n1. e4\n\n[Event \"c\"]\n\n1. d4 1-0\n] \x02\n\n"
        "[Event \"d\"]\n\n1. c4 *\n",
        /* a game over the test's 96-byte limit */
        "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 "
        "7. Bb3 d6 8. c3 O-O 1-0\n\n[Event \"b\"]\n\n1. d4 0-1\n",
        "",
        "\n\n\n",
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
        assert_sync_sound_in_every_spelling(cases[k]);
}

Test(pgn_split, sync_points_read_as_the_whole_file_in_random_texts)
{
    static const char *const frags[] = {
        "[Event \"x\"]", "[Site \"y\"]", "[Event \"1-0", "[", "]", "\"", "{", "}", "(", ")",
        "1-0", "0-1", "*", "1/2-1/2", "1.", "e4", "Nf3", "e5", "$1", ";c 1-0", "%e 1-0",
        "<r>", "\x01", " ", "\n", "\n\n", "\r\n", "\r", "\t", "\xef\xbb\xbf",
    };
    unsigned seed = 17;
    char s[1024];
    for (int round = 0; round < 1500; round++) {
        size_t len = 0;
        int pieces = 5 + (int)(next_random(&seed) % 60);
        for (int k = 0; k < pieces; k++) {
            /* Result lines followed by a blank line and a tag line, often. */
            const char *f = next_random(&seed) % 4 == 0
                                ? "1-0\n\n[Event \"z\"]"
                                : frags[next_random(&seed) % (sizeof frags / sizeof *frags)];
            size_t n = strlen(f);
            if (len + n >= sizeof s)
                break;
            memcpy(s + len, f, n);
            len += n;
        }
        assert_sync_points_sound(s, len, round % 3 ? NULL : &sync_limits);
    }
}
