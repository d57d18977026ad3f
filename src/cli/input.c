/*
 * input.c - inputs by name: files, "-" for standard input; refuses directories clearly.
 * Compressed input (gzip, zstd) is recognised by its first bytes, whatever the name, and
 * decompressed on the fly by the library's source.h.
 */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The reader's byte source.  Why a read failed is asked afterwards (input_error). */
static ssize_t input_read(void *ctx, char *buf, size_t cap)
{
    struct input *in = ctx;
    return source_read(in->src, buf, cap);
}

int input_open(struct input *in, const char *path, const struct pgn_limits *limits)
{
    memset(in, 0, sizeof *in);
    bool is_stdin = strcmp(path, "-") == 0;
    in->name = is_stdin ? "<stdin>" : path;
    in->fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (in->fd < 0) {
        fprintf(stderr, "pgnkit: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(in->fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            fprintf(stderr, "pgnkit: cannot read %s: it is a directory\n", path);
            if (!is_stdin)
                close(in->fd);
            return -1;
        }
        if (S_ISREG(st.st_mode))
            in->size = (uint64_t)st.st_size;
    }
    in->src = source_new(pgn_source_fd(&in->fd));
    /* Progress counts decompressed bytes: a compressed file's size would be no guide. */
    enum source_format format = source_sniff(in->src);
    if (format == SOURCE_FORMAT_GZIP || format == SOURCE_FORMAT_ZSTD)
        in->size = 0;
    in->reader = pgn_reader_new((struct pgn_source){input_read, in}, in->name, limits);
    return 0;
}

void input_close(struct input *in)
{
    pgn_reader_free(in->reader);
    in->reader = NULL;
    source_free(in->src);
    in->src = NULL;
    if (in->fd > STDIN_FILENO)
        close(in->fd);
    in->fd = -1;
}

const char *input_error(const struct input *in)
{
    return in->src ? source_error(in->src) : NULL;
}
