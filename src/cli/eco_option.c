/* eco_option.c - --eco-file: the whole file read into memory, then into a book. */
#include "cli/eco_option.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/shown.h"
#include "base/buf.h"

/* The file's bytes into b; 0, or -1 with errno set. */
static int slurp(const char *path, struct buf *b)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(b, chunk, n);
    int failed = ferror(f);
    int saved = errno;
    fclose(f);
    errno = saved ? saved : EIO;
    return failed ? -1 : 0;
}

struct eco_book *eco_option_load(const char *path)
{
    struct buf text;
    buf_init(&text);
    if (slurp(path, &text) != 0) {
        fprintf(stderr, "pgnkit: --eco-file %s: %s\n", shown(path), strerror(errno));
        buf_release(&text);
        return NULL;
    }
    struct eco_error err;
    struct eco_book *b = eco_book_read(text.data ? text.data : "", text.len, path, &err);
    buf_release(&text);
    if (!b)
        fprintf(stderr, "pgnkit: %s:%llu:%llu: --eco-file: %s\n", shown(path),
                (unsigned long long)err.line, (unsigned long long)err.col, shown(err.message));
    return b;
}
