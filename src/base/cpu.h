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
 *     scan_fast_avx2), and each reader picks one at construction (reader_state.h: cpu).
 * The bitboards (attacks_internal.h) stay on the baseline: PEXT is chosen at compile time
 * only (ARCH=-march=native), since its lookups are inlined into every move's code; the
 * cost is measured in docs/performance.md.
 *
 * The choice reads the CPU model that the compiler's runtime (libgcc, compiler-rt) fills
 * once before main (__builtin_cpu_supports, its constructor __cpu_indicator_init; it
 * checks that the OS saves the AVX registers too) and that nothing writes afterwards:
 * the one process-wide dispatch table, read-only after start-up.  pgnkit keeps none of
 * its own.  A build whose baseline has AVX2 (ARCH=-march=native on such a CPU) answers
 * CPU_AVX2 at compile time.
 */
#ifndef PGNKIT_CPU_H
#define PGNKIT_CPU_H

/** The vector levels that have paths of their own, in order. */
enum cpu_level { CPU_BASE, CPU_AVX2 };

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

#endif
