/* test_ctrl.c - ctrl.h: every byte value at every position of a 150-byte text (both sides
 * of the 16- and 64-byte steps), against the definition written out here. */
#include <criterion/criterion.h>
#include <string.h>

#include "pgnkit/buf.h"
#include "pgnkit/ctrl.h"

static bool is_control(unsigned c) { return c <= 8 || (c >= 14 && c <= 31) || c == 127; }

Test(ctrl, find_every_byte_at_every_position)
{
    char text[150];
    for (unsigned c = 0; c < 256; c++) {
        for (size_t at = 0; at < sizeof text; at++) {
            memset(text, 'a', sizeof text);
            text[at] = (char)c;
            size_t want = is_control(c) ? at : sizeof text;
            cr_assert_eq(ctrl_find(text, sizeof text), want, "byte 0x%02x at %zu", c, at);
            cr_assert_eq(ctrl_is((unsigned char)c), is_control(c));
        }
    }
    cr_assert_eq(ctrl_find("a\tb\nc\vd\fe\rf\x80\xff", 13), 13, "blanks and 8-bit bytes");
    cr_assert_eq(ctrl_find("x", 0), 0);
}

Test(ctrl, put_clean_and_column)
{
    struct buf b;
    buf_init(&b);
    ctrl_put_clean(&b, "a\x1b[2J\tb\0c\x7f", 10);
    cr_assert_eq(b.len, 16);
    cr_assert(memcmp(b.data, "a\xef\xbf\xbd[2J\tb\xef\xbf\xbd" "c\xef\xbf\xbd", 16) == 0);
    buf_clear(&b);
    ctrl_put_column(&b, "a\tb\nc\x01", 6);
    cr_assert_str_eq(b.data, "a b c\xef\xbf\xbd");
    buf_release(&b);
}
