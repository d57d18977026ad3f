#!/bin/sh
# bench.sh BIN - throughput side by side with pgn-extract, on the same files, in one run.
#
# Builds the ~100 MB corpora from testdata/bench/*.pgn.zst (real games: lichess, TWIC,
# TCEC), then for each corpus and task runs pgnkit and pgn-extract alternately and
# prints MB/s, games/s, plies/s, peak RSS and the ratio pgnkit/pgn-extract.  Then
# --jobs scaling, memory at 1x and 10x the input, compressed input, and perft nodes/s
# against Stockfish.  Timings are wall-clock, best of $RUNS (default 2).
#
# Environment: BENCH_DIR (default build/bench), RUNS, CORPORA (default: all four),
# SKIP_PEER=1 to leave pgn-extract out.
set -eu
bin=${1:?usage: bench.sh PGNKIT_BINARY}
dir=${BENCH_DIR:-build/bench}
runs=${RUNS:-2}
corpora=${CORPORA:-"twic tcec-moves lichess tcec-comments"}
peer=/usr/games/pgn-extract
[ -x "$peer" ] || peer=$(command -v pgn-extract || true)
mkdir -p "$dir"

# ---- corpora (the same repetition as shared/bench/make-corpus.sh) ----
sample() { # corpus name -> sample file, copies
    case $1 in
    lichess) echo "lichess-2021-10-999 44" ;;
    twic) echo "twic1599 100" ;;
    tcec-moves) echo "tcec-moves 4" ;;
    tcec-comments) echo "tcec-comments-10MB 10" ;;
    esac
}
make_corpus() {
    set -- $(sample "$1") "$1"
    [ -s "$dir/sample-$1.pgn" ] || zstd -dcq "testdata/bench/$1.pgn.zst" >"$dir/sample-$1.pgn"
    [ -s "$dir/$3.pgn" ] && return 0
    : >"$dir/$3.pgn"
    i=0
    while [ $i -lt "$2" ]; do
        cat "$dir/sample-$1.pgn" >>"$dir/$3.pgn"
        printf '\n\n' >>"$dir/$3.pgn"
        i=$((i + 1))
    done
}

# ---- measuring ----
# run_best CMD... : sets secs (best wall time) and rss (its peak RSS, KB)
run_best() {
    secs=""
    rss=0
    r=0
    while [ $r -lt "$runs" ]; do
        /usr/bin/time -f '%e %M' -o "$dir/time.txt" "$@" >/dev/null 2>"$dir/stderr.txt" || true
        # GNU time puts "Command exited with non-zero status N" first on a failure.
        read -r s m <<EOF2
$(tail -n 1 "$dir/time.txt")
EOF2
        if [ -z "$secs" ] || awk "BEGIN { exit !($s < $secs) }"; then
            secs=$s
            rss=$m
        fi
        r=$((r + 1))
    done
    awk "BEGIN { exit !($secs < 0.01) }" && secs=0.01
    return 0
}

# ceiling N CMD... : sets ceiling, what N cores give N independent single-thread runs at
# once on this machine (shared caches and memory bandwidth, the VM's neighbours): N times
# one run's best time alone over the best time of N runs at once, the two timed back to
# back in each round.  About the most --jobs N could reach here.
wall() { # CMD... : prints the wall seconds of CMD (and of every job it left running)
    start=$(date +%s.%N)
    "$@"
    wait
    awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }'
}
copies() { # N CMD... : N copies of CMD at once, in the background
    k=$1
    shift
    while [ "$k" -gt 0 ]; do
        "$@" >/dev/null 2>&1 &
        k=$((k - 1))
    done
}
ceiling() {
    n=$1
    shift
    r=0
    : >"$dir/ceiling.txt"
    while [ $r -lt "$runs" ]; do
        echo "$(wall copies 1 "$@") $(wall copies "$n" "$@")" >>"$dir/ceiling.txt"
        r=$((r + 1))
    done
    ceiling=$(awk -v n="$n" 'NR == 1 || $1 < a { a = $1 } NR == 1 || $2 < b { b = $2 }
                             END { print n * a / b }' "$dir/ceiling.txt")
}

facts() { # corpus -> sets bytes games plies (from pgnkit's own count)
    bytes=$(stat -c %s "$dir/$1.pgn")
    line=$("$bin" check -j1 "$dir/$1.pgn" 2>&1 >/dev/null | tail -n 1)
    games=$(echo "$line" | sed -n 's/^pgnkit: \([0-9]*\) games.*/\1/p')
    plies=$(echo "$line" | sed -n 's/.*; \([0-9]*\) plies.*/\1/p')
}

row() { # tool task secs rss
    awk -v t="$1" -v k="$2" -v s="$3" -v m="$4" -v b="$bytes" -v g="$games" -v p="$plies" \
        'BEGIN { printf "%-12s %-22s %8.2f s %8.1f MB/s %10.0f games/s %6.2f M plies/s %7.1f MB RSS\n",
                 t, k, s, b / 1e6 / s, g / s, p / 1e6 / s, m / 1024 }'
}

compare() { # corpus label "pgnkit args" "pgn-extract args"
    corpus=$1 label=$2
    run_best $3 "$dir/$corpus.pgn"
    ours=$secs
    row pgnkit "$label" "$secs" "$rss"
    if [ -n "$peer" ] && [ "${SKIP_PEER:-0}" != 1 ] && [ -n "$4" ]; then
        run_best "$peer" $4 -o /dev/null "$dir/$corpus.pgn"
        row pgn-extract "$label" "$secs" "$rss"
        awk -v k="$label" -v a="$secs" -v b="$ours" \
            'BEGIN { printf "%-12s %-22s %8.1fx faster than pgn-extract\n", "ratio", k, a / b }'
    fi
}

echo "pgnkit bench: $(uname -m), $(nproc) cores, best of $runs runs, output to /dev/null"
[ -n "$peer" ] && echo "peer: $("$peer" --version 2>&1 | head -n 1 || echo pgn-extract)"
for c in $corpora; do
    make_corpus "$c"
    facts "$c"
    echo
    echo "== $c.pgn: $bytes bytes, $games games, $plies plies"
    compare "$c" "uci (SAN->UCI)" "$bin uci -j1 --format pgn" "-s -Wuci"
    one_thread=$ours
    compare "$c" "uci, moves only" "$bin uci -j1" ""
    plain_uci=$ours
    compare "$c" "check (all claims)" "$bin check -j1 -q" ""
    compare "$c" "fen --every" "$bin fen -j1 --every" ""
    compare "$c" "fen --comments" "$bin fen -j1 --comments" "-s --fencomments"
    # Duplicates removed: pgn-extract -D writes PGN, so pgn --verbatim is the like task.
    compare "$c" "pgn --dedupe --verbatim" "$bin pgn -j1 --dedupe --verbatim" "-s -D"
    compare "$c" "uci --dedupe" "$bin uci -j1 --dedupe" ""
    awk -v a="$ours" -v b="$plain_uci" \
        'BEGIN { printf "%-12s %-22s %8.2fx the time of plain uci\n", "cost", "uci --dedupe", a / b }'
    # Selection by a tag alone: decided before the replay, so it costs no more than uci.
    # pgn-extract -Tr1-0 writes PGN: pgn --verbatim is the like task.
    compare "$c" "uci --where Result=1-0" "$bin uci -j1 --where Result=1-0" ""
    awk -v a="$ours" -v b="$plain_uci" \
        'BEGIN { printf "%-12s %-22s %8.2fx the time of plain uci\n", "cost", "uci --where (tag)", a / b }'
    compare "$c" "pgn --verbatim --where" "$bin pgn -j1 --verbatim --where Result=1-0" "-s -Tr1-0"
    # Openings: pgn --add-tags ECO,Opening against pgn-extract -e (its own eco.pgn; it adds
    # ECO, Opening and Variation tags), and against plain uci and plain pgn.
    compare "$c" "pgn" "$bin pgn -j1" ""
    plain_pgn=$ours
    eco=/usr/share/pgn-extract/eco.pgn
    compare "$c" "pgn +ECO,Opening" "$bin pgn -j1 --add-tags ECO,Opening" \
        "$([ -f $eco ] && echo "-s -e$eco")"
    awk -v a="$ours" -v b="$plain_uci" -v c="$plain_pgn" \
        'BEGIN { printf "%-12s %-22s %8.2fx the time of plain uci, %.2fx plain pgn\n", "cost",
                 "pgn +ECO,Opening", a / b, a / c }'
    compare "$c" "uci tsv" "$bin uci -j1 --format tsv" ""
    plain_tsv=$ours
    compare "$c" "uci tsv --with opening" "$bin uci -j1 --format tsv --with opening" ""
    awk -v a="$ours" -v b="$plain_tsv" \
        'BEGIN { printf "%-12s %-22s %8.2fx the time of plain uci tsv\n", "cost",
                 "uci --with opening", a / b }'
    compare "$c" "uci --jobs $(nproc)" "$bin uci --format pgn" ""
    awk -v a="$one_thread" -v b="$ours" -v n="$(nproc)" \
        'BEGIN { printf "%-12s %-22s %8.2fx one thread\n", "scaling", "--jobs " n, a / b }'
    ceiling "$(nproc)" "$bin" uci -j1 --format pgn "$dir/$c.pgn"
    awk -v c="$ceiling" -v n="$(nproc)" \
        'BEGIN { printf "%-12s %-22s %8.2fx one thread (%d separate -j1 runs at once)\n",
                 "ceiling", "--jobs " n, c, n }'
done

echo
echo "== memory: the same games at 1x and 44x (lichess)"
make_corpus lichess
run_best "$bin" uci -j1 "$dir/sample-lichess-2021-10-999.pgn"
echo "1x  ($(stat -c %s "$dir/sample-lichess-2021-10-999.pgn") bytes): peak RSS $rss KB"
run_best "$bin" uci -j1 "$dir/lichess.pgn"
echo "44x ($(stat -c %s "$dir/lichess.pgn") bytes): peak RSS $rss KB"
run_best "$bin" uci "$dir/lichess.pgn"
echo "44x with --jobs $(nproc): peak RSS $rss KB"

echo
echo "== how time grows: twic at 1x, 10x, 100x"
make_corpus twic
for n in 1 10; do
    f="$dir/twic-$n.pgn"
    i=0
    : >"$f"
    while [ $i -lt $n ]; do
        cat "$dir/sample-twic1599.pgn" >>"$f"
        printf '\n\n' >>"$f"
        i=$((i + 1))
    done
    run_best "$bin" uci -j1 "$f"
    echo "${n}x: $secs s, peak RSS $rss KB"
done
run_best "$bin" uci -j1 "$dir/twic.pgn"
echo "100x: $secs s, peak RSS $rss KB"

echo
echo "== compressed input (lichess, 102 MB)"
[ -s "$dir/lichess.pgn.zst" ] || zstd -q -3 -T0 "$dir/lichess.pgn" -o "$dir/lichess.pgn.zst"
[ -s "$dir/lichess.pgn.gz" ] || gzip -c -1 "$dir/lichess.pgn" >"$dir/lichess.pgn.gz"
facts lichess
run_best "$bin" uci -j1 "$dir/lichess.pgn"
row pgnkit "plain" "$secs" "$rss"
run_best "$bin" uci -j1 "$dir/lichess.pgn.zst"
row pgnkit "zstd" "$secs" "$rss"
run_best "$bin" uci -j1 "$dir/lichess.pgn.gz"
row pgnkit "gzip" "$secs" "$rss"

echo
echo "== Python: pgnkit.read() and each game's .uci (build/python/pgnkit.so, Debian's python3)"
# python-chess cannot be installed here: its speed on these corpora is the one recorded
# in ../shared/bench/README.md (python-chess 1.11.2, same machine kind, SAN->UCI).
python_chess() { case $1 in tcec-moves) echo 0.05 ;; *) echo 0.04 ;; esac; }
py=${PYTHON:-/usr/bin/python3}
if PYTHONPATH=build/python "$py" -c 'import pgnkit' 2>/dev/null; then
    for c in twic tcec-moves lichess; do
        make_corpus "$c"
        facts "$c"
        run_best env PYTHONPATH=build/python "$py" scripts/bench-python.py "$dir/$c.pgn"
        row python "$c read + .uci" "$secs" "$rss"
        awk -v p="$plies" -v s="$secs" -v r="$(python_chess "$c")" \
            'BEGIN { printf "%-12s %-22s %8.0fx python-chess (%.2f M plies/s recorded)\n",
                     "ratio", "python read", p / 1e6 / s / r, r }'
    done
else
    echo "(no module: make python needs python3-dev)"
fi

echo
echo "== perft (move generator) against Stockfish"
sh scripts/bench-perft.sh "$bin"
