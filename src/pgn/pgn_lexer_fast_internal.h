/*
 * pgn_lexer_fast_internal.h - what pgn_lexer_fast.c offers pgn_reader.c: the usual
 * tokens of a started game, nearly all bytes, read in one loop.
 */
#ifndef PGNKIT_PGN_LEXER_FAST_INTERNAL_H
#define PGNKIT_PGN_LEXER_FAST_INTERNAL_H

#include <stddef.h>

#include "pgn/reader_state.h"

/*
 * The fast path: from i, the tokens of a started game whose tokens are kept, as long as
 * they are the usual ones (moves, move numbers, comments on one line, usual tag pairs
 * in a tag section, blanks); returns the index of the first byte it leaves to the rest,
 * or the index after the game's result (a result token at depth 0, then the last token
 * it pushed), where the game ends.
 */
size_t scan_fast(struct pgn_reader *r, size_t i);

/*
 * The same compiled for AVX2 (cpu.h): the Makefile builds pgn_lexer_fast.c a second time
 * with -mavx2 -mbmi -mbmi2 and PGNKIT_VARIANT_AVX2, which names that copy's scan_fast
 * scan_fast_avx2.  Only there when PGNKIT_DISPATCH_AVX2 (the Makefile's x86-64 builds);
 * the reader calls it when its r->cpu is CPU_AVX2.
 */
size_t scan_fast_avx2(struct pgn_reader *r, size_t i);
#ifdef PGNKIT_VARIANT_AVX2
#define scan_fast scan_fast_avx2
#endif

#endif
