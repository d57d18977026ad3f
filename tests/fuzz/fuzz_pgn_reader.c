/*
 * fuzz_pgn_reader.c - the streaming reader over arbitrary bytes, each game replayed.
 *
 * The input is read twice: from memory with the default limits, replaying every game
 * through game_replay (so SAN decoding and resolution, FEN tags, variations and result
 * checks are fuzzed through real PGN), and through a source that hands out 1..8 bytes
 * at a time with tiny limits (every buffer refill, compaction and limit path).  Both
 * reads must account for every byte: games are numbered 1, 2, 3, ... and offsets grow.
 *
 * Then it is read in pieces as the --jobs pipeline does (pgn_split_find_cut guesses the
 * cuts, one memory reader is restarted on each piece, as tests/test_pgn_reader.c's
 * dump_in_pieces does), at two piece sizes taken from the input: when no piece's stop
 * is crossed, the games read in pieces must be exactly the games of the whole read
 * (index, offset, bytes, line, tags, tokens and diagnostics).
 *
 * And it is read in blocks parsed in place (pgn_reader_new_blocks), 1..8 bytes a block
 * with 0..15 bytes of room before each, from a ring of three that poisons what is handed
 * back: with the default limits, the games must be exactly the whole read's.
 *
 * And it is read with games in parts (pgn_limits.part_tokens from the input's first byte,
 * 1..8 from memory, 1..8 streamed with the tiny limits): every game's parts, put end to
 * end, must be the game's tokens as the whole reading gives them, with the same tags,
 * diagnostics and last result; no part is empty or over part_tokens + 2 (part 0 too), and
 * parts loaded again out of order are the same.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "fuzz.h"
#include "game/game.h"
#include "pgn/pgn_reader.h"
#include "pgn/pgn_split.h"

struct trickle {
    const uint8_t *data;
    size_t size, pos;
};

static ssize_t trickle_read(void *ctx, char *buf, size_t cap)
{
    struct trickle *t = ctx;
    size_t n = t->size - t->pos;
    size_t step = 1 + (t->pos * 7 + t->size) % 8; /* deterministic, uneven chunk sizes */
    if (n > step)
        n = step;
    if (n > cap)
        n = cap;
    memcpy(buf, t->data + t->pos, n);
    t->pos += n;
    return (ssize_t)n;
}

/* Read every game of r; replay them with rp when given.  Returns the number of games. */
static uint64_t drain(struct pgn_reader *r, struct game_replayer *rp, size_t size)
{
    struct pgn_game g;
    struct diag err;
    uint64_t n = 0, end = 0;
    int rc;
    while ((rc = pgn_reader_next(r, &g, &err)) == 1) {
        n++;
        FUZZ_ASSERT(g.index == n);
        FUZZ_ASSERT(g.offset >= end && g.offset + g.bytes <= size);
        end = g.offset + g.bytes;
        FUZZ_ASSERT(!g.skipped || (g.token_count == 0 && g.tag_count == 0));
        for (size_t k = 0; k < g.token_count; k++) {
            const struct pgn_token *t = &g.tokens[k];
            FUZZ_ASSERT(t->kind <= PGN_TOK_RESULT && t->line >= 1);
            /* Inside the game's text: the --jobs pipeline relies on it. */
            FUZZ_ASSERT(t->text >= g.text && t->text + t->len <= g.text + g.bytes);
        }
        if (rp) {
            const struct game_record *rec = game_replay(rp, &g);
            FUZZ_ASSERT(rec && rec->game == &g);
            FUZZ_ASSERT(rec->status <= GAME_SKIPPED);
        }
        FUZZ_ASSERT(n <= size + 1);
    }
    FUZZ_ASSERT(rc == 0); /* memory and trickle sources never fail */
    FUZZ_ASSERT(pgn_reader_next(r, &g, &err) == 0);
    return n;
}

/* A growable byte string: the games read, as text to compare (exact, length-prefixed). */
struct pr_dump {
    char *s;
    size_t len, cap;
};

static void pr_put(struct pr_dump *d, const void *p, size_t n)
{
    if (d->len + n + 1 > d->cap) {
        size_t cap = d->cap ? d->cap : 256;
        while (d->len + n + 1 > cap)
            cap *= 2;
        d->s = realloc(d->s, cap);
        FUZZ_ASSERT(d->s);
        d->cap = cap;
    }
    if (n)
        memcpy(d->s + d->len, p, n);
    d->len += n;
    d->s[d->len] = '\0';
}

static void pr_putf(struct pr_dump *d, const char *fmt, unsigned long long a,
                    unsigned long long b, unsigned long long c, unsigned long long e)
{
    char tmp[128];
    int n = snprintf(tmp, sizeof tmp, fmt, a, b, c, e);
    FUZZ_ASSERT(n >= 0 && (size_t)n < sizeof tmp);
    pr_put(d, tmp, (size_t)n);
}

/* Everything the pieces must agree on about one game. */
static void pr_dump_game(struct pr_dump *d, const struct pgn_game *g)
{
    pr_putf(d, "#%llu %llu:%llu+%llu", g->index, g->line, g->offset, g->bytes);
    pr_putf(d, " s%llu t%llu k%llu d%llu\n", g->skipped, g->tag_count, g->token_count,
            g->diags.count);
    for (size_t k = 0; k < g->tag_count; k++) {
        const struct pgn_tag *tag = &g->tags[k];
        pr_putf(d, "T @%llu:%llu %llu=%llu:", tag->line, tag->col, tag->name.len,
                tag->value.len);
        pr_put(d, tag->name.ptr, tag->name.len);
        pr_put(d, "=", 1);
        pr_put(d, tag->value.ptr, tag->value.len);
        pr_put(d, "\n", 1);
    }
    for (size_t k = 0; k < g->token_count; k++) {
        const struct pgn_token *tok = &g->tokens[k];
        pr_putf(d, "%llu @%llu:%llu %llu:", tok->kind, tok->line, tok->col, tok->len);
        pr_put(d, tok->text, tok->len);
        pr_put(d, "\n", 1);
    }
    for (size_t k = 0; k < g->diags.count; k++) {
        const struct diag *dg = &g->diags.items[k];
        pr_putf(d, "D %llu @%llu:%llu %llu\n", (unsigned long long)dg->code, dg->line,
                dg->col, 0);
    }
}

/* A game as pr_dump_game shows it, with the tokens toks[0, n), and its last result,
 * which must be its last result token. */
static void pr_dump_game_tokens(struct pr_dump *d, const struct pgn_game *g,
                                const struct pgn_token *toks, size_t n)
{
    struct pgn_game whole = *g;
    whole.tokens = toks;
    whole.token_count = n;
    pr_dump_game(d, &whole);
    const struct pgn_token *result = NULL;
    for (size_t k = 0; k < n; k++) {
        FUZZ_ASSERT(toks[k].text >= g->text && toks[k].text + toks[k].len <= g->text + g->bytes);
        pr_putf(d, "O %llu\n", (unsigned long long)(toks[k].text - g->text), 0, 0, 0);
        if (toks[k].kind == PGN_TOK_RESULT)
            result = &toks[k];
    }
    FUZZ_ASSERT(result ? g->last_result.ptr == result->text && g->last_result.len == result->len
                       : g->last_result.ptr == NULL && g->last_result.len == 0);
}

static bool pr_same_token(const struct pgn_token *a, const struct pgn_token *b)
{
    return a->text == b->text && a->len == b->len && a->line == b->line && a->col == b->col &&
           a->kind == b->kind;
}

/* The tokens of all parts of a game, end to end; starts[k] where part k begins. */
struct pr_parts {
    struct pgn_token *toks;
    size_t n, cap;
    size_t *starts;
    size_t starts_cap;
};

/* Part k of g loaded again is the part as first loaded. */
static void pr_part_again(const struct pgn_game *g, const struct pr_parts *a, size_t k)
{
    struct pgn_part p = pgn_game_part(g, k);
    FUZZ_ASSERT(p.count == a->starts[k + 1] - a->starts[k]);
    for (size_t j = 0; j < p.count; j++)
        FUZZ_ASSERT(pr_same_token(&p.tokens[j], &a->toks[a->starts[k] + j]));
}

/* Every game of r (freed here) with its tokens gathered from its parts (part_tokens,
 * SIZE_MAX: whole), each part checked. */
static void pr_dump_parts(struct pr_dump *d, struct pgn_reader *r, size_t part_tokens)
{
    FUZZ_ASSERT(r);
    struct pr_parts a = {0};
    struct pgn_game g;
    struct diag err;
    pr_put(d, "", 0);
    while (pgn_reader_next(r, &g, &err) == 1) {
        FUZZ_ASSERT((g.part_count == 0) == (g.token_count == 0));
        FUZZ_ASSERT((g.part_count > 1) == (g.parts != NULL));
        FUZZ_ASSERT(part_tokens != SIZE_MAX || g.part_count <= 1);
        if (g.part_count + 1 > a.starts_cap) {
            a.starts_cap = 2 * (g.part_count + 1);
            a.starts = realloc(a.starts, a.starts_cap * sizeof *a.starts);
            FUZZ_ASSERT(a.starts);
        }
        a.n = 0;
        for (size_t k = 0; k < g.part_count; k++) {
            struct pgn_part p = pgn_game_part(&g, k);
            FUZZ_ASSERT(g.part_count == 1 || p.count > 0);
            a.starts[k] = a.n;
            if (a.n + p.count > a.cap) {
                a.cap = 2 * (a.n + p.count);
                a.toks = realloc(a.toks, a.cap * sizeof *a.toks);
                FUZZ_ASSERT(a.toks);
            }
            memcpy(a.toks + a.n, p.tokens, p.count * sizeof *p.tokens);
            a.n += p.count;
        }
        a.starts[g.part_count] = a.n;
        for (size_t k = 0; part_tokens != SIZE_MAX && k < g.part_count; k++)
            FUZZ_ASSERT(a.starts[k + 1] - a.starts[k] <= part_tokens + 2);
        if (g.part_count > 2) {
            pr_part_again(&g, &a, 2);
            pr_part_again(&g, &a, 1);
            pr_part_again(&g, &a, 2);
        }
        for (size_t j = 0; j < g.token_count; j++)
            FUZZ_ASSERT(pr_same_token(&g.tokens[j], &a.toks[j])); /* part 0 as it was */
        pr_dump_game_tokens(d, &g, a.toks, a.n);
    }
    pgn_reader_free(r);
    free(a.toks);
    free(a.starts);
}

/* The games read in parts of part_tokens are the games read whole, from memory (lim
 * NULL: the defaults) or streamed (with the limits lim). */
static void pr_check_parts(const uint8_t *data, size_t size, const struct pgn_limits *lim,
                           size_t part_tokens)
{
    struct pr_dump whole = {0}, got = {0};
    struct pgn_limits l = lim ? *lim : (struct pgn_limits){0};
    struct trickle t1 = {data, size, 0}, t2 = {data, size, 0};
    l.part_tokens = SIZE_MAX;
    pr_dump_parts(&whole, lim ? pgn_reader_new((struct pgn_source){trickle_read, &t1}, "fuzz", &l)
                              : pgn_reader_from_memory((const char *)data, size, "fuzz", &l),
                  SIZE_MAX);
    l.part_tokens = part_tokens;
    pr_dump_parts(&got, lim ? pgn_reader_new((struct pgn_source){trickle_read, &t2}, "fuzz", &l)
                            : pgn_reader_from_memory((const char *)data, size, "fuzz", &l),
                  part_tokens);
    if (got.len != whole.len || memcmp(got.s, whole.s, got.len) != 0) {
        size_t k = 0;
        while (k < got.len && k < whole.len && got.s[k] == whole.s[k])
            k++;
        while (k > 0 && whole.s[k - 1] != '\n')
            k--;
        fprintf(stderr, "parts of %zu tokens read otherwise than whole from byte %zu:\n"
                "--- parts:\n%.400s\n--- whole:\n%.400s\n", part_tokens, k, got.s + k,
                whole.s + k);
        abort();
    }
    free(got.s);
    free(whole.s);
}

static void pr_dump_whole(struct pr_dump *d, const uint8_t *data, size_t size)
{
    struct pgn_reader *r = pgn_reader_from_memory((const char *)data, size, "fuzz", NULL);
    FUZZ_ASSERT(r);
    struct pgn_game g;
    struct diag err;
    pr_put(d, "", 0);
    while (pgn_reader_next(r, &g, &err) == 1)
        pr_dump_game(d, &g);
    pgn_reader_free(r);
}

/*
 * Read data in pieces as the pipeline does: each piece is the bytes after the last cut and
 * piece_bytes more, doubled until it has a cut (pgn_split_find_cut from 1) or reaches the
 * end (then its cut is its length).  Each piece is an exact-size copy, so ASan sees a
 * read past it.  Returns how many pieces had their stop crossed.
 */
static size_t pr_dump_pieces(struct pr_dump *d, const uint8_t *data, size_t size,
                             size_t piece_bytes)
{
    const char *s = (const char *)data;
    struct pgn_reader *r = pgn_reader_from_memory(NULL, 0, "fuzz", NULL);
    FUZZ_ASSERT(r);
    struct pgn_resume at = {.offset = 0, .line = 1, .games = 0};
    size_t start = 0, carry = 0, crossings = 0;
    pr_put(d, "", 0);
    while (start < size) {
        size_t want = carry + piece_bytes, piece_len, cut;
        for (;;) {
            piece_len = want < size - start ? want : size - start;
            cut = pgn_split_find_cut(s + start, 1, piece_len);
            if (cut != SIZE_MAX)
                break;
            if (start + piece_len == size) {
                cut = piece_len;
                break;
            }
            want = 2 * piece_len;
        }
        FUZZ_ASSERT(cut >= 1 && cut <= piece_len);
        char *copy = malloc(piece_len);
        FUZZ_ASSERT(copy);
        memcpy(copy, s + start, piece_len);
        pgn_reader_restart(r, copy, piece_len, cut, &at);
        struct pgn_game g;
        struct diag err;
        uint64_t games = 0;
        int rc;
        while ((rc = pgn_reader_next(r, &g, &err)) == 1) {
            games++;
            pr_dump_game(d, &g);
        }
        FUZZ_ASSERT(rc == 0);
        crossings += pgn_reader_stop_crossed(r);
        at.offset += cut;
        at.line += (uint32_t)pgn_split_count_lines(copy, cut);
        at.games += games;
        free(copy);
        start += cut;
        carry = piece_len - cut;
    }
    pgn_reader_free(r);
    return crossings;
}

/* Where no stop is crossed, the pieces read exactly as the whole. */
static void pr_check_pieces(const uint8_t *data, size_t size, const struct pr_dump *whole,
                            size_t piece_bytes)
{
    struct pr_dump got = {0};
    size_t crossings = pr_dump_pieces(&got, data, size, piece_bytes);
    if (crossings == 0 && (got.len != whole->len || memcmp(got.s, whole->s, got.len) != 0)) {
        size_t k = 0;
        while (k < got.len && k < whole->len && got.s[k] == whole->s[k])
            k++;
        while (k > 0 && whole->s[k - 1] != '\n')
            k--;
        fprintf(stderr, "pieces of %zu bytes read otherwise than the whole from byte %zu:\n"
                "--- pieces:\n%.400s\n--- whole:\n%.400s\n", piece_bytes, k, got.s + k,
                whole->s + k);
        abort();
    }
    free(got.s);
}

/* A block source over the input: uneven blocks of 1..8 bytes, 0..15 bytes of room. */
struct fuzz_blocks {
    const uint8_t *data;
    size_t size, pos, room;
    char ring[3][16 + 8];
    unsigned first, held;
};

static int blocks_take(void *ctx, char **data, size_t *len, size_t *room)
{
    struct fuzz_blocks *b = ctx;
    FUZZ_ASSERT(b->held < 2);
    if (b->pos == b->size)
        return 0;
    size_t n = 1 + (b->pos * 5 + b->size) % 8;
    if (n > b->size - b->pos)
        n = b->size - b->pos;
    char *block = b->ring[(b->first + b->held++) % 3];
    memset(block, 0x55, b->room);
    memcpy(block + b->room, b->data + b->pos, n);
    b->pos += n;
    *data = block + b->room;
    *len = n;
    *room = b->room;
    return 1;
}

static void blocks_release(void *ctx)
{
    struct fuzz_blocks *b = ctx;
    FUZZ_ASSERT(b->held > 0);
    memset(b->ring[b->first], 0xAA, sizeof b->ring[0]);
    b->first = (b->first + 1) % 3;
    b->held--;
}

static void pr_check_blocks(const uint8_t *data, size_t size, const struct pr_dump *whole)
{
    struct fuzz_blocks b = {.data = data, .size = size, .room = size ? data[size / 2] % 16 : 0};
    struct pgn_block_source src = {blocks_take, blocks_release, &b};
    struct pgn_reader *r = pgn_reader_new_blocks(&src, "fuzz", NULL);
    FUZZ_ASSERT(r);
    struct pr_dump got = {0};
    struct pgn_game g;
    struct diag err;
    pr_put(&got, "", 0);
    while (pgn_reader_next(r, &g, &err) == 1)
        pr_dump_game(&got, &g);
    pgn_reader_free(r);
    FUZZ_ASSERT(b.held == 0);
    FUZZ_ASSERT(got.len == whole->len && memcmp(got.s, whole->s, got.len) == 0);
    free(got.s);
}

int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    static struct game_replayer *rp;
    if (!rp) {
        struct game_options opts = {0};
        struct diag err;
        rp = game_replayer_new(&opts, &err); /* kept for the process: the regex is costly */
        FUZZ_ASSERT(rp);
    }

    struct pgn_reader *r = pgn_reader_from_memory((const char *)data, size, "fuzz", NULL);
    FUZZ_ASSERT(r);
    drain(r, rp, size);
    pgn_reader_free(r);

    struct trickle t = {data, size, 0};
    struct pgn_limits tiny = {.max_game_bytes = 512, .max_token_bytes = 8,
                              .max_comment_bytes = 32, .max_depth = 4};
    r = pgn_reader_new((struct pgn_source){trickle_read, &t}, "fuzz", &tiny);
    FUZZ_ASSERT(r);
    drain(r, NULL, size);
    pgn_reader_free(r);

    /* Two piece sizes from the input: 1..16 bytes (a cut searched almost every line) and
     * 17..256. */
    struct pr_dump whole = {0};
    pr_dump_whole(&whole, data, size);
    size_t small = 1 + (size ? data[size - 1] : 0) % 16;
    size_t large = 17 + (size ? (data[0] ^ size) : 0) % 240;
    pr_check_pieces(data, size, &whole, small);
    pr_check_pieces(data, size, &whole, large);
    pr_check_blocks(data, size, &whole);
    free(whole.s);

    pr_check_parts(data, size, NULL, 1 + (size ? data[0] : 0) % 8);
    pr_check_parts(data, size, &tiny, 1 + (size ? data[0] >> 5 : 0));
    return 0;
}
