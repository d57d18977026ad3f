/* shown.c - the user's strings as messages show them (shown.h). */
#include "cli/shown.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/ctrl.h"
#include "base/xalloc.h"

/* The cleaned copies: few (one per odd name), kept for the messages that name them until
 * the end of the run, as the input's member names are. */
static char **copies;
static size_t copy_count, copy_cap;
static pthread_mutex_t copies_lock = PTHREAD_MUTEX_INITIALIZER;

static bool is_clean(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (ctrl_line_len(s, i, n))
            return false;
    return true;
}

const char *shown(const char *s)
{
    size_t n = strlen(s);
    if (is_clean(s, n))
        return s;
    struct buf b;
    buf_init(&b);
    ctrl_put_line(&b, s, n);
    pthread_mutex_lock(&copies_lock);
    xgrow((void **)&copies, &copy_cap, copy_count + 1, sizeof *copies);
    copies[copy_count++] = b.data;
    pthread_mutex_unlock(&copies_lock);
    return b.data;
}

void shown_vprint(FILE *f, const char *fmt, va_list ap)
{
    char small[512];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        va_end(again);
        return;
    }
    char *text = small;
    if ((size_t)n >= sizeof small) {
        text = xmalloc((size_t)n + 1);
        vsnprintf(text, (size_t)n + 1, fmt, again);
    }
    va_end(again);
    struct buf b;
    buf_init(&b);
    ctrl_put_line(&b, text, (size_t)n);
    fwrite(b.data ? b.data : "", 1, b.len, f);
    free(b.data);
    if (text != small)
        free(text);
}
