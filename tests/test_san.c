/* test_san.c - SAN token syntax: tokens to parts, rejections, the cache, the letter sets. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "san/san.h"
#include "san/san_internal.h"

/*
 * One expected decoding.  Zero fields are the common case: kind SAN_MOVE, piece PAWN,
 * no hint (ff/fr 0 = not written, else 'a'..'h' / '1'..'8'), no marks, no lenience.
 * to is the square's name, NULL for castling and null moves.
 */
struct san_case {
    const char *tok;
    enum san_letters letters;
    uint8_t kind;
    uint8_t piece;
    char ff, fr;
    const char *to;
    uint8_t promo, capture, checks, mate, ep, suffix, implicit, maybe_bishop;
    uint16_t lenient;
};

static const struct san_case accepted[] = {
    /* plain SAN */
    {"e4", .to = "e4"},
    {"exd5", .ff = 'e', .to = "d5", .capture = 1},
    {"Nf3", .piece = KNIGHT, .to = "f3"},
    {"Bb5", .piece = BISHOP, .to = "b5"},
    {"Kg1", .piece = KING, .to = "g1"},
    {"Rxa8", .piece = ROOK, .to = "a8", .capture = 1},
    {"Qgg1", .piece = QUEEN, .ff = 'g', .to = "g1"},
    {"R1a3", .piece = ROOK, .fr = '1', .to = "a3"},
    {"Qh4e1", .piece = QUEEN, .ff = 'h', .fr = '4', .to = "e1"},
    {"Qh4xe1", .piece = QUEEN, .ff = 'h', .fr = '4', .to = "e1", .capture = 1},
    {"Ng1xf3", .piece = KNIGHT, .ff = 'g', .fr = '1', .to = "f3", .capture = 1},
    {"Nbd7", .piece = KNIGHT, .ff = 'b', .to = "d7"},
    {"e8=Q", .to = "e8", .promo = QUEEN},
    {"e8=Q+", .to = "e8", .promo = QUEEN, .checks = 1},
    {"exd8=N+", .ff = 'e', .to = "d8", .capture = 1, .promo = KNIGHT, .checks = 1},
    {"gxh1=R#", .ff = 'g', .to = "h1", .capture = 1, .promo = ROOK, .mate = 1},
    {"a1=B", .to = "a1", .promo = BISHOP},
    {"Qxf7#", .piece = QUEEN, .to = "f7", .capture = 1, .mate = 1},
    {"Bf5+", .piece = BISHOP, .to = "f5", .checks = 1},
    {"O-O", .kind = SAN_CASTLE_KING, .piece = KING},
    {"O-O-O", .kind = SAN_CASTLE_QUEEN, .piece = KING},
    {"O-O-O+", .kind = SAN_CASTLE_QUEEN, .piece = KING, .checks = 1},
    {"O-O#", .kind = SAN_CASTLE_KING, .piece = KING, .mate = 1},
    /* Antichess's promotion to a king (the board rejects it in other rules) */
    {"e8=K", .to = "e8", .promo = KING},
    {"bxc1=K", .ff = 'b', .to = "c1", .capture = 1, .promo = KING},
    /* Crazyhouse drops: lichess's P@e4 and python-chess's @e4 */
    {"N@f3", .kind = SAN_DROP, .piece = KNIGHT, .to = "f3"},
    {"P@e4", .kind = SAN_DROP, .piece = PAWN, .to = "e4"},
    {"@e4", .kind = SAN_DROP, .piece = PAWN, .to = "e4"},
    {"Q@h7#", .kind = SAN_DROP, .piece = QUEEN, .to = "h7", .mate = 1},
    {"B@e2+!", .kind = SAN_DROP, .piece = BISHOP, .to = "e2", .checks = 1, .suffix = 1},
    /* annotations after the move */
    {"e4!?", .to = "e4", .suffix = 2},
    {"Nbd7?!", .piece = KNIGHT, .ff = 'b', .to = "d7", .suffix = 2},
    {"Qxf7#!!", .piece = QUEEN, .to = "f7", .capture = 1, .mate = 1, .suffix = 2},
    {"d4?", .to = "d4", .suffix = 1},
    {"Nf3!", .piece = KNIGHT, .to = "f3", .suffix = 1},
    {"Nf3??", .piece = KNIGHT, .to = "f3", .suffix = 2},
    {"O-O+!", .kind = SAN_CASTLE_KING, .piece = KING, .checks = 1, .suffix = 1},
    /* e.p. and double check */
    {"exd6e.p.", .ff = 'e', .to = "d6", .capture = 1, .ep = 1, .lenient = SAN_LENIENT_EP_MARK},
    {"exd6e.p.+", .ff = 'e', .to = "d6", .capture = 1, .ep = 1, .checks = 1,
     .lenient = SAN_LENIENT_EP_MARK},
    {"exd6+e.p.", .ff = 'e', .to = "d6", .capture = 1, .ep = 1, .checks = 1,
     .lenient = SAN_LENIENT_EP_MARK},
    {"Nf3++", .piece = KNIGHT, .to = "f3", .checks = 2, .lenient = SAN_LENIENT_DOUBLE_CHECK},
    /* e.p. without its dots (issue 14.8) */
    {"exd6ep", .ff = 'e', .to = "d6", .capture = 1, .ep = 1,
     .lenient = SAN_LENIENT_EP_MARK | SAN_LENIENT_EP_SPELLING},
    {"exd6e.p", .ff = 'e', .to = "d6", .capture = 1, .ep = 1,
     .lenient = SAN_LENIENT_EP_MARK | SAN_LENIENT_EP_SPELLING},
    {"exd6ep+", .ff = 'e', .to = "d6", .capture = 1, .ep = 1, .checks = 1,
     .lenient = SAN_LENIENT_EP_MARK | SAN_LENIENT_EP_SPELLING},
    {"dxe3+ep", .ff = 'd', .to = "e3", .capture = 1, .ep = 1, .checks = 1,
     .lenient = SAN_LENIENT_EP_MARK | SAN_LENIENT_EP_SPELLING},
    /* castling with a lower-case o (issue 14.8) */
    {"o-o", .kind = SAN_CASTLE_KING, .piece = KING, .lenient = SAN_LENIENT_LOWER_CASTLE},
    {"O-o", .kind = SAN_CASTLE_KING, .piece = KING, .lenient = SAN_LENIENT_LOWER_CASTLE},
    {"o-O", .kind = SAN_CASTLE_KING, .piece = KING, .lenient = SAN_LENIENT_LOWER_CASTLE},
    {"o-o-o", .kind = SAN_CASTLE_QUEEN, .piece = KING, .lenient = SAN_LENIENT_LOWER_CASTLE},
    {"O-O-o+", .kind = SAN_CASTLE_QUEEN, .piece = KING, .checks = 1,
     .lenient = SAN_LENIENT_LOWER_CASTLE},
    /* annotation glyphs after the move (issue 14.7): the check mark is lazy, a
     * promotion letter wins over the glyph N */
    {"e4+-", .to = "e4", .suffix = 2, .lenient = SAN_LENIENT_GLYPH},
    {"e4-+", .to = "e4", .suffix = 2, .lenient = SAN_LENIENT_GLYPH},
    {"e4+=", .to = "e4", .suffix = 2, .lenient = SAN_LENIENT_GLYPH},
    {"e4=+", .to = "e4", .suffix = 2, .lenient = SAN_LENIENT_GLYPH},
    {"e4=", .to = "e4", .suffix = 1, .lenient = SAN_LENIENT_GLYPH},
    {"Qh5+!", .piece = QUEEN, .to = "h5", .checks = 1, .suffix = 1},
    {"Qh5++-", .piece = QUEEN, .to = "h5", .checks = 1, .suffix = 2, .lenient = SAN_LENIENT_GLYPH},
    {"Nf3N", .piece = KNIGHT, .to = "f3", .suffix = 1, .lenient = SAN_LENIENT_GLYPH},
    {"e8N", .to = "e8", .promo = KNIGHT, .lenient = SAN_LENIENT_PROMO_NO_EQ},
    {"e8=QN", .to = "e8", .promo = QUEEN, .suffix = 1, .lenient = SAN_LENIENT_GLYPH},
    {"e4\xc2\xb1", .to = "e4", .suffix = 2, .lenient = SAN_LENIENT_GLYPH},
    {"e4\xe2\x88\x93", .to = "e4", .suffix = 3, .lenient = SAN_LENIENT_GLYPH},
    {"e4\xe2\x88\x9e", .to = "e4", .suffix = 3, .lenient = SAN_LENIENT_GLYPH},
    {"e4\xe2\xa9\xb2", .to = "e4", .suffix = 3, .lenient = SAN_LENIENT_GLYPH},
    {"e4\xe2\xa9\xb1", .to = "e4", .suffix = 3, .lenient = SAN_LENIENT_GLYPH},
    {"e4\xe2\x96\xa1", .to = "e4", .suffix = 3, .lenient = SAN_LENIENT_GLYPH},
    {"e4\xce\x94", .to = "e4", .suffix = 2, .lenient = SAN_LENIENT_GLYPH},
    {"e4\xe2\xa8\x80", .to = "e4", .suffix = 3, .lenient = SAN_LENIENT_GLYPH},
    {"O-O\xc2\xb1", .kind = SAN_CASTLE_KING, .piece = KING, .suffix = 2,
     .lenient = SAN_LENIENT_GLYPH},
    /* lenient spellings */
    {"0-0", .kind = SAN_CASTLE_KING, .piece = KING, .lenient = SAN_LENIENT_ZERO_CASTLE},
    {"0-0-0", .kind = SAN_CASTLE_QUEEN, .piece = KING, .lenient = SAN_LENIENT_ZERO_CASTLE},
    {"0-0+", .kind = SAN_CASTLE_KING, .piece = KING, .checks = 1,
     .lenient = SAN_LENIENT_ZERO_CASTLE},
    {"e8Q", .to = "e8", .promo = QUEEN, .lenient = SAN_LENIENT_PROMO_NO_EQ},
    {"e8(Q)", .to = "e8", .promo = QUEEN, .lenient = SAN_LENIENT_PROMO_PAREN},
    {"e8/Q", .to = "e8", .promo = QUEEN, .lenient = SAN_LENIENT_PROMO_SLASH},
    {"e8=q", .to = "e8", .promo = QUEEN, .lenient = SAN_LENIENT_LOWER_PIECE},
    {"N:e5", .piece = KNIGHT, .to = "e5", .capture = 1, .lenient = SAN_LENIENT_COLON},
    {"e:d5", .ff = 'e', .to = "d5", .capture = 1, .lenient = SAN_LENIENT_COLON},
    {"ed5", .ff = 'e', .to = "d5"},
    {"e2e4", .ff = 'e', .fr = '2', .to = "e4", .implicit = 1, .lenient = SAN_LENIENT_LONG},
    {"e2-e4", .ff = 'e', .fr = '2', .to = "e4", .implicit = 1, .lenient = SAN_LENIENT_LONG},
    {"g1f3", .ff = 'g', .fr = '1', .to = "f3", .implicit = 1, .lenient = SAN_LENIENT_LONG},
    {"e4:d5", .ff = 'e', .fr = '4', .to = "d5", .capture = 1, .implicit = 1,
     .lenient = SAN_LENIENT_LONG | SAN_LENIENT_COLON},
    {"e4xd5", .ff = 'e', .fr = '4', .to = "d5", .capture = 1, .implicit = 1,
     .lenient = SAN_LENIENT_LONG},
    {"Ng1-f3", .piece = KNIGHT, .ff = 'g', .fr = '1', .to = "f3", .lenient = SAN_LENIENT_LONG},
    {"e7e8q", .ff = 'e', .fr = '7', .to = "e8", .promo = QUEEN, .implicit = 1,
     .lenient = SAN_LENIENT_LONG | SAN_LENIENT_PROMO_NO_EQ | SAN_LENIENT_LOWER_PIECE},
    {"e7e8Q", .ff = 'e', .fr = '7', .to = "e8", .promo = QUEEN, .implicit = 1,
     .lenient = SAN_LENIENT_LONG | SAN_LENIENT_PROMO_NO_EQ},
    {"--", .kind = SAN_NULL, .piece = NO_PIECE_TYPE, .lenient = SAN_LENIENT_NULL},
    {"Z0", .kind = SAN_NULL, .piece = NO_PIECE_TYPE, .lenient = SAN_LENIENT_NULL},
    {"Pe4", .to = "e4", .lenient = SAN_LENIENT_PAWN_LETTER},
    {"Pexd5", .ff = 'e', .to = "d5", .capture = 1, .lenient = SAN_LENIENT_PAWN_LETTER},
    /* figurines */
    {"♘f3", .piece = KNIGHT, .to = "f3", .lenient = SAN_LENIENT_FIGURINE},
    {"♞xe4", .piece = KNIGHT, .to = "e4", .capture = 1, .lenient = SAN_LENIENT_FIGURINE},
    {"♔e2", .piece = KING, .to = "e2", .lenient = SAN_LENIENT_FIGURINE},
    {"♛d8", .piece = QUEEN, .to = "d8", .lenient = SAN_LENIENT_FIGURINE},
    {"♖fe1", .piece = ROOK, .ff = 'f', .to = "e1", .lenient = SAN_LENIENT_FIGURINE},
    {"♝b4+", .piece = BISHOP, .to = "b4", .checks = 1, .lenient = SAN_LENIENT_FIGURINE},
    {"♙e4", .to = "e4", .lenient = SAN_LENIENT_FIGURINE | SAN_LENIENT_PAWN_LETTER},
    {"e8=♕", .to = "e8", .promo = QUEEN, .lenient = SAN_LENIENT_FIGURINE},
    /* lower-case piece letters */
    {"nf3", .piece = KNIGHT, .to = "f3", .lenient = SAN_LENIENT_LOWER_PIECE},
    {"qxd5", .piece = QUEEN, .to = "d5", .capture = 1, .lenient = SAN_LENIENT_LOWER_PIECE},
    {"kg1", .piece = KING, .to = "g1", .lenient = SAN_LENIENT_LOWER_PIECE},
    {"rfe1", .piece = ROOK, .ff = 'f', .to = "e1", .lenient = SAN_LENIENT_LOWER_PIECE},
    /* the lower-case b rule: pawn first, bishop only when no pawn reading exists */
    {"b4", .to = "b4"},
    {"bxc3", .ff = 'b', .to = "c3", .capture = 1, .maybe_bishop = 1},
    {"bc3", .ff = 'b', .to = "c3", .maybe_bishop = 1},
    {"bxa4", .ff = 'b', .to = "a4", .capture = 1, .maybe_bishop = 1},
    {"b8=Q", .to = "b8", .promo = QUEEN},
    {"bxa8=Q", .ff = 'b', .to = "a8", .capture = 1, .promo = QUEEN},
    {"b2b4", .ff = 'b', .fr = '2', .to = "b4", .implicit = 1, .lenient = SAN_LENIENT_LONG},
    {"bb5", .piece = BISHOP, .to = "b5", .lenient = SAN_LENIENT_LOWER_PIECE},
    {"bd3", .piece = BISHOP, .to = "d3", .lenient = SAN_LENIENT_LOWER_PIECE},
    {"bxe5+", .piece = BISHOP, .to = "e5", .capture = 1, .checks = 1,
     .lenient = SAN_LENIENT_LOWER_PIECE},
    {"bdc4", .piece = BISHOP, .ff = 'd', .to = "c4", .lenient = SAN_LENIENT_LOWER_PIECE},
    {"bc1-g5", .piece = BISHOP, .ff = 'c', .fr = '1', .to = "g5",
     .lenient = SAN_LENIENT_LOWER_PIECE | SAN_LENIENT_LONG},
    /* German: K D T L S, B = Bauer */
    {"Sf3", SAN_LETTERS_GERMAN, .piece = KNIGHT, .to = "f3", .lenient = SAN_LENIENT_FOREIGN},
    {"Dd1", SAN_LETTERS_GERMAN, .piece = QUEEN, .to = "d1", .lenient = SAN_LENIENT_FOREIGN},
    {"Lb5", SAN_LETTERS_GERMAN, .piece = BISHOP, .to = "b5", .lenient = SAN_LENIENT_FOREIGN},
    {"Tfe1", SAN_LETTERS_GERMAN, .piece = ROOK, .ff = 'f', .to = "e1",
     .lenient = SAN_LENIENT_FOREIGN},
    {"Kg1", SAN_LETTERS_GERMAN, .piece = KING, .to = "g1"},
    {"Nf3", SAN_LETTERS_GERMAN, .piece = KNIGHT, .to = "f3"},
    {"Be4", SAN_LETTERS_GERMAN, .to = "e4",
     .lenient = SAN_LENIENT_FOREIGN | SAN_LENIENT_PAWN_LETTER},
    {"e8=D", SAN_LETTERS_GERMAN, .to = "e8", .promo = QUEEN, .lenient = SAN_LENIENT_FOREIGN},
    {"e8=S", SAN_LETTERS_GERMAN, .to = "e8", .promo = KNIGHT, .lenient = SAN_LENIENT_FOREIGN},
    /* French: R = roi wins over the English rook */
    {"Rg1", SAN_LETTERS_FRENCH, .piece = KING, .to = "g1", .lenient = SAN_LENIENT_FOREIGN},
    {"Tf1", SAN_LETTERS_FRENCH, .piece = ROOK, .to = "f1", .lenient = SAN_LENIENT_FOREIGN},
    {"Fc4", SAN_LETTERS_FRENCH, .piece = BISHOP, .to = "c4", .lenient = SAN_LENIENT_FOREIGN},
    {"Cf3", SAN_LETTERS_FRENCH, .piece = KNIGHT, .to = "f3", .lenient = SAN_LENIENT_FOREIGN},
    {"Pe4", SAN_LETTERS_FRENCH, .to = "e4", .lenient = SAN_LENIENT_PAWN_LETTER},
    /* Spanish and Dutch */
    {"Ac4", SAN_LETTERS_SPANISH, .piece = BISHOP, .to = "c4", .lenient = SAN_LENIENT_FOREIGN},
    {"Rg1", SAN_LETTERS_SPANISH, .piece = KING, .to = "g1", .lenient = SAN_LENIENT_FOREIGN},
    {"Pf3", SAN_LETTERS_DUTCH, .piece = KNIGHT, .to = "f3", .lenient = SAN_LENIENT_FOREIGN},
    {"Lc4", SAN_LETTERS_DUTCH, .piece = BISHOP, .to = "c4", .lenient = SAN_LENIENT_FOREIGN},
    {"e8=P", SAN_LETTERS_DUTCH, .to = "e8", .promo = KNIGHT, .lenient = SAN_LENIENT_FOREIGN},
};

struct reject_case {
    const char *tok;
    enum san_letters letters;
};

static const struct reject_case rejected[] = {
    {"e9", SAN_LETTERS_ENGLISH}, {"i4", SAN_LETTERS_ENGLISH}, {"Kx", SAN_LETTERS_ENGLISH},
    {"Qxx4", SAN_LETTERS_ENGLISH}, {"e8=P", SAN_LETTERS_ENGLISH},
    {"e4x", SAN_LETTERS_ENGLISH}, {"Nf3++++", SAN_LETTERS_ENGLISH},
    {"Nf3+++", SAN_LETTERS_ENGLISH}, {"e4=Q", SAN_LETTERS_ENGLISH},
    {"Nf8=Q", SAN_LETTERS_ENGLISH}, {"xd5", SAN_LETTERS_ENGLISH}, {"2e4", SAN_LETTERS_ENGLISH},
    {"N-f3", SAN_LETTERS_ENGLISH}, {"Ng-f3", SAN_LETTERS_ENGLISH}, {"ee4", SAN_LETTERS_ENGLISH},
    {"ac4", SAN_LETTERS_ENGLISH}, {"exe5", SAN_LETTERS_ENGLISH},
    {"Qxf7+#", SAN_LETTERS_ENGLISH}, {"Qxf7#+", SAN_LETTERS_ENGLISH},
    {"O-O+e.p.", SAN_LETTERS_ENGLISH}, {"--+", SAN_LETTERS_ENGLISH},
    {"Z0+", SAN_LETTERS_ENGLISH}, {"e4!!!", SAN_LETTERS_ENGLISH},
    {"e4?!?", SAN_LETTERS_ENGLISH}, {"O-O-O-O", SAN_LETTERS_ENGLISH},
    {"0-0-O", SAN_LETTERS_ENGLISH}, {"O-0", SAN_LETTERS_ENGLISH}, {"o-0", SAN_LETTERS_ENGLISH},
    {"exd6e.p.e.p.", SAN_LETTERS_ENGLISH}, {"exd6epep", SAN_LETTERS_ENGLISH},
    {"e4+-+-", SAN_LETTERS_ENGLISH}, {"e4NN", SAN_LETTERS_ENGLISH}, {"o-o-o-o", SAN_LETTERS_ENGLISH},

    {"e8=(Q)", SAN_LETTERS_ENGLISH}, {"e8(Q", SAN_LETTERS_ENGLISH},
    {"e8Q)", SAN_LETTERS_ENGLISH}, {"e8//Q", SAN_LETTERS_ENGLISH}, {"pe4", SAN_LETTERS_ENGLISH},
    {"E4", SAN_LETTERS_ENGLISH}, {"e4 ", SAN_LETTERS_ENGLISH}, {" e4", SAN_LETTERS_ENGLISH},
    {"Nf3!+", SAN_LETTERS_ENGLISH}, {"K", SAN_LETTERS_ENGLISH}, {"b", SAN_LETTERS_ENGLISH},
    {"bx", SAN_LETTERS_ENGLISH}, {"bxa8=Q+x", SAN_LETTERS_ENGLISH}, {"♔", SAN_LETTERS_ENGLISH},
    {"♔=Q", SAN_LETTERS_ENGLISH}, {"\xe2\x99", SAN_LETTERS_ENGLISH},
    {"\xe2\x99\xa0" "e4", SAN_LETTERS_ENGLISH}, {"e4\xe9", SAN_LETTERS_ENGLISH},
    {"Sf3", SAN_LETTERS_ENGLISH}, {"Dd1", SAN_LETTERS_ENGLISH}, {"Lb5", SAN_LETTERS_ENGLISH},
    {"Rg1=Q", SAN_LETTERS_ENGLISH}, {"K@e4", SAN_LETTERS_ENGLISH},
    {"N@", SAN_LETTERS_ENGLISH}, {"N@i9", SAN_LETTERS_ENGLISH}, {"Nx@f3", SAN_LETTERS_ENGLISH},
    {"N@f3+#", SAN_LETTERS_ENGLISH}, {"@", SAN_LETTERS_ENGLISH}, {"Pe8=Q", SAN_LETTERS_DUTCH},
    {"Qx", SAN_LETTERS_GERMAN}, {"1-0", SAN_LETTERS_ENGLISH}, {"0-1", SAN_LETTERS_ENGLISH},
    {"1/2-1/2", SAN_LETTERS_ENGLISH}, {"*", SAN_LETTERS_ENGLISH}, {"$1", SAN_LETTERS_ENGLISH},
    {"12.", SAN_LETTERS_ENGLISH},
};

static struct san_matcher *matcher(enum san_letters letters, unsigned flags)
{
    struct diag err;
    struct san_matcher *m = san_matcher_new_ex(letters, flags, &err);
    cr_assert_not_null(m, "matcher: %s", err.message);
    return m;
}

static int square_of(const char *name)
{
    return name ? square_make(name[0] - 'a', name[1] - '1') : SQ_NONE;
}

static void expect_case(const struct san_case *c, const struct san *s, const char *how)
{
    cr_expect_eq(s->kind, c->kind, "%s %s: kind %d", how, c->tok, s->kind);
    cr_expect_eq(s->piece, c->piece, "%s %s: piece %d", how, c->tok, s->piece);
    cr_expect_eq(s->from_file, c->ff ? c->ff - 'a' : -1, "%s %s: from_file %d", how, c->tok,
                 s->from_file);
    cr_expect_eq(s->from_rank, c->fr ? c->fr - '1' : -1, "%s %s: from_rank %d", how, c->tok,
                 s->from_rank);
    cr_expect_eq(s->to, square_of(c->to), "%s %s: to %d", how, c->tok, s->to);
    cr_expect_eq(s->promo, c->promo, "%s %s: promo %d", how, c->tok, s->promo);
    cr_expect_eq(s->capture, c->capture, "%s %s: capture", how, c->tok);
    cr_expect_eq(s->checks, c->checks, "%s %s: checks %d", how, c->tok, s->checks);
    cr_expect_eq(s->mate, c->mate, "%s %s: mate", how, c->tok);
    cr_expect_eq(s->ep, c->ep, "%s %s: ep", how, c->tok);
    cr_expect_eq(s->suffix_len, c->suffix, "%s %s: suffix_len %d", how, c->tok, s->suffix_len);
    cr_expect_eq(s->piece_implicit, c->implicit, "%s %s: piece_implicit", how, c->tok);
    cr_expect_eq(s->maybe_bishop, c->maybe_bishop, "%s %s: maybe_bishop", how, c->tok);
    cr_expect_eq(s->lenient, c->lenient, "%s %s: lenient 0x%x, want 0x%x", how, c->tok,
                 s->lenient, c->lenient);
}

static int san_same(const struct san *a, const struct san *b)
{
    return a->kind == b->kind && a->piece == b->piece && a->piece_implicit == b->piece_implicit &&
           a->maybe_bishop == b->maybe_bishop && a->from_file == b->from_file &&
           a->from_rank == b->from_rank && a->to == b->to && a->promo == b->promo &&
           a->capture == b->capture && a->checks == b->checks && a->mate == b->mate &&
           a->ep == b->ep && a->suffix_len == b->suffix_len && a->lenient == b->lenient;
}

/* Decode every accepted token with every matcher flavour: regex (JIT and interpreter),
 * then through the cache twice (miss, then hit). */
static void run_accepted(unsigned flags, const char *how)
{
    for (size_t i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++) {
        const struct san_case *c = &accepted[i];
        struct san_matcher *m = matcher(c->letters, flags);
        for (int pass = 0; pass < 2; pass++) {
            struct san s;
            int rc = san_decode(m, c->tok, strlen(c->tok), &s);
            cr_expect_eq(rc, 0, "%s %s: rejected (pass %d)", how, c->tok, pass);
            if (rc == 0)
                expect_case(c, &s, how);
        }
        san_matcher_free(m);
    }
}

Test(san, every_table_token_decodes_to_its_parts_through_jit_and_cache)
{
    run_accepted(0, "jit+cache");
}

Test(san, every_table_token_decodes_the_same_without_jit_or_cache)
{
    run_accepted(SAN_MATCHER_NO_CACHE, "jit");
    run_accepted(SAN_MATCHER_NO_JIT | SAN_MATCHER_NO_CACHE, "interpreter");
    run_accepted(SAN_MATCHER_NO_JIT, "interpreter+cache");
}

Test(san, every_rejected_token_is_rejected_twice_with_and_without_cache)
{
    static const unsigned flavours[] = {0, SAN_MATCHER_NO_CACHE, SAN_MATCHER_NO_JIT};
    for (size_t f = 0; f < 3; f++) {
        for (size_t i = 0; i < sizeof(rejected) / sizeof(rejected[0]); i++) {
            struct san_matcher *m = matcher(rejected[i].letters, flavours[f]);
            struct san s;
            for (int pass = 0; pass < 2; pass++)
                cr_expect_eq(san_decode(m, rejected[i].tok, strlen(rejected[i].tok), &s), -1,
                             "%s accepted (flavour %zu, pass %d)", rejected[i].tok, f, pass);
            san_matcher_free(m);
        }
    }
}

Test(san, empty_and_nul_carrying_tokens_are_rejected)
{
    struct san_matcher *m = matcher(SAN_LETTERS_ENGLISH, 0);
    struct san s;
    cr_expect_eq(san_decode(m, "", 0, &s), -1);
    cr_expect_eq(san_decode(m, "e4", 0, &s), -1);
    cr_expect_eq(san_decode(m, "e4\0", 3, &s), -1);
    cr_expect_eq(san_decode(m, "\0e4", 3, &s), -1);
    /* The length is honoured: "e4" out of "e4xd5". */
    cr_expect_eq(san_decode(m, "e4xd5", 2, &s), 0);
    cr_expect_eq(s.to, square_make(4, 3));
    san_matcher_free(m);
}

Test(san, the_cache_answers_repeats_and_negative_results)
{
    struct san_matcher *m = matcher(SAN_LETTERS_ENGLISH, 0);
    struct san s;
    uint64_t hits, misses;
    cr_assert_eq(san_decode(m, "Nf3", 3, &s), 0);
    cr_assert_eq(san_decode(m, "Nf3", 3, &s), 0);
    cr_assert_eq(s.piece, KNIGHT);
    cr_assert_eq(san_decode(m, "e9", 2, &s), -1);
    cr_assert_eq(san_decode(m, "e9", 2, &s), -1);
    san_matcher_cache_stats(m, &hits, &misses);
    cr_expect_eq(hits, 2);
    cr_expect_eq(misses, 2);
    san_matcher_free(m);
}

/* Every token of the plain SAN shapes (and many near them: other letters, hints a pawn
 * may not have, promotions where there are none, ++) decoded with the shortcut for the
 * plain spellings and by the regex alone: the same answer, the same parts. */
static void plain_agrees_with_the_regex(enum san_letters letters, bool every_suffix)
{
    struct san_matcher *fast = matcher(letters, SAN_MATCHER_NO_CACHE);
    struct san_matcher *regex = matcher(letters, SAN_MATCHER_NO_CACHE | SAN_MATCHER_REGEX_ONLY);
    static const char *const pieces[] = {"", "K", "Q", "R", "B", "N", "P", "D", "S", "T",
                                         "L", "F", "C", "A", "O", "n"};
    static const char *const promos[] = {"", "=Q", "=K", "=D", "=q", "Q"};
    static const char *const suffixes[] = {"", "+", "#", "?", "+!!", "#?!", "!?", "??", "++",
                                           "+-", "=", "!!!", "?+", "+#", "!", "N"};
    size_t nsuffix = every_suffix ? sizeof suffixes / sizeof *suffixes : 4;
    char hints[32][3] = {{0}};
    size_t nh = 1;
    for (int f = 0; f < 8; f++) {
        hints[nh][0] = (char)('a' + f), nh++;
        hints[nh][0] = (char)('1' + f), nh++;
        hints[nh][0] = (char)('a' + f), hints[nh][1] = (char)('1' + (f * 3) % 8), nh++;
    }
    hints[nh][0] = 'x', nh++; /* a hint that is no hint */
    char tok[32];
    size_t decoded = 0;
    for (size_t p = 0; p < sizeof pieces / sizeof *pieces; p++)
        for (size_t h = 0; h < nh; h++)
            for (int cap = 0; cap < 2; cap++)
                for (int to = 0; to < 64; to++)
                    for (size_t pr = 0; pr < sizeof promos / sizeof *promos; pr++)
                        for (size_t sf = 0; sf < nsuffix; sf++) {
                            int len = snprintf(tok, sizeof tok, "%s%s%s%c%c%s%s", pieces[p],
                                               hints[h], cap ? "x" : "", 'a' + to % 8,
                                               '1' + to / 8, promos[pr], suffixes[sf]);
                            struct san a, b;
                            int ra = san_decode(fast, tok, (size_t)len, &a);
                            int rb = san_decode(regex, tok, (size_t)len, &b);
                            cr_assert_eq(ra, rb, "%s: %d with the shortcut, %d by the regex",
                                         tok, ra, rb);
                            if (ra == 0)
                                cr_assert(san_same(&a, &b), "%s: the parts differ", tok);
                            decoded += ra == 0;
                        }
    static const char *const castles[] = {"O-O", "O-O-O", "O-O+", "O-O-O#", "O-O++", "O-O-",
                                          "O-O-O-O", "O-", "O", "0-0", "O-O!", "Ox", "O-O#+",
                                          "O-O+?!", "O-O-O!!", "O-O?+", "?", "!?", "O?"};
    for (size_t c = 0; c < sizeof castles / sizeof *castles; c++) {
        struct san a, b;
        size_t len = strlen(castles[c]);
        int ra = san_decode(fast, castles[c], len, &a);
        int rb = san_decode(regex, castles[c], len, &b);
        cr_assert_eq(ra, rb, "%s: %d with the shortcut, %d by the regex", castles[c], ra, rb);
        if (ra == 0)
            cr_assert(san_same(&a, &b), "%s: the parts differ", castles[c]);
    }
    cr_expect_gt(decoded, 10000);
    san_matcher_free(fast);
    san_matcher_free(regex);
}

Test(san, the_plain_spellings_decode_as_the_regex_decodes_them_english)
{
    plain_agrees_with_the_regex(SAN_LETTERS_ENGLISH, true);
}

Test(san, the_plain_spellings_decode_as_the_regex_decodes_them_other_letters)
{
    plain_agrees_with_the_regex(SAN_LETTERS_GERMAN, false);
    plain_agrees_with_the_regex(SAN_LETTERS_FRENCH, false);
    plain_agrees_with_the_regex(SAN_LETTERS_DUTCH, false);
}

/* Fill the cache far past its 8192 slots with distinct tokens, so probe windows fill up
 * and slots are overwritten, and check each answer against the regex alone. */
Test(san, a_cache_under_collisions_and_eviction_agrees_with_the_regex)
{
    struct san_matcher *cached = matcher(SAN_LETTERS_ENGLISH, 0);
    struct san_matcher *plain = matcher(SAN_LETTERS_ENGLISH, SAN_MATCHER_NO_CACHE);
    static const char pieces[] = "KQRBNbx";
    char tok[16];
    size_t n = 0;
    uint64_t hits, misses;

    for (int pass = 0; pass < 2; pass++) {
        for (int p = 0; pieces[p]; p++)
            for (int from = 0; from < 64; from++)
                for (int to = 0; to < 64; to += 2) {
                    int len = snprintf(tok, sizeof(tok), "%c%c%c%c%c", pieces[p],
                                       'a' + from % 8, '1' + from / 8, 'a' + to % 8,
                                       '1' + to / 8);
                    struct san a, b;
                    int ra = san_decode(cached, tok, (size_t)len, &a);
                    int rb = san_decode(plain, tok, (size_t)len, &b);
                    cr_assert_eq(ra, rb, "%s: cache says %d, regex %d", tok, ra, rb);
                    if (ra == 0)
                        cr_assert(san_same(&a, &b), "%s: cache and regex differ", tok);
                    n++;
                }
    }
    san_matcher_cache_stats(cached, &hits, &misses);
    cr_expect_eq(hits + misses, n);
    cr_expect_gt(hits, 0, "a second pass finds some tokens still cached");
    cr_expect_gt(misses, n / 2, "the cache stays bounded, so most of them were evicted");
    san_matcher_free(cached);
    san_matcher_free(plain);
}

/* A slot (32 bytes) lies in one 64-byte cache line: its key and its san one load's
 * line, whatever malloc's alignment (16 bytes on glibc, so without the alignment every
 * other slot straddled two lines). */
Test(san, the_cache_slots_start_on_a_cache_line)
{
    for (int i = 0; i < 4; i++) {
        struct san_matcher *m = matcher(SAN_LETTERS_ENGLISH, 0);
        struct san_cache_ref c = san_matcher_cache_ref(m);
        cr_expect_eq((uintptr_t)c.slots % 64, 0, "slots at %p", (const void *)c.slots);
        cr_expect_eq(64 % sizeof *c.slots, 0);
        san_matcher_free(m);
    }
}

/*
 * Tokens of every length from 1 to 17, and for each every token one byte away from it
 * (each place in turn holding each of a few bytes), decoded through one cache twice (a
 * miss, then a hit) and by a matcher without a cache: the same answers.  Two tokens of
 * one length whose keys were equal would share a slot and the second would come back as
 * the first (the keys of 2-8 bytes are built inline per ply, the others out of line).
 */
Test(san, tokens_of_every_length_one_byte_apart_keep_their_own_slots)
{
    static const char *const seeds[] = {"N", "e4", "Nf3", "exd5", "Nbxd7", "Nbxd7+",
                                        "exd8=Q+", "Qh4xe1+!", "Qh4xe1+!?", "exd6e.p.+",
                                        "Pexd8=Q+!?", "Pexd8=Q++!?", "♘g1xf3++", "Pexd8=Qe.p.+",
                                        "Pexd8=Qe.p.+!", "Pexd8=Qe.p.++!", "Pexd8=Qe.p.++!?",
                                        "Pexd8=Qe.p.++!?!", "Pexd8=Qe.p.++!?" "?!"};
    static const char swaps[] = "Ndex1+=!";
    struct san_matcher *cached = matcher(SAN_LETTERS_ENGLISH, 0);
    struct san_matcher *plain = matcher(SAN_LETTERS_ENGLISH, SAN_MATCHER_NO_CACHE);
    size_t decoded = 0, lengths = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++) {
            size_t len = strlen(seeds[i]);
            lengths |= (size_t)1 << len;
            for (size_t at = 0; at < len; at++)
                for (size_t k = 0; swaps[k]; k++) {
                    char tok[32];
                    memcpy(tok, seeds[i], len);
                    tok[at] = swaps[k];
                    struct san a, b;
                    int ra = san_decode(cached, tok, len, &a);
                    int rb = san_decode(plain, tok, len, &b);
                    cr_assert_eq(ra, rb, "%.*s: cache says %d, no cache %d", (int)len, tok,
                                 ra, rb);
                    if (ra == 0)
                        cr_assert(san_same(&a, &b), "%.*s: the parts differ", (int)len, tok);
                    decoded += ra == 0;
                }
        }
    cr_expect_eq(lengths, 0x3fffe, "every length from 1 to 17");
    /* The same bytes loaded, only the length to tell them apart: e2e4 (4 bytes) and
     * e2e4e2e4 (8) read as the same two halves, whichever comes first. */
    for (int first = 0; first < 2; first++) {
        struct san_matcher *m = matcher(SAN_LETTERS_ENGLISH, 0);
        struct san a;
        for (int k = 0; k < 2; k++) {
            bool e2e4 = k != first;
            cr_expect_eq(san_decode(m, "e2e4e2e4", e2e4 ? 4 : 8, &a), e2e4 ? 0 : -1,
                         "%s after the other", e2e4 ? "e2e4" : "e2e4e2e4");
        }
        san_matcher_free(m);
    }
    cr_expect_gt(decoded, 200);
    san_matcher_free(cached);
    san_matcher_free(plain);
}

Test(san, tokens_longer_than_the_cache_key_still_decode)
{
    struct san_matcher *m = matcher(SAN_LETTERS_ENGLISH, 0);
    struct san s;
    const char *t15 = "Pexd8=Qe.p.++!?"; /* 15 bytes: the longest cacheable key */
    cr_assert_eq(strlen(t15), 15);
    for (int pass = 0; pass < 2; pass++) {
        cr_assert_eq(san_decode(m, t15, 15, &s), 0);
        cr_expect_eq(s.promo, QUEEN);
        cr_expect_eq(s.from_file, 4);
        cr_expect_eq(s.lenient, SAN_LENIENT_PAWN_LETTER | SAN_LENIENT_EP_MARK |
                                    SAN_LENIENT_DOUBLE_CHECK);
    }
    for (int pass = 0; pass < 2; pass++) {
        cr_assert_eq(san_decode(m, "♘g1xf3e.p.++!?", strlen("♘g1xf3e.p.++!?"), &s), 0);
        cr_expect_eq(s.piece, KNIGHT);
        cr_expect_eq(s.from_file, 6);
        cr_expect_eq(s.from_rank, 0);
        cr_expect_eq(s.checks, 2);
        cr_expect_eq(s.suffix_len, 2);
        cr_assert_eq(san_decode(m, "e7xd8=♕e.p.++!?", strlen("e7xd8=♕e.p.++!?"), &s), 0);
        cr_expect_eq(s.promo, QUEEN);
        cr_expect_eq(s.piece_implicit, 1);
        cr_assert_eq(san_decode(m, "bc1xg5e.p.++!?", 14, &s), 0);
        cr_expect_eq(s.piece, BISHOP);
    }
    char junk[300];
    memset(junk, 'e', sizeof(junk));
    cr_expect_eq(san_decode(m, junk, sizeof(junk), &s), -1);
    memcpy(junk, "e4", 2);
    cr_expect_eq(san_decode(m, junk, 17, &s), -1);
    san_matcher_free(m);
}

Test(san, letter_set_names_parse_and_unknown_names_do_not)
{
    cr_expect_eq(san_letters_from_name("english"), SAN_LETTERS_ENGLISH);
    cr_expect_eq(san_letters_from_name("german"), SAN_LETTERS_GERMAN);
    cr_expect_eq(san_letters_from_name("French"), SAN_LETTERS_FRENCH);
    cr_expect_eq(san_letters_from_name("spanish"), SAN_LETTERS_SPANISH);
    cr_expect_eq(san_letters_from_name("dutch"), SAN_LETTERS_DUTCH);
    cr_expect_eq(san_letters_from_name("klingon"), -1);
    cr_expect_eq(san_letters_from_name(""), -1);
}

Test(san, the_matcher_reports_its_pattern_and_jit_state)
{
    struct san_matcher *m = matcher(SAN_LETTERS_GERMAN, 0);
    struct san_matcher *interp = matcher(SAN_LETTERS_ENGLISH, SAN_MATCHER_NO_JIT);
    cr_expect_not_null(strstr(san_matcher_pattern(m), "(?<piece>"));
    cr_expect_eq(san_matcher_jit(interp), 0);
    cr_expect(san_matcher_jit(m) == 0 || san_matcher_jit(m) == 1);
    san_matcher_free(m);
    san_matcher_free(interp);
    san_matcher_free(NULL);
}

/*
 * The regex is made when a token first needs it (a Criterion test runs in a fresh
 * process, so nothing has made the English pattern yet): e8(Q) is no plain SAN, so its
 * first decoding compiles the pattern; then the same from two threads at once, each with
 * its own matcher, both waiting on a barrier so that both ask for the shared pattern
 * together.  The parts are SPEC 3.6's: a pawn to e8, promoting to a queen, PROMO_PAREN.
 */
static void expect_e8_paren_queen(struct san_matcher *m, const char *how)
{
    struct san s;
    cr_assert_eq(san_decode(m, "e8(Q)", 5, &s), 0, "%s: e8(Q) refused", how);
    cr_expect_eq(s.kind, SAN_MOVE, "%s", how);
    cr_expect_eq(s.piece, PAWN, "%s", how);
    cr_expect_eq(s.to, square_make(4, 7), "%s", how);
    cr_expect_eq(s.promo, QUEEN, "%s", how);
    cr_expect_eq(s.lenient, SAN_LENIENT_PROMO_PAREN, "%s", how);
    cr_expect_eq(s.plain, 0, "%s", how);
    cr_expect_null(san_matcher_error(m), "%s", how);
}

Test(san, a_token_needing_the_regex_decodes_at_its_first_use)
{
    struct san_matcher *m = matcher(SAN_LETTERS_ENGLISH, 0);
    struct san s;
    cr_assert_eq(san_decode(m, "Nf3", 3, &s), 0); /* plain: no regex needed yet */
    cr_expect_null(san_matcher_error(m));
    expect_e8_paren_queen(m, "first use");
    cr_expect_eq(san_decode(m, "e8(Q", 4, &s), -1); /* the regex's refusal, not a failure */
    cr_expect_null(san_matcher_error(m));
    san_matcher_free(m);
    struct san_matcher *interp = matcher(SAN_LETTERS_ENGLISH, SAN_MATCHER_NO_JIT);
    expect_e8_paren_queen(interp, "own pattern, first use");
    san_matcher_free(interp);
}

/* One thread's matcher and what it decoded (asserted on the main thread: Criterion's
 * asserts end a test from its own thread only). */
struct thread_decode {
    enum san_letters letters;
    pthread_barrier_t *start;
    int rc[2];
    struct san san[2];
};

static void *decode_on_a_thread(void *arg)
{
    struct thread_decode *t = arg;
    struct diag err;
    struct san_matcher *m = san_matcher_new(t->letters, &err);
    pthread_barrier_wait(t->start);
    t->rc[0] = san_decode(m, "e8(Q)", 5, &t->san[0]);
    t->rc[1] = san_decode(m, "e8(D)", 5, &t->san[1]); /* D: the queen in German, French */
    san_matcher_free(m);
    return NULL;
}

static void decode_on_two_threads(enum san_letters a, enum san_letters b)
{
    pthread_barrier_t start;
    pthread_t id[2];
    struct thread_decode t[2] = {{.letters = a, .start = &start}, {.letters = b, .start = &start}};
    cr_assert_eq(pthread_barrier_init(&start, NULL, 2), 0);
    for (int i = 0; i < 2; i++)
        cr_assert_eq(pthread_create(&id[i], NULL, decode_on_a_thread, &t[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(id[i], NULL);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(t[i].rc[0], 0, "thread %d: e8(Q) refused", i);
        cr_expect_eq(t[i].san[0].to, square_make(4, 7));
        cr_expect_eq(t[i].san[0].promo, QUEEN, "thread %d", i);
        cr_expect_eq(t[i].san[0].lenient, SAN_LENIENT_PROMO_PAREN, "thread %d", i);
        if (t[i].letters == SAN_LETTERS_ENGLISH) {
            cr_expect_eq(t[i].rc[1], -1, "thread %d: English has no D", i);
        } else {
            cr_assert_eq(t[i].rc[1], 0, "thread %d: e8(D) refused", i);
            cr_expect_eq(t[i].san[1].promo, QUEEN, "thread %d", i);
            /* D means nothing in English: a foreign letter. */
            cr_expect_eq(t[i].san[1].lenient, SAN_LENIENT_PROMO_PAREN | SAN_LENIENT_FOREIGN,
                         "thread %d", i);
        }
    }
}

Test(san, two_threads_make_the_regex_at_their_first_use)
{
    decode_on_two_threads(SAN_LETTERS_ENGLISH, SAN_LETTERS_GERMAN);
    decode_on_two_threads(SAN_LETTERS_FRENCH, SAN_LETTERS_FRENCH); /* one shared pattern */
}

/* Issue 14.7: each glyph and the NAG the PGN standard (or, for N and the idea sign,
 * ChessBase) gives it; a word that is no glyph has none. */
Test(san, every_annotation_glyph_names_its_nag)
{
    static const struct {
        const char *glyph;
        int nag;
    } cases[] = {
        {"!", 1},   {"?", 2},   {"!!", 3},  {"??", 4},  {"!?", 5},  {"?!", 6},
        {"\xe2\x96\xa1", 7},  {"=", 10},  {"\xe2\x88\x9e", 13}, {"+=", 14},
        {"\xe2\xa9\xb2", 14}, {"=+", 15}, {"\xe2\xa9\xb1", 15}, {"\xc2\xb1", 16},
        {"\xe2\x88\x93", 17}, {"+-", 18}, {"-+", 19}, {"\xe2\xa8\x80", 22},
        {"\xce\x94", 140}, {"N", 146},
        {"!!!", 0}, {"Nf3", 0}, {"+", 0}, {"-", 0}, {"--", 0}, {"n", 0}, {"", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        cr_expect_eq(san_glyph_nag(cases[i].glyph, strlen(cases[i].glyph)), cases[i].nag,
                     "%s", cases[i].glyph);
}

Test(san, ep_marks_as_words_and_their_spellings)
{
    bool nonstandard = true;
    cr_expect(san_is_ep_mark("e.p.", 4, &nonstandard));
    cr_expect_not(nonstandard);
    static const char *const others[] = {"ep", "e.p", "ep."};
    for (size_t i = 0; i < 3; i++) {
        nonstandard = false;
        cr_expect(san_is_ep_mark(others[i], strlen(others[i]), &nonstandard), "%s", others[i]);
        cr_expect(nonstandard, "%s", others[i]);
    }
    cr_expect_not(san_is_ep_mark("e.p.e.p.", 8, &nonstandard));
    cr_expect_not(san_is_ep_mark("e4", 2, &nonstandard));
}

/* Issue 14.4: every promotion spelling of SPEC 3.6, with and without capture, for each
 * promotion piece, decodes to the same parts (the lenient bit names the spelling). */
Test(san, every_promotion_spelling_decodes_for_every_piece)
{
    struct diag err;
    struct san_matcher *m = san_matcher_new(SAN_LETTERS_ENGLISH, &err);
    cr_assert_not_null(m);
    static const struct {
        const char *fmt;
        uint16_t lenient;
    } spellings[] = {
        {"%s=%c", 0},
        {"%s%c", SAN_LENIENT_PROMO_NO_EQ},
        {"%s(%c)", SAN_LENIENT_PROMO_PAREN},
        {"%s/%c", SAN_LENIENT_PROMO_SLASH},
    };
    static const char letters[] = "QRBN";
    static const enum piece_type types[] = {QUEEN, ROOK, BISHOP, KNIGHT};
    static const char *const moves[] = {"e8", "dxe8", "bxa8", "b8", "a1", "gxh1", "bxc1"};
    for (size_t s = 0; s < 4; s++)
        for (size_t p = 0; p < 4; p++)
            for (size_t k = 0; k < sizeof moves / sizeof *moves; k++) {
                char tok[16];
                snprintf(tok, sizeof tok, spellings[s].fmt, moves[k], letters[p]);
                struct san out;
                cr_assert_eq(san_decode(m, tok, strlen(tok), &out), 0, "%s", tok);
                cr_expect_eq(out.kind, SAN_MOVE, "%s", tok);
                cr_expect_eq(out.piece, PAWN, "%s", tok);
                cr_expect_eq(out.promo, types[p], "%s", tok);
                cr_expect_eq(out.capture, strchr(moves[k], 'x') != NULL, "%s", tok);
                cr_expect_eq(out.lenient, spellings[s].lenient, "%s", tok);
            }
    san_matcher_free(m);
}
