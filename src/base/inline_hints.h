/*
 * inline_hints.h - the inlining hints the per-ply and per-byte paths use, defined once.
 * Private to src/.  Attributes only: a function's linkage is written where it is
 * defined (`static inline PGNKIT_HOT`, `static PGNKIT_COLD`), so a reader sees at once
 * which functions are file-local and which are the module's interface.
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
#define PGNKIT_HOT __attribute__((always_inline))
#define PGNKIT_COLD __attribute__((noinline, cold))
#define PGNKIT_NOINLINE __attribute__((noinline))
#else
#define PGNKIT_HOT
#define PGNKIT_COLD
#define PGNKIT_NOINLINE
#endif

#endif
