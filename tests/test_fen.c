/* test_fen.c - FEN validation (accept and reject tables), writing, and round trips. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>

#include "board/attacks.h"
#include "board/fen.h"
#include "board/movegen.h"
#include "board/variant.h"

static void suite_init(void) { attacks_init(); }

TestSuite(fen, .init = suite_init);

struct reject_case {
    const char *fen;
    const char *field; /* the message must start with this field name */
    const char *at;    /* the column must point at the first occurrence of this text */
};

static const struct reject_case rejects[] = {
    {"", "board", NULL},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "board", " w KQkq"},
    {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board", "9"},
    {"rnbqkbnrp/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board", "p/"},
    {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board", "/8/8/8/8/P"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1", "board", "/8 w"},
    {"rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board", "4/8/8/8/P"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "board", "X"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w kq - 0 1", "board", "rnbq"},
    {"rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQKBNR w kq - 0 1", "board", "rnbq"},
    {"rnbqkbnP/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq - 0 1", "board", "P/"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNp w KQkq - 0 1", "board", "p w"},
    {"4k3/8/8/8/8/8/8/4K2\x01 w - - 0 1", "board", "\x01"},
    {"4k3/8/8/8/8/8/8/4K3", "side to move", NULL},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move", "x "},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1", "side to move", "white"},
    {"4k3/8/8/8/8/8/8/4K3 w", "castling", NULL},
    {"4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling", "K -"},
    {"4k3/8/8/8/8/8/4K3/7R w K - 0 1", "castling", "K -"},
    {"4k3/8/8/8/8/8/8/4K2R w X - 0 1", "castling", "X"},
    {"4k3/8/8/8/8/8/8/4K2R w G - 0 1", "castling", "G"},
    {"4k3/8/8/8/8/8/8/4K2R w KH - 0 1", "castling", "H"},
    {"4k3/8/8/8/8/8/8/4K2R w KK - 0 1", "castling", "K -"},
    {"4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "castling", "kq -"},
    {"4k3/8/8/8/8/8/8/4K2R w KQkqK - 0 1", "castling", "KQkqK"},
    {"4k3/8/8/8/8/8/8/4K3 w -", "en passant", NULL},
    {"4k3/8/8/8/4P3/8/8/4K3 b - e9 0 1", "en passant", "e9"},
    {"4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1", "en passant", "e4 "},
    {"4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1", "en passant", "e3"},
    {"4k3/8/8/8/8/8/8/4K3 b - e3 0 1", "en passant", "e3"},
    {"4k3/8/8/8/4P3/8/4N3/4K3 b - e3 0 1", "en passant", "e3"},
    {"4k3/8/8/8/4P3/4N3/8/4K3 b - e3 0 1", "en passant", "e3"},
    {"4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock", "x 1"},
    {"4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove clock", "-1"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 99999 1", "halfmove clock", "99999"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 65536 1", "halfmove clock", "65536"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1000001", "fullmove number", "1000001"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1.", "fullmove number", "."},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 abc", "fullmove number", "abc"},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "fullmove number", "extra"},
    {"4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "side to move", "w "},
    {"4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", "side to move", "b "},
};

/*
 * Parameters are indices into the tables: Criterion may run each case in a freshly
 * started process, where pointers stored in parameter data need not be valid.
 */
static int case_index[64];

static int *indices(size_t n)
{
    for (size_t i = 0; i < n; i++)
        case_index[i] = (int)i;
    return case_index;
}

ParameterizedTestParameters(fen, rejects_name_the_field_and_column)
{
    size_t n = sizeof rejects / sizeof rejects[0];
    return cr_make_param_array(int, indices(n), n);
}

ParameterizedTest(int *index, fen, rejects_name_the_field_and_column)
{
    const struct reject_case *c = &rejects[*index];
    struct position pos;
    struct diag err;
    memset(&err, 0, sizeof err);
    int rc = fen_parse(&pos, c->fen, strlen(c->fen), false, &err);
    cr_assert_eq(rc, -1, "accepted: %s", c->fen);
    cr_assert_eq(err.code, DIAG_BAD_FEN, "%s", c->fen);
    cr_assert_eq(strncmp(err.message, c->field, strlen(c->field)), 0,
                 "message '%s' does not name the field '%s' (%s)", err.message, c->field, c->fen);
    size_t want_col = c->at ? (size_t)(strstr(c->fen, c->at) - c->fen) + 1 : strlen(c->fen) + 1;
    cr_assert_eq(err.col, want_col, "column %u, want %zu: '%s' for %s", (unsigned)err.col,
                 want_col, err.message, c->fen);
}

struct accept_case {
    const char *fen;
    const char *written; /* fen_write(…, 0) of the result */
    bool chess960;       /* what pos->chess960 must be (parsed with chess960 = false) */
};

static const struct accept_case accepts[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", false},
    /* clocks missing: 0 and 1; blanks around fields tolerated */
    {"  8/8/8/8/8/8/8/K1k5 w - -  ", "8/8/8/8/8/8/8/K1k5 w - - 0 1", false},
    /* a line end from fgets is a separator */
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1\r\n", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", false},
    /* fullmove 0 is read as 1 */
    {"4k3/8/8/8/8/8/8/4K3 b - - 12 0", "4k3/8/8/8/8/8/8/4K3 b - - 12 1", false},
    /* Shredder-FEN of a standard set-up stays standard chess */
    {"r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false},
    /* X-FEN: king off the e-file makes it Chess960 */
    {"r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq -",
     "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1", true},
    /* X-FEN: a rook file letter when the castling rook is not the outermost one; the
     * king on e1 keeps standard notation (O-O-O is e1c1) */
    {"4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", false},
    /* Shredder-FEN of a Chess960 array */
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
     "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9", true},
    /* a castling rook off the corner with the king on e1: standard notation */
    {"8/8/8/4B2b/6nN/8/5P2/2R1K2k w Q -", "8/8/8/4B2b/6nN/8/5P2/2R1K2k w Q - 0 1", false},
    /* a king off the e-file with a castling right: Chess960 notation */
    {"4k3/8/8/8/8/8/8/R2K4 w Q - 0 1", "4k3/8/8/8/8/8/8/R2K4 w Q - 0 1", true},
    /* an e.p. square with no capture possible is kept (PGN-standard) */
    {"4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", false},
};

ParameterizedTestParameters(fen, accepts_and_writes_back)
{
    size_t n = sizeof accepts / sizeof accepts[0];
    return cr_make_param_array(int, indices(n), n);
}

ParameterizedTest(int *index, fen, accepts_and_writes_back)
{
    const struct accept_case *c = &accepts[*index];
    struct position pos;
    struct diag err;
    char out[128];
    int rc = fen_parse(&pos, c->fen, strlen(c->fen), false, &err);
    cr_assert_eq(rc, 0, "rejected %s: %s (column %u)", c->fen, err.message, (unsigned)err.col);
    cr_assert(position_ok(&pos));
    cr_assert_eq(pos.chess960, c->chess960, "%s", c->fen);
    size_t n = fen_write(&pos, out, sizeof out, 0);
    cr_assert_eq(n, strlen(out));
    cr_assert_str_eq(out, c->written);
}

Test(fen, the_chess960_argument_keeps_a_standard_looking_position_chess960)
{
    struct position pos;
    struct diag err;
    const char *s = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    cr_assert_eq(fen_parse(&pos, s, strlen(s), true, &err), 0);
    cr_assert(pos.chess960);
}

/* The largest clock a FEN may give keeps counting: 65535 then a quiet move is 65536, not
 * 0 (the clock was 16 bits and wrapped). */
Test(fen, the_largest_halfmove_clock_counts_on_without_wrapping)
{
    struct position pos;
    struct diag err;
    const char *fen = "4k3/8/8/8/8/8/8/4K1N1 w - - 65535 1";
    cr_assert_eq(fen_parse(&pos, fen, strlen(fen), false, &err), 0, "%s", err.message);
    struct move moves[256];
    int n = movegen_legal(&pos, moves), k = 0;
    while (k < n && !(moves[k].from == 6 && moves[k].to == 21)) /* g1f3 */
        k++;
    cr_assert_lt(k, n, "g1f3 is legal");
    position_do_move(&pos, moves[k]);
    char out[FEN_MAX];
    fen_write(&pos, out, sizeof out, 0);
    cr_assert_str_eq(out, "4k3/8/8/8/8/5N2/8/4K3 b - - 65536 1");
}

Test(fen, shredder_flag_writes_rook_files)
{
    struct position pos;
    char out[128];
    position_set_start(&pos);
    fen_write(&pos, out, sizeof out, FEN_SHREDDER);
    cr_assert_str_eq(out, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
}

Test(fen, ep_legal_flag_drops_an_uncapturable_ep_square)
{
    struct position pos;
    struct diag err;
    char out[128];
    const char *s = "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1";
    cr_assert_eq(fen_parse(&pos, s, strlen(s), false, &err), 0);
    fen_write(&pos, out, sizeof out, FEN_EP_LEGAL);
    cr_assert_str_eq(out, "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
    s = "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1";
    cr_assert_eq(fen_parse(&pos, s, strlen(s), false, &err), 0);
    fen_write(&pos, out, sizeof out, FEN_EP_LEGAL);
    cr_assert_str_eq(out, s);
}

Test(fen, write_truncates_to_the_capacity_and_returns_the_full_length)
{
    struct position pos;
    char out[10];
    position_set_start(&pos);
    size_t n = fen_write(&pos, out, sizeof out, 0);
    cr_assert_eq(n, strlen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
    cr_assert_str_eq(out, "rnbqkbnr/");
}

/* Round trip every suite FEN: Ethereal's files exactly (Shredder for fischer.epd). */
static void round_trip_epd(const char *path, unsigned flags, int want)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    char line[1024], out[128];
    int count = 0;
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (!semi)
            continue;
        while (semi > line && semi[-1] == ' ')
            semi--;
        *semi = '\0';
        struct position pos;
        struct diag err;
        cr_assert_eq(fen_parse(&pos, line, strlen(line), false, &err), 0, "%s: %s", line,
                     err.message);
        fen_write(&pos, out, sizeof out, flags);
        cr_assert_str_eq(out, line);
        count++;
    }
    fclose(f);
    cr_assert_eq(count, want);
}

Test(fen, standard_suite_round_trips_exactly)
{
    round_trip_epd("testdata/perft/standard.epd", 0, 128);
}

Test(fen, fischer_suite_round_trips_exactly_in_shredder_fen)
{
    round_trip_epd("testdata/perft/fischer.epd", FEN_SHREDDER, 960);
}

Test(fen, python_chess_suites_round_trip_their_four_fields)
{
    static const char *const files[] = {"testdata/perft/tricky.perft",
                                        "testdata/perft/random.perft"};
    for (size_t i = 0; i < 2; i++) {
        FILE *f = fopen(files[i], "r");
        cr_assert_not_null(f);
        char line[1024], out[128];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "epd ", 4) != 0)
                continue;
            line[strcspn(line, "\r\n")] = '\0';
            const char *fen = line + 4;
            struct position pos;
            struct diag err;
            cr_assert_eq(fen_parse(&pos, fen, strlen(fen), false, &err), 0, "%s: %s", fen,
                         err.message);
            size_t n = fen_write(&pos, out, sizeof out, 0);
            cr_assert_gt(n, strlen(fen));
            out[strlen(fen)] = '\0'; /* drop the clocks fen_write adds */
            cr_assert_str_eq(out, fen);
        }
        fclose(f);
    }
}

/*
 * Issue 14.9: with FEN_DROP_BAD_CASTLING a castling right that has no rook (KQkq: none
 * on that side; a file letter: none on that file) or whose king is off its back rank is
 * dropped with a CASTLING_DROPPED reason, the other rights kept; without the flag it is
 * BAD_FEN as before.  Expected fields argued from each board.
 */
Test(fen, castling_rights_without_their_rook_are_dropped_on_request)
{
    static const struct {
        const char *fen;
        bool chess960;
        const char *castling; /* the field written back */
        const char *why;      /* in the dropped reason */
    } cases[] = {
        /* Ke1 Rh1 only: Q has no rook on the queen side. */
        {"4k3/8/8/8/8/8/8/4K2R w KQ - 0 1", false, "K", "no white rook on the queen side"},
        /* No rook at all: every right goes. */
        {"r3k2r/8/8/8/8/8/8/4K3 w KQkq - 0 1", false, "kq", "'K' but no white rook"},
        /* Black king on e7: k and q both need it on rank 8. */
        {"r6r/4k3/8/8/8/8/8/R3K2R w KQkq - 0 1", false, "KQ", "black king is not on rank 8"},
        /* Shredder letter G names g1, where no rook stands (the rook is on h1). */
        {"1k6/8/8/8/8/8/8/1K5R w HG - 0 1", true, "H", "no white rook on g1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct position pos;
        struct diag err, dropped;
        cr_expect_neq(fen_parse(&pos, cases[i].fen, strlen(cases[i].fen), cases[i].chess960, &err),
                      0, "%s is BAD_FEN without the flag", cases[i].fen);
        int rc = fen_parse_ex(&pos, cases[i].fen, strlen(cases[i].fen), cases[i].chess960,
                              FEN_DROP_BAD_CASTLING, &err, &dropped);
        cr_assert_eq(rc, 0, "%s: %s", cases[i].fen, err.message);
        cr_expect_eq(dropped.code, DIAG_CASTLING_DROPPED, "%s", cases[i].fen);
        cr_expect(strstr(dropped.message, cases[i].why), "%s: %s", cases[i].fen, dropped.message);
        char out[FEN_MAX];
        fen_write(&pos, out, sizeof out, cases[i].chess960 ? FEN_SHREDDER : 0);
        char field[8] = "";
        sscanf(out, "%*s %*s %7s", field);
        cr_expect_str_eq(field, cases[i].castling, "%s -> %s", cases[i].fen, out);
    }
    struct position pos;
    struct diag err, dropped;
    static const char full[] = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    cr_assert_eq(fen_parse_ex(&pos, full, strlen(full), false, FEN_DROP_BAD_CASTLING, &err,
                              &dropped), 0);
    cr_expect_eq(dropped.code, DIAG_OK, "nothing to drop");
}

/* The rank writer (by table in SSSE3 builds) against the rule itself, square by square:
 * every occupancy of a rank, with every piece letter placed somewhere. */
Test(fen, every_rank_occupancy_is_written_as_the_rule_says)
{
    static const char letters[] = "PNBRQKpnbrqk";
    for (unsigned occ = 0; occ < 256; occ++) {
        for (int shift = 0; shift < 12; shift++) {
            struct position pos;
            memset(&pos, 0, sizeof pos);
            memset(pos.board, PIECE_NONE, sizeof pos.board);
            char want[17];
            size_t n = 0;
            int empty = 0, k = shift;
            for (int f = 0; f < 8; f++) {
                if (!(occ >> f & 1)) {
                    empty++;
                    continue;
                }
                if (empty)
                    want[n++] = (char)('0' + empty);
                empty = 0;
                char ch = letters[k++ % 12];
                want[n++] = ch;
                int color = ch >= 'a' ? BLACK : WHITE;
                int type = (int)(strchr("pnbrqk", ch | 0x20) - "pnbrqk");
                int sq = 3 * 8 + f;
                pos.board[sq] = piece_make((enum color)color, (enum piece_type)type);
                pos.by_color[color] |= 1ULL << sq;
                pos.by_type[type] |= 1ULL << sq;
            }
            if (empty)
                want[n++] = (char)('0' + empty);
            want[n] = '\0';
            char got[17] = {0};
            size_t len = fen_write_rank(&pos, 3, got);
            cr_assert_eq(len, n, "occupancy %02x: %zu bytes, want %zu", occ, len, n);
            cr_assert(memcmp(got, want, n) == 0, "occupancy %02x: %.*s, want %s", occ, (int)len,
                      got, want);
        }
    }
}

/* Setups a variant cannot have (chessops's setupPosition refuses each: ERR_EMPTY,
 * ERR_VARIANT, ERR_KINGS), with a message naming what is impossible; the variants'
 * start positions and a Horde with the king on the other side are fine. */
static void expect_variant_fen(enum variant v, const char *fen, const char *words)
{
    struct position pos;
    struct diag err = {0};
    int rc = fen_parse_variant(&pos, fen, strlen(fen), false, v, &err);
    if (!words) {
        cr_expect_eq(rc, 0, "%s %s: %s", variant_name(v), fen, err.message);
        return;
    }
    cr_expect_eq(rc, -1, "%s %s accepted", variant_name(v), fen);
    cr_expect(strstr(err.message, words), "%s %s: '%s' lacks '%s'", variant_name(v), fen,
              err.message, words);
}

Test(fen, impossible_variant_setups)
{
    expect_variant_fen(VARIANT_ANTICHESS, "8/8/8/8/8/8/8/8 w - - 0 1",
                       "Antichess: the board is empty");
    expect_variant_fen(VARIANT_ANTICHESS, "8/8/8/8/8/8/8/k7 w - - 0 1", NULL);
    expect_variant_fen(VARIANT_RACING_KINGS, "8/8/8/8/8/8/kP5K/8 w - - 0 1",
                       "Racing Kings: the variant has no pawns");
    expect_variant_fen(VARIANT_RACING_KINGS, "8/8/8/8/8/8/kr5K/8 w - - 0 1",
                       "Racing Kings: the white king is in check");
    expect_variant_fen(VARIANT_RACING_KINGS, "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1", NULL);
    expect_variant_fen(VARIANT_HORDE, "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
                       "Horde: both sides have a king");
    expect_variant_fen(VARIANT_HORDE, "8/8/8/8/8/8/8/PPPP4 w - - 0 1",
                       "Horde: neither side has a king");
    expect_variant_fen(VARIANT_HORDE,
                       "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
                       NULL);
}

/* Three-check's counters out of range are named as such, at their column (they were
 * reported as "fullmove number: text after it"). */
Test(fen, three_check_counters_out_of_range)
{
    expect_variant_fen(VARIANT_THREE_CHECK, "4k3/8/8/8/8/8/8/4K3 w - - 4+3 0 1",
                       "checks left: '4+3' is not W+B with 0 to 3 checks each");
    expect_variant_fen(VARIANT_THREE_CHECK, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 +4+0",
                       "checks given: '+4+0' is not +W+B with 0 to 3 checks each");
    expect_variant_fen(VARIANT_THREE_CHECK, "4k3/8/8/8/8/8/8/4K3 w - - 3+ 0 1", "checks left");
    expect_variant_fen(VARIANT_THREE_CHECK, "4k3/8/8/8/8/8/8/4K3 w - - 2+1 0 1", NULL);
    expect_variant_fen(VARIANT_THREE_CHECK, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 +1+2", NULL);
    struct position pos;
    struct diag err;
    const char *fen = "4k3/8/8/8/8/8/8/4K3 w - - 4+3 0 1";
    cr_assert_eq(fen_parse_variant(&pos, fen, strlen(fen), false, VARIANT_THREE_CHECK, &err), -1);
    cr_expect_eq(err.col, 27);
}
