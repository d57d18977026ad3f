/*
 * budget.c - the memory of a parallel run (budget.h).
 *
 * Peak RSS by parts (/usr/bin/time -f %M and /proc/PID/smaps at the peak; uci,
 * fen --every, fen --comments and pgn on 30 MB of TCEC games, plain and as zstd -3 and
 * zstd -19; 2026-11-27): a decoder adds what source_decoder_bytes counts, one for one
 * (-j2: zstd -3's 2.8 MiB with the read-ahead's blocks, +2.8 MiB; zstd -19's 8.8 MiB
 * window and buffers, +8.8); the ring about its budget (3.125 MiB against 0.75: +2.2
 * MiB); a thread with its two slots of the ring 0.33 MiB (plain text, -j8 to -j16) to
 * 0.5-0.6 MiB (a small ring's shares, fen --comments: its SAN cache, 132 KiB; its
 * reader's tokens; its stack; its slots' games and buffers at their minimums); the
 * program, its libraries and the calling thread's own state the rest, ~3.3 MiB.  Plain
 * text and zstd's usual windows left every thread and the whole ring within 16 MB; the
 * 8 MiB window of zstd -19 did not (18-22 MB at -j8 to -j32).
 *
 * So the decoder is paid first, then the threads, then the ring: the ring shrinks
 * (smaller chunks: only their fixed costs grow, microseconds a chunk) down to RING_MIN,
 * and past that fewer threads run, never fewer than two (the parallel run's point on
 * two cores).  An 8 MiB window leaves 4 threads and a ~1 MiB ring (14.7 MiB at most,
 * measured), about as many threads as its one decoder feeds (zstd -19's stream decodes
 * at ~390 MB/s, uci parses ~105 MB/s a core).  A window too large for the budget (zstd --long=27 asks for up to 128 MiB)
 * leaves two threads and RING_MIN: the footprint is then the window and ~6 MiB, bounded
 * and known from the stream's first frame.
 */
#include "cli/budget.h"

enum {
    BUDGET = 15 << 20,   /* 16 MiB less 1 MiB for what the model does not see */
    PROGRAM = 13 << 18,  /* 3.25 MiB: the program and the calling thread's state */
    THREAD = 512 << 10,  /* a thread and its two slots, the most measured */
    RING_MAX = 25 << 17, /* 3.125 MiB: the ring with no decoder (640 KiB + 2.5 MiB) */
    RING_MIN = 3 << 18,  /* 768 KiB: shares of 12 KiB in and 48 KiB out at 4 threads */
};

struct budget budget_for(int jobs, size_t decoder_bytes)
{
    size_t fixed = PROGRAM + decoder_bytes;
    size_t left = fixed < BUDGET ? BUDGET - fixed : 0;
    int threads = jobs;
    while (threads > 2 && (size_t)threads * THREAD + RING_MIN > left)
        threads--;
    size_t used = (size_t)threads * THREAD;
    size_t ring = left > used ? left - used : 0;
    ring = ring < RING_MIN ? RING_MIN : ring > RING_MAX ? RING_MAX : ring;
    /* A fifth for new input, the rest for output: the split of 640 KiB and 2.5 MiB that
     * chunks sized by their output were tuned at (pipeline.c). */
    return (struct budget){threads, ring / 5, ring - ring / 5};
}
