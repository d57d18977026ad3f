#!/bin/sh
# summary.sh - --summary-json and pgnkit summary: the summaries of ranges tiling a file,
# and of files run one by one, add up to the summary of one run over everything; the
# exit status rules apply to the sum; overlapping pieces and broken files are refused.
. "$(dirname "$0")/lib/common.sh"

m=$TESTDATA/mutants/mutants.pgn
t=$TESTDATA/tcec/TCEC_Match_1.pgn
size=$(wc -c <"$m" | tr -d ' ')
# The parts that differ between a run and a sum of runs: time, and where a range was.
strip() { sed 's/"seconds":[0-9.]*/"seconds":0/; s/"range":[^,]*,[^,]*,/"range":null,/g; s/"range":null,/"range":null,/g' "$1"; }

"$PGNKIT" check -q "$m" "$t" --summary-json "$TMP/whole.json" >/dev/null
check "--summary-json: has every top-level key" \
    sh -c "for k in games by_status by_code plies bytes seconds files; do grep -q \"\\\"\$k\\\":\" '$TMP/whole.json' || exit 1; done"
check "--summary-json: the bytes are the files' sizes" \
    grep -q "\"bytes\":$((size + $(wc -c <"$t"))),\"error_diags\"" "$TMP/whole.json"

prev=0 n=0
for c in 1 50000 50001 123456 300000 "$size"; do
    n=$((n + 1))
    "$PGNKIT" check -q --range "$prev:$c" "$m" --summary-json "$TMP/r$n.json" >/dev/null
    prev=$c
done
"$PGNKIT" check -q "$t" --summary-json "$TMP/t.json" >/dev/null
run "$PGNKIT" summary --format json "$TMP"/r*.json "$TMP/t.json"
check "summary of 6 ranges and a file: exit 1 (the mutants have errors)" [ "$rc" -eq 1 ]
strip "$TMP/out" >"$TMP/sum"
strip "$TMP/whole.json" >"$TMP/want"
check "summary --format json of the pieces equals one run's --summary-json" cmp -s "$TMP/sum" "$TMP/want"
run "$PGNKIT" summary "$TMP"/r*.json
check "summary (text): the usual summary line on stderr" grep_err "pgnkit: 440 games:"

# Exit status on the sum: a clean file's pieces 0; warnings 1 only with --fail-on warning.
w=$TESTDATA/pgn-extract/odds.pgn
"$PGNKIT" check -q --range 0:10K "$w" --summary-json "$TMP/w1.json" >/dev/null
"$PGNKIT" check -q --range 10K: "$w" --summary-json "$TMP/w2.json" >/dev/null
if grep -q '"warnings":[1-9]' "$TMP/w1.json" "$TMP/w2.json" && ! grep -q '"errors":[1-9]' "$TMP/w1.json" "$TMP/w2.json"; then
    run "$PGNKIT" summary "$TMP/w1.json" "$TMP/w2.json"
    check "warnings only: exit 0" [ "$rc" -eq 0 ]
    run "$PGNKIT" summary --fail-on warning "$TMP/w1.json" "$TMP/w2.json"
    check "warnings only, --fail-on warning: exit 1" [ "$rc" -eq 1 ]
else
    skip "benchmark.pgn is not warnings-only"
fi

# Errors in the pieces: exit 1, and 0 with --fail-on none (as the run's own option).
run "$PGNKIT" summary "$TMP"/r*.json
check "errors in the pieces: exit 1" [ "$rc" -eq 1 ]
run "$PGNKIT" summary --fail-on none "$TMP"/r*.json
check "errors in the pieces, --fail-on none: exit 0" [ "$rc" -eq 0 ]

# Refused: overlapping ranges, a whole-file run with a range of it, a file that is no summary.
"$PGNKIT" check -q --range 40000:60000 "$m" --summary-json "$TMP/over.json" >/dev/null
run "$PGNKIT" summary "$TMP/r2.json" "$TMP/over.json"
if [ "$rc" -eq 2 ] && grep_err "overlap"; then held=0; else held=1; fi
check "overlapping ranges: exit 2, one line naming both" [ "$held" -eq 0 ]
run "$PGNKIT" summary "$TMP/whole.json" "$TMP/r1.json"
check "a whole-file run and a range of it: exit 2" [ "$rc" -eq 2 ]
printf '{"games":1,' >"$TMP/bad.json"
run "$PGNKIT" summary "$TMP/bad.json"
if [ "$rc" -eq 2 ] && grep_err "bad.json"; then held=0; else held=1; fi
check "a truncated summary: exit 2" [ "$held" -eq 0 ]
echo '{"x":1}' >"$TMP/other.json"
run "$PGNKIT" summary "$TMP/other.json"
if [ "$rc" -eq 2 ] && grep_err "lacks"; then held=0; else held=1; fi
check "a JSON object that is no summary: exit 2" [ "$held" -eq 0 ]
run "$PGNKIT" summary
check "no files: usage error" [ "$rc" -eq 2 ]

# Numbers and ranges are checked, not trusted: a count is a whole number from 0 to 2^64 - 1
# (-1 became 2^64 - 1), a range is not reversed (one was added with exit 0); the error
# names the summary and the line.  summ GAMES RANGE: a one-file summary, "files" entry on
# line 3.
summ() {
    printf '{"games":%s,"by_status":{"ok":1},"by_code":{},"plies":1,"bytes":1,"files":[\n' "$1"
    printf '{"name":"a.pgn","range":%s,\n' "$2"
    printf '"games":1,"by_status":{"ok":1},"by_code":{},"plies":1,"bytes":1}]}\n'
}
summ 1 '[0,100]' >"$TMP/s1.json"
run "$PGNKIT" summary "$TMP/s1.json"
if [ "$rc" -eq 0 ] && grep_err "pgnkit: 1 game:"; then held=0; else held=1; fi
check "a hand-written summary reads: exit 0" [ "$held" -eq 0 ]
for g in -1 1.5 1e3 18446744073709551616 '"1"'; do
    summ "$g" '[0,100]' >"$TMP/s.json"
    run "$PGNKIT" summary "$TMP/s.json"
    check "\"games\": $g is refused: exit 2, naming s.json line 1" \
        [ "$rc" -eq 2 ] && grep_err 's.json:1: "games" is not a count'
done
summ 1 '[200,100]' >"$TMP/s.json"
run "$PGNKIT" summary "$TMP/s.json"
check "a reversed range is refused: exit 2, naming s.json line 2" \
    [ "$rc" -eq 2 ] && grep_err 's.json:2: "range" is reversed'
for r in '[0,-5]' '[1]' '"all"'; do
    summ 1 "$r" >"$TMP/s.json"
    run "$PGNKIT" summary "$TMP/s.json"
    if [ "$rc" -eq 2 ] && grep_err 's.json:2:'; then held=0; else held=1; fi
    check "range $r is refused: exit 2" [ "$held" -eq 0 ]
done
summ 1 '[50,150]' >"$TMP/s2.json"
run "$PGNKIT" summary "$TMP/s1.json" "$TMP/s2.json"
check "[0,100] and [50,150]: exit 2, an overlap naming both" \
    [ "$rc" -eq 2 ] && grep_err "s1.json and $TMP/s2.json both cover bytes of a.pgn"
summ 1 '[100,null]' >"$TMP/s2.json"
run "$PGNKIT" summary "$TMP/s2.json" "$TMP/s1.json"
if [ "$rc" -eq 0 ] && grep_err "pgnkit: 2 games:"; then held=0; else held=1; fi
check "[100,null] and [0,100] tile: exit 0, 2 games" [ "$held" -eq 0 ]
summ 18446744073709551615 '[100,null]' >"$TMP/s2.json"
run "$PGNKIT" summary "$TMP/s1.json" "$TMP/s2.json"
if [ "$rc" -eq 2 ] && grep_err "past 2^64 - 1"; then held=0; else held=1; fi
check "counts adding up past 2^64 - 1: exit 2" [ "$held" -eq 0 ]

measure_bounds_or_finish
# 100,000 entries (10,000 files of 10 ranges each, in one summary): sorted, not matched
# pairwise (quadratic: 301 s), and never held as a JSON tree (100 MB took 2.83 GB).
LC_ALL=C awk 'BEGIN {
    e = "\"games\":1,\"by_status\":{\"ok\":1},\"by_code\":{},\"plies\":1,\"bytes\":1"
    printf "{\"games\":100000,\"by_status\":{\"ok\":100000},\"by_code\":{},\"plies\":100000,\"bytes\":100000,\"files\":[\n"
    for (i = 0; i < 100000; i++)
        printf "%s{\"name\":\"f%d.pgn\",\"range\":[%d,%d],%s}\n", (i ? "," : ""), i % 10000,
            int(i / 10000) * 100, int(i / 10000) * 100 + 100, e
    print "]}" }' >"$TMP/many.json"
/usr/bin/time -o "$TMP/time" -f '%M %e' "$PGNKIT" summary "$TMP/many.json" 2>"$TMP/err"
check "100,000 entries: added up, 10,000 files of 10 games" \
    [ "$(grep -c '^f[0-9]*\.pgn: 10 games' "$TMP/err")" = 10000 ]
check "100,000 entries: in under 10 s and 64 MB ($(tail -n 1 "$TMP/time"))" \
    awk '{ exit !($1 < 65536 && $2 < 10) }' "$TMP/time"
finish
