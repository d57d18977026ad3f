/**
 * fuzz.h - what every tests/fuzz/ harness shares.
 *
 * Each fuzz_<target>.c defines LLVMFuzzerTestOneInput(data, size), the libFuzzer entry
 * point; the harness must accept any bytes and must not leak, crash or hang (any of
 * those is a bug in the library).  The same file is compiled three ways:
 *
 *   make fuzz        clang -fsanitize=fuzzer,address,undefined (libFuzzer's main)
 *   tests/fuzz/replay.c   a plain main() running every file of testdata/fuzz-corpus/<target>/
 *                    through the harness (zstd's regression_driver.c), part of make check
 *
 * FUZZ_ENTRY names the entry point: LLVMFuzzerTestOneInput by default (each harness
 * declares and defines it after including this header); tests/test_fuzz_replay.c
 * defines it to fuzz_<target>_one before including each harness, so all three live in
 * one Criterion program.
 * Harnesses abort() on a broken invariant (so the fuzzer records the input).
 */
#ifndef PGNKIT_FUZZ_H
#define PGNKIT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Abort with a message when an invariant fails (the input is then kept as a crash). */
#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

#define FUZZ_ASSERT(cond)                                                                   \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", __FILE__, __LINE__,       \
                    #cond);                                                                 \
            abort();                                                                        \
        }                                                                                   \
    } while (0)

#endif
