#!/bin/sh
# parallel.sh - pgnkit as a filter on game-aligned chunks (docs/scale-out.md): GNU
# parallel --pipepart cuts a file before "[Event " lines, runs one pgnkit per chunk and
# -k merges the outputs in input order, which must equal a single run.
. "$(dirname "$0")/lib/common.sh"

if ! command -v parallel >/dev/null 2>&1; then
    skip "no GNU parallel (sh scripts/ensure-deps.sh test installs it)"
    finish
fi
# Keep the user's ~/.parallel/config and $PARALLEL out of it; no citation notice.
PARALLEL_HOME=$TMP/parallel-home
export PARALLEL_HOME
mkdir -p "$PARALLEL_HOME"
touch "$PARALLEL_HOME/will-cite"
unset PARALLEL

big=$TMP/big.pgn
cat "$TESTDATA/pgn-extract/fischer.pgn" "$TESTDATA/pgn-extract/petrosian.pgn" \
    "$TESTDATA/chess.js/benchmark.pgn" >"$big"
"$PGNKIT" uci -q "$big" >"$TMP/want" 2>/dev/null
check "single run: one line per game" [ "$(lines "$TMP/want")" -eq 169 ]

# by_event FILE BLOCK COMMAND...: the documented recipe, small blocks to force many chunks.
by_event() {
    _f=$1 _block=$2
    shift 2
    parallel --plain --pipepart -a "$_f" --recend '\n' --recstart '[Event ' --block "$_block" \
        -j 4 -k "$@"
}

by_event "$big" 10k echo chunk >"$TMP/chunks"
check "10k blocks: the file is cut into several chunks" [ "$(lines "$TMP/chunks")" -gt 5 ]
by_event "$big" 10k head -n 1 >"$TMP/firsts"
check "every chunk starts at a game" [ "$(grep -cv '^\[Event ' "$TMP/firsts")" -eq 0 ]

by_event "$big" 10k "$PGNKIT" uci -q >"$TMP/out" 2>"$TMP/err"
check "uci on chunks: parallel exits 0" [ $? -eq 0 ]
check "uci on chunks: merged output equals a single run" cmp -s "$TMP/out" "$TMP/want"

"$PGNKIT" fen -q "$big" >"$TMP/want-fen" 2>/dev/null
by_event "$big" 7k "$PGNKIT" fen -q >"$TMP/out" 2>/dev/null
check "fen on chunks: merged output equals a single run" cmp -s "$TMP/out" "$TMP/want-fen"

by_event "$big" 1M "$PGNKIT" uci -q >"$TMP/out" 2>/dev/null
check "one big block: equals a single run" cmp -s "$TMP/out" "$TMP/want"

# Without --recend '\n' a "[Event " inside a comment can become a cut; with it, only a
# line start can.
i=0
while [ $i -lt 200 ]; do
    printf '[Event "g%d"]\n[Result "*"]\n\n1. e4 {quoting [Event "x"] here} e5 *\n\n' $i
    i=$((i + 1))
done >"$TMP/quoting.pgn"
"$PGNKIT" uci -q "$TMP/quoting.pgn" >"$TMP/want-q" 2>/dev/null
by_event "$TMP/quoting.pgn" 2k "$PGNKIT" uci -q >"$TMP/out" 2>/dev/null
check "'[Event ' inside a comment is not a cut" cmp -s "$TMP/out" "$TMP/want-q"

# Files whose games do not start with [Event: cut at a blank line before a tag.
parallel --plain --pipepart -a "$big" --recend '\n\n' --recstart '[' --block 10k -j 4 -k \
    "$PGNKIT" uci -q >"$TMP/out" 2>/dev/null
check "blank-line-then-tag cuts: equals a single run" cmp -s "$TMP/out" "$TMP/want"

# A stream (compressed, or a pipe) with --pipe instead of --pipepart.
gzip -c "$big" | parallel --plain --pipe --recend '\n' --recstart '[Event ' --block 10k -j 4 -k \
    "$PGNKIT" uci -q >"$TMP/out" 2>/dev/null
check "--pipe on a decompressed stream: equals a single run" cmp -s "$TMP/out" "$TMP/want"

# Diagnostics: the same ones, but FILE is <stdin> and LINE and game N count from the
# start of each chunk (the documented limitation).
mut=$TESTDATA/mutants/mutants.pgn
"$PGNKIT" check -q "$mut" >"$TMP/want-diag" 2>/dev/null
by_event "$mut" 16k "$PGNKIT" check -q >"$TMP/diag" 2>/dev/null
check "check on chunks: parallel reports failed jobs" [ $? -ne 0 ]
strip() { sed -E 's/^[^ ]*:[0-9]+:[0-9]+: //; s/game [0-9]+, //' "$1"; }
strip "$TMP/want-diag" >"$TMP/want-diag.s"
strip "$TMP/diag" >"$TMP/diag.s"
check "check on chunks: the same diagnostics in the same order" \
    cmp -s "$TMP/want-diag.s" "$TMP/diag.s"
check "check on chunks: FILE is <stdin>" grep -q '^<stdin>:' "$TMP/diag"
last_game() { sed -nE 's/.*: game ([0-9]+), .*/\1/p' "$1" | sort -n | tail -n 1; }
check "check on chunks: game numbers restart per chunk" \
    [ "$(last_game "$TMP/diag")" -lt "$(last_game "$TMP/want-diag")" ]

finish
