/* test_pgn_bytes.c - src/pgn/pgn_bytes.h, the reader's vector searches: every byte value at
 * every position of a 100-byte text (both sides of the 16- and 32-byte steps, and the
 * byte loops after them), against the definitions written out here. */
#include <criterion/criterion.h>
#include <string.h>

#include "pgn/pgn_bytes.h"

/* What ends a move, number or NAG token (pgn_reader.h): control bytes, space, DEL and
 * " $ ( ) ; < > [ ] { }. */
static bool ends_token(unsigned c)
{
    return c <= 32 || c == 127 || (c != 0 && strchr("\"$();<>[]{}", (int)c) != NULL);
}

enum { LEN = 100 };

static void text_with(char *text, unsigned c, size_t at)
{
    memset(text, 'a', LEN);
    text[at] = (char)c;
}

Test(pgn_bytes, run_end_stops_at_every_delimiter)
{
    char text[LEN];
    for (unsigned c = 0; c < 256; c++) {
        for (size_t at = 0; at < LEN; at++) {
            text_with(text, c, at);
            for (size_t from = 0; from <= LEN; from += 7) {
                size_t want = ends_token(c) && at >= from ? at : LEN;
                cr_assert_eq(run_end(text, from, LEN), want, "byte 0x%02x at %zu, from %zu", c,
                             at, from);
            }
            cr_assert_eq(is_delim((char)c), ends_token(c), "byte 0x%02x", c);
        }
    }
}

Test(pgn_bytes, find_stop_finds_either_stop_or_a_line_end)
{
    char text[LEN];
    for (unsigned c = 0; c < 256; c++) {
        for (size_t at = 0; at < LEN; at++) {
            text_with(text, c, at);
            bool stop = c == '"' || c == '\\' || c == '\n' || c == '\r';
            for (size_t from = 0; from <= LEN; from += 5) {
                size_t want = stop && at >= from ? at : LEN;
                cr_assert_eq(find_stop(text, from, LEN, '"', '\\'), want,
                             "byte 0x%02x at %zu, from %zu", c, at, from);
            }
            bool brace = c == '}' || c == '\n' || c == '\r';
            cr_assert_eq(find_stop(text, 0, LEN, '}', '}'), brace ? at : LEN, "byte 0x%02x at %zu",
                         c, at);
        }
    }
}

Test(pgn_bytes, next_eol_finds_the_first_lf_or_cr)
{
    char text[LEN];
    for (size_t at = 0; at < LEN; at++) {
        for (size_t cr = 0; cr < LEN; cr += 9) {
            memset(text, 'a', LEN);
            text[at] = '\n';
            text[cr] = '\r';
            size_t first = at < cr ? at : cr;
            cr_assert_eq(next_eol(text, 0, LEN), first, "LF at %zu, CR at %zu", at, cr);
            cr_assert_eq(next_eol(text, first + 1, first + 1), first + 1, "an empty range");
        }
    }
    cr_assert_eq(next_eol("abc", 0, 3), 3);
}

Test(pgn_bytes, classes_of_the_bytes_that_start_tokens)
{
    static const struct {
        char byte;
        enum char_class cl;
    } table[] = {
        {' ', CC_SPACE},   {'\t', CC_SPACE},  {'\n', CC_LF},      {'\r', CC_CR},
        {'\0', CC_CTRL},   {'\x7f', CC_CTRL}, {'7', CC_DIGIT},    {'{', CC_LBRACE},
        {'[', CC_LBRACKET}, {'e', CC_OTHER},  {'\xc2', CC_OTHER}, {'>', CC_BAD},
    };
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
        cr_assert_eq(cls(table[k].byte), table[k].cl, "byte 0x%02x",
                     (unsigned char)table[k].byte);
    cr_assert_eq(fast_class[0xc2], CC_BAD,
                 "byte 0xc2 ('1/2' in UTF-8 begins with it) leaves the fast path");
}
