/*
 * fuzz_san.c - san_decode and san_resolve on a few fixed positions.
 *
 * The whole input is one token.  Invariants: the cached matcher and an uncached one
 * decode it to the same parts; a resolved move is legal; san_write of that move decodes
 * and resolves back to the same move.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "board/fen.h"
#include "board/rules.h"
#include "san/san.h"
#include "san/san_resolve.h"

static const char *const fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", /* kiwipete */
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",    /* promotions */
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",      /* e.p. */
    "1r2k1r1/8/8/8/8/8/8/R1K2R2 b KQkq - 0 1",                             /* Chess960 */
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",                                      /* stalemate */
    "4k3/8/8/8/8/8/1N3N2/4K3 w - - 0 1",                                   /* ambiguity */
};
enum { NFENS = sizeof fens / sizeof fens[0] };

static struct san_matcher *cached, *uncached, *german;
static struct position positions[NFENS];

static void setup(void)
{
    struct diag err;
    cached = san_matcher_new(SAN_LETTERS_ENGLISH, &err);
    uncached = san_matcher_new_ex(SAN_LETTERS_ENGLISH,
                                  SAN_MATCHER_NO_CACHE | SAN_MATCHER_REGEX_ONLY, &err);
    german = san_matcher_new(SAN_LETTERS_GERMAN, &err);
    FUZZ_ASSERT(cached && uncached && german);
    for (int k = 0; k < NFENS; k++)
        FUZZ_ASSERT(fen_parse(&positions[k], fens[k], strlen(fens[k]), k == 4, &err) == 0);
}

static bool same_san(const struct san *a, const struct san *b)
{
    return a->kind == b->kind && a->piece == b->piece &&
           a->piece_implicit == b->piece_implicit && a->maybe_bishop == b->maybe_bishop &&
           a->from_file == b->from_file && a->from_rank == b->from_rank && a->to == b->to &&
           a->promo == b->promo && a->capture == b->capture && a->checks == b->checks &&
           a->mate == b->mate && a->ep == b->ep && a->suffix_len == b->suffix_len &&
           a->lenient == b->lenient;
}

static void resolve_everywhere(const struct san *san, bool lenient)
{
    struct san_options opts = {.strict = true, .lenient = lenient};
    for (int k = 0; k < NFENS; k++) {
        struct position after, after2;
        struct san_outcome out = {.after = &after};
        san_resolve(&positions[k], san, &opts, &out);
        FUZZ_ASSERT(out.problem_count <= SAN_MAX_PROBLEMS);
        FUZZ_ASSERT(out.candidate_count <= SAN_MAX_CANDIDATES);
        if (!out.ok)
            continue;
        FUZZ_ASSERT(rules_is_legal(&positions[k], out.move));
        /* The canonical SAN of the move names the same move. */
        char text[32];
        size_t n = san_write(&positions[k], out.move, text);
        FUZZ_ASSERT(n > 0 && n < 16);
        struct san back;
        FUZZ_ASSERT(san_decode(uncached, text, n, &back) == 0);
        struct san_outcome out2 = {.after = &after2};
        struct san_options plain = {0};
        san_resolve(&positions[k], &back, &plain, &out2);
        FUZZ_ASSERT(out2.ok && memcmp(&out2.move, &out.move, sizeof out.move) == 0);
    }
}

int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    if (!cached)
        setup();
    const char *tok = (const char *)data;
    struct san a, b, c;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    int ra = san_decode(cached, tok, size, &a);
    int rb = san_decode(uncached, tok, size, &b);
    FUZZ_ASSERT(ra == rb);
    if (ra == 0) {
        FUZZ_ASSERT(same_san(&a, &b));
        /* A second lookup is answered by the cache: still the same parts. */
        FUZZ_ASSERT(san_decode(cached, tok, size, &b) == 0 && same_san(&a, &b));
        resolve_everywhere(&a, false);
        resolve_everywhere(&a, true);
    }
    if (san_decode(german, tok, size, &c) == 0)
        resolve_everywhere(&c, false);
    return 0;
}
