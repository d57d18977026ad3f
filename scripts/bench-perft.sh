#!/bin/sh
# bench-perft.sh BIN [COUNT] - perft nodes/s of BIN against Stockfish, side by side.
#
# For the first COUNT (default 8) positions of testdata/perft/standard.epd, runs
# `BIN perft FEN 5` (depth 4 where depth 5 is over 200M nodes) and Stockfish's
# `go perft 5` on the same position (DEPTH=6 picks 6, falling back to 5 the same way), checks both counts against the file, and prints
# nodes/s for each and the overall ratio pgnkit/stockfish (total nodes / total time).
#
# Time is CPU time (user + sys) from /usr/bin/time, best of RUNS (default 3) runs, so a
# busy machine disturbs it less than wall time.  Stockfish's start-up cost (measured
# with an empty session, also best of RUNS) is subtracted from its runs.  CPU time is
# counted in 10 ms steps, so rates of runs under 50 ms print as "-"; the overall ratio
# (total nodes over total time) is dominated by the long runs.
set -eu

bin=${1:?usage: bench-perft.sh BIN [COUNT]}
count=${2:-8}
runs=${RUNS:-3}
want_depth=${DEPTH:-5}
sf=${STOCKFISH:-/usr/games/stockfish}
epd=${EPD:-testdata/perft/standard.epd}
limit=200000000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$bin" ] || { echo "bench-perft: $bin is not executable" >&2; exit 2; }
[ -x "$sf" ] || { echo "bench-perft: no stockfish at $sf" >&2; exit 2; }

# cpu_time CMD...: run CMD, stdout to $tmp/out, print user+sys seconds.
cpu_time() {
    /usr/bin/time -f '%U %S' -o "$tmp/time" "$@" >"$tmp/out"
    awk '{ printf "%.3f\n", $1 + $2 }' "$tmp/time"
}

# best_of N CMD...: the smallest CPU time of N runs; last stdout kept in $tmp/out.
best_of() {
    n=$1
    shift
    best=
    i=0
    while [ "$i" -lt "$n" ]; do
        t=$(cpu_time "$@")
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$t
        fi
        i=$((i + 1))
    done
    echo "$best"
}

printf 'isready\nquit\n' >"$tmp/sf-empty"
sf_base=$(best_of "$runs" sh -c "\"$sf\" <\"$tmp/sf-empty\"")

printf '%-4s %-5s %12s %10s %12s %10s %12s\n' pos depth nodes pgnkit_s pgnkit_nps sf_s sf_nps
total_nodes=0
total_pk=0
total_sf=0
n=0
while IFS= read -r line && [ "$n" -lt "$count" ]; do
    n=$((n + 1))
    fen=$(printf '%s' "$line" | cut -d';' -f1 | sed 's/ *$//')
    depth=$want_depth
    want=$(printf '%s' "$line" | tr ';' '\n' | awk -v d="D$depth" '$1 == d { print $2 }')
    if [ -z "$want" ] || [ "$want" -gt "$limit" ]; then
        depth=$((depth - 1))
        want=$(printf '%s' "$line" | tr ';' '\n' | awk -v d="D$depth" '$1 == d { print $2 }')
    fi

    pk=$(best_of "$runs" "$bin" perft "$fen" "$depth")
    got=$(tail -n 1 "$tmp/out")
    [ "$got" = "$want" ] || { echo "bench-perft: pgnkit counted $got, want $want: $fen" >&2; exit 1; }

    printf 'position fen %s\ngo perft %d\nquit\n' "$fen" "$depth" >"$tmp/sf-in"
    sfr=$(best_of "$runs" sh -c "\"$sf\" <\"$tmp/sf-in\"")
    sfn=$(awk '/^Nodes searched/ { print $3 }' "$tmp/out")
    [ "$sfn" = "$want" ] || { echo "bench-perft: stockfish counted $sfn, want $want: $fen" >&2; exit 1; }
    sft=$(awk -v a="$sfr" -v b="$sf_base" 'BEGIN { t = a - b; if (t < 0.001) t = 0.001; printf "%.3f", t }')

    awk -v n="$n" -v d="$depth" -v nodes="$want" -v p="$pk" -v s="$sft" 'BEGIN {
        # /usr/bin/time counts in 10 ms steps: below 50 ms a rate means little.
        pn = p < 0.05 ? "-" : sprintf("%.0f", nodes / p)
        sn = s < 0.05 ? "-" : sprintf("%.0f", nodes / s)
        printf "%-4d %-5d %12d %10.3f %12s %10.3f %12s\n", n, d, nodes, p, pn, s, sn }'
    total_nodes=$((total_nodes + want))
    total_pk=$(awk -v a="$total_pk" -v b="$pk" 'BEGIN { printf "%.3f", a + b }')
    total_sf=$(awk -v a="$total_sf" -v b="$sft" 'BEGIN { printf "%.3f", a + b }')
done <"$epd"

awk -v nodes="$total_nodes" -v p="$total_pk" -v s="$total_sf" -v base="$sf_base" 'BEGIN {
    printf "total: %d nodes; pgnkit %.3f s (%.0f nodes/s); stockfish %.3f s (%.0f nodes/s, start-up %.3f s subtracted per run)\n",
        nodes, p, nodes / p, s, nodes / s, base
    printf "ratio pgnkit/stockfish: %.2f\n", (nodes / p) / (nodes / s) }'
