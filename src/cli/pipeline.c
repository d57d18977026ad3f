/*
 * pipeline.c - the parallel run of one input (--jobs N): the input cut into chunks that
 * N threads tokenize, replay and write at once, the output flushed in input order.
 *
 * The calling thread reads raw bytes into chunks of about CHUNK_BYTES (fewer where the
 * command writes much per byte read: CHUNK_OUTPUT), cut where a game starts (a guess:
 * pgn_split.h), and counts their lines.  Any thread then tokenizes a chunk with a memory
 * reader of its own (pgn_reader_restart) and replays its games.
 * Tokenizing is a quarter of the work on comment-heavy input; here every thread does
 * its share of it, and a chunk's tokens never leave the core that replays them.
 *
 * What a chunk cannot know alone is the number of its first game: that is known once
 * every earlier chunk is tokenized.  So a thread tokenizes (phase A), waits for that
 * (the chunks before were taken earlier: it rarely waits), then replays (phase B).  The
 * same in-order step checks each cut: if the reader's stop there was crossed, the guess
 * was wrong, and the chunk's thread reads it again joined with the next chunk
 * (join_next), or with input it reads on into the chunk when that is not filled yet
 * (read_on).  Where that cannot be done, everything from that chunk's start on is
 * read on the calling thread by a whole-stream reader (run_serial), after the chunks
 * before it are flushed.  So is the rest of an input with no cut in CHUNK_SEARCH_MAX
 * bytes, or whose reading failed: the serial reader then meets the same bytes and the
 * same error as in a run with --jobs 1.
 *
 * The calling thread also replays when chunks are waiting that no worker has taken: N
 * threads on N cores.  A bounded ring of chunks keeps memory flat; when every slot is
 * full or unflushed, the calling thread helps or waits.
 *
 * A thread of its own, the flusher, writes the processed chunks' output in input order
 * and frees their slots.  Writing is the other serial step besides reading (fen --every
 * writes ~7 bytes per byte read, and a write into a file costs the kernel a page-cache
 * copy): on the calling thread it stopped reading and cutting for as long as it took.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/budget.h"
#include "cli/input.h"
#include "cli/output.h"
#include "cli/pipeline.h"
#include "cli/shown.h"
#include "pgn/pgn_split.h"
#include "io/source.h"
#include "base/xalloc.h"

/* 128 KiB: a chunk's bytes, tokens and output stay in L2 between the phases (64 KiB
 * and 512 KiB were no faster).  That many new bytes after the carried ones: reading stops
 * there (it used to fill the buffer's capacity, 256 KiB).  The search limit bounds memory
 * on input with no cut; the join limit bounds the reading again that wrong cuts cost (a
 * chunk joined k times was tokenized k + 1 times). */
enum { CHUNK_BYTES = 128 * 1024, CHUNK_SEARCH_MAX = 8 << 20, JOIN_MAX = 1 << 20 };

/* What a chunk keeps from phase A, whatever its bytes hold: tiny games (2 bytes each)
 * or many diagnostics (~500 bytes each, one per 2 input bytes) would otherwise cost
 * hundreds of times the chunk's bytes, in every slot of the ring.  Past a bound, or from
 * a game in parts on (pgn_reader.h), the chunk's games are only counted, and phase B
 * reads them again from the chunk's bytes and replays each as it is read (replay_rest).
 * Real games (~1 KB) never reach it. */
enum { KEEP_GAMES_MAX = 2048, KEEP_DIAGS_MAX = 4096, KEEP_TOKENS_MAX = 128 * 1024 };

/*
 * The output a chunk holds until the flusher writes it, in every slot of the ring.
 * fen --every writes ~7 bytes per byte read: chunks read up to their buffer's capacity
 * (~250 KiB) held ~1.7 MB each, and peak RSS at --jobs 2 was 20-22 MB against 12-13 MB
 * for uci.  So a chunk is filled with CHUNK_OUTPUT / ratio new bytes (CHUNK_MIN to
 * CHUNK_BYTES), the ratio being the output written per byte read, estimated on the
 * chunks flushed so far (learn_ratio); the first chunks are sized for RATIO_START
 * (fen --comments writes 7.6 on games of bare moves).
 *
 * What the ring holds at most: slot_count = 2 jobs + 1 chunks, each of the bytes carried
 * from the chunk before (the start of a game) and at most CHUNK_BYTES more, with its
 * games (bounded by KEEP_*), and ~CHUNK_OUTPUT of output: slot_count x (carry +
 * CHUNK_BYTES) of input and a budget of slot_count x CHUNK_OUTPUT of output, 2.5 MiB at
 * --jobs 2 (with more jobs the slots share that budget: RING_OUTPUT below).  The output
 * stays within it while no chunk in the ring writes more per byte read than the
 * estimate, which rises at once to each chunk's ratio and falls by an eighth of the
 * difference per chunk.  Where the ratio rises within an input (long comments, then bare
 * moves), the chunks filled before the flusher saw the rise, at most slot_count, hold
 * that much more once: at most CHUNK_BYTES times the new ratio each (~0.9 MB for
 * fen --every), less than every chunk held before.  A chunk also holds more when one
 * game is longer than its bytes, or when it writes more than 32 bytes per byte read
 * (diagnostics of tiny games): chunks are sized here, games are never cut.
 *
 * Nothing waits for the budget (chunk sizes keep it), so it costs no parallelism.  The
 * work per chunk follows its output more than its input (fen --every costs ~1.9 times
 * uci per byte read), so a chunk of fen --every (~72 KiB) is about as much work as a
 * full one of uci (~1.3 ms), and the costs per chunk (the lock, a wake-up, a reader's
 * restart, the cut) stay the small share they are for uci.
 */
enum { CHUNK_OUTPUT = 512 * 1024, CHUNK_MIN = 8 * 1024, RATIO_START = 8 };

/*
 * The ring's budget, whatever --jobs: the sizes above are for --jobs 2 (5 slots); with
 * more slots each chunk gets its share of RING_INPUT new bytes and RING_OUTPUT output
 * (at most the sizes above, at least CHUNK_MIN and CHUNK_OUTPUT_MIN).  Slots for N
 * threads at 128 KiB in and 512 KiB out each were ~1.1 MB a thread: 24 MB at --jobs 8,
 * 42 MB at --jobs 16.  Smaller chunks cost only their fixed costs (a lock, a wake-up, a
 * reader's restart, a cut: microseconds against ~75 us of work in 8 KiB).  A slot's
 * buffers that grew past twice their share (a game longer than the chunk, a join, a
 * search for a cut) are freed when the slot is flushed rather than kept for good.
 *
 * The minimums are below the shares at 16 threads, the most that run (run.c: 33 slots,
 * 12 KiB of input and 48 KiB of output each), so the shares, not they, bound the ring.
 * At 16 KiB and 64 KiB they did: 33 slots held ~4 MB of output buffers (64 KiB of output
 * grows a buffer to 128 KiB) and 1 MB of input, and --jobs 32's 65 twice that.  At
 * 8 KiB, a chunk of fen --every (~7 bytes written per byte read) still writes about its
 * share at 16 threads.
 */
enum { CHUNK_OUTPUT_MIN = 16 * 1024 };
/* The budget itself (RING_INPUT = 5 x CHUNK_BYTES and RING_OUTPUT = 5 x CHUNK_OUTPUT,
 * 640 KiB and 2.5 MiB, with no decoder) is budget.c's: an input's decoder takes its
 * window out of it first (an 8 MiB zstd window leaves ~1 MiB and four threads). */

enum chunk_state { CHUNK_FREE, CHUNK_FILLED, CHUNK_TAKEN, CHUNK_DONE };

/* A piece of the input and what became of it. */
struct chunk {
    enum chunk_state state;
    bool tokenized;        /* phase A is over: games and cut_ok are set */
    bool cut_ok;           /* the reader's stop at `cut` was not crossed */
    bool needs_join;       /* the cut was wrong: read on into the next chunk (join_next) */
    bool absorbed;         /* read as part of the chunk before: no games of its own */
    bool overflow;         /* games past the KEEP_* bounds were counted, not kept */
    size_t games_in;       /* the games of [0, cut): game_count kept, the rest counted */
    uint32_t joined;       /* chunks after it that it has absorbed */
    char *data;            /* the input's bytes from at.offset on */
    size_t len, cap;
    size_t cut;            /* games from data[cut] on are the next chunk's; len in the last */
    struct pgn_resume at;  /* where data[0] is; at.games is known once resolved */
    /* The games of [0, cut).  Their tokens stay in the reader of the thread that read
     * them (pgn_reader_keep_tokens), which replays them before it reads another chunk;
     * tags point into data, escaped tag values into text.  The games' array pointers
     * are indexes until phase A ends (fix_pointers). */
    struct pgn_game *games;
    size_t game_count, game_cap;
    const struct pgn_token *tokens;
    struct pgn_tag *tags;
    size_t tag_len, tag_cap;
    char *text;
    size_t text_len, text_cap;
    size_t *moved;         /* tag k's value is an offset into text: 2k + 1; its name: 2k */
    size_t moved_len, moved_cap;
    struct diag *diags;
    size_t diag_len, diag_cap;
    struct work_output output;
};

/*
 * The calling thread's serial work, timed for PGNKIT_TRACE_JOBS: it bounds how many
 * threads the pipeline can feed.  Everything else runs on any thread, chunk by chunk.
 */
struct serial_cost {
    double read;         /* input_source_read(): the syscalls, or the decoded blocks */
    double cut;          /* guessing the cut, carrying the bytes after it, counting lines */
    double flush;        /* writing processed chunks' output in input order */
    uint64_t out_bytes;  /* written by those flushes: output */
    uint64_t err_bytes;  /* and diagnostics */
};

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A thread's own tools. */
struct pipeline;
struct chunk;

struct lane {
    struct game_replayer *replayer;
    struct pgn_reader *reader;
    bool reads; /* the calling thread's: the one that fills chunks */
    /* What it replays now, for spill_midgame. */
    struct pipeline *p;
    struct chunk *chunk;
    uint64_t seq;
};

struct pipeline {
    const struct config *cfg;
    pthread_mutex_t lock;
    pthread_cond_t work_ready; /* a chunk was filled, or the run ends */
    pthread_cond_t resolved;   /* chunks' first game numbers are known, or the run goes serial */
    pthread_cond_t work_done;  /* a chunk was processed, reading ended, or the run went serial */
    pthread_cond_t slot_freed; /* the flusher freed a slot, or stopped */
    struct chunk *slots;
    size_t slot_count;
    /* Sequence numbers (slot = seq % slot_count): flushed <= resolved <= taken <= filled. */
    uint64_t next_fill, next_take, next_resolve, next_flush;
    uint64_t games_resolved;   /* games in the chunks before next_resolve */
    bool serial;               /* from chunk serial_from on, the input is read serially */
    uint64_t serial_from;
    const char *serial_why;
    uint64_t joins;            /* wrong cuts mended by reading two chunks as one */
    bool reading_done;         /* no chunk will be filled any more */
    bool decode_here;          /* the calling thread decodes the input (budget_decoding) */
    bool reader_waits;         /* the calling thread is blocked (so fills nothing for now) */
    bool input_lent;           /* a thread reads on into its chunk (read_on): the input,
                                * the carry and next_at are its own until then */
    bool closing;
    bool failed;               /* a thread could not get its replayer or reader */
    int flush_rc;              /* 2 once writing failed: the flusher stops, reading stops */
    bool flusher_done;         /* it has flushed all it will */
    struct router *route;      /* the flusher's alone while it runs */
    struct summary *summary;
    struct lane helper;        /* the calling thread's */
    /* The calling thread's alone, or the thread's it lends the input to (input_lent). */
    struct input *in;
    char *carry;               /* the bytes after the last cut, for the next chunk */
    size_t carry_len, carry_cap;
    struct pgn_resume next_at; /* where the carried bytes are: the next chunk's at */
    int input_end;             /* 0: more to read; 1: end of input; -1: read error */
    int input_errno;
    uint64_t bytes_read;       /* by the chunks submitted */
    uint64_t games_flushed;    /* the flusher's while it runs; read with the lock held */
    uint64_t out_per_kib;      /* the flusher's estimate of output bytes per KiB read (lock) */
    size_t fill_bytes;         /* the calling thread's: new bytes for the next chunk */
    size_t chunk_input;        /* a slot's share of RING_INPUT (new bytes at most) */
    size_t chunk_output;       /* a slot's share of RING_OUTPUT (the output aimed at) */
    struct serial_cost cost;
};

static inline struct chunk *slot(const struct pipeline *p, uint64_t seq)
{
    return &p->slots[seq % p->slot_count];
}

static inline bool is_serial_at(const struct pipeline *p, uint64_t seq)
{
    return p->serial && seq >= p->serial_from;
}

/* ---- phase A: tokenizing a chunk ---- */

static void *arena_take(void **base, size_t *len, size_t *cap, size_t n, size_t size)
{
    xgrow(base, cap, *len + n, size);
    void *p = (char *)*base + *len * size;
    *len += n;
    return p;
}

static bool in_data(const struct chunk *c, const char *p)
{
    return p >= c->data && p <= c->data + c->len;
}

/* A tag text outside the chunk's bytes (an escaped value, unescaped in the reader's
 * scratch) is copied; its pointer becomes an offset until fix_pointers. */
static void keep_text(struct chunk *c, struct slice *s, size_t tag, bool value)
{
    if (!s->ptr || in_data(c, s->ptr))
        return;
    size_t off = c->text_len;
    char *dst = arena_take((void **)&c->text, &c->text_len, &c->text_cap, s->len, 1);
    memcpy(dst, s->ptr, s->len);
    s->ptr = (const char *)(uintptr_t)off;
    size_t *m = arena_take((void **)&c->moved, &c->moved_len, &c->moved_cap, 1, sizeof *m);
    *m = 2 * tag + value;
}

/* Keep a game the reader returned; its tokens are kept by the reader, from index tok0. */
static void add_game(struct chunk *c, const struct pgn_game *g, size_t tok0)
{
    struct pgn_game *copy =
        arena_take((void **)&c->games, &c->game_count, &c->game_cap, 1, sizeof *copy);
    *copy = *g;
    size_t tag0 = c->tag_len, diag0 = c->diag_len;
    struct pgn_tag *tags =
        arena_take((void **)&c->tags, &c->tag_len, &c->tag_cap, g->tag_count, sizeof *tags);
    for (size_t i = 0; i < g->tag_count; i++) {
        tags[i] = g->tags[i];
        keep_text(c, &tags[i].name, tag0 + i, false);
        keep_text(c, &tags[i].value, tag0 + i, true);
    }
    struct diag *d = arena_take((void **)&c->diags, &c->diag_len, &c->diag_cap,
                                g->diags.count, sizeof *d);
    if (g->diags.count)
        memcpy(d, g->diags.items, g->diags.count * sizeof *d);
    copy->tokens = (const struct pgn_token *)(uintptr_t)tok0;
    copy->tags = (const struct pgn_tag *)(uintptr_t)tag0;
    copy->diags.items = (struct diag *)(uintptr_t)diag0;
    copy->diags.cap = copy->diags.count;
}

static void fix_pointers(struct chunk *c)
{
    for (size_t k = 0; k < c->moved_len; k++) {
        struct pgn_tag *t = &c->tags[c->moved[k] / 2];
        struct slice *s = c->moved[k] % 2 ? &t->value : &t->name;
        s->ptr = c->text + (size_t)(uintptr_t)s->ptr;
    }
    for (size_t k = 0; k < c->game_count; k++) {
        struct pgn_game *g = &c->games[k];
        g->tokens = g->token_count ? c->tokens + (size_t)(uintptr_t)g->tokens : NULL;
        g->tags = g->tag_count ? c->tags + (size_t)(uintptr_t)g->tags : NULL;
        g->diags.items = c->diags + (size_t)(uintptr_t)g->diags.items;
    }
}

/* Whether the games kept so far reach a KEEP_* bound (the first game is always kept). */
static bool keep_full(const struct chunk *c, size_t tokens)
{
    return c->game_count &&
           (c->game_count >= KEEP_GAMES_MAX || c->diag_len >= KEEP_DIAGS_MAX ||
            tokens >= KEEP_TOKENS_MAX);
}

static void tokenize(struct chunk *c, struct pgn_reader *r)
{
    pgn_reader_restart(r, c->data, c->len, c->cut, &c->at);
    pgn_reader_keep_tokens(r, true);
    c->overflow = false;
    c->games_in = 0;
    struct pgn_game g;
    size_t tokens = 0;
    while (pgn_reader_next(r, &g, NULL) == 1) {
        c->games_in++;
        if (!c->overflow && g.part_count > 1) {
            /* A game in parts loads them from its reader, which must still be at it:
             * replay_rest reads it again and replays it at once. */
            c->overflow = true;
            pgn_reader_keep_tokens(r, false);
        }
        if (c->overflow)
            continue;
        add_game(c, &g, g.token_count ? (size_t)(g.tokens - pgn_reader_kept_tokens(r)) : 0);
        tokens += g.token_count;
        if (keep_full(c, tokens)) {
            c->overflow = true;
            pgn_reader_keep_tokens(r, false); /* the kept ones stay */
        }
    }
    c->cut_ok = !pgn_reader_stop_crossed(r); /* else the guess was wrong */
    c->tokens = pgn_reader_kept_tokens(r);
    fix_pointers(c);
}

static void clear_games(struct chunk *c)
{
    c->game_count = c->games_in = c->tag_len = c->text_len = c->moved_len = c->diag_len = 0;
    c->overflow = false;
}

static void drop_if_over(struct buf *b, size_t limit)
{
    if (b->cap > limit)
        buf_release(b);
}

/* The slot is free again: what it holds for the next chunk is within twice its share. */
static void chunk_clear(struct chunk *c, size_t input_share, size_t output_share)
{
    c->tokenized = c->needs_join = c->absorbed = false;
    c->joined = 0;
    clear_games(c);
    if (c->cap > 2 * input_share) {
        free(c->data);
        c->data = NULL;
        c->cap = c->len = 0;
    }
    drop_if_over(&c->output.out, 2 * output_share);
    drop_if_over(&c->output.err, 2 * output_share);
    drop_if_over(&c->output.route.invalid, 2 * output_share);
}

static void chunk_release(struct chunk *c)
{
    free(c->data);
    free(c->games);
    free(c->tags);
    free(c->text);
    free(c->moved);
    free(c->diags);
    work_output_release(&c->output);
}

/* ---- the threads' work ---- */

/* Give the chunks whose predecessors are all tokenized their first game number, in
 * order; stop at a wrong cut, for the chunk's thread to mend (join_next).  Lock held. */
static void resolve(struct pipeline *p)
{
    uint64_t before = p->next_resolve;
    while (p->next_resolve < p->next_take && !is_serial_at(p, p->next_resolve)) {
        struct chunk *c = slot(p, p->next_resolve);
        if (c->absorbed) {
            p->next_resolve++;
            continue;
        }
        if (!c->tokenized)
            break;
        if (!c->cut_ok) {
            c->needs_join = true;
            pthread_cond_broadcast(&p->resolved);
            break;
        }
        c->at.games = p->games_resolved;
        p->games_resolved += c->games_in;
        p->next_resolve++;
    }
    if (p->next_resolve != before)
        pthread_cond_broadcast(&p->resolved);
}

/* The calling thread's way of blocking: says so first, for join_next; returns once the
 * input is its own again. */
static void reader_wait(struct pipeline *p, pthread_cond_t *cv)
{
    p->reader_waits = true;
    pthread_cond_broadcast(&p->resolved);
    pthread_cond_wait(cv, &p->lock);
    while (p->input_lent)
        pthread_cond_wait(&p->resolved, &p->lock);
    p->reader_waits = false;
}

static void go_serial(struct pipeline *p, uint64_t seq, const char *why)
{
    if (p->serial && p->serial_from <= seq)
        return;
    p->serial = true;
    p->serial_from = seq;
    p->serial_why = why;
    pthread_cond_broadcast(&p->resolved);
    pthread_cond_broadcast(&p->work_done); /* the flusher stops there */
    pthread_cond_broadcast(&p->slot_freed);
}

static bool read_on(struct pipeline *p, struct chunk *c, struct lane *lane);

/*
 * Chunk seq's cut was wrong (a game ran on past it): read it again joined with the next
 * chunk, whose bytes start at that cut, up to that chunk's cut.  Lock held; released
 * while reading.  The next chunk not filled yet, it waits for it while the calling thread
 * is busy; when that thread is blocked (maybe until this very chunk is resolved) or is
 * this one, it reads on into the chunk from the input itself (read_on).  False when
 * reading has ended, at JOIN_MAX, at the end of the input or on a read error; the run
 * then goes serial from seq.
 */
static bool join_next(struct pipeline *p, struct chunk *c, uint64_t seq, struct lane *lane)
{
    uint64_t next_seq = seq + 1 + c->joined;
    while (next_seq >= p->next_fill) {
        if (p->reading_done)
            return false;
        if (lane->reads || (p->reader_waits && !p->input_lent))
            return read_on(p, c, lane);
        pthread_cond_wait(&p->resolved, &p->lock);
    }
    struct chunk *next = slot(p, next_seq);
    size_t len = c->cut + next->len;
    if (len > JOIN_MAX)
        return false;
    next->absorbed = true;
    c->tokenized = false;
    c->joined++;
    p->joins++;
    pthread_mutex_unlock(&p->lock);
    /* next's bytes are not written any more once filled; its own thread only reads them. */
    char *data = xmalloc(len);
    memcpy(data, c->data, c->cut);
    memcpy(data + c->cut, next->data, next->len);
    free(c->data);
    c->data = data;
    c->len = c->cap = len;
    c->cut += next->cut;
    clear_games(c);
    tokenize(c, lane->reader);
    pthread_mutex_lock(&p->lock);
    c->tokenized = true;
    return true;
}

static bool can_take(const struct pipeline *p)
{
    return p->next_take < p->next_fill && !is_serial_at(p, p->next_take);
}

/* Wait until chunk seq's first game number is known, mending its cut if it is wrong.
 * Returns false when the chunk is not to be replayed (the run goes serial there). */
static bool await_number(struct pipeline *p, struct chunk *c, uint64_t seq, struct lane *lane)
{
    for (;;) {
        if (is_serial_at(p, seq) || c->absorbed) /* absorbed: maybe while waiting here */
            return false;
        if (seq < p->next_resolve)
            return true;
        if (c->needs_join) {
            c->needs_join = false;
            if (!join_next(p, c, seq, lane))
                go_serial(p, seq, "a game crossed the cut after it");
            resolve(p);
            continue;
        }
        if (lane->reads)
            reader_wait(p, &p->resolved);
        else
            pthread_cond_wait(&p->resolved, &p->lock);
    }
}

/* The games of an overflowed chunk after the kept ones: read again from the chunk's
 * bytes (numbered from at.games on) and replayed one by one as they are read. */
static void replay_rest(const struct pipeline *p, struct chunk *c, struct lane *lane)
{
    struct pgn_reader *r = lane->reader;
    pgn_reader_restart(r, c->data, c->len, c->cut, &c->at);
    pgn_reader_keep_tokens(r, false);
    struct pgn_game g;
    for (size_t k = 0; k < c->games_in && pgn_reader_next(r, &g, NULL) == 1; k++)
        if (k >= c->game_count)
            process_game(lane->replayer, p->cfg, &g, &c->output);
}

/* Take the oldest filled chunk, tokenize it, wait for its first game number, replay it.
 * Called with the lock held, which it releases while working. */
static void work_one(struct pipeline *p, struct lane *lane)
{
    uint64_t seq = p->next_take++;
    struct chunk *c = slot(p, seq);
    c->state = CHUNK_TAKEN;
    bool absorbed = c->absorbed;
    pthread_mutex_unlock(&p->lock);
    if (!absorbed)
        tokenize(c, lane->reader);
    pthread_mutex_lock(&p->lock);
    bool replay = false;
    if (!c->absorbed) { /* it may have been absorbed while it was tokenized */
        c->tokenized = true;
        resolve(p);
        replay = await_number(p, c, seq, lane);
    }
    if (replay) {
        lane->p = p;
        lane->chunk = c;
        lane->seq = seq;
        pthread_mutex_unlock(&p->lock);
        for (size_t i = 0; i < c->game_count; i++) {
            c->games[i].index += c->at.games;
            process_game(lane->replayer, p->cfg, &c->games[i], &c->output);
        }
        if (c->overflow)
            replay_rest(p, c, lane);
        pthread_mutex_lock(&p->lock);
    } else {
        resolve(p); /* an absorbed chunk is passed over */
        clear_games(c); /* its games are not flushed, nor counted */
    }
    c->state = CHUNK_DONE;
    /* The flusher waits for the oldest chunk only (it finds the later ones done when it
     * gets there), and drain() for any once the flusher has ended.  A wake-up for a chunk
     * behind the oldest found nothing to write: half the chunks at --jobs 2, where
     * the two threads finish chunks in turn, and on two cores each one stopped a thread
     * that was replaying games. */
    if (seq == p->next_flush || p->flusher_done)
        pthread_cond_broadcast(&p->work_done);
}

/*
 * A worker's chunk whose output passed SPILL_BYTES within one game (a game of megabytes
 * in parts: fen --every --format json writes ~15 bytes per byte read) writes it out
 * itself between the game's parts, once every chunk before it is written: the ring
 * holds no more than SPILL_BYTES of such a chunk's output (8 games of 7.4 MB, -j2:
 * 248 MB before).  Meanwhile the flusher waits for this chunk, the next to write, so
 * the output is this thread's.  Not the calling thread's lane, which the workers may
 * need for a join while it waited; not when the route places a game's output whole.
 */
enum { SPILL_BYTES = 8 << 20 };

static void spill_midgame(void *ctx)
{
    struct lane *lane = ctx;
    struct pipeline *p = lane->p;
    if (!p || lane->reads || route_defers(p->cfg) ||
        lane->chunk->output.out.len < SPILL_BYTES)
        return;
    pthread_mutex_lock(&p->lock);
    while (p->next_flush != lane->seq && !p->flush_rc && !p->flusher_done)
        pthread_cond_wait(&p->slot_freed, &p->lock);
    bool mine = p->next_flush == lane->seq && !p->flush_rc && !p->flusher_done;
    pthread_mutex_unlock(&p->lock);
    if (mine && output_flush(p->route->out, &lane->chunk->output.out) != 0) {
        pthread_mutex_lock(&p->lock);
        p->flush_rc = 2;
        pthread_mutex_unlock(&p->lock);
    }
}

static bool lane_open(struct lane *lane, const struct config *cfg, const char *name)
{
    memset(lane, 0, sizeof *lane);
    lane->replayer = replayer_for(cfg);
    if (lane->replayer)
        game_replayer_between_parts(lane->replayer, spill_midgame, lane);
    lane->reader = pgn_reader_from_memory(NULL, 0, name, &cfg->limits);
    pgn_reader_keep_tokens(lane->reader, true);
    lane->reads = false;
    return lane->replayer != NULL;
}

static void lane_close(struct lane *lane)
{
    game_replayer_free(lane->replayer);
    pgn_reader_free(lane->reader);
}

struct worker_arg {
    struct pipeline *p;
    const char *name;
};

static void *worker_main(void *arg)
{
    struct worker_arg *wa = arg;
    struct pipeline *p = wa->p;
    struct lane lane;
    bool ok = lane_open(&lane, p->cfg, wa->name);
    pthread_mutex_lock(&p->lock);
    if (!ok)
        p->failed = true;
    for (;;) {
        while (!p->closing && !(ok && can_take(p)))
            pthread_cond_wait(&p->work_ready, &p->lock);
        if (p->closing && !(ok && can_take(p)))
            break;
        work_one(p, &lane);
    }
    pthread_mutex_unlock(&p->lock);
    lane_close(&lane);
    return NULL;
}

/* ---- the calling thread: read, cut, submit, help, flush in order ---- */

/* Process the oldest chunk no worker has taken, when more than `spare` wait.  Lock held. */
static bool help_one(struct pipeline *p, uint64_t spare)
{
    if (!p->helper.replayer || p->next_fill - p->next_take <= spare || !can_take(p))
        return false;
    work_one(p, &p->helper);
    return true;
}

/* The bytes a processed chunk's output holds until it is flushed. */
static size_t output_held(const struct work_output *o)
{
    return o->out.len + o->err.len + o->route.invalid.len;
}

static size_t clamp_size(uint64_t n, size_t lo, size_t hi)
{
    return n < lo ? lo : n > hi ? hi : (size_t)n;
}

/* A slot's share of a budget: three quarters of the largest power of two within
 * budget / slots.  Its buffers grow by doubling (buf.c, xgrow), so a share that is a
 * power of two, or just under, ends in buffers of twice the share once the carried bytes
 * or the output estimate's error push it over: 4.3 MB of output buffers for 2.5 MiB of
 * output at --jobs 16.  A quarter left for those stays in one power of two. */
static size_t slot_share(size_t budget, size_t slots)
{
    size_t per = budget / slots, pow2 = 1;
    while (pow2 <= per / 2)
        pow2 *= 2;
    return pow2 / 4 * 3;
}

/* New bytes for a chunk, so that it writes about its share of the output at the
 * estimated ratio. */
static size_t fill_bytes_for(const struct pipeline *p, uint64_t out_per_kib)
{
    uint64_t n = out_per_kib ? (uint64_t)p->chunk_output * 1024 / out_per_kib : p->chunk_input;
    return clamp_size(n, CHUNK_MIN, p->chunk_input);
}

/* A chunk of `in` bytes read held `out` bytes of output: the estimate rises to its ratio
 * at once, or falls by an eighth of the difference (one chunk of few games with little
 * output says little about the next).  Lock held. */
static void learn_ratio(struct pipeline *p, size_t in, size_t out)
{
    if (!in)
        return;
    uint64_t r = (uint64_t)out * 1024 / in;
    p->out_per_kib = r >= p->out_per_kib ? r : p->out_per_kib - (p->out_per_kib - r) / 8;
}

/* Write chunk c's output, outside the lock; counts the time for the trace.  0 or 2. */
static int flush_chunk(struct pipeline *p, struct chunk *c)
{
    double t0 = seconds_now();
    p->cost.out_bytes += c->output.out.len;
    p->cost.err_bytes += c->output.err.len;
    int rc = work_output_flush(&c->output, p->route, p->summary) != 0 ? 2 : 0;
    p->cost.flush += seconds_now() - t0;
    return rc;
}

/*
 * The flusher: processed chunks written in input order, their slots freed, up to where
 * the run goes serial, to the end of reading, or to an output error.  While it runs it is
 * the one thread that takes the signals that remove temporary files (output.c): the
 * files it opens and renames (--split, --split-by) change that list, which only the
 * thread taking the signals may change, with them blocked.
 */
static void *flusher_main(void *arg)
{
    struct pipeline *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->flush_rc && !is_serial_at(p, p->next_flush)) {
        if (p->next_flush == p->next_fill && p->reading_done)
            break;
        struct chunk *c = slot(p, p->next_flush);
        if (p->next_flush == p->next_fill || c->state != CHUNK_DONE) {
            pthread_cond_wait(&p->work_done, &p->lock);
            continue;
        }
        /* An absorbed chunk's bytes and games are the chunk's before it. */
        bool absorbed = c->absorbed;
        size_t held = output_held(&c->output), bytes = c->cut;
        uint64_t games = c->games_in; /* before chunk_clear zeroes it */
        pthread_mutex_unlock(&p->lock);
        int rc = flush_chunk(p, c);
        chunk_clear(c, p->chunk_input, p->chunk_output);
        pthread_mutex_lock(&p->lock);
        if (!absorbed)
            learn_ratio(p, bytes, held);
        p->games_flushed += games;
        c->state = CHUNK_FREE;
        p->next_flush++;
        p->flush_rc = rc;
        pthread_cond_broadcast(&p->slot_freed);
    }
    p->flusher_done = true;
    pthread_cond_broadcast(&p->slot_freed);
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Hand the filled chunk to the threads; return when the next slot is free.  0 or 2. */
static int submit(struct pipeline *p)
{
    pthread_mutex_lock(&p->lock);
    slot(p, p->next_fill)->state = CHUNK_FILLED;
    p->next_fill++;
    pthread_cond_signal(&p->work_ready);
    pthread_cond_broadcast(&p->resolved); /* for a join_next waiting for this chunk */
    /* The chunk just submitted is for a worker (it may not have woken yet), and one more
     * keeps a worker busy while this thread works; beyond that the workers are behind. */
    help_one(p, 2);
    /* Past where the run goes serial nothing is flushed: read_chunks stops there. */
    while (!p->flush_rc && !p->flusher_done && p->next_fill - p->next_flush >= p->slot_count &&
           !is_serial_at(p, p->next_flush))
        if (!help_one(p, 0))
            reader_wait(p, &p->slot_freed);
    int rc = p->flush_rc;
    pthread_mutex_unlock(&p->lock);
    return rc;
}

/* Read into c until it holds `want` bytes or the input ends.  Returns false at the end
 * of the input or on a read error (p->input_end says which). */
static bool read_into(struct pipeline *p, struct chunk *c, struct input *in, size_t want)
{
    while (c->len < want) {
        xgrow((void **)&c->data, &c->cap, want, 1);
        double t0 = seconds_now();
        ssize_t got = input_source_read(in, c->data + c->len, want - c->len);
        p->cost.read += seconds_now() - t0;
        if (got < 0) {
            p->input_end = -1;
            p->input_errno = errno;
            return false;
        }
        if (got == 0) {
            p->input_end = 1;
            return false;
        }
        c->len += (size_t)got;
    }
    return true;
}

/* Carry the bytes of c after its cut (read from `from` on since the last carry) to the
 * next chunk. */
static void carry_rest(struct pipeline *p, const struct chunk *c, size_t from)
{
    double t0 = seconds_now();
    size_t rest = c->len - c->cut;
    xgrow((void **)&p->carry, &p->carry_cap, rest, 1);
    memcpy(p->carry, c->data + c->cut, rest);
    p->carry_len = rest;
    p->next_at.offset = c->at.offset + c->cut;
    p->next_at.line += pgn_split_count_lines(c->data + from, c->cut - from);
    p->cost.cut += seconds_now() - t0;
}

/*
 * join_next for a chunk c that reaches the last chunk filled, on the calling thread or
 * while it is blocked (it fills nothing then): the bytes after c's wrong cut are the
 * carried ones, so this thread reads on into c from the input, to a cut past the wrong
 * one (JOIN_MAX at most), as the next chunk would have been filled, and reads c again.
 * Waiting for that chunk instead, the calling thread would wait for itself, or for the
 * chunk it blocks on (a run of wrong cuts longer than the chunks filled went serial).
 * False at the end of the input or on a read error (the serial reader meets them).  Lock
 * held; released while reading, the input lent (reader_wait returns once it is back).
 */
static bool read_on(struct pipeline *p, struct chunk *c, struct lane *lane)
{
    if (p->input_end)
        return false;
    c->tokenized = false;
    p->input_lent = true;
    pthread_mutex_unlock(&p->lock);
    size_t wrong = c->cut, cut = SIZE_MAX;
    size_t want = c->len + p->fill_bytes;
    while (cut == SIZE_MAX && want <= JOIN_MAX && read_into(p, c, p->in, want)) {
        double t0 = seconds_now();
        cut = pgn_split_find_cut(c->data, wrong + 1, c->len);
        p->cost.cut += seconds_now() - t0;
        want = c->len * 2;
    }
    p->bytes_read = c->at.offset + c->len;
    if (cut != SIZE_MAX) {
        c->cut = cut;
        carry_rest(p, c, wrong);
        clear_games(c);
        tokenize(c, lane->reader);
    }
    pthread_mutex_lock(&p->lock);
    p->input_lent = false;
    pthread_cond_broadcast(&p->resolved); /* for reader_wait */
    c->tokenized = true;
    if (cut == SIZE_MAX)
        return false;
    p->joins++;
    return true;
}

enum fill_result { FILL_CUT, FILL_LAST, FILL_SERIAL };

/* Fill the chunk after the carried bytes and find its cut. */
static enum fill_result fill_chunk(struct pipeline *p, struct chunk *c, struct input *in)
{
    xgrow((void **)&c->data, &c->cap, p->carry_len + p->fill_bytes, 1);
    if (p->carry_len)
        memcpy(c->data, p->carry, p->carry_len);
    c->len = p->carry_len;
    size_t want = p->carry_len + p->fill_bytes;
    for (;;) {
        if (!read_into(p, c, in, want)) {
            c->cut = c->len;
            return p->input_end > 0 ? FILL_LAST : FILL_SERIAL;
        }
        double t0 = seconds_now();
        size_t cut = pgn_split_find_cut(c->data, 1, c->len);
        p->cost.cut += seconds_now() - t0;
        if (cut != SIZE_MAX) {
            c->cut = cut;
            return FILL_CUT;
        }
        if (c->len >= CHUNK_SEARCH_MAX)
            return FILL_SERIAL;
        /* Doubling from a chunk's share need not land on the limit: stop there. */
        want = c->len * 2 < CHUNK_SEARCH_MAX ? c->len * 2 : CHUNK_SEARCH_MAX;
    }
}

/* Read and submit chunks to the end of the input, to an output error, or to where the
 * run goes serial.  Returns 0 or 2; *pending says whether the slot at next_fill holds
 * bytes that were read but not submitted (they go to the serial reader). */
static int read_chunks(struct pipeline *p, struct input *in, struct progress *prog,
                       bool *pending)
{
    p->next_at = (struct pgn_resume){.offset = 0, .line = 1, .games = 0};
    *pending = false;
    for (;;) {
        struct chunk *c = slot(p, p->next_fill);
        c->at = p->next_at;
        enum fill_result fr = fill_chunk(p, c, in);
        if (fr == FILL_SERIAL) {
            *pending = true;
            return 0;
        }
        p->carry_len = 0;
        if (fr == FILL_CUT)
            carry_rest(p, c, 0);
        p->bytes_read = c->at.offset + c->len;
        int rc = submit(p);
        pthread_mutex_lock(&p->lock);
        uint64_t games = p->games_flushed;
        bool stop = p->serial;
        p->fill_bytes = fill_bytes_for(p, p->out_per_kib);
        pthread_mutex_unlock(&p->lock);
        progress_update(prog, p->bytes_read, games);
        if (rc || fr == FILL_LAST)
            return rc;
        if (stop)
            return 0;
    }
}

/* Process every submitted chunk (up to where the run goes serial), let the flusher write
 * them and end, then stop the workers.  Returns 0 or 2. */
static int drain(struct pipeline *p, pthread_t *flusher)
{
    pthread_mutex_lock(&p->lock);
    p->reading_done = true;
    pthread_cond_broadcast(&p->resolved);
    pthread_cond_broadcast(&p->work_done); /* the flusher may wait for a chunk never filled */
    while (help_one(p, 0))
        continue;
    pthread_mutex_unlock(&p->lock);
    if (flusher)
        pthread_join(*flusher, NULL);
    pthread_mutex_lock(&p->lock);
    /* Chunks past a wrong cut are dropped, but their threads may still be on them. */
    for (uint64_t s = p->next_flush; s < p->next_take; s++)
        while (slot(p, s)->state != CHUNK_DONE)
            reader_wait(p, &p->work_done);
    p->closing = true;
    pthread_cond_broadcast(&p->work_ready);
    int rc = p->flush_rc;
    pthread_mutex_unlock(&p->lock);
    return rc;
}

/* ---- the serial rest ---- */

/* The bytes read but not processed, then the rest of the input (or its end or error). */
struct rest_source {
    char *bytes;
    size_t len, pos;
    struct input *in;
    int input_end;
    int input_errno;
};

static ssize_t rest_read(void *ctx, char *buf, size_t cap)
{
    struct rest_source *rs = ctx;
    if (rs->pos < rs->len) {
        size_t n = rs->len - rs->pos < cap ? rs->len - rs->pos : cap;
        memcpy(buf, rs->bytes + rs->pos, n);
        rs->pos += n;
        if (rs->pos == rs->len) { /* all in the reader's buffer now: up to 8 MiB less */
            free(rs->bytes);
            rs->bytes = NULL;
        }
        return (ssize_t)n;
    }
    if (rs->input_end > 0)
        return 0;
    if (rs->input_end < 0) {
        errno = rs->input_errno;
        return -1;
    }
    return input_source_read(rs->in, buf, cap);
}

/* Read from chunk serial_from's start on with one whole-stream reader, as --jobs 1 does. */
static int run_rest(struct pipeline *p, struct input *in, struct router *route,
                    struct progress *prog, struct summary *summary, bool pending)
{
    struct rest_source rs = {.in = in, .input_end = p->input_end,
                             .input_errno = p->input_errno};
    size_t cap = 0;
    uint64_t last = p->next_fill + (pending ? 1 : 0);
    struct pgn_resume at = slot(p, p->serial_from)->at;
    at.games = p->games_resolved;
    uint64_t pos = at.offset;
    for (uint64_t s = p->serial_from; s < last; s++) {
        const struct chunk *c = slot(p, s);
        uint64_t end = c->at.offset + c->len;
        if (end <= pos)
            continue;
        size_t n = (size_t)(end - pos);
        char *dst = arena_take((void **)&rs.bytes, &rs.len, &cap, n, 1);
        memcpy(dst, c->data + (pos - c->at.offset), n);
        pos = end;
    }
    /* The ring is done with (the workers have stopped): a chunk that found no cut holds
     * up to 8 MiB, which the serial run, perhaps over one huge game, should not carry. */
    for (size_t i = 0; i < p->slot_count; i++) {
        struct pgn_resume kept_at = p->slots[i].at; /* trace() names where it went serial */
        chunk_release(&p->slots[i]);
        memset(&p->slots[i], 0, sizeof p->slots[i]);
        p->slots[i].at = kept_at;
        work_output_init(&p->slots[i].output);
    }
    struct pgn_reader *reader = pgn_reader_new_at((struct pgn_source){rest_read, &rs},
                                                  in->name, &p->cfg->limits, &at);
    int rc = run_serial(p->cfg, reader, in, route, prog, summary, p->games_flushed);
    pgn_reader_free(reader);
    free(rs.bytes);
    return rc;
}

/* ---- the run ---- */

/* PGNKIT_TRACE_JOBS: how the input was cut, and what the calling thread's serial work
 * cost, on stderr (for tests, the curious, and the README's scaling figures). */
static void trace(const struct pipeline *p, const struct input *in, int threads)
{
    if (!getenv("PGNKIT_TRACE_JOBS"))
        return;
    uint64_t parallel = p->serial ? p->serial_from : p->next_fill;
    fprintf(stderr, "pgnkit: %s: %llu chunks read on %d threads", shown(in->name),
            (unsigned long long)parallel, threads);
    uint64_t bytes = p->serial ? slot(p, p->serial_from)->at.offset : p->bytes_read;
    if (parallel)
        fprintf(stderr, " (%.0f KiB each on average; last sized for %.2f bytes of output per "
                "byte read)", (double)bytes / 1024.0 / (double)parallel,
                (double)p->out_per_kib / 1024.0);
    if (p->joins)
        fprintf(stderr, "; %llu wrong cuts mended by reading on into the next chunk",
                (unsigned long long)p->joins);
    if (p->serial)
        fprintf(stderr, "; from byte %llu on one thread: %s",
                (unsigned long long)slot(p, p->serial_from)->at.offset, p->serial_why);
    if (in->decoder_bytes)
        fprintf(stderr, "; the decoder holds %.1f MiB (budget.c), decoding on %s",
                (double)in->decoder_bytes / (1 << 20),
                p->decode_here ? "the reading thread" : "a thread of its own");
    fprintf(stderr, "; a chunk's share: %zu KiB of input, %zu KiB of output",
            p->chunk_input >> 10, p->chunk_output >> 10);
    fputc('\n', stderr);
    const struct serial_cost *c = &p->cost;
    double mb = (double)p->bytes_read / 1e6;
    double written = (double)(c->out_bytes + c->err_bytes) / 1e6;
    fprintf(stderr, "pgnkit: %s: serial work of the reading thread: read %.3f s, cut and "
            "count %.3f s (%.0f MB/s of input), flush %.3f s (%.1f MB of output and %.1f MB "
            "of diagnostics written, %.0f MB/s)\n",
            shown(in->name), c->read, c->cut, c->cut > 0 ? mb / c->cut : 0.0, c->flush,
            (double)c->out_bytes / 1e6, (double)c->err_bytes / 1e6,
            c->flush > 0 ? written / c->flush : 0.0);
}

static void pipeline_init(struct pipeline *p, const struct config *cfg,
                          const struct budget *b)
{
    int jobs = b->threads;
    memset(p, 0, sizeof *p);
    p->cfg = cfg;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work_ready, NULL);
    pthread_cond_init(&p->resolved, NULL);
    pthread_cond_init(&p->work_done, NULL);
    pthread_cond_init(&p->slot_freed, NULL);
    p->slot_count = (size_t)jobs * 2 + 1;
    p->chunk_input = clamp_size(slot_share(b->ring_input, p->slot_count), CHUNK_MIN, CHUNK_BYTES);
    p->chunk_output =
        clamp_size(slot_share(b->ring_output, p->slot_count), CHUNK_OUTPUT_MIN, CHUNK_OUTPUT);
    p->out_per_kib = RATIO_START * 1024;
    p->fill_bytes = fill_bytes_for(p, p->out_per_kib);
    p->slots = xcalloc(p->slot_count, sizeof *p->slots);
    for (size_t i = 0; i < p->slot_count; i++)
        work_output_init(&p->slots[i].output);
}

static void pipeline_release(struct pipeline *p)
{
    for (size_t i = 0; i < p->slot_count; i++)
        chunk_release(&p->slots[i]);
    free(p->slots);
    free(p->carry);
    pthread_cond_destroy(&p->slot_freed);
    pthread_cond_destroy(&p->work_done);
    pthread_cond_destroy(&p->resolved);
    pthread_cond_destroy(&p->work_ready);
    pthread_mutex_destroy(&p->lock);
}

/*
 * The threads' stacks are reserved at 1 MiB, not glibc's default (RLIMIT_STACK, 8 MiB).
 * Only the pages touched count in RSS, and they are few: 28 KiB a worker, 44 KiB at the
 * deepest seen (a move decoded by the PCRE2 regex, whose JIT takes 32 KiB of the stack;
 * variations and comments of any depth or length are walked with stacks on the heap:
 * game.c, pgn_reader.c).  But where transparent huge pages are always on, an 8 MiB stack
 * can be backed by 2 MiB pages, one or more a thread; a 1 MiB one holds no aligned 2 MiB
 * page.
 */
enum { THREAD_STACK = 1 << 20 };

static int start_thread(pthread_t *t, void *(*fn)(void *), void *arg)
{
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return pthread_create(t, NULL, fn, arg);
    pthread_attr_setstacksize(&attr, THREAD_STACK);
    int rc = pthread_create(t, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    return rc;
}

/* The cores this process may run on (its affinity mask: taskset, a container's cpuset). */
static int cores_usable(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/*
 * Compressed input (or an archive, or UTF-16) is decoded on a thread of its own
 * (input.h), except when the run's threads take every core already: then the decoder
 * could only take turns with them, and the calling thread decodes as it reads, into
 * the chunks themselves.  On two cores at --jobs 2 (lichess x44 as .zst, 2026-12-06):
 * the decoding thread made three busy threads on two cores, each of the two that parse
 * waiting on it in turn (0.47 s, the floor of (decoder + parsing) / 2 cores being
 * 0.30 s); decoded here, it is 0.33 s: the calling thread decodes ahead of the worker
 * and parses a chunk whenever more than two wait (help_one), which is how the two
 * cores share the work.  With a core to spare the thread of its own is better: the
 * decoding then adds nothing to the wall time.
 */
static struct budget budget_decoding(int jobs, struct input *in, bool *here)
{
    struct budget b = budget_for(jobs, in->decoder_bytes);
    *here = b.threads >= cores_usable() && input_decode_here(in);
    if (*here)
        b = budget_for(jobs, in->decoder_bytes); /* without the read-ahead's blocks */
    return b;
}

int pipeline_run(const struct config *cfg, struct input *in, struct router *route,
                 struct progress *prog, struct summary *summary, int jobs)
{
    struct pipeline p;
    bool decode_here;
    struct budget budget = budget_decoding(jobs, in, &decode_here);
    jobs = budget.threads;
    pipeline_init(&p, cfg, &budget);
    p.decode_here = decode_here;
    if (!lane_open(&p.helper, cfg, in->name))
        p.failed = true;
    p.helper.reads = true;
    int workers = jobs - 1; /* the calling thread is the other one (help_one) */
    pthread_t *threads = xcalloc((size_t)workers, sizeof *threads);
    struct worker_arg wa = {&p, in->name};
    p.route = route;
    p.summary = summary;
    p.in = in;
    int started = 0;
    pthread_t flusher;
    sigset_t saved, unused; /* workers never take the signals that remove temporary files */
    output_block_signals(&saved);
    for (; started < workers; started++)
        if (start_thread(&threads[started], worker_main, &wa) != 0)
            break;
    output_restore_signals(&saved);
    bool flushing = start_thread(&flusher, flusher_main, &p) == 0;
    output_block_signals(&unused); /* the flusher takes them now (flusher_main) */
    bool pending = false;
    int status = started && flushing ? read_chunks(&p, in, prog, &pending) : 2;
    int rc = drain(&p, flushing ? &flusher : NULL);
    output_restore_signals(&saved);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    free(threads);
    if (!status)
        status = rc;
    if (!status && !p.failed && (p.serial || pending)) {
        if (!p.serial)
            go_serial(&p, p.next_fill,
                      p.input_end < 0 ? "its reading failed" : "no cut in 8 MiB");
        status = run_rest(&p, in, route, prog, summary, pending);
    } else {
        in->bytes_read = p.bytes_read;
    }
    if (!started || !flushing)
        fprintf(stderr, "pgnkit: cannot start worker threads\n");
    trace(&p, in, started + 1);
    bool failed = p.failed;
    lane_close(&p.helper);
    pipeline_release(&p);
    return status ? status : failed ? 2 : 0;
}
