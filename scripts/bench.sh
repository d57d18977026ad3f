#!/bin/sh
# bench.sh BIN - throughput side by side with pgn-extract, on the same files, in one run.
#
# Builds the ~100 MB corpora from testdata/bench/*.pgn.zst (real games: lichess, TWIC,
# TCEC), then for each corpus and task runs pgnkit on 1 thread, pgnkit on 2 threads, two
# single-thread runs at once (that task's ceiling for --jobs 2) and
# pgn-extract, alternated tool by tool, and prints the MEDIAN of $RUNS runs (default 5):
# MB/s, games/s, plies/s, peak RSS, and the ratios.  Then per corpus the machine's
# ceilings (cat > /dev/null, wc -l, zstd -dc, gzip -dc over the same bytes) next to
# pgnkit -j1/-j2 on the corpus as .pgn, .pgn.zst and .pgn.gz (made here, in BENCH_DIR),
# the pipe ratio (cat F | pgnkit uci -j1 - against the file) and uci -j2 on .zst and .gz
# against the two-core floor (the decoder's CPU plus uci -j1's, over 2 cores), memory
# at 1x and 44x, how time grows, Python, and perft nodes/s against Stockfish.
# Timings are wall-clock of the whole process, output to /dev/null.
#
# Environment: BENCH_DIR (default build/bench), RUNS (default 5), PY_RUNS (the Python
# section's, default 3), PYTHON_CHESS (a folder holding python-chess's chess/ package: the
# Python section then times python-chess itself, in the same rounds), CORPORA (default: all
# four), SKIP_PEER=1 to leave pgn-extract out, PGN_READER_PEER (a pgn-reader program: see
# compare()), BENCH_QUICK=1 for a smoke test (one copy
# of each sample instead of ~100 MB, one run, no growth/perft sections: under a minute).
set -eu
bin=${1:?usage: bench.sh PGNKIT_BINARY}
quick=${BENCH_QUICK:-0}
if [ "$quick" = 1 ]; then
    dir=${BENCH_DIR:-build/bench-quick}
    runs=${RUNS:-1}
else
    dir=${BENCH_DIR:-build/bench}
    runs=${RUNS:-5}
fi
corpora=${CORPORA:-"twic tcec-moves lichess tcec-comments"}
peer=/usr/games/pgn-extract
[ -x "$peer" ] || peer=$(command -v pgn-extract || true)
[ "${SKIP_PEER:-0}" = 1 ] && peer=""
mkdir -p "$dir"
# pair.sh CMD...: two copies of CMD at once (compare's per-task ceiling of --jobs 2).
printf '%s\n' '"$@" >/dev/null 2>&1 & "$@" >/dev/null 2>&1; wait' >"$dir/pair.sh"
# piped.sh FILE CMD...: cat FILE | CMD (the pipe ratio: CMD reads its standard input).
printf '%s\n' 'f=$1; shift; cat "$f" | "$@"' >"$dir/piped.sh"
# pinned.sh FILE CMD...: the same with cat on CPU 1 and CMD on CPU 0 (cat on a core of
# its own: pipes wake their reader's partner on the reader's core, where cat's CPU
# otherwise adds to the wall time whenever the other core is busy).
printf '%s\n' 'f=$1; shift; taskset -c 1 cat "$f" | taskset -c 0 "$@"' >"$dir/pinned.sh"

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
    if [ "$quick" = 1 ]; then # the sample's games up to ~2 MB
        awk '/^\[Event / && n >= 2000000 { exit } { n += length($0) + 1; print }' \
            "$dir/sample-$1.pgn" >"$dir/$3.pgn"
        return 0
    fi
    : >"$dir/$3.pgn"
    i=0
    while [ $i -lt "$2" ]; do
        cat "$dir/sample-$1.pgn" >>"$dir/$3.pgn"
        printf '\n\n' >>"$dir/$3.pgn"
        i=$((i + 1))
    done
}

# ---- measuring ----
# time_one CMD... : one run; prints "wall_seconds peak_rss_kb user_seconds sys_seconds"
# (a failing command too)
time_one() {
    /usr/bin/time -f '%e %M %U %S' -o "$dir/time.txt" "$@" >/dev/null 2>"$dir/stderr.txt" || true
    # GNU time puts "Command exited with non-zero status N" first on a failure.
    tail -n 1 "$dir/time.txt"
}

# alternate "CMD1" "CMD2" ... : $runs rounds, each running every command once in turn
# (so a noisy neighbour hurts them alike); sets secs_K and rss_K (K = 1, 2, ...) to
# command K's median wall time and that run's peak RSS, and cpu_K to the median of its
# CPU time (user + sys, every process of the command).  Commands are split on blanks
# (the paths here have none).  Sets k, r, _cmd, med, medrss too (sh has no locals).
alternate() {
    k=1
    for _cmd in "$@"; do : >"$dir/alt.$k"; k=$((k + 1)); done
    r=0
    while [ $r -lt "$runs" ]; do
        k=1
        for _cmd in "$@"; do
            # shellcheck disable=SC2086
            time_one $_cmd >>"$dir/alt.$k"
            k=$((k + 1))
        done
        r=$((r + 1))
    done
    k=1
    for _cmd in "$@"; do
        read -r med medrss <<EOF2
$(sort -n "$dir/alt.$k" | awk '{ w[NR] = $1; m[NR] = $2 } END { i = int((NR + 1) / 2); print w[i], m[i] }')
EOF2
        awk "BEGIN { exit !($med < 0.01) }" && med=0.01
        medcpu=$(awk '{ print $3 + $4 }' "$dir/alt.$k" | sort -n |
                 awk '{ c[NR] = $1 } END { print c[int((NR + 1) / 2)] }')
        eval "secs_$k=$med rss_$k=$medrss cpu_$k=$medcpu"
        k=$((k + 1))
    done
}

# run_median CMD... : sets secs and rss (the median of $runs runs of one command)
run_median() {
    alternate "$*"
    secs=$secs_1
    rss=$rss_1
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
        'BEGIN { printf "%-12s %-24s %8.2f s %8.1f MB/s %10.0f games/s %6.2f M plies/s %7.1f MB RSS\n",
                 t, k, s, b / 1e6 / s, g / s, p / 1e6 / s, m / 1024 }'
}

rate() { # secs -> "X MB/s" of the corpus's (decoded) bytes
    awk -v s="$1" -v b="$bytes" 'BEGIN { printf "%.1f MB/s", b / 1e6 / s }'
}

# compare corpus label "pgnkit args" "pgn-extract args" [reader]: pgnkit -j1, pgnkit -j2,
# two pgnkit -j1 runs at once (what two cores give two single-thread runs of this very
# task, the ceiling of its --jobs 2, timed in the same rounds so the neighbours weigh on
# both alike) and pgn-extract (when it has a like task) alternated; rows of medians,
# ratios.  With a fifth argument "reader" and PGN_READER_PEER naming an executable (the
# pgn-reader peer of docs/performance.md: `PEER FILE` prints each game's mainline in UCI,
# the bytes of `pgnkit uci`), that peer runs in the same rounds too.
compare() {
    corpus=$1 label=$2 peer_args=$4 reader=${5:-}
    f=$dir/$corpus.pgn
    set -- "$bin $3 -j1 $f" "$bin $3 -j2 $f" "sh $dir/pair.sh $bin $3 -j1 $f"
    extract_k=0 reader_k=0
    if [ -n "$peer" ] && [ -n "$peer_args" ]; then
        set -- "$@" "$peer $peer_args -o /dev/null $f"
        extract_k=$#
    fi
    if [ "$reader" = reader ] && [ -x "${PGN_READER_PEER:-}" ]; then
        set -- "$@" "$PGN_READER_PEER $f"
        reader_k=$#
    fi
    alternate "$@"
    ours=$secs_1
    two=$secs_2
    row "pgnkit -j1" "$label" "$secs_1" "$rss_1"
    row "pgnkit -j2" "$label" "$secs_2" "$rss_2"
    if [ "$extract_k" -gt 0 ]; then
        eval "esecs=\$secs_$extract_k erss=\$rss_$extract_k"
        row pgn-extract "$label" "$esecs" "$erss"
        awk -v k="$label" -v a="$esecs" -v b="$secs_1" -v c="$secs_2" \
            'BEGIN { printf "%-12s %-24s %8.1fx faster than pgn-extract (1 thread), %.1fx (2 threads)\n",
                     "ratio", k, a / b, a / c }'
    fi
    if [ "$reader_k" -gt 0 ]; then
        eval "rsecs=\$secs_$reader_k rrss=\$rss_$reader_k rcpu=\$cpu_$reader_k"
        row pgn-reader "$label" "$rsecs" "$rrss"
        awk -v k="$label" -v a="$rsecs" -v b="$secs_1" -v ac="$rcpu" -v bc="$cpu_1" \
            'BEGIN { printf "%-12s %-24s %8.2fx faster than pgn-reader (1 thread; CPU time %.2fx)\n",
                     "ratio", k, a / b, bc > 0 ? ac / bc : 0 }'
    fi
    awk -v k="$label" -v a="$secs_1" -v b="$secs_2" -v p="$secs_3" \
        'BEGIN { printf "%-12s %-24s %8.2fx one thread with --jobs 2 (ceiling: two -j1 at once %.2fx)\n",
                 "scaling", k, a / b, 2 * a / p }'
}

# ceilings corpus: what this machine reads, counts and decompresses the corpus at,
# next to pgnkit on the same bytes plain, .zst and .gz (made here once: zstd -3, gzip -6).
# The corpus is one sample repeated, and zstd -3's 2 MiB window would find each copy in
# the one before (twic: 100 MB into 0.3 MB, decoded at memcpy speed - no real dump is
# like that); a 512 KiB window (wlog=19, below the smallest sample, 1 MB) keeps the
# copies apart, so the .zst has the sample's own ratio and decoding costs what it would.
ceilings() {
    f=$dir/$1.pgn
    [ -s "$f.zst" ] || zstd -q -3 --zstd=wlog=19 -T0 "$f" -o "$f.zst"
    [ -s "$f.gz" ] || gzip -c "$f" >"$f.gz"
    alternate "cat $f" "wc -l $f" "zstd -dcq $f.zst" "gzip -dc $f.gz"
    echo "ceiling      cat > /dev/null          $(rate "$secs_1") ($secs_1 s)"
    echo "ceiling      wc -l                    $(rate "$secs_2") ($secs_2 s)"
    echo "ceiling      zstd -dc > /dev/null     $(rate "$secs_3") ($secs_3 s; $(stat -c %s "$f.zst") bytes .zst)"
    echo "ceiling      gzip -dc > /dev/null     $(rate "$secs_4") ($secs_4 s; $(stat -c %s "$f.gz") bytes .gz)"
    zstd_secs=$secs_3 gzip_secs=$secs_4 zstd_cpu=$cpu_3 gzip_cpu=$cpu_4
    alternate "$bin uci -j1 $f" "$bin uci -j2 $f" "$bin uci -j1 $f.zst" "$bin uci -j2 $f.zst" \
        "$bin uci -j1 $f.gz" "$bin uci -j2 $f.gz" "sh $dir/piped.sh $f $bin uci -j1 -"
    row "pgnkit -j1" "uci, .pgn" "$secs_1" "$rss_1"
    row "pgnkit -j2" "uci, .pgn" "$secs_2" "$rss_2"
    row "pgnkit -j1" "uci, .pgn.zst" "$secs_3" "$rss_3"
    row "pgnkit -j2" "uci, .pgn.zst" "$secs_4" "$rss_4"
    row "pgnkit -j1" "uci, .pgn.gz" "$secs_5" "$rss_5"
    row "pgnkit -j2" "uci, .pgn.gz" "$secs_6" "$rss_6"
    awk -v p1="$secs_1" -v p2="$secs_2" -v z1="$secs_3" -v z2="$secs_4" -v g1="$secs_5" -v g2="$secs_6" \
        'BEGIN { printf "%-12s %-24s %8.2fx plain at -j1, %.2fx at -j2 (goal at -j2: <= 1.10x)\n", "compressed", ".zst", z1 / p1, z2 / p2
                 printf "%-12s %-24s %8.2fx plain at -j1, %.2fx at -j2\n", "compressed", ".gz", g1 / p1, g2 / p2 }'
    # A pipe: cat F | pgnkit uci -j1 - against pgnkit uci -j1 F, in the same rounds
    # (goal: within 1.05x).  cat's own CPU (reading the file, writing the pipe) runs on
    # another core when one is free; on a busy machine it adds to the wall time, so the
    # CPU of both runs (every process) is printed beside the ratio.
    row "pgnkit -j1" "uci, cat F | -" "$secs_7" "$rss_7"
    awk -v f="$secs_1" -v p="$secs_7" -v fc="$cpu_1" -v pc="$cpu_7" \
        'BEGIN { printf "%-12s %-24s %8.2fx the file at -j1 (goal: <= 1.05x); CPU %.2f s against %.2f s (cat included)\n",
                 "pipe", "cat F | uci -j1 -", p / f, pc, fc }'
    # The floor at -j2 on two cores: (CPU of the decoder alone + CPU of uci -j1 on the
    # plain file) / 2, CPU times (user + sys) of this run's own medians; uci -j2 on the
    # compressed file against it (goal for .zst: <= 1.10x).  With one core the floor is
    # that CPU time whole; it is never under the decoder's own CPU time (one stream is
    # decoded on one core: tcec-comments parses faster than zstd decodes).  gzip -dc is
    # slower than the zlib pgnkit calls (its own inflate: performance.md), so the .gz
    # floor is high and -j2 .gz may come under it.
    awk -v p1="$cpu_1" -v z2="$secs_4" -v g2="$secs_6" -v zc="$zstd_cpu" -v gc="$gzip_cpu" \
        -v n="$(nproc)" \
        'function floor(d) { f = (p1 + d) / (n < 2 ? 1 : 2); f = f < d ? d : f; return f < 0.01 ? 0.01 : f }
         BEGIN { zf = floor(zc); gf = floor(gc)
                 printf "%-12s %-24s %8.2fx the floor at -j2 (%.3f s = (zstd -dc %.2f s + uci -j1 %.2f s of CPU) / %d cores; goal <= 1.10x)\n",
                        "floor", "uci -j2 .zst", z2 / zf, zf, zc, p1, n < 2 ? 1 : 2
                 printf "%-12s %-24s %8.2fx the floor at -j2 (%.3f s = (gzip -dc %.2f s + uci -j1 %.2f s of CPU) / %d cores)\n",
                        "floor", "uci -j2 .gz", g2 / gf, gf, gc, p1, n < 2 ? 1 : 2 }'
    # Last: it sets secs_K anew.
    if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -ge 2 ]; then
        alternate "taskset -c 0 $bin uci -j1 $f" "sh $dir/pinned.sh $f $bin uci -j1 -"
        awk -v f="$secs_1" -v p="$secs_2" -v fc="$cpu_1" -v pc="$cpu_2" \
            'BEGIN { printf "%-12s %-24s %8.2fx the file at -j1, cat on CPU 1 and pgnkit on CPU 0 (%.3f s against %.3f s; CPU %.2f s against %.2f s)\n",
                     "pipe", "pinned", p / f, p, f, pc, fc }'
    fi
}

echo "pgnkit bench: $(uname -m), $(nproc) cores, median of $runs runs alternated tool by tool, output to /dev/null"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -n "$peer" ] && echo "peer: $("$peer" --version 2>&1 | head -n 1 || echo pgn-extract)"
for c in $corpora; do
    make_corpus "$c"
    facts "$c"
    echo
    echo "== $c.pgn: $bytes bytes, $games games, $plies plies"
    compare "$c" "uci --format pgn" "uci --format pgn" "-s -Wuci"
    compare "$c" "uci, moves only" "uci" "" reader
    plain_uci=$ours
    compare "$c" "check (all claims)" "check -q" ""
    compare "$c" "fen --every" "fen --every" ""
    compare "$c" "fen --comments" "fen --comments" "-s --fencomments"
    # Duplicates removed: pgn-extract -D writes PGN, so pgn --verbatim is the like task.
    compare "$c" "pgn --dedupe --verbatim" "pgn --dedupe --verbatim" "-s -D"
    compare "$c" "uci --dedupe" "uci --dedupe" ""
    awk -v a="$ours" -v b="$plain_uci" \
        'BEGIN { printf "%-12s %-24s %8.2fx the time of plain uci\n", "cost", "uci --dedupe", a / b }'
    # Selection by a tag alone: decided before the replay, so it costs no more than uci.
    # pgn-extract -Tr1-0 writes PGN: pgn --verbatim is the like task.
    compare "$c" "uci --where Result=1-0" "uci --where Result=1-0" ""
    awk -v a="$ours" -v b="$plain_uci" \
        'BEGIN { printf "%-12s %-24s %8.2fx the time of plain uci\n", "cost", "uci --where (tag)", a / b }'
    compare "$c" "pgn --verbatim --where" "pgn --verbatim --where Result=1-0" "-s -Tr1-0"
    # Openings: pgn --add-tags ECO,Opening against pgn-extract -e (its own eco.pgn; it adds
    # ECO, Opening and Variation tags), and against plain uci and plain pgn.
    compare "$c" "pgn" "pgn" ""
    plain_pgn=$ours
    eco=/usr/share/pgn-extract/eco.pgn
    compare "$c" "pgn +ECO,Opening" "pgn --add-tags ECO,Opening" \
        "$([ -f $eco ] && echo "-s -e$eco")"
    awk -v a="$ours" -v b="$plain_uci" -v c="$plain_pgn" \
        'BEGIN { printf "%-12s %-24s %8.2fx the time of plain uci, %.2fx plain pgn\n", "cost",
                 "pgn +ECO,Opening", a / b, a / c }'
    compare "$c" "uci tsv" "uci --format tsv" ""
    plain_tsv=$ours
    compare "$c" "uci tsv --with opening" "uci --format tsv --with opening" ""
    awk -v a="$ours" -v b="$plain_tsv" \
        'BEGIN { printf "%-12s %-24s %8.2fx the time of plain uci tsv\n", "cost",
                 "uci --with opening", a / b }'
    ceiling "$(nproc)" "$bin" uci -j1 --format pgn "$dir/$c.pgn"
    awk -v c="$ceiling" -v n="$(nproc)" \
        'BEGIN { printf "%-12s %-24s %8.2fx one thread (%d separate -j1 runs at once, best of each)\n",
                 "ceiling", "--jobs " n, c, n }'
    ceilings "$c"
done

echo
echo "== memory: the same games at 1x and 44x (lichess)"
make_corpus lichess
run_median "$bin" uci -j1 "$dir/sample-lichess-2021-10-999.pgn"
echo "1x  ($(stat -c %s "$dir/sample-lichess-2021-10-999.pgn") bytes): peak RSS $rss KB"
run_median "$bin" uci -j1 "$dir/lichess.pgn"
echo "44x ($(stat -c %s "$dir/lichess.pgn") bytes): peak RSS $rss KB"
run_median "$bin" uci "$dir/lichess.pgn"
echo "44x with --jobs $(nproc): peak RSS $rss KB"

if [ "$quick" != 1 ]; then
echo
echo "== memory: one game of about 64 MB (bound: about its bytes plus a constant, man page)"
# 66 MB of "() " after a first move (44 million tokens), and 60 MB of variations of real
# moves with comments: each replayed and written a part of its tokens at a time, just
# under --max-game-bytes (64 MiB).
one="$dir/one-game-66mb.pgn"
[ -s "$one" ] || { printf '[Event "one"]\n\n1. e4 '
    LC_ALL=C awk 'BEGIN { for (i = 0; i < 22000000; i++) printf "() " }'; printf '*\n'; } >"$one"
var="$dir/one-game-60mb-variations.pgn"
[ -s "$var" ] || { printf '[Event "variations"]\n\n1. e4 '
    LC_ALL=C awk 'BEGIN { for (i = 0; i < 930000; i++)
        printf "(1. d4 d5 2. c4 e6 3. Nc3 Nf6 {a comment} 4. Bg5 Be7 5. e3 O-O) " }'
    printf 'e5 *\n'; } >"$var"
for f in "$one" "$var"; do
    size_kb=$(($(stat -c %s "$f") / 1024))
    for cmd in check uci pgn; do
        for jobs in 1 2; do
            run_median "$bin" $cmd -j$jobs "$f"
            echo "$(basename "$f") ($size_kb KB), $cmd -j$jobs: $secs s, peak RSS $rss KB" \
                "($(awk -v a="$rss" -v b="$size_kb" 'BEGIN { printf "%.2f", a / b }')x its size)"
        done
    done
done

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
    run_median "$bin" uci -j1 "$f"
    echo "${n}x: $secs s, peak RSS $rss KB"
done
run_median "$bin" uci -j1 "$dir/twic.pgn"
echo "100x: $secs s, peak RSS $rss KB"
fi

# DISPATCH_BINS="DEFAULT NATIVE" (make bench builds both, PGO=0, on x86-64): the default
# build, which runs on any x86-64-v2 CPU and picks the AVX2 scanners at run time
# (src/base/cpu.h), against one built for this CPU alone.  Goal: within 1.05x.
if [ "$quick" != 1 ] && [ -n "${DISPATCH_BINS:-}" ]; then
    # shellcheck disable=SC2086
    set -- $DISPATCH_BINS
    echo
    echo "== one binary for every x86-64: default (x86-64-v2 + run-time AVX2) vs -march=native"
    # twic x100 rather than the issue's x20: at ~0.2 s a run, time's 10 ms steps are 5%.
    make_corpus twic
    f="$dir/twic.pgn"
    alternate "$1 uci -j1 $f" "$2 uci -j1 $f"
    echo "uci -j1, twic x100, median of $runs alternated pairs: default $secs_1 s, native $secs_2 s:" \
        "$(awk "BEGIN { printf \"%.3f\", $secs_1 / $secs_2 }")x (goal: at most 1.05x)"
fi

echo
echo "== Python (build/python/pgnkit.so, Debian's python3) against pgnkit -j1 on the same file"
# Alternated with the CLI run each compares to, median of $PY_RUNS (default 3) rounds:
# read() alone against `pgnkit uci` (goal: within 2x), read() + .uci, read() + .moves +
# .comment (a Move object per ply; goal: 100x python-chess), and columns() against `pgnkit uci --tags` (its text
# line per game, the same data) and `--format tsv --tags` (a row per ply; goal: 1.5x).
# python-chess (pure Python, not a dependency of pgnkit): with PYTHON_CHESS=DIR, a folder
# holding its chess/ package (no blanks in the path), its own loops
# (scripts/bench-python-chess.py uci and moves) run in the same rounds on the corpus's
# single sample (about 0.03 M plies/s: the ~100 MB corpus would take minutes a run; the
# corpus itself with BENCH_QUICK=1) and the ratios use the M plies/s measured in this
# run.  Without it, the speed recorded in ../shared/bench/README.md (python-chess 1.11.2,
# another machine, SAN->UCI).
python_chess() { case $1 in tcec-moves) echo 0.05 ;; *) echo 0.04 ;; esac; }
py=${PYTHON:-/usr/bin/python3}
pyb="env PYTHONPATH=build/python $py scripts/bench-python.py"
pychess=""
if [ -n "${PYTHON_CHESS:-}" ] && PYTHONPATH=$PYTHON_CHESS "$py" -c 'import chess.pgn' 2>/dev/null; then
    pychess="env PYTHONPATH=$PYTHON_CHESS $py scripts/bench-python-chess.py"
fi
file_plies() { # file -> its mainline plies, pgnkit's count
    "$bin" check -j1 "$1" 2>&1 >/dev/null | tail -n 1 | sed -n 's/.*; \([0-9]*\) plies.*/\1/p'
}
ratio() { # label secs base_secs rss base_rss
    awk -v l="$1" -v s="$2" -v b="$3" -v m="$4" -v n="$5" \
        'BEGIN { printf "%-12s %-30s %5.2fx the time, %6.1f MB RSS against %.1f MB\n",
                 "ratio", l, s / b, m / 1024, n / 1024 }'
}
if PYTHONPATH=build/python "$py" -c 'import pgnkit' 2>/dev/null; then
    saved_runs=$runs
    runs=${PY_RUNS:-3}
    [ "$quick" = 1 ] && runs=1
    tags=White,Black,Result
    for c in twic tcec-moves lichess; do
        make_corpus "$c"
        facts "$c"
        set -- "$bin uci -q -j1 $dir/$c.pgn" "$pyb read $dir/$c.pgn" "$pyb uci $dir/$c.pgn" \
            "$pyb moves $dir/$c.pgn"
        if [ -n "$pychess" ]; then
            pcf=$dir/sample-$(sample "$c" | cut -d' ' -f1).pgn
            [ "$quick" = 1 ] && pcf=$dir/$c.pgn
            set -- "$@" "$pychess uci $pcf" "$pychess moves $pcf"
        fi
        alternate "$@"
        row pgnkit "$c uci -j1" "$secs_1" "$rss_1"
        row python "$c read()" "$secs_2" "$rss_2"
        row python "$c read() + .uci" "$secs_3" "$rss_3"
        row python "$c read() + .moves" "$secs_4" "$rss_4"
        ratio "read() / uci" "$secs_2" "$secs_1" "$rss_2" "$rss_1"
        ratio "read() + .uci / uci" "$secs_3" "$secs_1" "$rss_3" "$rss_1"
        ratio "read() + .moves / uci" "$secs_4" "$secs_1" "$rss_4" "$rss_1"
        if [ -n "$pychess" ]; then
            awk -v p="$(file_plies "$pcf")" -v f="$(basename "$pcf")" -v u="$secs_5" -v m="$secs_6" \
                -v ur="$rss_5" -v mr="$rss_6" -v P="$plies" -v a="$secs_3" -v b="$secs_4" \
                'BEGIN { printf "%-12s %-30s %8.2f s %6.3f M plies/s %7.1f MB RSS (%s, %d plies)\n",
                                "python-chess", "uci (read_game, .uci())", u, p / 1e6 / u, ur / 1024, f, p
                         printf "%-12s %-30s %8.2f s %6.3f M plies/s %7.1f MB RSS\n",
                                "python-chess", "moves (mainline, comments)", m, p / 1e6 / m, mr / 1024
                         printf "%-12s %-30s %5.0fx python-chess uci (%.3f M plies/s measured)\n",
                                "ratio", "read() + .uci", P / a / (p / u), p / 1e6 / u
                         printf "%-12s %-30s %5.0fx python-chess moves (%.3f M plies/s measured; goal 100x)\n",
                                "ratio", "read() + .moves", P / b / (p / m), p / 1e6 / m }'
        else
            awk -v p="$plies" -v s="$secs_3" -v r="$(python_chess "$c")" \
                'BEGIN { printf "%-12s %-30s %5.0fx python-chess (%.2f M plies/s recorded)\n",
                         "ratio", "read() + .uci", p / 1e6 / s / r, r }'
            awk -v p="$plies" -v s="$secs_4" -v r="$(python_chess "$c")" \
                'BEGIN { printf "%-12s %-30s %5.0fx python-chess (%.2f M plies/s recorded; goal 100x)\n",
                         "ratio", "read() + .moves", p / 1e6 / s / r, r }'
        fi
        alternate "$bin uci -q -j1 --tags $tags $dir/$c.pgn" \
            "$bin uci -q -j1 --format tsv --tags $tags $dir/$c.pgn" "$pyb columns $dir/$c.pgn"
        row pgnkit "$c uci --tags" "$secs_1" "$rss_1"
        row pgnkit "$c uci --format tsv --tags" "$secs_2" "$rss_2"
        row python "$c columns()" "$secs_3" "$rss_3"
        ratio "columns() / uci --tags" "$secs_3" "$secs_1" "$rss_3" "$rss_1"
        ratio "columns() / tsv --tags" "$secs_3" "$secs_2" "$rss_3" "$rss_2"
    done
    runs=$saved_runs
else
    echo "(no module: make python needs python3-dev)"
fi

[ "$quick" = 1 ] && exit 0
echo
echo "== perft (move generator) against Stockfish"
sh scripts/bench-perft.sh "$bin"
