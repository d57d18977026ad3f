#!/bin/sh
# check-leaks.sh PGNKIT - every command over the PGN corpus, and the fuzz corpora, under
# valgrind: no invalid access, no uninitialised value, no leak (exit status 9 is one).  Run on
# a debug build: release code is built with -march=native, which valgrind may not know.
set -u
pgnkit=$1
passed=0
failed=0
files=$(ls testdata/pgn/*/*.pgn)

vg() {
    name=$1
    shift
    valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
        --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=9 "$@" \
        <"${stdin:-/dev/null}" >/dev/null 2>"${TMPDIR:-/tmp}/check-leaks.$$"
    rc=$?
    if [ $rc -le 2 ] && ! grep -q '^==' "${TMPDIR:-/tmp}/check-leaks.$$"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $name (exit status $rc)"
        grep '^==' "${TMPDIR:-/tmp}/check-leaks.$$" | head -n 40
    fi
    rm -f "${TMPDIR:-/tmp}/check-leaks.$$"
}

# shellcheck disable=SC2086 # $files is a list of paths without blanks
vg "check -j1" "$pgnkit" check -q -j1 $files
vg "check -j2 --format json" "$pgnkit" check -q -j2 --format json $files
vg "uci -j2" "$pgnkit" uci -q -j2 $files
vg "uci --format tsv --with clk,eval" "$pgnkit" uci -q -j1 --format tsv --with clk,eval $files
vg "fen --every" "$pgnkit" fen -q -j2 --every $files
vg "pgn" "$pgnkit" pgn -q -j1 $files
cat $files >"${TMPDIR:-/tmp}/check-leaks-all.$$"
stdin="${TMPDIR:-/tmp}/check-leaks-all.$$"
vg "uci from standard input" "$pgnkit" uci -q -j2 -
stdin=/dev/null
rm -f "${TMPDIR:-/tmp}/check-leaks-all.$$"
vg "small limits" "$pgnkit" check -q -j1 --max-game-bytes 2000 --max-token-bytes 6 \
    --max-comment-bytes 20 --max-depth 2 $files
vg "perft" "$pgnkit" perft "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" 2
vg "missing file" "$pgnkit" check /nonexistent.pgn

# The fuzz corpora through their harnesses (valgrind sees uninitialised reads, which
# ASan does not): build/debug/fuzz/replay_<target>, built by make check-leaks.
for t in pgn_reader san fen; do
    replay=$(dirname "$pgnkit")/fuzz/replay_$t
    [ -x "$replay" ] && vg "fuzz corpus $t" "$replay" "testdata/fuzz-corpus/$t"
done

# The Python module, built by pip for plain x86-64 (valgrind cannot run -march=native
# code), reading every file with every attribute, under Python's plain malloc.  Only
# definite leaks count: the interpreter keeps "possibly lost" memory until exit.
python=${PYTHON:-/usr/bin/python3}
pydir=${TMPDIR:-/tmp}/check-leaks-py.$$
if "$python" -m pip install -q --no-build-isolation --no-index --target "$pydir" . >/dev/null 2>&1; then
    rm -rf build/bdist.* build/temp.* build/lib.* pgnkit.egg-info
    cat >"$pydir/read_all.py" <<'PY'
import sys, pgnkit
for path in sys.argv[1:]:
    for g in pgnkit.read(path):
        g.tags, g.uci, g.san, g.fens(), g.clocks, g.evals, g.diagnostics
    list(pgnkit.check(path))
try:
    pgnkit.read("/nonexistent.pgn")
except OSError:
    pass
PY
    PYTHONMALLOC=malloc PYTHONPATH="$pydir" valgrind -q --leak-check=full \
        --show-leak-kinds=definite --errors-for-leak-kinds=definite --error-exitcode=9 \
        "$python" "$pydir/read_all.py" $files >/dev/null 2>"$pydir/log"
    rc=$?
    if [ $rc -eq 0 ] && ! grep -q '^==' "$pydir/log"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: python module (exit status $rc)"
        grep '^==' "$pydir/log" | head -n 40
    fi
else
    echo "skip: python module (pip install . failed: python3-dev, python3-pip?)"
fi
rm -rf "$pydir"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
