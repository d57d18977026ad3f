/*
 * readahead.h - a thread of its own that reads a byte stream ahead of its consumer, so
 * that decoding (zstd, gzip, libarchive, UTF-16) overlaps with parsing on another core.
 *
 * Promises: the consumer's reads (readahead_read) give exactly the bytes, the end (0)
 * and the error (-1, errno) the wrapped read function gave, in the same order: the
 * bytes before an error first, then the error, again on every later read.  Memory is
 * fixed: READAHEAD_BLOCKS blocks of READAHEAD_BLOCK bytes, allocated with the struct,
 * nothing per read.  The producer blocks when every block is full, the consumer when
 * every block is empty.  The thread runs with the cleanup signals blocked (they stay
 * the main thread's: output_block_signals) and touches nothing but the wrapped source
 * and the blocks: while it runs, nobody else may use the source.
 *
 * One stream per start: the thread ends at the stream's end or error, or when stopped.
 * readahead_stop waits for it (a read it is in, e.g. on a quiet pipe, is finished first);
 * after that the source is the caller's again (an archive's next member, source_error).
 */
#ifndef PGNKIT_CLI_READAHEAD_H
#define PGNKIT_CLI_READAHEAD_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* 3 x 128 KiB: one block being decoded, one being parsed, one spare to absorb the two
 * sides' unequal steps (a consumer taking blocks whole holds a second one only while it
 * moves a game's start into it); a block is the pipeline's chunk size.  Before each
 * block, ROOM bytes where such a consumer puts the start of a game that runs on into the
 * block: longer than nearly every game. */
enum { READAHEAD_BLOCKS = 3, READAHEAD_BLOCK = 128 * 1024, READAHEAD_ROOM = 32 * 1024 };

typedef ssize_t (*readahead_fn)(void *ctx, char *buf, size_t cap);

struct readahead {
    readahead_fn read;
    void *ctx;
    pthread_t thread;
    bool running;        /* started and not joined */
    pthread_mutex_t lock;
    pthread_cond_t filled;  /* a block was filled, or the stream ended */
    pthread_cond_t emptied; /* a block was handed back, or stop */
    /* Under the lock: blocks [head, head + count) (mod READAHEAD_BLOCKS) are full. */
    unsigned head, count;
    int end;             /* 0: more to come; 1: end after the full blocks; -1: error */
    int end_errno;
    bool stop;
    /* The consumer's alone: the block it is reading (while `taken`), the blocks it holds
     * whole (readahead_take: the first `held` full ones), and its end. */
    bool taken;
    unsigned held;
    size_t pos;
    int seen_end;        /* the end or error the consumer has met (0: none yet) */
    int seen_errno;
    size_t len[READAHEAD_BLOCKS]; /* written by the producer before the block is counted */
    char block[READAHEAD_BLOCKS][READAHEAD_ROOM + READAHEAD_BLOCK]; /* room, then bytes */
};

/** A new read-ahead (not started); never NULL (allocation failure aborts). */
struct readahead *readahead_new(void);

/** Start reading the stream read(ctx, ...) on a thread.  0, or -1 if no thread could be
 * started (the caller then reads directly). */
int readahead_start(struct readahead *ra, readahead_fn read, void *ctx);

/** read(2)-like: the next bytes of the stream, 0 at its end, -1 with errno on its error. */
ssize_t readahead_read(struct readahead *ra, char *buf, size_t cap);

/**
 * The next block whole, not copied: *len bytes at *data, with READAHEAD_ROOM writable
 * bytes before them.  1, 0 at the stream's end, -1 with errno on its error (as
 * readahead_read).  The block is the consumer's until readahead_release hands it back;
 * at most two are held at once.  Not to be mixed with readahead_read
 * on one stream.
 */
int readahead_take(struct readahead *ra, char **data, size_t *len);

/** Hand back the oldest block readahead_take gave. */
void readahead_release(struct readahead *ra);

/** Whether the consumer has been given the stream's error (readahead_read said -1). */
bool readahead_failed(const struct readahead *ra);

/** Stop the thread and wait for it; a no-op when not started.  The bytes not read are
 * dropped. */
void readahead_stop(struct readahead *ra);

/** Stop, then free; NULL is a no-op. */
void readahead_free(struct readahead *ra);

#endif
