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

# Installed as a user would.  make install DESTDIR=D PREFIX=/usr/local: the module goes
# to the folder of Debian's python3's sys.path under /usr/local (with PYTHONPATH unset),
# make says so, and python3 imports the DESTDIR copy when that folder is mapped to it.
build=$(basename "$(dirname "$PGNKIT")")
root=$TMP/root
make -s install BUILD="$build" DESTDIR="$root" PREFIX=/usr/local PYTHON="$PYTHON" \
    >"$TMP/install.log" 2>&1
site=$(env -u PYTHONPATH "$PYTHON" -c 'import sys
print(*[p for p in sys.path if p.startswith("/usr/local/") and p.endswith("-packages")][:1])')
check "python3's sys.path has a folder under /usr/local ($site)" test -n "$site"
check "make install PREFIX=/usr/local puts the module there" test -f "$root$site/pgnkit.so"
check "... and says where it went" grep -qF "$root$site/pgnkit.so (on $PYTHON's sys.path)" \
    "$TMP/install.log"
check "... where python3 with no PYTHONPATH imports it (mapped to DESTDIR)" \
    sh -c "cd / && env -u PYTHONPATH '$PYTHON' -c 'import sys
sys.path[sys.path.index(sys.argv[1])] = sys.argv[2]
import pgnkit
assert pgnkit.__file__ == sys.argv[2] + \"/pgnkit.so\", pgnkit.__file__
assert \">>> \" in pgnkit.__doc__' '$site' '$root$site'"
check "docs/python.md and docs/api.md installed in PREFIX/share/doc/pgnkit" \
    cmp -s docs/python.md "$root/usr/local/share/doc/pgnkit/python.md"
check "... (api.md)" cmp -s docs/api.md "$root/usr/local/share/doc/pgnkit/api.md"
make -s uninstall BUILD="$build" DESTDIR="$root" PREFIX=/usr/local PYTHON="$PYTHON" >/dev/null 2>&1
check "make uninstall removes the module and the docs" \
    test ! -e "$root$site/pgnkit.so" -a ! -e "$root/usr/local/share/doc/pgnkit/python.md"

# As a Python package: from a clean copy of the tree (the files git tracks), pip builds a
# wheel offline with Debian's setuptools and wheel (pyproject.toml), which installs into a
# fresh venv and imports there.  The one build of the library by setup.py in this test.
if "$PYTHON" -m pip --version >/dev/null 2>&1 && "$PYTHON" -c 'import ensurepip' 2>/dev/null; then
    mkdir -p "$TMP/clone"
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        # One tar for the whole list (xargs would run several, and tar xf reads only the first).
        git ls-files -z | tar --null -T - -cf - | tar xf - -C "$TMP/clone"
    else
        tar cf - --exclude=./build . | tar xf - -C "$TMP/clone"
    fi
    check "pip wheel --no-build-isolation --no-deps . builds a wheel (offline)" \
        sh -c "cd '$TMP/clone' && env -u PYTHONPATH '$PYTHON' -m pip wheel -q --no-build-isolation \
            --no-deps --no-index -w '$TMP/dist' . >'$TMP/wheel.log' 2>&1"
    check "... which installs into a fresh venv (offline)" \
        sh -c "'$PYTHON' -m venv '$TMP/venv' && '$TMP/venv/bin/python' -m pip install -q --no-index \
            '$TMP'/dist/pgnkit-*.whl >'$TMP/venv.log' 2>&1"
    # Games with errors: counted by the wheel's module in the venv, and by the CLI
    # (distinct game numbers of its error diagnostics).
    (cd / && env -u PYTHONPATH "$TMP/venv/bin/python" -c 'import pgnkit, sys
assert pgnkit.__file__.startswith(sys.prefix), pgnkit.__file__
print(sum(1 for g in pgnkit.read(sys.argv[1]) if g.status == "errors"))' \
        "$TESTDATA/mutants/mutants.pgn") >"$TMP/pip-errors" 2>&1
    "$PGNKIT" check -q "$TESTDATA/mutants/mutants.pgn" | grep ' error\[' |
        sed 's/.*: game \([0-9]*\),.*/\1/' | sort -u | wc -l >"$TMP/cli-errors"
    check "... imports there and finds the games with errors the CLI finds" \
        test "$(cat "$TMP/pip-errors")" = "$(cat "$TMP/cli-errors")"
else
    skip "pip wheel . (no pip or venv for $PYTHON)"
fi
finish
