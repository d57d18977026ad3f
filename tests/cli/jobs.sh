#!/bin/sh
# jobs.sh - --jobs N writes exactly the bytes --jobs 1 writes, for every command and
# format, on every shared PGN file at once (the lichess variant games among them) and on
# standard input.
. tests/cli/lib/common.sh
pgnkit=$PGNKIT
tmp=$TMP

# Many games in one stream, so several batches are in flight at once.
cat testdata/pgn/*/*.pgn testdata/variants/pgn/*.pgn testdata/variants/pgn/python-chess/*.pgn \
    testdata/pgn/*/*.pgn > "$tmp/all.pgn"

check() {
    name=$1
    shift
    "$pgnkit" "$@" -q -j1 "$tmp/all.pgn" >"$tmp/out1" 2>"$tmp/err1"
    rc1=$?
    for j in 2 3 8; do
        "$pgnkit" "$@" -q -j$j "$tmp/all.pgn" >"$tmp/outN" 2>"$tmp/errN"
        rcN=$?
        if cmp -s "$tmp/out1" "$tmp/outN" && cmp -s "$tmp/err1" "$tmp/errN" && [ $rc1 = $rcN ]; then
            ok "$name: -j$j writes what -j1 writes"
        else
            not_ok "$name: -j$j differs from -j1 (exit $rcN vs $rc1)"
        fi
    done
    # Standard input (a pipe, no size known) through both paths.
    cat "$tmp/all.pgn" | "$pgnkit" "$@" -q -j1 - >"$tmp/outS1" 2>/dev/null
    cat "$tmp/all.pgn" | "$pgnkit" "$@" -q -j2 - >"$tmp/outS2" 2>/dev/null
    if cmp -s "$tmp/outS1" "$tmp/outS2"; then
        ok "$name: standard input, -j2 = -j1"
    else
        not_ok "$name: from standard input, -j2 differs from -j1"
    fi
}

check "check" check
check "check json" check --format json
check "uci" uci
check "uci tags" uci --tags Event,White,Black
check "uci json" uci --format json
check "fen" fen
check "fen every" fen --every
check "pgn" pgn
check "pgn add-tags ECO,Opening" pgn --add-tags ECO,Opening

# The variant games on their own too: their outputs are not lost among the others.
cat testdata/variants/pgn/*.pgn testdata/variants/pgn/python-chess/*.pgn >"$tmp/all.pgn"
grep -q '^\[Variant "Crazyhouse"\]' "$tmp/all.pgn" && ok "variant games: the stream holds them" ||
    not_ok "variant games: none found"
check "variants uci" uci
check "variants fen every" fen --every
check "variants pgn" pgn
check "variants check json" check --format json

# Memory: the chunks in the ring hold their output until it is written in order, and the
# per-ply outputs write ~7 bytes per byte read (pipeline.c sizes chunks by their output);
# every thread has its own SAN cache, reader and stack.  ~30 MB of games of bare moves
# (parallel.sh's file, 250 times): at -j2, -j8, -j16 and -j32 the peak RSS stays within
# 16 MB (it was 20-22 MB at -j2 before chunks were sized by their output, 24 MB at -j8
# before the ring was one budget, 19-20 MB at -j16 and 28-36 MB at -j32 before libarchive
# was loaded only for archives, the threads shared one malloc arena and at most 16 ran),
# and the output is the output of -j1 (cksum of stdout, stderr, exit status).  The same
# from zstd-compressed input (its decoder holds a 2 MiB window and a thread of its own),
# for the last command (against its -j1 run on the plain file).
measure_bounds_or_finish
cat "$TESTDATA/pgn-extract/fischer.pgn" "$TESTDATA/pgn-extract/petrosian.pgn" \
    "$TESTDATA/chess.js/benchmark.pgn" >"$tmp/big1.pgn"
i=0
while [ $i -lt 250 ]; do cat "$tmp/big1.pgn"; i=$((i + 1)); done >"$tmp/big.pgn"
# rss_and_sum FILE J ARGS...: peak RSS of pgnkit ARGS -jJ FILE into $kb, cksum of its stdout
# into $sum, stderr into $tmp/errJ, exit status into $rc.
rss_and_sum() {
    _f=$1 _j=$2
    shift 2
    sum=$( { /usr/bin/time -o "$tmp/time" -f '%M' "$pgnkit" "$@" -j"$_j" "$_f" \
        2>"$tmp/err$_j"; echo $? >"$tmp/rc"; } | cksum)
    kb=$(tail -n 1 "$tmp/time")
    rc=$(cat "$tmp/rc")
}
# same_as_j1 WHAT J: the last run (-jJ) wrote what -j1 wrote ($sum1, $rc1, $tmp/err_j1).
same_as_j1() {
    if [ "$sum" = "$sum1" ] && [ "$rc" = "$rc1" ] && cmp -s "$tmp/err_j1" "$tmp/err$2"; then
        ok "30 MB, $1: -j$2 writes what -j1 writes"
    else
        not_ok "30 MB, $1: -j$2 differs from -j1 (exit $rc against $rc1)"
    fi
}
# within_and_same WHAT J: the last run within 16 MB and writing what -j1 wrote.
# (check is this file's own: it runs pgnkit)
within_and_same() {
    if [ "$kb" -le 16384 ]; then
        ok "30 MB, $1 -j$2: peak RSS $kb KB, within 16 MB (-j1: $kb1 KB)"
    else
        not_ok "30 MB, $1 -j$2: peak RSS $kb KB, over 16 MB (-j1: $kb1 KB)"
    fi
    same_as_j1 "$1" "$2"
}
for args in "fen --every" "fen --comments" "uci --format tsv --with opening"; do
    # shellcheck disable=SC2086 # $args is a command and its options
    rss_and_sum "$tmp/big.pgn" 1 $args
    sum1=$sum rc1=$rc kb1=$kb
    cp "$tmp/err1" "$tmp/err_j1"
    # Any --jobs on any machine: the ring is a fixed budget shared by its slots (it was
    # ~1.1 MB a thread: 24 MB at -j8), and -j32 runs 16 threads (run.c).
    for j in 2 8 16 32; do
        # shellcheck disable=SC2086
        rss_and_sum "$tmp/big.pgn" $j $args
        within_and_same "$args" $j
    done
done
# The decoder's window and thread on top of the most a run without them takes.
if command -v zstd >/dev/null 2>&1; then
    zstd -q "$tmp/big.pgn" -o "$tmp/big.pgn.zst"
    # shellcheck disable=SC2086
    rss_and_sum "$tmp/big.pgn.zst" 32 $args
    within_and_same "$args (zstd)" 32
    # zstd -19's window is 8 MiB (14 MB at -j1, 16-17 at -j2, 18-22 at -j8 to -j32 when
    # the ring and the threads ignored it): the run's budget pays for it first, with a
    # smaller ring and, past -j4, fewer threads (budget.c).
    zstd -q -19 "$tmp/big.pgn" -o "$tmp/big19.pgn.zst"
    for j in 1 2 8 32; do
        # shellcheck disable=SC2086
        rss_and_sum "$tmp/big19.pgn.zst" $j $args
        within_and_same "$args (zstd -19, 8 MiB window)" $j
    done
    # zstd --long=27 from a pipe declares a 128 MiB window: the decoder holds all it
    # decodes up to that, the run around it its smallest ring and two threads: the
    # decoded bytes (all 30 MB here) and at most 8 MiB more, at any --jobs.
    zstd -q --long=27 -c <"$tmp/big.pgn" >"$tmp/long27.pgn.zst"
    limit=$(($(wc -c <"$tmp/big.pgn") / 1024 + 8192))
    for j in 1 2 8 32; do
        # shellcheck disable=SC2086
        rss_and_sum "$tmp/long27.pgn.zst" $j $args
        if [ "$kb" -le "$limit" ]; then
            ok "30 MB, zstd --long=27 -j$j: peak RSS $kb KB, within the decoded size + 8 MiB ($limit KB)"
        else
            not_ok "30 MB, zstd --long=27 -j$j: peak RSS $kb KB, over the decoded size + 8 MiB ($limit KB)"
        fi
        same_as_j1 "zstd --long=27 (against the plain file)" "$j"
    done
else
    skip "30 MB zstd-compressed: zstd is missing"
fi

finish
