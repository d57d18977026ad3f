/**
 * buf.h - a growable byte buffer for output.
 *
 * Invariants (git's strbuf): data is never NULL after buf_init() + first append
 * (it may be NULL while empty), len < cap whenever data is not NULL, and data[len]
 * is always '\0' so the contents can be printed as a string.  Writers append here;
 * only the CLI decides when the bytes reach a file descriptor.
 */
#ifndef PGNKIT_BUF_H
#define PGNKIT_BUF_H

#include <stddef.h>
#include <string.h>

struct buf {
    char *data;
    size_t len;
    size_t cap;
};

void buf_init(struct buf *b);
void buf_release(struct buf *b);
static inline void buf_clear(struct buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}
/** Grow b to hold n more bytes (plus the NUL): buf_reserve()'s slow path. */
void buf_grow(struct buf *b, size_t n);
/** Make room for n more bytes (plus the NUL); returns where they go.  Inline: the
 * writers reserve once or twice a ply, and the room is nearly always there. */
static inline char *buf_reserve(struct buf *b, size_t n)
{
    if (__builtin_expect(b->len + n + 1 > b->cap, 0))
        buf_grow(b, n);
    return b->data + b->len;
}
void buf_append(struct buf *b, const void *data, size_t len);
static inline void buf_puts(struct buf *b, const char *s) { buf_append(b, s, strlen(s)); }
void buf_putc(struct buf *b, char c);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** Append an unsigned decimal number. */
void buf_put_u64(struct buf *b, unsigned long long v);

/** v in decimal into dst (room for 20 bytes, no NUL); returns its length.  Inline: the
 * writers call it once per ply (move numbers, FEN clocks). */
static inline size_t decimal_put(char *dst, unsigned long long v)
{
    /* Move numbers and clocks are nearly always below 100: no 64-bit loop for them. */
    if (v < 100) {
        unsigned u = (unsigned)v, tens = u / 10;
        dst[0] = (char)('0' + (tens ? tens : u));
        dst[1] = (char)('0' + u - 10 * tens);
        return 1 + (tens != 0);
    }
    if (v < 1000) {
        /* A long game's move numbers (TCEC's pass 100): three digits by multiplications
         * by constants, where the loop's 64-bit divisions cost ~90 instructions. */
        unsigned u = (unsigned)v, hundreds = u / 100, rest = u - 100 * hundreds, tens = rest / 10;
        dst[0] = (char)('0' + hundreds);
        dst[1] = (char)('0' + tens);
        dst[2] = (char)('0' + rest - 10 * tens);
        return 3;
    }
    char tmp[20];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        dst[i] = tmp[n - 1 - i];
    return n;
}

/** Append s[0..len) as a JSON string literal: quotes, escapes, control bytes as \u00XX,
 * valid UTF-8 passed through, bytes that are not valid UTF-8 as \u00XX (Latin-1). */
void buf_json_string(struct buf *b, const char *s, size_t len);

#endif
