/*
 * fuzz_pgn_reader.c - the streaming reader over arbitrary bytes, each game replayed.
 *
 * The input is read twice: from memory with the default limits, replaying every game
 * through game_replay (so SAN decoding and resolution, FEN tags, variations and result
 * checks are fuzzed through real PGN), and through a source that hands out 1..8 bytes
 * at a time with tiny limits (every buffer refill, compaction and limit path).  Both
 * reads must account for every byte: games are numbered 1, 2, 3, ... and offsets grow.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "fuzz.h"
#include "pgnkit/game.h"
#include "pgnkit/pgn_reader.h"

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
    return 0;
}
