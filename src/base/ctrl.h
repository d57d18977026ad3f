/**
 * ctrl.h - control characters: where the first one is (the reader's CONTROL_BYTE) and
 * text written without them (every text output).
 *
 * A control byte is a C0 byte other than the five blanks TAB, LF, VT, FF and CR
 * (0x00-0x08, 0x0E-0x1F), or DEL (0x7F).  The reader reads VT and FF as blanks, as
 * most PGN readers do; they cannot start a terminal escape sequence.  A C1 control
 * (U+0080-U+009F, in UTF-8 the two bytes C2 80 - C2 9F) counts too: terminals that read
 * UTF-8 take U+009B as CSI and U+009D as OSC, the starts of escape sequences, and a
 * Latin-1 file's bytes 0x80-0x9F decode to exactly these.  In text output a control
 * character becomes U+FFFD (the replacement character, EF BF BD), so none reaches a
 * terminal or splits a TSV row; JSON writes it exactly as \u00XX instead.  Pure
 * functions; no state.
 */
#ifndef PGNKIT_CTRL_H
#define PGNKIT_CTRL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/cpu.h"

/** Whether c is a control byte (above). */
static inline bool ctrl_is(unsigned char c)
{
    return c < 0x09 || (c >= 0x0e && c < 0x20) || c == 0x7f;
}

/** The bytes of the control character at s[i] of s[0, n): 1 for a control byte, 2 for a
 * C1 control, 0 when s[i] starts none. */
static inline size_t ctrl_len(const char *s, size_t i, size_t n)
{
    unsigned char c = (unsigned char)s[i];
    if (ctrl_is(c))
        return 1;
    return c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] < 0xa0 &&
                   (unsigned char)s[i + 1] >= 0x80
               ? 2
               : 0;
}

/** The code point of the control character at s[i] (ctrl_len() is not 0 there). */
static inline unsigned ctrl_code(const char *s, size_t i)
{
    unsigned char c = (unsigned char)s[i];
    return c == 0xc2 ? (unsigned char)s[i + 1] : c;
}

/** The index of the first control character of s[0, n), or n when there is none. */
size_t ctrl_find(const char *s, size_t n);

/** ctrl_find(), and *ascii true only when s[0, n) holds neither a control character nor
 * a byte >= 0x80 (plain ASCII): found in the same pass.  *ascii may be false for plain
 * ASCII too (a text under 32 bytes, a CPU without AVX2): it says "known plain". */
size_t ctrl_find_ascii(const char *s, size_t n, bool *ascii);

/** ctrl_find_ascii() by the path of `level` (cpu.h), which this CPU must run: the tests
 * hold each path to the others. */
size_t ctrl_find_ascii_at(const char *s, size_t n, bool *ascii, enum cpu_level level);

/** The bytes s[0, n) takes written clean: each control character becomes 3. */
size_t ctrl_clean_size(const char *s, size_t n);

/** Append s[0, n) with each control character written as U+FFFD. */
void ctrl_put_clean(struct buf *b, const char *s, size_t n);

/** The same for a TSV or text column: the five blanks (a tab or a line end would break
 * the row) written as a space too. */
void ctrl_put_column(struct buf *b, const char *s, size_t n);

/** The same for a name or a message that must stay on one line (a file name in a
 * diagnostic): the five blanks but the space written as U+FFFD too. */
void ctrl_put_line(struct buf *b, const char *s, size_t n);

/** The bytes of the character at s[i] that ctrl_put_line() replaces: ctrl_len(), or 1 for
 * TAB, LF, VT, FF and CR. */
static inline size_t ctrl_line_len(const char *s, size_t i, size_t n)
{
    unsigned char c = (unsigned char)s[i];
    return c >= 0x09 && c <= 0x0d ? 1 : ctrl_len(s, i, n);
}

#endif
