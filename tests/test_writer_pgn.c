/* test_writer_pgn.c - the PGN writer against a struct buf: export-format details. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "helpers/helpers.h"
#include "base/buf.h"
#include "board/fen.h"
#include "game/game.h"
#include "board/movegen.h"
#include "pgn/pgn_reader.h"
#include "san/san_resolve.h"
#include "board/uci.h"
#include "write/writer.h"

/* Every game of text replayed and handed to write(out, rec, ctx), out initialized. */
static void write_each(const char *text, struct buf *out,
                       void (*write)(struct buf *out, const struct game_record *rec, void *ctx),
                       void *ctx)
{
    struct game_options opts = {0};
    struct diag err;
    struct game_replayer *r = game_replayer_new(&opts, &err);
    cr_assert_not_null(r);
    struct pgn_reader *reader = pgn_reader_from_memory(text, strlen(text), "t.pgn", NULL);
    struct pgn_game g;
    buf_init(out);
    while (pgn_reader_next(reader, &g, &err) == 1)
        write(out, game_replay(r, &g), ctx);
    pgn_reader_free(reader);
    game_replayer_free(r);
}

struct normalized {
    const struct writer_options *o;
    struct buf *fixes;
};

static void write_normalized(struct buf *out, const struct game_record *rec, void *ctx)
{
    const struct normalized *n = ctx;
    writer_pgn_fixes(out, n->fixes, rec, n->o);
}

/* Normalize text (one game) with the given writer options; out and fixes are filled
 * (fixes NULL: no --fixes report, the writer's usual path). */
static void normalize(const char *text, const struct writer_options *o, struct buf *out,
                      struct buf *fixes)
{
    if (fixes)
        buf_init(fixes);
    write_each(text, out, write_normalized, &(struct normalized){o, fixes});
}

static const char *movetext(const struct buf *b)
{
    const char *p = strstr(b->data, "\n\n");
    cr_assert_not_null(p);
    return p + 2;
}

Test(writer_pgn, roster_first_with_defaults_and_escapes)
{
    struct writer_options o = {0};
    struct buf out, fixes;
    normalize("[Black \"B\"]\n[Foo \"a\\\"b\\\\c\"]\n[Event \"E\"]\n\n1. e4 1-0\n", &o, &out,
              &fixes);
    cr_assert_str_eq(out.data, "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
                               "[Round \"?\"]\n[White \"?\"]\n[Black \"B\"]\n"
                               "[Result \"1-0\"]\n[Foo \"a\\\"b\\\\c\"]\n\n1. e4 1-0\n\n");
    cr_assert_not_null(strstr(fixes.data, "fix[TAG_ORDER]"));
    buf_release(&out);
    buf_release(&fixes);
}

Test(writer_pgn, black_gets_a_number_after_comment_nag_and_variation)
{
    struct writer_options o = {0};
    struct buf out, fixes;
    normalize("1. e4 {c} e5 2. Nf3 $1 Nc6 3. Bb5 (3. Bc4) a6 4. Ba4 *", &o, &out, &fixes);
    cr_assert_str_eq(movetext(&out), "1. e4 { c } 1... e5 2. Nf3 $1 2... Nc6 3. Bb5 ( 3. Bc4 ) "
                                     "3... a6 4. Ba4 *\n\n");
    buf_release(&out);
    buf_release(&fixes);
}

Test(writer_pgn, san_is_canonical_and_suffixes_become_nags)
{
    struct writer_options o = {0};
    struct buf out, fixes;
    normalize("1. e2e4!! e5?? 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 1-0", &o, &out, &fixes);
    cr_assert_str_eq(movetext(&out),
                     "1. e4 $3 1... e5 $4 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n");
    cr_assert_not_null(strstr(fixes.data, "fix[SAN]: game 1, ply 1: e2e4 -> e4"));
    cr_assert_not_null(strstr(fixes.data, "fix[SAN]: game 1, ply 7: Qxf7 -> Qxf7#"));
    buf_release(&out);
    buf_release(&fixes);
}

Test(writer_pgn, line_comment_brace_cannot_close_the_comment)
{
    struct writer_options o = {0};
    struct buf out, fixes;
    normalize("1. e4 ; a } b\ne5 *", &o, &out, &fixes);
    cr_assert_str_eq(movetext(&out), "1. e4 { a ) b } 1... e5 *\n\n");
    buf_release(&out);
    buf_release(&fixes);
}

Test(writer_pgn, lines_wrap_at_80_without_breaking_a_move_from_its_number)
{
    struct writer_options o = {0};
    struct buf out, fixes;
    normalize("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 "
              "8. Ng1 Ng8 9. Nf3 Nf6 10. Ng1 Ng8 11. Nf3 Nf6 12. Ng1 Ng8 *",
              &o, &out, &fixes);
    const char *text = movetext(&out);
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        cr_assert_leq(nl - line, 80);
        cr_assert_neq(nl[-1], '.', "a line ends with a move number");
        line = nl + 1;
    }
    buf_release(&out);
    buf_release(&fixes);
}

Test(writer_pgn, an_error_keeps_the_rest_in_a_comment)
{
    struct writer_options o = {0};
    struct buf out, fixes;
    normalize("1. e4 e5 2. Ke3 (2. Nf3) Nc6 {x} 1-0", &o, &out, &fixes);
    cr_assert_str_eq(movetext(&out),
                     "1. e4 e5 { pgnkit: not replayed (ILLEGAL): 2. Ke3 ( 2. Nf3 ) Nc6 < x > } "
                     "1-0\n\n");
    buf_release(&out);
    buf_release(&fixes);
}

Test(writer_pgn, fen_comments_follow_the_move_and_its_nags)
{
    struct writer_options o = {.fen_mode = FEN_MODE_COMMENTS};
    struct buf out, fixes;
    normalize("1. e4! *", &o, &out, &fixes);
    cr_assert_str_eq(movetext(&out), "1. e4 $1 { rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR "
                                     "b KQkq e3 0 1 } *\n\n");
    buf_release(&out);
    buf_release(&fixes);
}

/*
 * --ep legal after a check (the writer plays its moves without looking for checks: the
 * replay's mark says when to): the e.p. square only when a capture there is legal.
 * d7-d5 uncovers the c8 bishop's check on f5: exd6 leaves the king in check, no square;
 * d7-d5 checking e4 itself: exd6 takes the checker, d6.
 */
Test(writer_pgn, fen_comments_ep_square_after_a_check)
{
    struct writer_options o = {.fen_mode = FEN_MODE_COMMENTS, .fen_flags = FEN_EP_LEGAL};
    struct buf out;
    normalize("[SetUp \"1\"]\n[FEN \"2b1k3/3p4/8/4PK2/8/8/8/8 b - - 0 1\"]\n\n1... d5 *", &o,
              &out, NULL);
    cr_assert_str_eq(movetext(&out), "1... d5+ { 2b1k3/8/8/3pPK2/8/8/8/8 w - - 0 2 } *\n\n");
    buf_release(&out);
    normalize("[SetUp \"1\"]\n[FEN \"4k3/3p4/8/4P3/4K3/8/8/8 b - - 0 1\"]\n\n1... d5 *", &o,
              &out, NULL);
    cr_assert_str_eq(movetext(&out), "1... d5+ { 4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 2 } *\n\n");
    buf_release(&out);
}

/*
 * The SAN written for every legal move of every position of random.perft (pawn moves,
 * captures, promotions, checks and mates, castling, pieces with and without rivals,
 * pinned ones) is san_write()'s: one game per move from the position's FEN, the move
 * written in UCI form (so nothing is copied from the token), "N. SAN" or "N... SAN".
 */
Test(writer_pgn, every_legal_move_is_written_as_san_write_writes_it, .timeout = 120)
{
    FILE *f = fopen("testdata/perft/random.perft", "r");
    cr_assert_not_null(f);
    char fen[256];
    long moves_seen = 0;
    struct position pos;
    struct writer_options o = {0};
    while (th_next_epd(f, &pos, fen, sizeof fen)) {
        struct move moves[MAX_MOVES];
        int n = movegen_legal(&pos, moves);
        struct buf in, want;
        buf_init(&in);
        buf_init(&want);
        for (int i = 0; i < n; i++) {
            char uci[8], san[16];
            uci_write_move(&pos, moves[i], false, uci);
            san_write(&pos, moves[i], san);
            buf_printf(&in, "[SetUp \"1\"]\n[FEN \"%s\"]\n\n%s *\n\n", fen, uci);
            buf_printf(&want, "%u%s %s *\n", pos.fullmove_number,
                       pos.side_to_move == WHITE ? "." : "...", san);
        }
        struct buf out, got;
        normalize(in.data ? in.data : "", &o, &out, NULL);
        buf_init(&got);
        /* Each game's movetext: the line after its tags' blank line. */
        for (const char *p = out.data; p && (p = strstr(p, "\n\n")) != NULL;) {
            const char *end = strchr(p + 2, '\n');
            cr_assert_not_null(end);
            buf_append(&got, p + 2, (size_t)(end + 1 - (p + 2)));
            p = end + 2;
        }
        cr_assert_str_eq(got.data ? got.data : "", want.data ? want.data : "", "%s", fen);
        moves_seen += n;
        buf_release(&in);
        buf_release(&want);
        buf_release(&got);
        buf_release(&out);
    }
    fclose(f);
    cr_assert_gt(moves_seen, 100000);
}

/* xorshift64: the random texts below are the same on every run. */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* One random comment's words, twice: in `simple` one blank apart (perhaps one blank
 * before and after), as the writer writes them, and in `spaced` the same words apart by
 * runs of other blanks, which the writer rewrites word by word.  Words of 1-40 bytes,
 * now and then 60-90 (longer than a line), some starting with '%' (never at a line's
 * start), some with UTF-8. */
static void random_comment(uint64_t *seed, struct buf *simple, struct buf *spaced)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789[]:.=+-%";
    static const char *const gaps[] = {"  ", "\t", " \n ", "\r\n", " \t"};
    size_t words = 1 + next_random(seed) % 12;
    if (next_random(seed) % 2)
        buf_putc(simple, ' ');
    buf_putc(spaced, '\t');
    for (size_t k = 0; k < words; k++) {
        if (k) {
            buf_putc(simple, ' ');
            buf_puts(spaced, gaps[next_random(seed) % 5]);
        }
        size_t len = next_random(seed) % 16 ? 1 + next_random(seed) % 40
                                            : 60 + next_random(seed) % 31;
        for (size_t i = 0; i < len; i++) {
            uint64_t r = next_random(seed);
            const char *c = r % 23 == 0 ? "\xc3\xa9" : (char[2]){letters[r % 44], '\0'};
            buf_puts(simple, c);
            buf_puts(spaced, c);
        }
    }
    if (next_random(seed) % 2)
        buf_putc(simple, ' ');
}

/*
 * A comment already written one blank apart is copied whole and broken only where a
 * line must (pgn_line.c, put_simple_comment): the same bytes as the same words
 * written word by word.  500 random games of 1-40 knight moves with comments after
 * random moves (and one before the first), so comments start at every column; the
 * plain and the --comments (FEN) writings both.
 */
Test(writer_pgn, simple_comments_wrap_as_word_by_word)
{
    static const char *const moves[4] = {"Nf3", "Nf6", "Ng1", "Ng8"};
    uint64_t seed = 0x9e3779b97f4a7c15;
    for (int game = 0; game < 500; game++) {
        struct buf a, b;
        buf_init(&a);
        buf_init(&b);
        size_t plies = 1 + next_random(&seed) % 40;
        for (size_t ply = 0; ply <= plies; ply++) {
            if (ply ? next_random(&seed) % 2 : game % 3 == 0) {
                buf_putc(&a, '{');
                buf_putc(&b, '{');
                random_comment(&seed, &a, &b);
                buf_puts(&a, "} ");
                buf_puts(&b, "} ");
            }
            if (ply < plies) {
                buf_printf(&a, "%s%s ", ply % 2 ? "" : "1. ", moves[ply % 4]);
                buf_printf(&b, "%s%s ", ply % 2 ? "" : "1. ", moves[ply % 4]);
            }
        }
        buf_puts(&a, "*\n");
        buf_puts(&b, "*\n");
        for (int fen = 0; fen < 2; fen++) {
            struct writer_options o = {.fen_mode = fen ? FEN_MODE_COMMENTS : FEN_MODE_FINAL};
            struct buf out_a, out_b;
            normalize(a.data, &o, &out_a, NULL);
            normalize(b.data, &o, &out_b, NULL);
            cr_assert_str_eq(out_a.data, out_b.data, "game %d: %s", game, a.data);
            buf_release(&out_a);
            buf_release(&out_b);
        }
        buf_release(&a);
        buf_release(&b);
    }
}

/*
 * A byte a comment cannot keep as it is, at every place of comments of 1-66 bytes: '}'
 * (from a ';' comment) becomes ')', a control byte U+FFFD, a tab or two blanks one
 * blank between words.  The expected text from those rules, the comment fitting on the
 * line after "1. e4" with the result.
 */
Test(writer_pgn, comment_bytes_to_clean_anywhere)
{
    static const struct {
        const char *in, *out;
        bool split; /* a blank: the words are the text's split at it */
    } kinds[] = {
        {"}", ")", false}, {"\x01", "\xef\xbf\xbd", false}, {"\xc2\x85", "\xef\xbf\xbd", false},
        {"\x7f", "\xef\xbf\xbd", false}, {"\t", " ", true}, {"  ", " ", true},
    };
    for (size_t kind = 0; kind < sizeof kinds / sizeof kinds[0]; kind++) {
        for (size_t len = 1; len <= 66; len++) {
            for (size_t at = 0; at < len; at++) {
                char text[160], want[200];
                size_t inlen = strlen(kinds[kind].in);
                memset(text, 'a', at);
                memcpy(text + at, kinds[kind].in, inlen);
                memset(text + at + inlen, 'b', len - at - 1);
                text[len - 1 + inlen] = '\0';
                char game[256];
                snprintf(game, sizeof game, "1. e4 ;%s\n*", text);
                /* Expected: the words, a blank apart, in "{ ... }". */
                size_t n = 0;
                n += (size_t)snprintf(want + n, sizeof want - n, "1. e4 {");
                if (kinds[kind].split) {
                    if (at)
                        n += (size_t)snprintf(want + n, sizeof want - n, " %.*s", (int)at, text);
                    if (len - at - 1)
                        n += (size_t)snprintf(want + n, sizeof want - n, " %s",
                                              text + at + inlen);
                } else {
                    n += (size_t)snprintf(want + n, sizeof want - n, " %.*s%s%s", (int)at, text,
                                          kinds[kind].out, text + at + inlen);
                }
                snprintf(want + n, sizeof want - n, " } *\n\n");
                struct writer_options o = {0};
                struct buf out;
                normalize(game, &o, &out, NULL);
                cr_assert_str_eq(movetext(&out), want, "kind %zu, len %zu, at %zu", kind, len,
                                 at);
                buf_release(&out);
            }
        }
    }
}

/*
 * Line numbers past 2^32 (issue 15: they wrapped to 0).  A reader resumed there, as the
 * --jobs pipeline and --range resume one: the game, its tags, its tokens
 * (pgn_token_line), the replay's ILLEGAL as `check` prints it and pgn's fix report all
 * carry the 64-bit line.  tests/cli/limits.sh reads a real file of 2^32 + 5 lines when
 * PGNKIT_SLOW is set.
 */
Test(writer_pgn, lines_past_two_to_the_32)
{
    static const char text[] = "[Event \"x\"]\n\n1. e4 e5\n2. Kd3 1-0\n";
    const uint64_t first = ((uint64_t)1 << 32) - 1;
    struct pgn_resume at = {.offset = 1000, .line = first, .games = 0};
    struct pgn_reader *reader = pgn_reader_from_memory(NULL, 0, "big.pgn", NULL);
    pgn_reader_restart(reader, text, sizeof text - 1, sizeof text - 1, &at);
    struct pgn_game g;
    struct diag err;
    cr_assert_eq(pgn_reader_next(reader, &g, &err), 1);
    cr_assert_eq(g.line, first);
    cr_assert_eq(g.tags[0].line, first);
    cr_assert_eq(g.tokens[0].line, (uint32_t)(first + 2), "the low 32 bits");
    cr_assert_eq(pgn_token_line(&g, &g.tokens[0]), first + 2);
    cr_assert_eq(pgn_token_line(&g, &g.tokens[g.token_count - 1]), first + 3, "1-0");

    struct game_options opts = {0};
    struct game_replayer *r = game_replayer_new(&opts, &err);
    cr_assert_not_null(r);
    const struct game_record *rec = game_replay(r, &g);
    cr_assert_eq(rec->diags.count, 1);
    struct buf out, fixes;
    buf_init(&out);
    buf_init(&fixes);
    writer_diag_text(&out, &g, &rec->diags.items[0]);
    cr_assert(strncmp(out.data, "big.pgn:4294967298:4: error[ILLEGAL]:", 37) == 0, "%s",
              out.data);
    struct writer_options o = {0};
    buf_clear(&out);
    writer_pgn_fixes(&out, &fixes, rec, &o);
    cr_assert_not_null(strstr(fixes.data, "big.pgn:4294967298:4: fix[NOT_REPLAYED]"), "%s",
                       fixes.data);
    cr_assert_not_null(strstr(fixes.data, "big.pgn:4294967295:1: fix[TAG_ADDED]"), "%s",
                       fixes.data);
    buf_release(&out);
    buf_release(&fixes);
    game_replayer_free(r);
    pgn_reader_free(reader);
}

/* The FENs of fen --comments' comments in the movetext of out, one a line, line breaks
 * inside them (and before the "}") read as the blanks they replaced. */
static void comment_fens(const struct buf *out, struct buf *fens)
{
    for (const char *p = out->data; p && (p = strstr(p, "{ ")) != NULL;) {
        const char *end = strchr(p, '}'); /* after a blank or a line end */
        cr_assert_not_null(end);
        for (const char *c = p + 2; c < end - 1; c++)
            buf_putc(fens, *c == '\n' ? ' ' : *c);
        buf_putc(fens, '\n');
        p = end + 1;
    }
}

/* Every legal move of pos (and with `replies` every legal reply to it) as games of one
 * and two moves (written as UCI, so the writer's SAN is not what is tested here), through
 * fen --comments with `flags`: each comment is fen_write()'s FEN of the position
 * position_do_move reached. */
static long check_comment_fens(const struct position *pos, const char *fen, bool chess960,
                               unsigned flags, bool replies)
{
    struct move moves[MAX_MOVES], next[MAX_MOVES];
    int n = movegen_legal(pos, moves);
    struct buf in, want;
    buf_init(&in);
    buf_init(&want);
    long games = 0;
    for (int i = 0; i < n; i++) {
        struct position after = *pos, last;
        position_do_move(&after, moves[i]);
        char uci[8], uci2[8], text[FEN_MAX];
        uci[uci_write_move(pos, moves[i], chess960, uci)] = '\0';
        fen_write(&after, text, sizeof text, flags);
        const char *head = chess960 ? "[Variant \"Chess960\"]\n" : "";
        buf_printf(&in, "%s[SetUp \"1\"]\n[FEN \"%s\"]\n\n%s *\n\n", head, fen, uci);
        buf_printf(&want, "%s\n", text);
        int k = replies ? movegen_legal(&after, next) : 0;
        for (int j = 0; j < k; j++) {
            last = after;
            position_do_move(&last, next[j]);
            uci2[uci_write_move(&after, next[j], chess960, uci2)] = '\0';
            buf_printf(&in, "%s[SetUp \"1\"]\n[FEN \"%s\"]\n\n%s %s *\n\n", head, fen, uci,
                       uci2);
            buf_printf(&want, "%s\n", text);
            fen_write(&last, text + 0, sizeof text, flags);
            buf_printf(&want, "%s\n", text);
            fen_write(&after, text, sizeof text, flags); /* the first move's again */
        }
        games += 1 + k;
    }
    struct writer_options o = {.fen_mode = FEN_MODE_COMMENTS, .fen_flags = flags};
    struct buf out, got;
    normalize(in.data ? in.data : "", &o, &out, NULL);
    buf_init(&got);
    comment_fens(&out, &got);
    const char *g = got.data ? got.data : "", *e = want.data ? want.data : "";
    size_t at = 0;
    while (g[at] && g[at] == e[at])
        at++;
    while (at && g[at - 1] != '\n')
        at--; /* the line that differs */
    cr_assert_str_eq(g + at, e + at, "%s, flags %u: %.100s", fen, flags, g + at);
    buf_release(&in);
    buf_release(&want);
    buf_release(&out);
    buf_release(&got);
    return games;
}

/* An EPD file's positions (the FEN before " ;"), each with no flags, --ep legal and
 * --shredder; the replies too for one position in `reply_every` (the time an ASan build
 * takes). */
static long check_comment_epd(const char *path, bool chess960, long reply_every)
{
    static const unsigned flag_sets[] = {0, FEN_EP_LEGAL, FEN_SHREDDER};
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    struct position pos;
    char fen[512];
    long games = 0;
    for (long positions = 0; th_next_epd_line(f, chess960, &pos, fen, sizeof fen); positions++)
        for (size_t k = 0; k < sizeof flag_sets / sizeof *flag_sets; k++)
            games += check_comment_fens(&pos, fen, chess960, flag_sets[k],
                                        positions % reply_every == 0);
    fclose(f);
    return games;
}

/* fen --comments keeps the FEN text between plies (the ranks a move touched rebuilt, the
 * castling field while the rights stay, the e.p. square written over its '-'): castling
 * both ways, rights lost by a king's or rook's move or a capture on a rook's square,
 * double pushes then e.p. captures (or not), promotions, X-FEN and Shredder rights. */
Test(writer_pgn, fen_comments_of_every_move_and_reply_equal_fen_write, .timeout = 240)
{
    long games = check_comment_epd("testdata/perft/standard.epd", false, 1);
    games += check_comment_epd("testdata/perft/fischer.epd", true, 8);
    cr_assert_gt(games, 50000);
}

/* uci --format pgn's writer over every game of text (writer_uci, FORMAT_PGN). */
static void write_uci_pgn(struct buf *out, const struct game_record *rec, void *ctx)
{
    (void)ctx;
    writer_uci(out, rec, &(struct writer_options){.format = FORMAT_PGN});
}

static void uci_pgn(const char *text, struct buf *out)
{
    write_each(text, out, write_uci_pgn, NULL);
}

/* The tag section is copied whole when its lines stand as they are written; every other
 * section goes tag by tag (escapes, U+FFFD, one tag a line).  Expected texts by hand. */
Test(writer_pgn, uci_pgn_tag_sections_whole_or_tag_by_tag)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        /* as written: the whole section (and one too short for a 16-byte copy) */
        {"[Event \"Rated Blitz game\"]\n[Site \"x\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n",
         "[Event \"Rated Blitz game\"]\n[Site \"x\"]\n[Result \"1-0\"]\n\ne2e4 1-0\n\n"},
        {"[A \"\"]\n[B \"1\"]\n\n1. e4 *\n", "[A \"\"]\n[B \"1\"]\n\ne2e4 *\n\n"},
        /* a value to escape, first, inside or last */
        {"[Event \"a \\\"b\\\" c\"]\n[Site \"0123456789abcdef\"]\n\n1. e4 *\n",
         "[Event \"a \\\"b\\\" c\"]\n[Site \"0123456789abcdef\"]\n\ne2e4 *\n\n"},
        {"[Event \"0123456789abcdef\"]\n[Site \"C:\\\\x\"]\n[Round \"1\"]\n\n1. e4 *\n",
         "[Event \"0123456789abcdef\"]\n[Site \"C:\\\\x\"]\n[Round \"1\"]\n\ne2e4 *\n\n"},
        {"[Event \"0123456789abcdef\"]\n[Site \"C:\\x\"]\n\n1. e4 *\n",
         "[Event \"0123456789abcdef\"]\n[Site \"C:\\\\x\"]\n\ne2e4 *\n\n"},
        {"[Event \"0123456789abcdef\"]\n[Site \"say \"hi\" now\"]\n\n1. e4 *\n",
         "[Event \"0123456789abcdef\"]\n[Site \"say \\\"hi\\\" now\"]\n\ne2e4 *\n\n"},
        /* control bytes: U+FFFD (0x01, DEL, a C1 control); a tab, a plain 0xC2 stay */
        {"[Event \"0123456789abcdef\"]\n[Site \"a\001b\"]\n\n1. e4 *\n",
         "[Event \"0123456789abcdef\"]\n[Site \"a\xef\xbf\xbd" "b\"]\n\ne2e4 *\n\n"},
        {"[Event \"0123456789abcdef\"]\n[Site \"a\tb\"]\n\n1. e4 *\n",
         "[Event \"0123456789abcdef\"]\n[Site \"a\tb\"]\n\ne2e4 *\n\n"},
        {"[Event \"0123456789abcdef\x7f\"]\n[Site \"ab\"]\n\n1. e4 *\n",
         "[Event \"0123456789abcdef\xef\xbf\xbd\"]\n[Site \"ab\"]\n\ne2e4 *\n\n"},
        {"[Event \"0123456789abcdef\xc2\x85\"]\n[Site \"\xc2\xa3\"]\n\n1. e4 *\n",
         "[Event \"0123456789abcdef\xef\xbf\xbd\"]\n[Site \"\xc2\xa3\"]\n\ne2e4 *\n\n"},
        /* sections of 16 to 31 bytes (16-byte steps), and past 64 (32-byte steps) */
        {"[A \"0123456\"]\n[B \"x\001y\"]\n\n1. e4 *\n",
         "[A \"0123456\"]\n[B \"x\xef\xbf\xbdy\"]\n\ne2e4 *\n\n"},
        {"[A \"0123456\"]\n[B \"x\"y\"]\n\n1. e4 *\n",
         "[A \"0123456\"]\n[B \"x\\\"y\"]\n\ne2e4 *\n\n"},
        {"[A \"0123456\"]\n[B \"xy\"]\n\n1. e4 *\n",
         "[A \"0123456\"]\n[B \"xy\"]\n\ne2e4 *\n\n"},
        {"[A \"0123456789abcdef0123456789abcdef\"]\n[B \"0123456789abcdef0123456789abcdef\"]\n"
         "[C \"x\x7f\"]\n\n1. e4 *\n",
         "[A \"0123456789abcdef0123456789abcdef\"]\n[B \"0123456789abcdef0123456789abcdef\"]\n"
         "[C \"x\xef\xbf\xbd\"]\n\ne2e4 *\n\n"},
        {"[A \"\\0123456789abcdef0123456789abcdef\"]\n[B \"0123456789abcdef0123456789abcdef\"]\n"
         "[C \"xy\"]\n\n1. e4 *\n",
         "[A \"\\\\0123456789abcdef0123456789abcdef\"]\n[B \"0123456789abcdef0123456789abcdef\"]\n"
         "[C \"xy\"]\n\ne2e4 *\n\n"},
        /* not laid out as written: two on a line, CRLF, two blanks, a blank in the pair */
        {"[Event \"0123456789abcdef\"] [Site \"ab\"]\n\n1. e4 *\n",
         "[Event \"0123456789abcdef\"]\n[Site \"ab\"]\n\ne2e4 *\n\n"},
        {"[Event \"0123456789abcdef\"]\r\n[Site \"ab\"]\r\n\r\n1. e4 *\r\n",
         "[Event \"0123456789abcdef\"]\n[Site \"ab\"]\n\ne2e4 *\n\n"},
        {"[Event  \"0123456789abcdef\"]\n[Site \"ab\"]\n\n1. e4 *\n",
         "[Event \"0123456789abcdef\"]\n[Site \"ab\"]\n\ne2e4 *\n\n"},
        {"[Event \"0123456789abcdef\" ]\n[Site \"ab\"]\n\n1. e4 *\n",
         "[Event \"0123456789abcdef\"]\n[Site \"ab\"]\n\ne2e4 *\n\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct buf out;
        uci_pgn(cases[i].in, &out);
        cr_expect_str_eq(out.data, cases[i].out, "case %zu", i);
        buf_release(&out);
    }
}

/* uci --format pgn's movetext is the UCI line's moves wrapped greedily at 80 columns,
 * then the result: checked against a wrap done here, word by word. */
static void check_uci_pgn_wrap(const char *text, const char *what)
{
    struct writer_options o = {.format = FORMAT_TEXT};
    struct game_options opts = {0};
    struct diag err;
    struct game_replayer *r = game_replayer_new(&opts, &err);
    struct pgn_reader *reader = pgn_reader_from_memory(text, strlen(text), "t.pgn", NULL);
    struct pgn_game game;
    cr_assert_eq(pgn_reader_next(reader, &game, &err), 1);
    const struct game_record *rec = game_replay(r, &game);
    cr_assert_eq(rec->status, GAME_CLEAN, "%s", what);
    struct buf line, pgn, want;
    buf_init(&line);
    buf_init(&pgn);
    buf_init(&want);
    writer_uci(&line, rec, &o);
    o.format = FORMAT_PGN;
    writer_uci(&pgn, rec, &o);
    pgn_reader_free(reader);
    game_replayer_free(r);
    /* the line's words and the result, wrapped: a word goes on its line when the line,
     * a blank and the word fit 80 columns */
    buf_puts(&line, "*"); /* in place of the line end */
    line.data[line.len - 2] = ' ';
    if (line.data[0] == ' ') /* no moves */
        memmove(line.data, line.data + 1, line.len--);
    size_t column = 0;
    for (char *w = line.data, *e; *w; w = *e ? e + 1 : e) {
        e = strchr(w, ' ');
        if (!e)
            e = w + strlen(w);
        size_t n = (size_t)(e - w);
        if (column && column + 1 + n > 80) {
            buf_putc(&want, '\n');
            column = 0;
        } else if (column) {
            buf_putc(&want, ' ');
            column++;
        }
        buf_append(&want, w, n);
        column += n;
    }
    buf_puts(&want, "\n\n");
    cr_assert_str_eq(movetext(&pgn), want.data, "%s", what);
    buf_release(&line);
    buf_release(&pgn);
    buf_release(&want);
}

/* Games of usual moves (lines of 16), with promotions and castling (lines of other
 * lengths), past the writer's runs of 4096 moves. */
Test(writer_pgn, uci_pgn_movetext_is_the_uci_line_wrapped)
{
    static const char *const openings[] = {
        "", "1. a4 h5 2. a5 h4 3. a6 h3 4. axb7 hxg2 5. bxa8=Q gxh1=N ",
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 O-O ",
    };
    static const char *const shuffles[] = {"Nc3 Nc6 Nb1 Nb8 ", "Nc3 Nc6 Nb1 Nb8 ",
                                           "Nc3 Nb8 Nb1 Nc6 "};
    static const size_t lengths[] = {0, 1, 15, 16, 17, 33, 4100};
    for (size_t g = 0; g < 3; g++)
        for (size_t l = 0; l < sizeof lengths / sizeof *lengths; l++) {
            struct buf in;
            buf_init(&in);
            buf_puts(&in, "[Event \"e\"]\n\n");
            buf_puts(&in, openings[g]);
            for (size_t k = 0; k < lengths[l]; k++)
                buf_append(&in, shuffles[g] + (k % 4) * 4, 4);
            buf_puts(&in, "*\n");
            char what[64];
            snprintf(what, sizeof what, "game %zu, %zu plies", g, lengths[l]);
            check_uci_pgn_wrap(in.data, what);
            buf_release(&in);
        }
}

/* Random games, promotions taken whenever one is legal: lines of every length. */
Test(writer_pgn, uci_pgn_movetext_of_random_games_is_the_uci_line_wrapped)
{
    unsigned seed = 2026;
    for (int g = 0; g < 200; g++) {
        struct position pos;
        position_set_start(&pos);
        struct buf in;
        buf_init(&in);
        buf_puts(&in, "[Event \"e\"]\n\n");
        for (int ply = 0; ply < 300; ply++) {
            struct move list[MAX_MOVES];
            int n = movegen_legal(&pos, list);
            if (n == 0)
                break;
            seed = seed * 1103515245u + 12345u;
            struct move m = list[(seed >> 8) % (unsigned)n];
            for (int k = 0; k < n; k++)
                if (list[k].promo)
                    m = list[k];
            char san[16];
            size_t len = san_write(&pos, m, san);
            buf_append(&in, san, len);
            buf_putc(&in, ' ');
            position_do_move(&pos, m);
        }
        buf_puts(&in, "*\n");
        char what[32];
        snprintf(what, sizeof what, "random game %d", g);
        check_uci_pgn_wrap(in.data, what);
        buf_release(&in);
    }
}
