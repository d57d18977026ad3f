/*
 * progress.c - a one-line progress report on stderr, redrawn at most 4 times a second:
 * file, MB read, games, MB/s, and ETA when the size is known.  Never on stdout.  Every
 * read of the input reports its bytes (progress_bytes), so the line moves by bytes even
 * where no game ends (one huge game, gigabytes of blanks).
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
}

void progress_start_file(struct progress *p, const char *name, uint64_t size)
{
    p->name = name;
    p->size = size;
    p->start = seconds_now();
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
    fprintf(stderr, "\r%s: %.1f MB, %llu games, %.1f MB/s", shown(p->name), (double)bytes / 1e6,
            (unsigned long long)games, rate);
    if (p->size && bytes <= p->size && rate > 0)
        fprintf(stderr, ", %.0f%%, ETA %.0f s", 100.0 * (double)bytes / (double)p->size,
                (double)(p->size - bytes) / 1e6 / rate);
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
