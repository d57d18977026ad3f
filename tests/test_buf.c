/* test_buf.c - the growable buffer's number writing. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"

/* decimal_put() against printf's %llu: every number below 100000 (its one-, two- and
 * three-digit paths and the loop), then powers of ten and their neighbours up to 2^64. */
Test(buf, decimal_put_equals_printf)
{
    char want[32], got[32];
    for (unsigned long long v = 0; v < 100000; v++) {
        int n = snprintf(want, sizeof want, "%llu", v);
        size_t len = decimal_put(got, v);
        cr_assert_eq(len, (size_t)n, "%llu", v);
        cr_assert_eq(memcmp(got, want, len), 0, "%llu: %.*s", v, (int)len, got);
    }
    for (unsigned long long p = 10; p <= 10000000000000000000ull; p *= 10) {
        unsigned long long values[] = {p - 1, p, p + 1};
        for (int i = 0; i < 3; i++) {
            int n = snprintf(want, sizeof want, "%llu", values[i]);
            size_t len = decimal_put(got, values[i]);
            cr_assert_eq(len, (size_t)n);
            cr_assert_eq(memcmp(got, want, len), 0, "%s", want);
        }
        if (p > 18446744073709551615ull / 10)
            break;
    }
    size_t len = decimal_put(got, 18446744073709551615ull);
    cr_assert_eq(len, 20);
    cr_assert_eq(memcmp(got, "18446744073709551615", 20), 0);
}

/* buf_put_u64: the digits appended, NUL-terminated. */
Test(buf, put_u64_appends)
{
    struct buf b;
    buf_init(&b);
    buf_puts(&b, "ply ");
    buf_put_u64(&b, 123);
    buf_putc(&b, ' ');
    buf_put_u64(&b, 0);
    cr_assert_str_eq(b.data, "ply 123 0");
    buf_release(&b);
}
