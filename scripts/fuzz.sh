#!/bin/sh
# fuzz.sh OUTDIR TARGET SECONDS - run one libFuzzer target, then merge what it found into
# testdata/fuzz-corpus/TARGET (only inputs that add coverage: the committed corpus stays
# small).  Seeds: games split out of testdata/pgn and testdata/variants/pgn (pgn_reader,
# writer), their move tokens (san), the FENs of testdata/perft (fen), testdata/variants'
# positions and games (variant).  Crashes go to OUTDIR/artifacts/TARGET/; copy each one
# into testdata/fuzz-corpus/TARGET/ as a regression file once it is fixed.
set -eu
out=$1
target=$2
seconds=$3
bin=$out/fuzz/fuzz_$target
corpus=testdata/fuzz-corpus/$target
work=$out/corpus/$target
seeds=$out/seeds/$target
artifacts=$out/artifacts/$target
mkdir -p "$corpus" "$work" "$seeds" "$artifacts"

if [ -z "$(ls -A "$seeds")" ]; then
    case $target in
    pgn_reader | writer | api)
        # One seed per game (at most 40 per file), cut at each [Event line.  (api: the
        # first byte, '[', chooses the options: fuzz_api.c.)
        for f in testdata/pgn/*/*.pgn testdata/variants/pgn/*.pgn; do
            awk -v dir="$seeds" -v base="$(echo "$f" | tr / _)" '
                /^\[Event / { n++; if (n > 40) exit }
                n > 0 { print > (dir "/" base "-" n) }' "$f"
        done ;;
    san)
        cat testdata/pgn/*/*.pgn | tr -s ' \t\r' '\n\n\n' | grep -E '^[a-hKQRBNPO0-9Z-]' |
            grep -v '^\[' | sort -u | head -n 3000 | awk -v dir="$seeds" \
            '{ f = dir "/tok" NR; printf "%s", $0 > f; close(f) }' ;;
    fen)
        # First byte: 0 standard, 1 Chess960 (fuzz_fen.c).
        for f in testdata/perft/*.epd testdata/perft/*.perft; do
            grep -v '^#' "$f" | grep '/' | sed 's/ *;.*//; s/^[a-z]* *//' ; done |
            sort -u | awk -v dir="$seeds" '
                { f = dir "/fen" NR; printf "%d%s", (FILENAME ~ /fischer/), $0 > f; close(f) }'
        ;;
    variant)
        sh scripts/fuzz-variant-seeds.sh "$seeds" ;;
    where)
        # An expression on the first line (fuzz_where.c), then a few games to judge.
        n=0
        for f in testdata/pgn/*/*.pgn; do
            for e in 'White = "Carlsen, Magnus"' 'Date >= 2020.01' 'WhiteElo > 2500' \
                     'Event ~ (?i)world' 'Result != 1-0' 'Round <= 3.1'; do
                n=$((n + 1))
                { printf '%s\n' "$e"; head -c 4000 "$f"; } >"$seeds/where$n"
            done
        done ;;
    esac
fi

case $target in
pgn_reader | writer | api) maxlen=8192 ;;
san) maxlen=64 ;;
fen) maxlen=256 ;;
source) maxlen=16384 ;;
variant) maxlen=4096 ;;
where) maxlen=4096 ;;
*) maxlen=4096 ;;
esac

echo "fuzz: $target for $seconds s"
# FUZZ_SEED: a fixed seed (CI), so that a run on the same tree mutates the same way.
"$bin" ${FUZZ_SEED:+-seed="$FUZZ_SEED"} -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=$maxlen \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$work" "$corpus" "$seeds" \
    >"$out/fuzz-$target.log" 2>&1 || { tail -n 60 "$out/fuzz-$target.log"; exit 1; }
tail -n 12 "$out/fuzz-$target.log"
# Keep only what adds edge coverage to the committed corpus (-use_counters=0: hit counts
# would keep thousands of files); the working corpus in $work keeps everything.
"$bin" -merge=1 -use_counters=0 -max_len=$maxlen "$corpus" "$work" >>"$out/fuzz-$target.log" 2>&1
echo "fuzz: $target corpus $(ls "$corpus" | wc -l) files, $(du -sh "$corpus" | cut -f1)"
