#!/bin/sh
# run-tests.sh OUTDIR [unit] - run every Criterion suite, then the CLI and corpus tests.
# Prints one closing line "N passed, N failed" and exits non-zero on any failure.
set -u
out=$1
what=${2:-all}
passed=0
failed=0
failed_names=""

# Criterion runs a binary's tests on two workers, except under ASan: there libcriterion
# itself leaks one 48-byte block when it runs test_pgn_reader's long tests on two workers
# (each test is clean alone, all are with one worker; the leak's stack holds only
# libcriterion frames), and LeakSanitizer would fail the run for it.  A suppression for
# libcriterion would hide our leaks too (every test runs under its frames).
workers=2
case $out in *asan*) workers=1 ;; esac

for t in "$out"/tests/test_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    if "$t" --jobs $workers >"$out/tests/$name.log" 2>&1; then
        passed=$((passed + 1))
        tail -n 1 "$out/tests/$name.log" | sed "s/^/$name: /"
    else
        failed=$((failed + 1))
        failed_names="$failed_names $name"
        cat "$out/tests/$name.log"
    fi
done

if [ "$what" = all ]; then
    for t in tests/cli/*.sh; do
        [ -f "$t" ] || continue
        name=$(basename "$t" .sh)
        if PGNKIT="$out/pgnkit" sh "$t" >"$out/tests/cli-$name.log" 2>&1; then
            passed=$((passed + 1))
            tail -n 1 "$out/tests/cli-$name.log" | sed "s/^/cli-$name: /"
        else
            failed=$((failed + 1))
            failed_names="$failed_names cli-$name"
            tail -n 40 "$out/tests/cli-$name.log"
        fi
    done
fi

[ -n "$failed_names" ] && echo "failed suites:$failed_names"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
