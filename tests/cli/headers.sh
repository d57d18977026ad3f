#!/bin/sh
# headers.sh - every public header compiles on its own (it includes what it uses).
set -u
cc=${CC:-cc}
passed=0
failed=0
for h in include/pgnkit/*.h; do
    if printf '#include "%s"\n' "${h#include/}" |
        $cc -std=c11 -pedantic -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Iinclude \
            -fsyntax-only -x c - 2>"${TMPDIR:-/tmp}/pgnkit-header.err"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "not ok - $h does not compile alone:"
        cat "${TMPDIR:-/tmp}/pgnkit-header.err"
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
