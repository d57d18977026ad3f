/*
 * cpu.h - which vector paths this CPU runs: the run-time half of the CPU dispatch.
 * Private to src/.
 *
 * The default build targets x86-64-v2 (SSE4.2, SSSE3, POPCNT: Nehalem, Bulldozer and
 * every x86-64 CPU since), so the binary runs on any of them; the byte scanners' AVX2
 * paths are compiled beside their baseline twins and chosen at run time:
 *   - ctrl.c (control bytes), pgn_text.c (the ASCII scan) and pgn_split.c (line counts)
 *     hold both as functions, the AVX2 one under CPU_TARGET_AVX2, and pick per call
 *     (per text, game or chunk, never per byte);
 *   - pgn_lexer_fast.c is compiled twice (the Makefile's DISPATCH_SRCS: once more with
 *     -mavx2 -mbmi -mbmi2 and PGNKIT_VARIANT_AVX2, which renames scan_fast to
 *     scan_fast_avx2), and each reader picks one at construction (reader_state.h: cpu);
 *   - the slider lookups (board/attacks_internal.h) are inlined into every move's code,
 *     so they cannot be a function chosen once: att_magic branches on the table itself
 *     (attacks_init() fills the PEXT table only where cpu_fast_pext() says yes, the
 *     magic one where it says no), PEXT and PDEP written as inline asm so that no caller needs
 *     -mbmi2.  One well-predicted branch per lookup, on a pointer the lookup reads anyway.
 *
 * The choice reads the CPU model that the compiler's runtime (libgcc, compiler-rt) fills
 * once before main (__builtin_cpu_supports, its constructor __cpu_indicator_init; it
 * checks that the OS saves the AVX registers too) and that nothing writes afterwards:
 * the one process-wide dispatch table, read-only after start-up.  pgnkit keeps no flag of
 * its own: the one choice it stores is which slider tables attacks_init() built, once
 * (pthread_once), read-only afterwards like every attack table.  A build whose baseline has AVX2 (ARCH=-march=native on such a CPU) answers
 * CPU_AVX2 at compile time.
 */
#ifndef PGNKIT_CPU_H
#define PGNKIT_CPU_H

/** The vector levels that have paths of their own, in order. */
enum cpu_level { CPU_BASE, CPU_AVX2 };

#include <stdbool.h>

#if defined(__x86_64__) && defined(__GNUC__)
/** The AVX2 twins are compiled (as functions with this attribute). */
#define CPU_HAS_AVX2_PATHS 1
#define CPU_TARGET_AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt")))
#else
#define CPU_HAS_AVX2_PATHS 0
#define CPU_TARGET_AVX2
#endif

/** The highest level this CPU runs (CPU_BASE where the build has no other). */
static inline enum cpu_level cpu_level(void)
{
#if defined(__AVX2__) && defined(__BMI__) && defined(__BMI2__)
    return CPU_AVX2;
#elif CPU_HAS_AVX2_PATHS
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                   __builtin_cpu_supports("bmi2")
               ? CPU_AVX2
               : CPU_BASE;
#else
    return CPU_BASE;
#endif
}

/*
 * PEXT and PDEP (BMI2) run in a cycle or so on this CPU: BMI2 is there, and it is not an
 * AMD family 17h (Zen, Zen+, Zen 2: znver1, znver2), whose microcode takes tens of
 * cycles, slower than the magic multiply they would replace.  A build whose baseline has
 * BMI2 answers at compile time (its -march names the CPU: znver1/2 say no).
 */
static inline bool cpu_fast_pext(void)
{
#if defined(__BMI2__)
#if defined(__znver1__) || defined(__znver2__)
    return false;
#else
    return true;
#endif
#elif CPU_HAS_AVX2_PATHS
    return __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("amdfam17h");
#else
    return false;
#endif
}

#endif
