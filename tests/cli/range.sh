#!/bin/sh
# range.sh - --range START:END tiles a file exactly: the outputs of ranges cut anywhere,
# concatenated, are a single run's output (game indexes aside, unknown in a range that
# does not start the file); bad ranges are usage errors (exit 2).
. "$(dirname "$0")/lib/common.sh"

# A file with errors, warnings, CRLF games, comments and variations; and a BOM file.
big=$TMP/big.pgn
cat "$TESTDATA/mutants/mutants.pgn" "$TESTDATA/tcec/TCEC_Match_1.pgn" \
    "$TESTDATA/chess.js/benchmark.pgn" "$TESTDATA/python-chess/anastasian-lewis.pgn" >"$big"
size=$(wc -c <"$big" | tr -d ' ')
bom=$TMP/bom.pgn
printf '\357\273\277' >"$bom"
cat "$TESTDATA/tcec/TCEC_Match_1.pgn" >>"$bom"

# The game index is the one thing a range may not know: null everywhere, in both runs.
no_game() { sed 's/"game":[0-9][0-9]*/"game":null/g'; }

# tile FILE CUTS OUT ARGS...: run ARGS on the ranges between 0, the sorted CUTS and the
# end of FILE, concatenating stdout into OUT; the number of failed runs in $bad.
tile() {
    _f=$1 _cuts=$2 _out=$3
    shift 3
    _size=$(wc -c <"$_f" | tr -d ' ')
    : >"$_out"
    bad=0
    _prev=0
    for _c in $_cuts $_size; do
        "$PGNKIT" "$@" -q --range "$_prev:$_c" "$_f" >>"$_out" 2>/dev/null
        [ $? -le 1 ] || bad=$((bad + 1))
        _prev=$_c
    done
}

"$PGNKIT" uci --format json -q "$big" 2>/dev/null | no_game >"$TMP/want.json"
check "the test file has games with errors" grep -q '"status":"errors"' "$TMP/want.json"

# 1000 random cut points (sorted, repeats kept: empty ranges), seeded so a failure repeats.
cuts=$(awk -v n=1000 -v max="$size" 'BEGIN { srand(17); for (i = 0; i < n; i++) print int(rand() * (max + 1)) }' |
    sort -n | tr '\n' ' ')
tile "$big" "$cuts" "$TMP/got.json" uci --format json
no_game <"$TMP/got.json" >"$TMP/got2.json"
check "1001 ranges at random cuts: every run exits 0 or 1" [ "$bad" -eq 0 ]
check "1001 ranges at random cuts: uci --format json equals one run" cmp -s "$TMP/got2.json" "$TMP/want.json"

# Edges: every game start, one byte on either side, 0 and the end; one-byte ranges.
starts=$(sed -n 's/.*"offset":\([0-9]*\),"game".*/\1/p' "$TMP/want.json" | head -n 40)
edge=""
for s in $starts; do
    [ "$s" -gt 0 ] && edge="$edge $((s - 1))"
    edge="$edge $s $((s + 1))"
done
edge=$(echo "0 $edge $size" | tr ' ' '\n' | sort -n | tr '\n' ' ')
tile "$big" "$edge" "$TMP/got.json" uci --format json
no_game <"$TMP/got.json" >"$TMP/got2.json"
check "ranges cut at game starts, one byte off, one byte long, empty: equal one run" \
    cmp -s "$TMP/got2.json" "$TMP/want.json"

# check: diagnostics keep the whole file's line numbers.
"$PGNKIT" check --format json -q "$big" | no_game >"$TMP/want-check"
tile "$big" "$(echo "$cuts" | tr ' ' '\n' | awk 'NR % 50 == 0' | tr '\n' ' ')" "$TMP/got-check" \
    check --format json
no_game <"$TMP/got-check" >"$TMP/got-check2"
check "check --format json on 20 ranges: the same diagnostics, same lines, as one run" \
    cmp -s "$TMP/got-check2" "$TMP/want-check"
check "check: diagnostics name the file and the game's offset" grep -q '"offset":[0-9]' "$TMP/want-check"

# TSV: the header once (only the range that starts at 0 writes it), file and offset columns.
"$PGNKIT" uci --format tsv -q "$big" --with file,offset 2>/dev/null | cut -f 1,2,4- >"$TMP/want.tsv"
tile "$big" "100000 200000 300000" "$TMP/got.tsv" uci --format tsv
cut -f 1,2,4- "$TMP/got.tsv" >"$TMP/got2.tsv"
check "uci --format tsv on 4 ranges: one header, rows equal one run's" cmp -s "$TMP/got2.tsv" "$TMP/want.tsv"
check "uci --format tsv: the header names file and offset" [ "$(head -n 1 "$TMP/got.tsv" | cut -f 1-3)" = "file	offset	game" ]
run "$PGNKIT" uci --format tsv -q --range 100000:200000 "$big"
check "a range not starting at 0: no header, game column empty" \
    [ "$(head -n 1 "$TMP/out" | cut -f 1,3 | tr '\t' ,)" = "$big," ]
run "$PGNKIT" uci --format tsv -q --no-header "$big"
check "--no-header: no header row" [ "$(grep -c '^game' "$TMP/out")" -eq 0 ]

# fen --every with keys; the BOM file cut near its start.
"$PGNKIT" fen --every -q --with file,offset "$big" 2>/dev/null | cut -f 1,2,4- >"$TMP/want-fen"
tile "$big" "150000 150001 400000" "$TMP/got-fen" fen --every
cut -f 1,2,4- "$TMP/got-fen" >"$TMP/got-fen2"
check "fen --every on 4 ranges equals one run" cmp -s "$TMP/got-fen2" "$TMP/want-fen"
"$PGNKIT" uci --format json -q "$bom" 2>/dev/null | no_game >"$TMP/want-bom"
tile "$bom" "1 2 3 4 5 1000 5000" "$TMP/got-bom" uci --format json
no_game <"$TMP/got-bom" >"$TMP/got-bom2"
check "a BOM file (CRLF) cut in and after its BOM equals one run" cmp -s "$TMP/got-bom2" "$TMP/want-bom"

# Several inputs: file and offset columns without being asked.
run "$PGNKIT" uci -q "$bom" "$big"
check "several inputs: each line starts with file and offset" \
    [ "$(head -n 1 "$TMP/out" | cut -f 1,2)" = "$bom	3" ]

run "$PGNKIT" check --range 100000: "$big"
check "check text in a range: a game is named by its byte offset" grep -q ': game at byte [0-9]' "$TMP/out"
run "$PGNKIT" fen --with clk "$big"
check "fen --with clk: refused (exit 2)" [ "$rc" -eq 2 ]
run "$PGNKIT" fen --comments --with file "$big"
check "fen --comments --with file: refused (exit 2)" [ "$rc" -eq 2 ]

# Bad ranges: one line, exit 2.
usage() {
    _desc=$1 _want=$2
    shift 2
    run "$@"
    if [ "$rc" -eq 2 ] && [ "$(lines "$TMP/err")" -eq 1 ] && grep_err "$_want"; then
        ok "$_desc"
    else
        not_ok "$_desc (exit $rc: $(cat "$TMP/err"))"
    fi
}
usage "a reversed range" "is reversed" "$PGNKIT" uci --range 10:5 "$big"
usage "START past the end" "past the end" "$PGNKIT" uci --range "$((size + 1)):" "$big"
usage "a range on standard input" "standard input cannot seek" "$PGNKIT" uci --range 0:10 - <"$big"
usage "a range on a pipe" "a pipe" sh -c "cat '$big' | '$PGNKIT' uci --range 0:10 /dev/stdin"
zstd -q -c "$big" >"$TMP/big.pgn.zst"
usage "a range on a compressed file" "zstd-compressed" "$PGNKIT" uci --range 0:10 "$TMP/big.pgn.zst"
usage "a range over two files" "one file" "$PGNKIT" uci --range 0:10 "$big" "$bom"
usage "two ranges in one run" "given twice" "$PGNKIT" uci --range 0:10 --range 10:20 "$big"
usage "a range that is no number" "START:END" "$PGNKIT" uci --range 1x:2 "$big"
run "$PGNKIT" uci -q --range "$size:" "$big"
if [ "$rc" -eq 0 ] && [ ! -s "$TMP/out" ]; then held=0; else held=1; fi
check "START at the end: an empty range, exit 0" [ "$held" -eq 0 ]
run "$PGNKIT" uci -q --range 1K:2K "$big"
if [ "$rc" -le 1 ] && [ -s "$TMP/out" ]; then held=0; else held=1; fi
check "K suffixes: 1K:2K reads a game or two" [ "$held" -eq 0 ]

finish
