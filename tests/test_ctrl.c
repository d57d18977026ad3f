/* test_ctrl.c - ctrl.h: every byte value at every position of a 330-byte text (both sides
 * of the 16-, 64- and 128-byte steps: two of 128, one of 64, a tail), against the
 * definition written out here. */
#include <criterion/criterion.h>
#include <string.h>

#include "base/buf.h"
#include "base/ctrl.h"

static bool is_control(unsigned c) { return c <= 8 || (c >= 14 && c <= 31) || c == 127; }

/* ctrl_find_ascii by each path this CPU runs (base/cpu.h): each finds `want`, none calls a
 * text plain that is not, and the AVX2 path calls every plain text of 32 bytes or more
 * plain (the baseline path never does).  `at`: the planted byte's place, for messages. */
static void check_paths(const char *text, size_t n, size_t want, bool plain, unsigned c,
                        size_t at)
{
    for (int level = CPU_BASE; level <= (int)cpu_level(); level++) {
        bool ascii = true;
        size_t k = ctrl_find_ascii_at(text, n, &ascii, (enum cpu_level)level);
        cr_assert_eq(k, want, "level %d: byte 0x%02x at %zu of %zu", level, c, at, n);
        cr_assert(!ascii || plain, "level %d: byte 0x%02x at %zu called plain", level, c, at);
        if (level == CPU_AVX2)
            cr_assert_eq(ascii, plain && n >= 32, "level %d: byte 0x%02x at %zu of %zu", level,
                         c, at, n);
        else
            cr_assert(!ascii, "level %d: the baseline called a text plain", level);
    }
}

/* ctrl_find against the definition, and ctrl_find_ascii: ctrl_find's answer, and "plain
 * ASCII" only when it is so (with AVX2, always for a text of 32 bytes or more): every
 * byte value at every position, then clean texts of every length (the 64-byte steps,
 * the tail blocks, the short texts). */
Test(ctrl, find_every_byte_at_every_position)
{
    char text[330];
    for (unsigned c = 0; c < 256; c++) {
        for (size_t at = 0; at < sizeof text; at++) {
            memset(text, 'a', sizeof text);
            text[at] = (char)c;
            size_t want = is_control(c) ? at : sizeof text;
            cr_assert_eq(ctrl_find(text, sizeof text), want, "byte 0x%02x at %zu", c, at);
            cr_assert_eq(ctrl_is((unsigned char)c), is_control(c));
            bool ascii = true, plain = c < 0x80 && !is_control(c);
            size_t k = ctrl_find_ascii(text, sizeof text, &ascii);
            cr_assert_eq(k, want, "byte 0x%02x at %zu", c, at);
            cr_assert(!ascii || plain, "byte 0x%02x at %zu called plain", c, at);
            check_paths(text, sizeof text, want, plain, c, at);
        }
    }
    cr_assert_eq(ctrl_find("a\tb\nc\vd\fe\rf\x80\xff", 13), 13, "blanks and 8-bit bytes");
    cr_assert_eq(ctrl_find("x", 0), 0);
    memset(text, 'a', sizeof text);
    for (size_t n = 0; n <= sizeof text; n++) {
        bool ascii = false;
        cr_assert_eq(ctrl_find_ascii(text, n, &ascii), n);
        check_paths(text, n, n, true, 'a', n);
    }
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

/* C1 controls: C2 followed by 80-9F, at every position (the pair across each 16- and
 * 64-byte step too), and the C2 pairs that are no control (U+00A0-U+00BF), which the
 * vector step flags and the byte loop must pass over. */
Test(ctrl, c1_pairs_at_every_position)
{
    char text[330];
    for (unsigned second = 0x7f; second <= 0xc0; second++) {
        for (size_t at = 0; at + 1 < sizeof text; at++) {
            memset(text, 'a', sizeof text);
            text[at] = '\xc2';
            text[at + 1] = (char)second;
            bool c1 = second >= 0x80 && second < 0xa0;
            size_t want = c1 ? at : second == 0x7f ? at + 1 : sizeof text; /* 7F: DEL */
            cr_assert_eq(ctrl_find(text, sizeof text), want,
                         "C2 %02x at %zu", second, at);
            check_paths(text, sizeof text, want, false, second, at);
            cr_assert_eq(ctrl_len(text, at, sizeof text), c1 ? 2u : 0u, "C2 %02x", second);
            if (c1)
                cr_assert_eq(ctrl_code(text, at), second);
        }
    }
    /* A lone C2 at the very end is no control (its pair is cut off). */
    cr_assert_eq(ctrl_find("ab\xc2", 3), 3);
    /* Many non-control pairs before a C0 byte: found past them. */
    char many[200];
    for (size_t i = 0; i < 180; i += 2)
        memcpy(many + i, "\xc2\xa0", 2);
    memset(many + 180, 'b', 20);
    many[190] = '\x1b';
    cr_assert_eq(ctrl_find(many, sizeof many), 190);
}

Test(ctrl, c1_written_clean_and_sized)
{
    struct buf b;
    buf_init(&b);
    const char *s = "a\xc2\x9b" "31m\xc2\xa0z\x01";
    size_t n = strlen(s);
    ctrl_put_clean(&b, s, n);
    cr_assert_str_eq(b.data, "a\xef\xbf\xbd" "31m\xc2\xa0z\xef\xbf\xbd");
    cr_assert_eq(ctrl_clean_size(s, n), b.len);
    buf_clear(&b);
    ctrl_put_column(&b, "\xc2\x85x\ty", 5);
    cr_assert_str_eq(b.data, "\xef\xbf\xbdx y");
    buf_clear(&b);
    ctrl_put_line(&b, "f\nx\xc2\x9d\t.pgn", 10);
    cr_assert_str_eq(b.data, "f\xef\xbf\xbdx\xef\xbf\xbd\xef\xbf\xbd.pgn");
    buf_release(&b);
}
