#!/bin/sh
# lowmem.sh - out of memory is a clean error, never a crash: under `ulimit -v` from too
# small to enough, every run ends with status 0, 1 or 2 (2 with a message), never by a
# signal (an allocation failure aborted: SIGABRT; -j2 died so at 10-12 MB), and leaves no
# temporary file of -o behind.  Limits too small for the loader to map the libraries
# (status 127, before pgnkit runs) are passed over.
. tests/cli/lib/common.sh

# A sanitizer reserves terabytes of shadow address space at start: no ulimit -v leaves it
# room, and it aborts before pgnkit's own code runs.  Release builds only.
case $PGNKIT in *asan* | *tsan*) skip "ulimit -v: sanitizer builds reserve shadow memory"; finish ;; esac

cp "$TESTDATA/tcec/TCEC_Match_1.pgn" "$TMP/in.pgn"
zstd -q -c "$TMP/in.pgn" >"$TMP/in.pgn.zst" 2>/dev/null || cp "$TMP/in.pgn" "$TMP/in.pgn.zst"
mkdir "$TMP/m" && cp "$TMP/in.pgn" "$TMP/m/a.pgn" && cp "$TMP/in.pgn" "$TMP/m/b.pgn"
if command -v tar >/dev/null; then tar -C "$TMP/m" -czf "$TMP/in.tgz" a.pgn b.pgn; else cp "$TMP/in.pgn" "$TMP/in.tgz"; fi

signals=0 silent=0 left=0 runs=0 worked=0
# try LIMIT_KB ARGS...: one run under the limit.
try() {
    _v=$1
    shift
    rm -f "$TMP/o.pgn"
    (ulimit -v "$_v" && exec "$PGNKIT" "$@" -q --no-progress) >/dev/null 2>"$TMP/err"
    _rc=$?
    grep -q 'error while loading shared libraries' "$TMP/err" && return
    runs=$((runs + 1))
    case $_rc in
    0 | 1) worked=$((worked + 1)) ;;
    2) [ -s "$TMP/err" ] || { silent=$((silent + 1)); echo "# silent exit 2: $_v KB: $*"; } ;;
    *) signals=$((signals + 1)); echo "# status $_rc under $_v KB: $* ($(head -c 200 "$TMP/err"))" ;;
    esac
    if ls "$TMP"/o.pgn.tmp.* >/dev/null 2>&1; then
        left=$((left + 1))
        echo "# temporary file left under $_v KB: $*"
        rm -f "$TMP"/o.pgn.tmp.*
    fi
}

v=4000
while [ $v -le 40000 ]; do
    try $v uci -j1 "$TMP/in.pgn"
    try $v uci -j2 "$TMP/in.pgn"
    try $v pgn -j2 -o "$TMP/o.pgn" "$TMP/in.pgn"
    try $v check -j2 --player 'Stock.*' "$TMP/in.pgn.zst"
    try $v fen --every --format json -j1 -o "$TMP/o.pgn" "$TMP/in.tgz"
    v=$((v + 1000))
done
check "low ulimit -v: $runs runs, none ended by a signal" [ "$signals" = 0 ]
check "low ulimit -v: every exit 2 says why" [ "$silent" = 0 ]
check "low ulimit -v: no temporary file of -o left" [ "$left" = 0 ]
check "low ulimit -v: the larger limits work ($worked runs)" [ "$worked" -gt 0 ]
finish
