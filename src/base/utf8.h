/**
 * utf8.h - the two UTF-8 primitives every text path shares: how long the character at a
 * byte is (0: none valid starts there), and a code point written as UTF-8.
 *
 * Valid means the Unicode definition: shortest forms only, no surrogates (U+D800 to
 * U+DFFF), nothing past U+10FFFF.  Pure functions; no state.
 */
#ifndef PGNKIT_UTF8_H
#define PGNKIT_UTF8_H

#include <stddef.h>
#include <stdint.h>

enum { UTF8_REPLACEMENT = 0xfffd, UTF8_MAX_BYTES = 4 };

/** Length of the valid UTF-8 character at p[0, n) (1 for ASCII), or 0 if none starts there. */
size_t utf8_char_len(const unsigned char *p, size_t n);

/** Code point cp (at most U+10FFFF) as UTF-8 into out (room for 4).  Returns its length. */
size_t utf8_put(unsigned char *out, uint32_t cp);

#endif
