/*
 * budget.h - the memory of a parallel run (budget.c): how many threads run and how much
 * the ring of chunks may hold, once the program and the input's decoder are paid for,
 * so that the whole process stays within 16 MB of peak RSS whatever --jobs says.
 */
#ifndef PGNKIT_CLI_BUDGET_H
#define PGNKIT_CLI_BUDGET_H

#include <stddef.h>

struct budget {
    int threads;       /* the calling thread and the workers: --jobs or fewer, at least 2 */
    size_t ring_input; /* new input bytes the ring's chunks hold at most, all together */
    size_t ring_output; /* output bytes they aim at, all together */
};

/* For jobs >= 2 threads asked for and a decoder holding decoder_bytes (input.h). */
struct budget budget_for(int jobs, size_t decoder_bytes);

#endif
