#!/bin/sh
# cpu_baseline.sh - the default build runs on an x86-64 without AVX (src/base/cpu.h: the
# baseline is x86-64-v2, the AVX2 paths are chosen at run time).  Under qemu-user with
# -cpu Nehalem (SSE4.2 and POPCNT, no AVX: __builtin_cpu_supports says no AVX2 there, so
# every baseline twin runs) a few testdata files give, command by command, the same
# output, diagnostics and exit status as the AVX2 paths on this machine.  A build made
# for this machine only (ARCH=-march=native, written to march beside the binary) and the
# sanitizer builds (no ASan or TSan under qemu-user) skip it, as does a machine without
# qemu-x86_64 (Debian's qemu-user, which make deps installs).
. tests/cli/lib/common.sh

march_file=$(dirname "$PGNKIT")/march
march=$(cat "$march_file" 2>/dev/null || echo unknown)
if [ "$(uname -m)" != x86_64 ]; then
    skip "not an x86-64 machine"
    finish
fi
if ! command -v qemu-x86_64 >/dev/null 2>&1; then
    skip "qemu-x86_64 is missing (package qemu-user)"
    finish
fi
case $PGNKIT in *asan* | *tsan* | *fuzz*) skip "sanitizer builds do not run under qemu-user"; finish ;; esac
case " $march " in
    *native* | *v3* | *v4* | *unknown*) skip "built for $march, not the x86-64 baseline"; finish ;;
esac

# The binary starts at all (a -march=native build dies here with SIGILL).
run qemu-x86_64 -cpu Nehalem "$PGNKIT" --help
check "starts on a Nehalem (no AVX; status $rc)" [ "$rc" -eq 0 ]

# The summary line's time and rate differ from run to run: not compared.
untimed() { sed 's/ in [0-9.]* s wall, [0-9.]* s CPU ([0-9.]* [kMG]*B\/s)//' "$1" >"$1.untimed"; }

files="tcec/TCEC_Match_1.pgn chess.js/benchmark.pgn mutants/mutants.pgn
       pgn-extract/fischer.pgn python-chess/utf8-bom.pgn"
for f in $files; do
    for cmd in uci fen pgn check; do
        "$PGNKIT" "$cmd" "$TESTDATA/$f" >"$TMP/want.out" 2>"$TMP/want.err"
        want=$?
        qemu-x86_64 -cpu Nehalem "$PGNKIT" "$cmd" "$TESTDATA/$f" >"$TMP/got.out" 2>"$TMP/got.err"
        got=$?
        untimed "$TMP/want.err"
        untimed "$TMP/got.err"
        if [ "$got" -eq "$want" ] && cmp -s "$TMP/want.out" "$TMP/got.out" &&
            cmp -s "$TMP/want.err.untimed" "$TMP/got.err.untimed"; then
            ok "$cmd $f: the baseline paths write what the AVX2 paths write"
        else
            not_ok "$cmd $f: status $got (want $want), or output differs"
        fi
    done
done
finish
