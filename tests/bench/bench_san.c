/* bench_san.c - ns per token for san_decode() with and without the cache (and JIT).
 *
 * Not built by the Makefile.  Build and run from the top directory:
 *   make build/release/libpgnkit.a
 *   cc -O2 -std=c11 -Iinclude -D_POSIX_C_SOURCE=200809L tests/bench/bench_san.c \
 *      build/release/libpgnkit.a $(pkg-config --libs libpcre2-8) -o build/release/bench_san
 *   build/release/bench_san TOKENS.txt        (one move token per line)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "san/san.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void run(const char *name, unsigned flags, char **tok, size_t *len, size_t n, int reps)
{
    struct diag err;
    struct san_matcher *m = san_matcher_new_ex(SAN_LETTERS_ENGLISH, flags, &err);
    struct san s;
    size_t bad = 0;
    if (!m) {
        fprintf(stderr, "%s\n", err.message);
        exit(2);
    }
    for (size_t i = 0; i < n; i++) /* warm up (fills the cache once) */
        bad += san_decode(m, tok[i], len[i], &s) != 0;
    double t0 = now();
    for (int r = 0; r < reps; r++)
        for (size_t i = 0; i < n; i++)
            bad += san_decode(m, tok[i], len[i], &s) != 0;
    double ns = (now() - t0) / ((double)n * reps);
    uint64_t hits, misses;
    san_matcher_cache_stats(m, &hits, &misses);
    printf("%-22s jit=%d  %7.1f ns/token  (rejected %zu, cache hits %llu misses %llu)\n", name,
           san_matcher_jit(m), ns, bad, (unsigned long long)hits, (unsigned long long)misses);
    san_matcher_free(m);
}

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    int reps = argc > 2 ? atoi(argv[2]) : 20;
    char line[256];
    size_t n = 0, cap = 1 << 16;
    char **tok = malloc(cap * sizeof(*tok));
    size_t *len = malloc(cap * sizeof(*len));
    if (!f) {
        fprintf(stderr, "usage: bench_san TOKENS.txt [REPS]\n");
        return 2;
    }
    while (fgets(line, sizeof(line), f)) {
        size_t l = strcspn(line, "\r\n");
        if (l == 0)
            continue;
        if (n == cap) {
            cap *= 2;
            tok = realloc(tok, cap * sizeof(*tok));
            len = realloc(len, cap * sizeof(*len));
        }
        tok[n] = malloc(l);
        memcpy(tok[n], line, l);
        len[n++] = l;
    }
    fclose(f);
    printf("%zu tokens x %d reps\n", n, reps);
    run("cache + jit", 0, tok, len, n, reps);
    run("no cache, jit", SAN_MATCHER_NO_CACHE, tok, len, n, reps);
    run("no cache, interpreter", SAN_MATCHER_NO_CACHE | SAN_MATCHER_NO_JIT, tok, len, n, reps);
    run("cache + interpreter", SAN_MATCHER_NO_JIT, tok, len, n, reps);
    return 0;
}
