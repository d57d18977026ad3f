#!/bin/sh
# summary.sh - --summary-json and pgnkit summary: the summaries of ranges tiling a file,
# and of files run one by one, add up to the summary of one run over everything; the
# exit status rules apply to the sum; overlapping pieces and broken files are refused.
. "$(dirname "$0")/lib/common.sh"

m=$TESTDATA/mutants/mutants.pgn
t=$TESTDATA/tcec/TCEC_Match_1.pgn
size=$(wc -c <"$m" | tr -d ' ')
# The parts that differ between a run and a sum of runs: time, and where a range was.
strip() { sed -E 's/"(seconds|cpu_seconds|started|ended)":[0-9.]+/"\1":0/g' "$1" | sed 's/"range":[^,]*,[^,]*,/"range":null,/g; s/"range":null,/"range":null,/g'; }

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

# Time: a merge's wall time is the first start to the last end, its CPU time the sum
# (pieces run side by side: 10 s each, overlapping, are 12 s of wall, 17 s of CPU).
timed() { # GAMES-FILE STARTED ENDED SECONDS CPU
    printf '{"schema":1,"games":1,"by_status":{"ok":1},"by_code":{},"plies":1,"bytes":1000000,'
    printf '"seconds":%s,"cpu_seconds":%s,"started":%s,"ended":%s,"stopped":null,"files":[\n' "$4" "$5" "$2" "$3"
    printf '{"name":"%s","range":null,"games":1,"by_status":{"ok":1},"by_code":{},"plies":1,"bytes":1000000}]}\n' "$1"
}
timed a.pgn 1000.5 1010.5 10 9 >"$TMP/t1.json"
timed b.pgn 1002.5 1012.5 10 8 >"$TMP/t2.json"
run "$PGNKIT" summary "$TMP/t1.json" "$TMP/t2.json"
check "two overlapping 10 s pieces: 12.00 s wall, 17.00 s CPU, MB/s of the wall" \
    grep -q "^pgnkit: 2 games: .* in 12\.00 s wall, 17\.00 s CPU (0\.2 MB/s)$" "$TMP/err"
run "$PGNKIT" summary --format json "$TMP/t1.json" "$TMP/t2.json"
check "summary --format json: seconds 12 (wall), cpu_seconds 17, started/ended the extremes" \
    grep -q '"seconds":12.000,"cpu_seconds":17.000,"started":1000.500,"ended":1012.500,"stopped":null,' "$TMP/out"
summ 1 '[0,100]' | sed 's/a\.pgn/c.pgn/' >"$TMP/old.json" # before timestamps: none
run "$PGNKIT" summary --format json "$TMP/t1.json" "$TMP/old.json"
check "a piece without timestamps: wall is the longest piece's, started/ended null" \
    grep -q '"seconds":10.000,"cpu_seconds":9.000,"started":null,"ended":null,' "$TMP/out"
"$PGNKIT" check -q "$m" --summary-json "$TMP/real.json" >/dev/null
check "a run's summary: schema 1, cpu_seconds, ended - started = seconds (to 2 ms)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == 1 and d["cpu_seconds"] > 0 and d["stopped"] is None, d
assert abs(d["ended"] - d["started"] - d["seconds"]) <= 0.002, d
' "$TMP/real.json"

# "schema": absent (before it existed) and 1 are read; a newer one is refused, exit 2.
sed 's/"schema":1/"schema":2/' "$TMP/t1.json" >"$TMP/new.json"
run "$PGNKIT" summary "$TMP/new.json"
check "schema 2: refused, exit 2, saying so" [ "$rc" -eq 2 ] && grep_err "new.json has schema 2"
check "summary --format json writes schema 1 first" sh -c "\"\$0\" summary -f json \"\$1\" | grep -q '^{\"schema\":1,'" \
    "$PGNKIT" "$TMP/t1.json"

# "stopped": a run cut short says why, so that its counts are not taken for a whole run's.
"$PGNKIT" uci "$m" --summary-json "$TMP/closed.json" 2>/dev/null | head -1 >/dev/null
check "uci | head -1: stopped output_closed" grep -q '"stopped":"output_closed"' "$TMP/closed.json"
"$PGNKIT" uci -q --stop-after 3 "$m" --summary-json "$TMP/three.json" >/dev/null
check "--stop-after 3: stopped stop_after, 3 written" \
    grep -q '"written":3,.*"stopped":"stop_after"' "$TMP/three.json"
"$PGNKIT" check -q --max-errors 2 "$m" --summary-json "$TMP/maxerr.json" >/dev/null 2>&1
check "--max-errors 2: stopped max_errors" grep -q '"stopped":"max_errors"' "$TMP/maxerr.json"
"$PGNKIT" check -q "$m" "$TMP/no-such.pgn" --summary-json "$TMP/failed.json" >/dev/null 2>&1
check "a missing input: stopped error" grep -q '"stopped":"error"' "$TMP/failed.json"
check "a whole run: stopped null" grep -q '"stopped":null' "$TMP/real.json"
run "$PGNKIT" summary "$TMP/three.json" "$TMP/t.json"
check "summary of a stopped piece: says which, and that the sum is partial" \
    grep_err "three.json: that run stopped before the end of its input (stop_after)" &&
    grep_err "1 of the pieces stopped before the end of their input"
run "$PGNKIT" summary --format json "$TMP/three.json" "$TMP/t.json"
check "summary --format json of a stopped piece: stopped stop_after" \
    grep -q '"stopped":"stop_after"' "$TMP/out"

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
