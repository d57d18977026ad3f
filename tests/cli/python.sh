#!/bin/sh
# python.sh - the Python module (make python, for Debian's python3) against the CLI under
# test: python/test_pgnkit.py compares pgnkit.read() with `pgnkit uci --format json` on
# every shared file, checks I/O errors, threads and that repeated reads do not leak.
. tests/cli/lib/common.sh
PYTHON=${PYTHON:-/usr/bin/python3}
check "make python builds the module" make -s python PYTHON="$PYTHON"
PGNKIT="$PGNKIT" PYTHONPATH=build/python "$PYTHON" -m unittest -v python/test_pgnkit.py \
    >"$TMP/log" 2>&1
status=$?
grep -E '\.\.\. (ok|FAIL|ERROR)' "$TMP/log" | sed 's/^/  /'
if [ $status -eq 0 ] && grep -q '^OK' "$TMP/log"; then
    ok "python3 -m unittest python/test_pgnkit.py ($(grep -E '^Ran ' "$TMP/log"))"
else
    tail -n 40 "$TMP/log"
    not_ok "python3 -m unittest python/test_pgnkit.py"
fi
finish
