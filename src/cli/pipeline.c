/*
 * pipeline.c - the parallel run of one input (--jobs N), shaped like git's grep.
 *
 * The calling thread reads and tokenizes games (the reader is sequential by nature:
 * where a game ends depends on everything before it) and copies them into batches.
 * N - 1 workers replay batches and write their output into the batch, and the calling
 * thread replays one too whenever a batch is waiting that no worker has taken: N threads
 * on N cores, not a reading thread time-sharing a core with a worker (which cost ~25%
 * more CPU on comment-heavy input, each switch evicting the other's hot data).  The
 * calling thread flushes finished batches strictly in input order, so the bytes out are
 * identical to the serial run.  A bounded ring of batches keeps memory flat: the reader
 * helps or waits when every slot is full or unflushed.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "output.h"
#include "run.h"
#include "pgnkit/xalloc.h"

enum { BATCH_TEXT_BYTES = 192 * 1024, BATCH_MAX_GAMES = 1024 };

enum slot_state { SLOT_FREE, SLOT_FILLED, SLOT_WORKING, SLOT_DONE };

/* A batch of games copied out of the reader's buffer, and what processing made of it. */
struct batch {
    enum slot_state state;
    struct pgn_game *games;
    size_t game_count, game_cap;
    char *text;
    size_t text_len, text_cap;
    struct pgn_token *tokens;
    size_t token_len, token_cap;
    struct pgn_tag *tags;
    size_t tag_len, tag_cap;
    struct diag *diags;
    size_t diag_len, diag_cap;
    struct work_output output;
};

struct pipeline {
    const struct config *cfg;
    pthread_mutex_t lock;
    pthread_cond_t work_ready;  /* a batch was filled, or the run ends */
    pthread_cond_t work_done;   /* a batch was processed */
    struct batch *slots;
    size_t slot_count;
    uint64_t next_fill, next_take, next_flush; /* sequence numbers; slot = seq % count */
    bool closing;
    bool failed;                /* a worker could not start */
    struct game_replayer *helper; /* the calling thread's, for help_one() */
};

/* ---- copying a game out of the reader ---- */

static void *arena_take(void **base, size_t *len, size_t *cap, size_t n, size_t size)
{
    xgrow(base, cap, *len + n, size);
    void *p = (char *)*base + *len * size;
    *len += n;
    return p;
}

/* Copy a slice into the batch text; returns its offset (pointers are fixed up later,
 * once the text arena stops moving). */
static size_t copy_text(struct batch *b, const char *p, size_t n)
{
    size_t off = b->text_len;
    char *dst = arena_take((void **)&b->text, &b->text_len, &b->text_cap, n, 1);
    if (n)
        memcpy(dst, p, n);
    return off;
}

/* Where a slice lands in the batch text: inside the copied game span (most of them), or
 * copied alone (unescaped tag values live in the reader's scratch area). */
static size_t place(struct batch *b, const struct pgn_game *g, size_t span_off, size_t span,
                    const char *p, size_t n)
{
    if (span && p >= g->text && p + n <= g->text + span)
        return span_off + (size_t)(p - g->text);
    return copy_text(b, p, n);
}

/* The game's tokens, their texts turned into offsets in the batch text: every token text
 * lies inside the game's span (pgn_reader.h), so one delta rebases them all.  This runs
 * on the reading thread, the one that limits --jobs, for every token of the input. */
static size_t copy_tokens(struct batch *b, const struct pgn_game *g, size_t span_off)
{
    size_t tok0 = b->token_len;
    struct pgn_token *t = arena_take((void **)&b->tokens, &b->token_len, &b->token_cap,
                                     g->token_count, sizeof *t);
    if (!g->token_count)
        return tok0;
    memcpy(t, g->tokens, g->token_count * sizeof *t);
    uintptr_t delta = (uintptr_t)span_off - (uintptr_t)g->text;
    for (size_t i = 0; i < g->token_count; i++)
        t[i].text = (const char *)((uintptr_t)t[i].text + delta);
    return tok0;
}

/* Offsets are stored in the pointer fields until batch_fix_pointers(). */
static void batch_add_game(struct batch *b, const struct pgn_game *g)
{
    struct pgn_game *copy =
        arena_take((void **)&b->games, &b->game_count, &b->game_cap, 1, sizeof *copy);
    *copy = *g;
    size_t span = g->skipped || !g->text ? 0 : g->bytes;
    size_t span_off = copy_text(b, g->text, span);
    size_t tok0 = copy_tokens(b, g, span_off);
    size_t tag0 = b->tag_len;
    struct pgn_tag *tags =
        arena_take((void **)&b->tags, &b->tag_len, &b->tag_cap, g->tag_count, sizeof *tags);
    for (size_t i = 0; i < g->tag_count; i++) {
        const struct pgn_tag *src = &g->tags[i];
        tags[i] = *src;
        tags[i].name.ptr = (const char *)(uintptr_t)place(b, g, span_off, span, src->name.ptr,
                                                          src->name.len);
        tags[i].value.ptr = (const char *)(uintptr_t)place(b, g, span_off, span, src->value.ptr,
                                                           src->value.len);
    }
    size_t diag0 = b->diag_len;
    struct diag *d = arena_take((void **)&b->diags, &b->diag_len, &b->diag_cap, g->diags.count,
                                sizeof *d);
    if (g->diags.count)
        memcpy(d, g->diags.items, g->diags.count * sizeof *d);
    copy->text = (const char *)(uintptr_t)span_off;
    copy->tokens = (const struct pgn_token *)(uintptr_t)tok0;
    copy->tags = (const struct pgn_tag *)(uintptr_t)tag0;
    copy->diags.items = (struct diag *)(uintptr_t)diag0;
    copy->diags.cap = copy->diags.count;
}

static void batch_fix_pointers(struct batch *b)
{
    for (size_t k = 0; k < b->game_count; k++) {
        struct pgn_game *g = &b->games[k];
        size_t tok0 = (size_t)(uintptr_t)g->tokens, tag0 = (size_t)(uintptr_t)g->tags;
        struct pgn_token *t = b->tokens + tok0;
        for (size_t i = 0; i < g->token_count; i++)
            t[i].text = b->text + (size_t)(uintptr_t)t[i].text;
        struct pgn_tag *tags = b->tags + tag0;
        for (size_t i = 0; i < g->tag_count; i++) {
            tags[i].name.ptr = b->text + (size_t)(uintptr_t)tags[i].name.ptr;
            tags[i].value.ptr = b->text + (size_t)(uintptr_t)tags[i].value.ptr;
        }
        g->text = b->text + (size_t)(uintptr_t)g->text;
        g->tokens = g->token_count ? t : NULL;
        g->tags = g->tag_count ? tags : NULL;
        g->diags.items = b->diags + (size_t)(uintptr_t)g->diags.items;
    }
}

static void batch_reset(struct batch *b)
{
    b->game_count = b->text_len = b->token_len = b->tag_len = b->diag_len = 0;
}

static void batch_release(struct batch *b)
{
    free(b->games);
    free(b->text);
    free(b->tokens);
    free(b->tags);
    free(b->diags);
    work_output_release(&b->output);
}

/* ---- workers ---- */

/* Take the oldest filled batch and replay it.  Called with the lock held, which it
 * releases while replaying; the caller checked that a filled batch is waiting. */
static void replay_next(struct pipeline *p, struct game_replayer *r)
{
    struct batch *b = &p->slots[p->next_take++ % p->slot_count];
    b->state = SLOT_WORKING;
    pthread_mutex_unlock(&p->lock);
    batch_fix_pointers(b); /* here, not on the reading thread: that one is the limit */
    for (size_t i = 0; r && i < b->game_count; i++)
        process_game(r, p->cfg, &b->games[i], &b->output);
    pthread_mutex_lock(&p->lock);
    b->state = SLOT_DONE;
    pthread_cond_broadcast(&p->work_done);
}

static void *worker_main(void *arg)
{
    struct pipeline *p = arg;
    struct game_replayer *r = replayer_for(p->cfg);
    pthread_mutex_lock(&p->lock);
    if (!r)
        p->failed = true;
    for (;;) {
        while (!p->closing && p->next_take == p->next_fill)
            pthread_cond_wait(&p->work_ready, &p->lock);
        if (p->next_take == p->next_fill)
            break; /* closing and nothing left */
        replay_next(p, r);
    }
    pthread_mutex_unlock(&p->lock);
    game_replayer_free(r);
    return NULL;
}

/* ---- the reading thread: fill, submit, help, flush in order ---- */

/* Replay the oldest batch no worker has taken, when more than `spare` are waiting.
 * Called with the lock held. */
static bool help_one(struct pipeline *p, uint64_t spare)
{
    if (!p->helper || p->next_fill - p->next_take <= spare)
        return false;
    replay_next(p, p->helper);
    return true;
}

/* Flush finished batches in order; with wait, block until the oldest one is done.
 * Called with the lock held.  Returns 0, or 2 on an output error. */
static int flush_ready(struct pipeline *p, bool wait, struct output *out,
                       struct summary *summary)
{
    int rc = 0;
    while (p->next_flush < p->next_take || (wait && p->next_flush < p->next_fill)) {
        struct batch *b = &p->slots[p->next_flush % p->slot_count];
        if (b->state != SLOT_DONE) {
            if (!wait)
                break;
            pthread_cond_wait(&p->work_done, &p->lock);
            continue;
        }
        pthread_mutex_unlock(&p->lock);
        if (work_output_flush(&b->output, out, summary) != 0)
            rc = 2;
        batch_reset(b);
        pthread_mutex_lock(&p->lock);
        b->state = SLOT_FREE;
        p->next_flush++;
        wait = false; /* one slot freed is enough to go on reading */
        if (rc)
            break;
    }
    return rc;
}

/* Hand the filling batch to the workers and get a free one.  Returns 0 or 2. */
static int submit(struct pipeline *p, struct batch **filling, struct output *out,
                  struct summary *summary)
{
    pthread_mutex_lock(&p->lock);
    (*filling)->state = SLOT_FILLED;
    p->next_fill++;
    pthread_cond_signal(&p->work_ready);
    /* The batch just submitted is for a worker (it may not have woken yet), and one more
     * keeps a worker busy while this thread replays; beyond that the workers are behind.
     * (Helping at one waiting batch left the worker idle at the end of each help: lichess
     * -j2 0.21 s against 0.19-0.20 s; at three, no better than two.) */
    help_one(p, 2);
    int rc = flush_ready(p, false, out, summary);
    while (!rc && p->next_fill - p->next_flush >= p->slot_count)
        rc = help_one(p, 0) ? flush_ready(p, false, out, summary)
                            : flush_ready(p, true, out, summary);
    *filling = &p->slots[p->next_fill % p->slot_count];
    pthread_mutex_unlock(&p->lock);
    return rc;
}

static bool batch_full(const struct batch *b)
{
    return b->text_len >= BATCH_TEXT_BYTES || b->game_count >= BATCH_MAX_GAMES;
}

static int read_all(struct pipeline *p, struct input *in, struct output *out,
                    struct progress *prog, struct summary *summary)
{
    struct batch *filling = &p->slots[0];
    struct pgn_game game;
    struct diag err;
    int rc, status = 0;
    uint64_t games = 0;
    while ((rc = pgn_reader_next(in->reader, &game, &err)) == 1) {
        batch_add_game(filling, &game);
        games++;
        if (batch_full(filling) && (status = submit(p, &filling, out, summary)) != 0)
            break;
        progress_update(prog, pgn_reader_bytes(in->reader), games);
    }
    if (rc < 0) {
        report_read_error(in, &err);
        status = 2;
    }
    if (!status && filling->game_count)
        status = submit(p, &filling, out, summary);
    return status;
}

static void pipeline_init(struct pipeline *p, const struct config *cfg, int jobs)
{
    memset(p, 0, sizeof *p);
    p->cfg = cfg;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work_ready, NULL);
    pthread_cond_init(&p->work_done, NULL);
    p->slot_count = (size_t)jobs * 2 + 1;
    p->slots = xcalloc(p->slot_count, sizeof *p->slots);
    for (size_t i = 0; i < p->slot_count; i++)
        work_output_init(&p->slots[i].output);
}

static void pipeline_release(struct pipeline *p)
{
    for (size_t i = 0; i < p->slot_count; i++)
        batch_release(&p->slots[i]);
    free(p->slots);
    pthread_cond_destroy(&p->work_done);
    pthread_cond_destroy(&p->work_ready);
    pthread_mutex_destroy(&p->lock);
}

int pipeline_run(const struct config *cfg, struct input *in, struct output *out,
                 struct progress *prog, struct summary *summary, int jobs)
{
    struct pipeline p;
    pipeline_init(&p, cfg, jobs);
    p.helper = replayer_for(cfg);
    if (!p.helper)
        p.failed = true;
    int workers = jobs - 1; /* the calling thread is the other one (help_one) */
    pthread_t *threads = xcalloc((size_t)workers, sizeof *threads);
    int started = 0;
    for (; started < workers; started++)
        if (pthread_create(&threads[started], NULL, worker_main, &p) != 0)
            break;
    int status = started ? read_all(&p, in, out, prog, summary) : 2;
    pthread_mutex_lock(&p.lock);
    while (help_one(&p, 0))
        continue;
    int rc = flush_ready(&p, true, out, summary);
    while (!rc && p.next_flush < p.next_fill)
        rc = flush_ready(&p, true, out, summary);
    p.closing = true;
    pthread_cond_broadcast(&p.work_ready);
    bool failed = p.failed;
    pthread_mutex_unlock(&p.lock);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    free(threads);
    game_replayer_free(p.helper);
    pipeline_release(&p);
    if (!started)
        fprintf(stderr, "pgnkit: cannot start worker threads\n");
    return status ? status : rc ? rc : failed ? 2 : 0;
}
