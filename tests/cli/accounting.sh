#!/bin/sh
# accounting.sh - no game is lost: for a generated file of 200,000 games, some broken,
# uci writes exactly one line per game (with --jobs 1 and 2), and the summary of check
# adds up: games = ok + with warnings + with errors + skipped, each as generated.
# Under ASan (PGNKIT in build/asan/) the file has 20,000 games.
set -u
pgnkit=${PGNKIT:-build/release/pgnkit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

games=200000
case $pgnkit in *asan*) games=20000 ;; esac

# Clean games, and mixed in: illegal moves and unterminated comments (errors), a Result
# tag that differs and NUL bytes (warnings), games over --max-game-bytes 200 (skipped).
LC_ALL=C awk -v n="$games" -v counts="$tmp/counts" 'BEGIN {
    for (i = 1; i <= n; i++) {
        if (i % 1000 == 0) {
            printf "[Event \"illegal\"]\n1. e4 Ke7 *\n\n"; err++
        } else if (i % 2000 == 1) {
            printf "[Event \"open comment\"]\n1. e4 { never closed\n\n"; err++
        } else if (i % 1000 == 500) {
            printf "[Event \"mismatch\"]\n[Result \"1-0\"]\n1. e4 e5 *\n\n"; warn++
        } else if (i % 3000 == 2) {
            printf "[Event \"nul\"]\n1. e4%c e5 *\n\n", 1; warn++
        } else if (i % 5000 == 250) {
            printf "[Event \"big\"]\n1. e4 {%0250d} e5 *\n\n", 0; skip++
        } else {
            printf "[Event \"x\"]\n1. e4 e5 *\n\n"; ok++
        }
    }
    printf "%d ok, %d with warnings, %d with errors, %d skipped\n", ok, warn, err, skip > counts
}' >"$tmp/many.pgn"

for jobs in 1 2; do
    timeout 60 "$pgnkit" uci -q -j$jobs --max-game-bytes 200 "$tmp/many.pgn" >"$tmp/out" 2>/dev/null
    rc=$?
    lines=$(wc -l <"$tmp/out")
    if [ $rc = 1 ] && [ "$lines" -eq "$games" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: uci -j$jobs: $lines lines for $games games (exit status $rc)"
    fi

    timeout 60 "$pgnkit" check --no-progress -j$jobs --max-game-bytes 200 "$tmp/many.pgn" \
        >/dev/null 2>"$tmp/err"
    summary=$(grep '^pgnkit: [0-9]* games' "$tmp/err")
    want="pgnkit: $games games: $(cat "$tmp/counts");"
    case $summary in
    "$want"*) passed=$((passed + 1)) ;;
    *)
        failed=$((failed + 1))
        echo "FAIL: check -j$jobs summary: $summary"
        echo "      want: $want" ;;
    esac
done

echo "$games games: $(cat "$tmp/counts")"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
