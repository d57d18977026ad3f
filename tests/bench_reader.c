/*
 * bench_reader.c - tokenizing throughput of pgn_reader alone (no SAN, no output).
 * Not built by the Makefile (it only picks up tests/test_*.c).  Build and run:
 *   make build/release/libpgnkit.a
 *   cc -O2 -Iinclude -D_POSIX_C_SOURCE=200809L tests/bench_reader.c \
 *       build/release/libpgnkit.a -o build/release/bench_reader
 *   build/release/bench_reader FILE.pgn...
 * Prints the best of 5 reads through pgn_source_fd (read(2) included) per file.
 */
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "pgn/pgn_reader.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    for (int a = 1; a < argc; a++) {
        double best = 1e30;
        size_t games = 0, tokens = 0, diags = 0;
        uint64_t bytes = 0;
        for (int rep = 0; rep < 5; rep++) {
            int fd = open(argv[a], O_RDONLY);
            if (fd < 0) {
                perror(argv[a]);
                return 2;
            }
            double t0 = now();
            struct pgn_reader *r = pgn_reader_new(pgn_source_fd(&fd), argv[a], NULL);
            struct pgn_game g;
            games = tokens = diags = 0;
            while (pgn_reader_next(r, &g, NULL) == 1) {
                games++;
                tokens += g.token_count;
                diags += g.diags.count;
            }
            bytes = pgn_reader_bytes(r);
            pgn_reader_free(r);
            close(fd);
            double t = now() - t0;
            if (t < best)
                best = t;
        }
        printf("%s: %zu games, %zu tokens, %zu diagnostics, %.1f MB in %.4f s = %.0f MB/s\n",
               argv[a], games, tokens, diags, (double)bytes / 1e6, best,
               (double)bytes / 1e6 / best);
    }
    return 0;
}
