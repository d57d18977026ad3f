/*
 * replay.c - run files through a fuzz harness without libFuzzer (zstd's
 * regression_driver.c).
 *
 *   replay_<target> FILE|DIR...   every file named, and every regular file of every
 *                                 directory named (not recursive), through the harness
 *
 * Linked with one harness (make build/$(BUILD)/fuzz/replay_<target>), it reproduces a
 * crash under gcc, valgrind or gdb.  tests/test_fuzz_replay.c includes this file with
 * REPLAY_NO_MAIN and calls replay_path() for every corpus directory during make check.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef int (*replay_fn)(const uint8_t *data, size_t size);

/* Read a whole file; NULL on failure (errno set).  The buffer has its own allocation of
 * exactly *size bytes (at least 1), so ASan sees reads past the end. */
static uint8_t *replay_slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            uint8_t *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
    }
    bool bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        return NULL;
    }
    uint8_t *exact = malloc(len ? len : 1);
    if (exact)
        memcpy(exact, buf, len);
    free(buf);
    *size = len;
    return exact;
}

static int replay_file(const char *path, replay_fn fn)
{
    size_t size = 0;
    uint8_t *data = replay_slurp(path, &size);
    if (!data) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    fn(data, size);
    free(data);
    return 0;
}

static int replay_name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/**
 * Replay path (a file, or every regular file in a directory, in name order) through fn.
 * Returns the number of files run, or -1 when something could not be read.
 */
static long replay_path(const char *path, replay_fn fn)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(path, fn) == 0 ? 1 : -1;
    DIR *dir = opendir(path);
    if (!dir) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t count = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (count == cap) {
            cap = cap ? cap * 2 : 64;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown)
                abort();
            names = grown;
        }
        size_t n = strlen(path) + strlen(e->d_name) + 2;
        names[count] = malloc(n);
        if (!names[count])
            abort();
        snprintf(names[count], n, "%s/%s", path, e->d_name);
        count++;
    }
    closedir(dir);
    if (count)
        qsort(names, count, sizeof *names, replay_name_cmp);
    long run = 0;
    for (size_t k = 0; k < count; k++) {
        if (stat(names[k], &st) == 0 && S_ISREG(st.st_mode)) {
            if (replay_file(names[k], fn) != 0)
                run = -1;
            else if (run >= 0)
                run++;
        }
        free(names[k]);
    }
    free(names);
    return run;
}

#ifndef REPLAY_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    long total = 0;
    int status = 0;
    for (int k = 1; k < argc; k++) {
        long n = replay_path(argv[k], LLVMFuzzerTestOneInput);
        if (n < 0)
            status = 1;
        else
            total += n;
    }
    fprintf(stderr, "replay: %ld files run\n", total);
    return status;
}
#endif
