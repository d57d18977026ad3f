/*
 * readahead.c - a producer thread filling a ring of fixed blocks, a consumer taking
 * them in order (readahead.h).  The lock is taken twice per block on each side, never
 * per byte: a block is filled or read outside it (the ring's counts say whose it is).
 */
#include "cli/readahead.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli/output.h"
#include "base/xalloc.h"

struct readahead *readahead_new(void)
{
    struct readahead *ra = xmalloc(sizeof *ra);
    memset(ra, 0, offsetof(struct readahead, len));
    pthread_mutex_init(&ra->lock, NULL);
    pthread_cond_init(&ra->filled, NULL);
    pthread_cond_init(&ra->emptied, NULL);
    return ra;
}

/* Fill one block: read until it is full or the stream ends or fails.  *end is set to
 * 1 or -1 (and *err) when it does.  Returns the bytes in the block. */
static size_t fill_block(struct readahead *ra, char *dst, int *end, int *err)
{
    size_t n = 0;
    while (n < READAHEAD_BLOCK) {
        ssize_t got = ra->read(ra->ctx, dst + n, READAHEAD_BLOCK - n);
        if (got < 0) {
            *end = -1;
            *err = errno;
            break;
        }
        if (got == 0) {
            *end = 1;
            break;
        }
        n += (size_t)got;
    }
    return n;
}

static void *producer_main(void *arg)
{
    struct readahead *ra = arg;
    pthread_mutex_lock(&ra->lock);
    for (;;) {
        while (!ra->stop && ra->count == READAHEAD_BLOCKS)
            pthread_cond_wait(&ra->emptied, &ra->lock);
        if (ra->stop)
            break;
        /* The block after the full ones is nobody else's until it is counted. */
        unsigned at = (ra->head + ra->count) % READAHEAD_BLOCKS;
        pthread_mutex_unlock(&ra->lock);
        int end = 0, err = 0;
        size_t n = fill_block(ra, ra->block[at] + READAHEAD_ROOM, &end, &err);
        ra->len[at] = n;
        pthread_mutex_lock(&ra->lock);
        if (n)
            ra->count++;
        ra->end = end;
        ra->end_errno = err;
        pthread_cond_signal(&ra->filled);
        if (end)
            break;
    }
    pthread_mutex_unlock(&ra->lock);
    return NULL;
}

int readahead_start(struct readahead *ra, readahead_fn read, void *ctx)
{
    ra->read = read;
    ra->ctx = ctx;
    ra->head = ra->count = 0;
    ra->end = ra->end_errno = 0;
    ra->stop = ra->taken = false;
    ra->pos = 0;
    ra->held = 0;
    ra->seen_end = ra->seen_errno = 0;
    sigset_t saved;
    output_block_signals(&saved); /* the new thread inherits the blocked mask */
    int rc = pthread_create(&ra->thread, NULL, producer_main, ra);
    output_restore_signals(&saved);
    ra->running = rc == 0;
    return rc == 0 ? 0 : -1;
}

/* Wait for a full block past those the consumer holds whole (none while it reads with
 * readahead_read), or the end.  Returns false at the end (seen_end set). */
static bool wait_for_block(struct readahead *ra)
{
    pthread_mutex_lock(&ra->lock);
    while (ra->count <= ra->held && ra->end == 0)
        pthread_cond_wait(&ra->filled, &ra->lock);
    bool got = ra->count > ra->held;
    if (!got) {
        ra->seen_end = ra->end;
        ra->seen_errno = ra->end_errno;
    }
    pthread_mutex_unlock(&ra->lock);
    return got;
}

static bool take_block(struct readahead *ra)
{
    bool got = wait_for_block(ra);
    ra->taken = got;
    ra->pos = 0;
    return got;
}

static void give_back(struct readahead *ra)
{
    pthread_mutex_lock(&ra->lock);
    ra->head = (ra->head + 1) % READAHEAD_BLOCKS;
    ra->count--;
    pthread_cond_signal(&ra->emptied);
    pthread_mutex_unlock(&ra->lock);
    ra->taken = false;
}

ssize_t readahead_read(struct readahead *ra, char *buf, size_t cap)
{
    if (!ra->seen_end && cap == 0)
        return 0;
    if (!ra->seen_end && !ra->taken)
        take_block(ra);
    if (ra->seen_end) {
        if (ra->seen_end > 0)
            return 0;
        errno = ra->seen_errno;
        return -1;
    }
    /* head and len[head] were published under the lock that take_block took. */
    unsigned at = ra->head;
    size_t n = ra->len[at] - ra->pos;
    if (n > cap)
        n = cap;
    memcpy(buf, ra->block[at] + READAHEAD_ROOM + ra->pos, n);
    ra->pos += n;
    if (ra->pos == ra->len[at])
        give_back(ra);
    return (ssize_t)n;
}

int readahead_take(struct readahead *ra, char **data, size_t *len)
{
    if (!ra->seen_end)
        wait_for_block(ra);
    if (ra->seen_end) {
        errno = ra->seen_errno;
        return ra->seen_end > 0 ? 0 : -1;
    }
    /* The block and its length were published under the lock just taken. */
    unsigned at = (ra->head + ra->held) % READAHEAD_BLOCKS;
    ra->held++;
    *data = ra->block[at] + READAHEAD_ROOM;
    *len = ra->len[at];
    return 1;
}

void readahead_release(struct readahead *ra)
{
    ra->held--;
    pthread_mutex_lock(&ra->lock);
    ra->head = (ra->head + 1) % READAHEAD_BLOCKS;
    ra->count--;
    pthread_cond_signal(&ra->emptied);
    pthread_mutex_unlock(&ra->lock);
}

bool readahead_failed(const struct readahead *ra) { return ra->seen_end < 0; }

void readahead_stop(struct readahead *ra)
{
    if (!ra || !ra->running)
        return;
    pthread_mutex_lock(&ra->lock);
    ra->stop = true;
    pthread_cond_signal(&ra->emptied);
    pthread_mutex_unlock(&ra->lock);
    pthread_join(ra->thread, NULL);
    ra->running = false;
}

void readahead_free(struct readahead *ra)
{
    if (!ra)
        return;
    readahead_stop(ra);
    pthread_cond_destroy(&ra->emptied);
    pthread_cond_destroy(&ra->filled);
    pthread_mutex_destroy(&ra->lock);
    free(ra);
}
