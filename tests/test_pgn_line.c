/*
 * test_pgn_line.c - the export format's lines (src/write/pgn_line.c) against a plain
 * restatement of their rules: words one blank apart, a line end instead of the blank
 * when the word would pass column 80 (PGN standard §8.2.6), a word starting with '%'
 * never at a line's start, a control character written as U+FFFD and, in a comment, '}'
 * as ')'.  The restatement writes word by word with none of the module's shortcuts
 * (comments copied whole, blank masks, the one-break tail), so each shortcut is checked
 * against it at every column and length.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "write/pgn_line.h"
#include "base/buf.h"

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The rule itself: the separator before a word (of its written bytes), then the word. */
static void ref_word(struct buf *out, size_t *column, const char *word, size_t len)
{
    if (*column == 0 && word[0] == '%') {
        buf_putc(out, ' ');
        *column = 1;
    } else if (*column && (*column + 1 + len <= 80 || word[0] == '%')) {
        buf_putc(out, ' ');
        *column += 1;
    } else if (*column) {
        buf_putc(out, '\n');
        *column = 0;
    }
    buf_append(out, word, len);
    *column += len;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* A word as a comment writes it: control characters U+FFFD, '}' as ')'. */
static void clean_into(struct buf *word, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        bool c1 = c == 0xc2 && i + 1 < len && (unsigned char)s[i + 1] >= 0x80 &&
                  (unsigned char)s[i + 1] < 0xa0;
        if (c < 0x20 || c == 0x7f || c1) {
            buf_append(word, "\xef\xbf\xbd", 3);
            i += c1;
        } else {
            buf_putc(word, c == '}' ? ')' : (char)c);
        }
    }
}

/* "{ words }" as the rule writes it, word by word. */
static void ref_comment(struct buf *out, size_t *column, const char *s, size_t len)
{
    size_t words = 0;
    for (size_t i = 0; i < len;) {
        while (i < len && is_blank(s[i]))
            i++;
        size_t start = i;
        while (i < len && !is_blank(s[i]))
            i++;
        if (i == start)
            continue;
        struct buf word;
        buf_init(&word);
        if (!words++)
            buf_puts(&word, "{ ");
        clean_into(&word, s + start, i - start);
        ref_word(out, column, word.data, word.len);
        buf_release(&word);
    }
    if (!words)
        ref_word(out, column, "{", 1);
    ref_word(out, column, "}", 1);
}

/* A line of out longer than 80 bytes that is more than one word, or starting with '%'. */
static void assert_lines_keep_the_rules(const struct buf *out)
{
    const char *line = out->data, *end = out->data + out->len;
    while (line < end) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);
        cr_assert_neq(line[0], '%', "a line starts with %%: %.*s", (int)len, line);
        if (len > 80) {
            const char *blank = memchr(line, ' ', len);
            /* Only a '%' word may follow a blank past column 80. */
            while (blank && blank + 1 < line + len) {
                if (blank - line >= 80)
                    cr_assert_eq(blank[1], '%', "line over 80: %.*s", (int)len, line);
                blank = memchr(blank + 1, ' ', len - (size_t)(blank + 1 - line));
            }
        }
        line += len + 1;
    }
}

/* Random text of len bytes: letters, digits, blanks of every kind, '%' and '}' often,
 * and now and then a control byte or a C1 control. */
static void random_text(uint64_t *seed, char *s, size_t len, bool plain)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789[]%=.:+-#";
    for (size_t i = 0; i < len; i++) {
        uint64_t r = next(seed) % 100;
        if (r < 18)
            s[i] = ' ';
        else if (!plain && r < 21)
            s[i] = "\t\n\r\v\f"[next(seed) % 5];
        else if (!plain && r < 23)
            s[i] = '}';
        else if (!plain && r < 24)
            s[i] = (char)(next(seed) % 2 ? 0x01 : 0x7f);
        else if (!plain && r < 25 && i + 1 < len) {
            s[i++] = (char)0xc2;
            s[i] = (char)(0x80 + next(seed) % 0x40); /* C1 or not */
        } else
            s[i] = alphabet[next(seed) % (sizeof alphabet - 1)];
    }
}

/* A word written at every column from 0 to 85, of 1-30 bytes, '%' first or not. */
Test(pgn_line, words_wrap_at_column_80)
{
    uint64_t seed = 0x2545f4914f6cdd1d;
    for (int round = 0; round < 3000; round++) {
        struct buf out, ref;
        buf_init(&out);
        buf_init(&ref);
        struct pgn_line line = {&out, 0, PGN_LINE_COLUMNS};
        size_t column = 0;
        int words = 1 + (int)(next(&seed) % 40);
        for (int k = 0; k < words; k++) {
            char word[32];
            size_t len = 1 + next(&seed) % 30;
            random_text(&seed, word, len, true);
            for (size_t i = 0; i < len; i++)
                if (word[i] == ' ')
                    word[i] = 'x';
            if (next(&seed) % 8 == 0)
                word[0] = '%';
            pgn_line_word(&line, "", word, len);
            ref_word(&ref, &column, word, len);
        }
        cr_assert_str_eq(out.data, ref.data);
        cr_assert_eq(line.column, column);
        assert_lines_keep_the_rules(&out);
        buf_release(&out);
        buf_release(&ref);
    }
}

/* One round's start: a word of 0-89 bytes, so what follows starts at any column. */
struct round {
    struct buf out, ref;
    struct pgn_line line;
    size_t column, lead_len;
};

static void round_start(struct round *r, uint64_t *seed)
{
    buf_init(&r->out);
    buf_init(&r->ref);
    r->line = (struct pgn_line){&r->out, 0, PGN_LINE_COLUMNS};
    r->column = 0;
    r->lead_len = next(seed) % 90;
    char lead[96];
    memset(lead, 'a', sizeof lead);
    if (r->lead_len) {
        pgn_line_word(&r->line, "", lead, r->lead_len);
        ref_word(&r->ref, &r->column, lead, r->lead_len);
    }
}

/* The round's output against the rule's, then both released. */
static void round_end(struct round *r, const char *what, const char *s, size_t len)
{
    cr_assert_str_eq(r->out.data, r->ref.data, "%s \"%.*s\" at column %zu", what, (int)len, s,
                     r->lead_len);
    cr_assert_eq(r->line.column, r->column);
    assert_lines_keep_the_rules(&r->out);
    buf_release(&r->out);
    buf_release(&r->ref);
}

/* No two blanks side by side in s[0, len): as most comments and every FEN are written. */
static void one_blank_apart(char *s, size_t len)
{
    for (size_t i = 1; i < len; i++)
        if (s[i] == ' ' && s[i - 1] == ' ')
            s[i] = 'y';
}

/* A comment of 0-150 bytes after a word that leaves the line at any column: the whole
 * copy (words one blank apart, nothing to clean) and the word-by-word path write what
 * the rule writes. */
static void check_comments(bool plain, uint64_t seed)
{
    for (int round = 0; round < 20000; round++) {
        struct round r;
        round_start(&r, &seed);
        char text[160];
        size_t len = next(&seed) % 151;
        random_text(&seed, text, len, plain);
        if (plain && next(&seed) % 2)
            one_blank_apart(text, len);
        pgn_line_comment(&r.line, text, len);
        ref_comment(&r.ref, &r.column, text, len);
        round_end(&r, "comment", text, len);
    }
}

Test(pgn_line, plain_comments_as_word_by_word)
{
    check_comments(true, 0x9e3779b97f4a7c15);
}

Test(pgn_line, comments_to_clean_as_word_by_word)
{
    check_comments(false, 0xd1b54a32d192ed03);
}

/* "{ body }" placed in the output first and its separators set after
 * (pgn_line_wrap_slow, as a FEN comment is written): the rule's bytes. */
Test(pgn_line, comment_in_place_wraps_as_word_by_word)
{
    uint64_t seed = 0x94d049bb133111eb;
    for (int round = 0; round < 20000; round++) {
        struct round r;
        round_start(&r, &seed);
        char body[128];
        size_t blen = 1 + next(&seed) % 120;
        random_text(&seed, body, blen, true);
        body[0] = 'w';
        body[blen - 1] = 'z';
        one_blank_apart(body, blen);
        size_t at = r.line.column ? 1 : 0;
        char *p = buf_reserve(&r.out, blen + 8);
        memcpy(p + at, "{ ", 2);
        memcpy(p + at + 2, body, blen);
        memcpy(p + at + 2 + blen, " }", 2);
        pgn_line_wrap_slow(&r.line, p, at, p + at + 2, blen);
        r.out.len += at + blen + 4;
        r.out.data[r.out.len] = '\0';
        ref_comment(&r.ref, &r.column, body, blen);
        round_end(&r, "body", body, blen);
    }
}

/* Words with control characters: each written as U+FFFD, outside comments too; '}'
 * kept outside a comment (a token never holds one) and ')' inside. */
Test(pgn_line, control_characters_and_braces)
{
    struct buf out;
    buf_init(&out);
    struct pgn_line line = {&out, 0, PGN_LINE_COLUMNS};
    pgn_line_word_ex(&line, "", "a\x01" "b\xc2\x9b" "c}", 7, false);
    pgn_line_word_ex(&line, "{ ", "x}\x7f", 3, true);
    cr_assert_str_eq(out.data, "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c} { x)\xef\xbf\xbd");
    cr_assert_eq(line.column, out.len);
    buf_release(&out);
}
