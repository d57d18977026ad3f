/* output.c - standard output or an atomically replaced -o FILE. */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pgnkit/xalloc.h"

int output_open(struct output *out, const char *path)
{
    out->path = path;
    out->tmp_path = NULL;
    out->failed = false;
    out->fd = STDOUT_FILENO;
    if (!path || strcmp(path, "-") == 0) {
        out->path = NULL;
        return 0;
    }
    size_t len = strlen(path);
    out->tmp_path = xmalloc(len + 16);
    snprintf(out->tmp_path, len + 16, "%s.tmp.XXXXXX", path);
    out->fd = mkstemp(out->tmp_path);
    if (out->fd < 0) {
        fprintf(stderr, "pgnkit: cannot create %s: %s\n", out->tmp_path, strerror(errno));
        free(out->tmp_path);
        out->tmp_path = NULL;
        return -1;
    }
    fchmod(out->fd, 0644);
    return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int output_write(struct output *out, const char *bytes, size_t len)
{
    if (out->failed)
        return -1;
    if (len && write_all(out->fd, bytes, len) != 0) {
        out->failed = true;
        if (errno != EPIPE)
            fprintf(stderr, "pgnkit: cannot write to %s: %s\n",
                    out->path ? out->path : "standard output", strerror(errno));
        return -1;
    }
    return 0;
}

int output_flush(struct output *out, struct buf *b)
{
    int rc = output_write(out, b->data, b->len);
    buf_clear(b);
    return rc;
}

int output_commit(struct output *out)
{
    if (!out->tmp_path)
        return 0;
    int rc = 0;
    if (close(out->fd) != 0 || rename(out->tmp_path, out->path) != 0) {
        fprintf(stderr, "pgnkit: cannot write %s: %s\n", out->path, strerror(errno));
        unlink(out->tmp_path);
        rc = -1;
    }
    free(out->tmp_path);
    out->tmp_path = NULL;
    return rc;
}

void output_abort(struct output *out)
{
    if (!out->tmp_path)
        return;
    close(out->fd);
    unlink(out->tmp_path);
    free(out->tmp_path);
    out->tmp_path = NULL;
}

void output_flush_stderr(struct buf *b)
{
    if (b->len)
        (void)write_all(STDERR_FILENO, b->data, b->len);
    buf_clear(b);
}
