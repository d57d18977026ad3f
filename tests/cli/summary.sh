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

# Refused: overlapping ranges, a whole-file run with a range of it, a file that is no summary.
"$PGNKIT" check -q --range 40000:60000 "$m" --summary-json "$TMP/over.json" >/dev/null
run "$PGNKIT" summary "$TMP/r2.json" "$TMP/over.json"
check "overlapping ranges: exit 2, one line naming both" [ "$rc" -eq 2 ] && grep_err "overlap"
run "$PGNKIT" summary "$TMP/whole.json" "$TMP/r1.json"
check "a whole-file run and a range of it: exit 2" [ "$rc" -eq 2 ]
printf '{"games":1,' >"$TMP/bad.json"
run "$PGNKIT" summary "$TMP/bad.json"
check "a truncated summary: exit 2" [ "$rc" -eq 2 ] && grep_err "bad.json"
echo '{"x":1}' >"$TMP/other.json"
run "$PGNKIT" summary "$TMP/other.json"
check "a JSON object that is no summary: exit 2" [ "$rc" -eq 2 ] && grep_err "lacks"
run "$PGNKIT" summary
check "no files: usage error" [ "$rc" -eq 2 ]

finish
