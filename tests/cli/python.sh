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

# Installed as a user would: make install PREFIX=P puts it in P's site-packages; pip
# installs it offline from the source tree with Debian's setuptools.
make -s install-python PREFIX="$TMP/prefix" PYTHON="$PYTHON" >/dev/null 2>&1
site=$("$PYTHON" -c 'import sysconfig, sys; print(sysconfig.get_path("platlib", "posix_prefix",
    vars={"base": sys.argv[1], "platbase": sys.argv[1]}))' "$TMP/prefix")
check "make install PREFIX=P puts the module in P's site-packages" test -f "$site/pgnkit.so"
check "... where python3 imports it" \
    sh -c "cd / && PYTHONPATH='$site' '$PYTHON' -c 'import pgnkit; assert pgnkit.__file__.startswith(\"$site\")'"
if "$PYTHON" -m pip --version >/dev/null 2>&1; then
    check "pip install . works offline (--no-build-isolation --no-index)" \
        sh -c "'$PYTHON' -m pip install -q --no-build-isolation --no-index --target '$TMP/pip' . >'$TMP/pip.log' 2>&1"
    # Games with errors: counted by the pip-built module, and by the CLI (distinct game
    # numbers of its error diagnostics).
    (cd / && PYTHONPATH="$TMP/pip" "$PYTHON" -c 'import pgnkit, sys
print(sum(1 for g in pgnkit.read(sys.argv[1]) if g.status == "errors"))' \
        "$TESTDATA/mutants/mutants.pgn") >"$TMP/pip-errors" 2>&1
    "$PGNKIT" check -q "$TESTDATA/mutants/mutants.pgn" | grep ' error\[' |
        sed 's/.*: game \([0-9]*\),.*/\1/' | sort -u | wc -l >"$TMP/cli-errors"
    check "... and the pip-built module finds the games with errors the CLI finds" \
        test "$(cat "$TMP/pip-errors")" -eq "$(cat "$TMP/cli-errors")"
    rm -rf build/bdist.* build/temp.* build/lib.* pgnkit.egg-info
else
    skip "pip install . (no pip for $PYTHON)"
fi
finish
