/*
 * inline_hints.h - the two inlining hints the per-ply and per-byte paths use, defined
 * once.  Private to src/.
 *
 * PGNKIT_HOT: always inline.  LTO's size heuristics otherwise move the small per-ply
 * helpers in and out of line after unrelated edits, which was measured to cost more
 * than the code they save.
 * PGNKIT_COLD: never inline, laid out apart.  For what runs only on a problem (a
 * diagnostic, a reason, a buffer growth): kept out of the hot loops' code and register
 * allocation (the PGO profile, trained on error-heavy test files, otherwise inlines them).
 */
#ifndef PGNKIT_INLINE_HINTS_H
#define PGNKIT_INLINE_HINTS_H

#if defined(__GNUC__)
#define PGNKIT_HOT static inline __attribute__((always_inline))
#define PGNKIT_COLD static __attribute__((noinline, cold))
#define PGNKIT_NOINLINE static __attribute__((noinline))
#else
#define PGNKIT_HOT static inline
#define PGNKIT_COLD static
#define PGNKIT_NOINLINE static
#endif

#endif
