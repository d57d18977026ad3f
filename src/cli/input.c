/* input.c - inputs by name: files, "-" for standard input; refuses directories clearly. */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    in->reader = pgn_reader_new(pgn_source_fd(&in->fd), in->name, limits);
    return 0;
}

void input_close(struct input *in)
{
    pgn_reader_free(in->reader);
    in->reader = NULL;
    if (in->fd > STDIN_FILENO)
        close(in->fd);
    in->fd = -1;
}
