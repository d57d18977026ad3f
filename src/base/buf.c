/* buf.c - growable output buffer and JSON string escaping.  Allocation aborts on OOM. */
#include "base/buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/utf8.h"
#include "base/xalloc.h"

void buf_init(struct buf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

void buf_release(struct buf *b)
{
    free(b->data);
    buf_init(b);
}

void buf_grow(struct buf *b, size_t n)
{
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1)
        cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
}

void buf_append(struct buf *b, const void *data, size_t len)
{
    char *p = buf_reserve(b, len);
    memcpy(p, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void buf_putc(struct buf *b, char c)
{
    char *p = buf_reserve(b, 1);
    *p = c;
    b->data[++b->len] = '\0';
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    char *p = buf_reserve(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void buf_put_u64(struct buf *b, unsigned long long v)
{
    char *p = buf_reserve(b, 20);
    b->len += decimal_put(p, v);
    b->data[b->len] = '\0';
}

void buf_json_string(struct buf *b, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = (const unsigned char *)s;
    buf_putc(b, '"');
    for (size_t i = 0; i < len;) {
        unsigned c = u[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            size_t j = i;
            while (j < len && u[j] >= 0x20 && u[j] < 0x7f && u[j] != '"' && u[j] != '\\')
                j++;
            buf_append(b, s + i, j - i);
            i = j;
            continue;
        }
        size_t n = c >= 0x80 ? utf8_char_len(u + i, len - i) : 0;
        if (n == 2 && c == 0xc2 && u[i + 1] < 0xa0) {
            /* A C1 control (U+0080-U+009F): escaped as C0 controls are, never raw. */
            c = u[++i];
            n = 0;
        }
        if (n) {
            buf_append(b, s + i, n);
            i += n;
            continue;
        }
        char esc[7] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0};
        if (c == '"' || c == '\\') {
            esc[1] = (char)c;
            esc[2] = 0;
        } else if (c == '\n' || c == '\t' || c == '\r') {
            esc[1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
            esc[2] = 0;
        }
        buf_puts(b, esc);
        i++;
    }
    buf_putc(b, '"');
}
