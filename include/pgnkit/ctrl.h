/**
 * ctrl.h - control bytes: where the first one is (the reader's CONTROL_BYTE) and text
 * written without them (every text output).
 *
 * A control byte is a C0 byte other than the five blanks TAB, LF, VT, FF and CR
 * (0x00-0x08, 0x0E-0x1F), or DEL (0x7F).  The reader reads VT and FF as blanks, as
 * most PGN readers do; they cannot start a terminal escape sequence.  In text output a
 * control byte becomes U+FFFD (the replacement character, EF BF BD), so none reaches a
 * terminal or splits a TSV row; JSON writes it exactly as \u00XX instead.  Pure
 * functions; no state.
 */
#ifndef PGNKIT_CTRL_H
#define PGNKIT_CTRL_H

#include <stdbool.h>
#include <stddef.h>

#include "pgnkit/buf.h"

/** Whether c is a control byte (above). */
static inline bool ctrl_is(unsigned char c)
{
    return c < 0x09 || (c >= 0x0e && c < 0x20) || c == 0x7f;
}

/** The index of the first control byte of s[0, n), or n when there is none. */
size_t ctrl_find(const char *s, size_t n);

/** Append s[0, n) with each control byte written as U+FFFD. */
void ctrl_put_clean(struct buf *b, const char *s, size_t n);

/** The same for a TSV or text column: the five blanks (a tab or a line end would break
 * the row) written as a space too. */
void ctrl_put_column(struct buf *b, const char *s, size_t n);

#endif
