/*
 * progress.c - a one-line progress report on stderr, redrawn at most 4 times a second:
 * file (and "file k of n"), MB read, games, MB/s, and the percentage and ETA when the
 * size is known.  Never on stdout.  Every read of the input reports its bytes
 * (progress_bytes), so the line moves by bytes even where no game ends (one huge game,
 * gigabytes of blanks).  Compressed input: the decoded size is not known, but the bytes
 * taken from the file against its size on disk are, and they give the percentage and
 * the ETA (at the rate they are taken).
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cli/progress.h"
#include "cli/shown.h"

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_init(struct progress *p, const struct config *cfg)
{
    p->enabled = cfg->progress < 0 ? isatty(STDERR_FILENO) : cfg->progress;
    p->name = "";
    p->size = 0;
    p->base_games = 0;
    p->games = 0;
    p->start = p->last = seconds_now();
    p->input = p->inputs = 0;
    p->raw = NULL;
    p->raw_size = 0;
    p->raw_start = p->start;
}

void progress_start_input(struct progress *p, size_t k, size_t n, const uint64_t *raw,
                          uint64_t file_size)
{
    p->input = k;
    p->inputs = n;
    p->raw = file_size ? raw : NULL;
    p->raw_size = file_size;
    p->raw_start = seconds_now();
}

void progress_start_file(struct progress *p, const char *name, uint64_t size)
{
    p->name = name;
    p->size = size;
    p->start = seconds_now();
}

/* ", 37%, ETA 12 s": done of total, at the rate since `since`. */
static void print_share(uint64_t done, uint64_t total, double since, double t)
{
    if (!total || done > total)
        return;
    double rate = (double)done / (t - since + 1e-9);
    fprintf(stderr, ", %.0f%%", 100.0 * (double)done / (double)total);
    if (rate > 0)
        fprintf(stderr, ", ETA %.0f s", (double)(total - done) / rate);
}

void progress_update(struct progress *p, uint64_t bytes, uint64_t games)
{
    p->games = games;
    if (!p->enabled)
        return;
    double t = seconds_now();
    if (t - p->last < 0.25)
        return;
    p->last = t;
    double rate = (double)bytes / 1e6 / (t - p->start + 1e-9);
    fprintf(stderr, "\r%s", shown(p->name));
    if (p->inputs > 1)
        fprintf(stderr, " (file %zu of %zu)", p->input, p->inputs);
    fprintf(stderr, ": %.1f MB, %llu games, %.1f MB/s", (double)bytes / 1e6,
            (unsigned long long)games, rate);
    if (p->raw)
        print_share(__atomic_load_n(p->raw, __ATOMIC_RELAXED), p->raw_size, p->raw_start, t);
    else
        print_share(bytes, p->size, p->start, t);
    fputs("\033[K", stderr);
}

void progress_bytes(struct progress *p, uint64_t bytes)
{
    progress_update(p, bytes, p->games);
}

void progress_finish(struct progress *p)
{
    if (p->enabled)
        fputs("\r\033[K", stderr);
}
