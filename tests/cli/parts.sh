#!/bin/sh
# parts.sh - a game in parts (pgn_reader.h: a game of more than --part-tokens tokens is
# replayed and written one part at a time, its tokens read again for each) gives exactly
# what the whole game gives.  The oracle is the same run with every game whole
# (--part-tokens larger than any game): every command and output format, on every PGN
# file the project carries (real games, other projects' fixtures, mutants) and on
# inputs made for the places where a part boundary could change a reading (en passant
# marks, e8(Q), deep variations, clock comments, Latin-1, a game that cannot be set up),
# with parts as small as one token, at --jobs 1 and 2.  Then the memory: a 64 MB game
# of variations, once skipped for its tokens, is now replayed in about its own size.
. tests/cli/lib/common.sh

WHOLE=--part-tokens=1000000000

# Every PGN file of testdata/pgn, one input per directory (the diagnostics name it).
for d in "$TESTDATA"/*/; do
    name=$(basename "$d")
    find "$d" -name '*.pgn' | LC_ALL=C sort | while read -r f; do cat "$f"; printf '\n'; done \
        >"$TMP/$name.pgn"
done

# Made for the boundaries.
{
    printf '[Event "ep"]\n[FEN "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"]\n[SetUp "1"]\n\n'
    printf '3. exf6 e.p. Nxf6 (3... gxf6 4. d4) 4. d4 ep *\n\n'
    printf '[Event "promo"]\n[FEN "8/P6k/8/8/8/8/8/K7 w - - 0 1"]\n[SetUp "1"]\n\n'
    printf '1. a8(Q) Kg6 (1... Kg7 2. Qb7+) 2. Qa6+ Kg5 1/2-1/2\n\n'
    printf '[Event "deep"]\n\n1. e4 (1. d4 (1. c4 (1. Nf3 d5 (1... Nf6 2. g3) 2. g3) e5) d5) e5 '
    printf '{[%%clk 0:01:00] [%%eval 0.3]} 2. Nf3 {[%%clk 0:00:59]} Nc6 ; a line comment\n'
    printf '3. Bb5 $1 a6 !? 4. Ba4 (4. Bxc6 dxc6 {[%%emt 0:00:02]}) Nf6 5. O-O Be7 1-0\n\n'
    printf '[Event "values over parts"]\n\n1. e4 {[%%eval 0.25]} (1. d4) {x} {[%%clk 0:00:43]} ; y\n'
    printf '{[%%emt 0:00:01]} e5 {[%%clk 0:00:40]} (1... c5 {[%%eval 9]}) {[%%eval 0.1]} 2. Nf3 *\n\n'
    printf '[Event "bad fen"]\n[FEN "not a fen"]\n[SetUp "1"]\n\n1. e4 (1. d4) e5 {x} 0-1\n\n'
    printf '[Event "error"]\n\n1. e4 e5 2. Nf3 Nf6 3. Qh8 (3. d4) Nc6 {after} 4. Bb5 *\n\n'
    printf '1. e4 e5\n\n1. d4 d5 2. Qxd8 *\n\n'
    printf '[Event "open"]\n\n1. e4 (1. d4 d5 (1... Nf6 2. c4\n'
} >"$TMP/made.pgn"
printf '[Event "latin"]\n[White "J\351r\364me"]\n\n1. e4 {caf\351} e5 (1... c5 {na\357ve}) 2. Nf3 *\n' \
    >"$TMP/latin.pgn"
printf '[Event "crlf"]\r\n\r\n1. e4 e5\r\n(1... c5 2. Nf3)\r\n2. Nf3 Nc6 1-0\r\n' >"$TMP/crlf.pgn"

# untimed FILE: FILE without the summary's time and speed (they differ from run to run).
untimed() { sed 's/ in [0-9.]* s wall, [0-9.]* s CPU ([0-9.]* MB\/s)//' "$1"; }

# same NAME ARGS...: stdout, stderr and status with parts of 1, 2, 3, 7 and 64 tokens
# equal those with every game whole.
same() {
    name=$1
    shift
    "$PGNKIT" "$@" $WHOLE >"$TMP/w.out" 2>"$TMP/w.err"
    wrc=$?
    bad=
    for n in 1 2 3 7 64; do
        "$PGNKIT" "$@" --part-tokens=$n >"$TMP/p.out" 2>"$TMP/p.err"
        prc=$?
        if [ $prc != $wrc ] || ! cmp -s "$TMP/w.out" "$TMP/p.out" ||
            [ "$(untimed "$TMP/w.err")" != "$(untimed "$TMP/p.err")" ]; then
            bad="$bad $n"
        fi
    done
    check "$name: parts of 1, 2, 3, 7, 64 tokens give what whole games give${bad:+ (differs at:$bad)}" \
        [ -z "$bad" ]
}

for f in "$TMP"/*.pgn; do
    b=$(basename "$f" .pgn)
    same "$b check" check --no-progress "$f"
    same "$b check json" check --no-progress --format json "$f"
    same "$b uci" uci --no-progress "$f"
    same "$b uci tsv --with clk,eval,emt" uci --no-progress --format tsv --with clk,eval,emt "$f"
    same "$b uci json --with clk,eval,emt" uci --no-progress --format json --with clk,eval,emt "$f"
    same "$b uci pgn" uci --no-progress --format pgn "$f"
    same "$b fen --every" fen --no-progress --every "$f"
    same "$b fen --comments" fen --no-progress --comments "$f"
    same "$b pgn --fixes" pgn --no-progress --fixes "$f"
    same "$b pgn --no-variations --no-comments" pgn --no-progress --no-variations --no-comments "$f"
    same "$b pgn --skip-invalid" pgn --no-progress --skip-invalid "$f"
    same "$b uci --result 1-0" uci --no-progress --result 1-0 "$f"
    same "$b pgn -j2" pgn --no-progress -j2 "$f"
    same "$b uci tsv -j2" uci --no-progress -j2 --format tsv --with clk "$f"
done

# The parts are really there: a game of 3 tokens a part still reads as one game.
run "$PGNKIT" uci --no-progress --part-tokens=3 "$TMP/made.pgn"
check "made.pgn in parts of 3: the en passant game's moves" \
    [ "$(head -n 1 "$TMP/out")" = "e5f6 g8f6 d2d4" ]
run "$PGNKIT" uci --part-tokens x "$TMP/made.pgn"
check "--part-tokens x is a usage error" [ "$rc" = 2 ]

measure_bounds_or_finish

# A 66 MB game of "()" (22 million variations, 44 million tokens; under the 64 MiB of
# --max-game-bytes): replayed, not skipped,
# in about its own size (the bound the man page states: a game costs ~1x its bytes for
# its text, plus a part of tokens, plus its output).
printf '[Event "p"]\n\n1. e4 ' >"$TMP/p64.pgn"
LC_ALL=C awk 'BEGIN { for (i = 0; i < 22000000; i++) printf "() "; print "e5 *" }' >>"$TMP/p64.pgn"
size_kb=$(($(stat -c %s "$TMP/p64.pgn") / 1024))
for cmd in check uci pgn; do
    measure "$PGNKIT" $cmd -j1 --no-progress "$TMP/p64.pgn"
    check "66 MB game of (), $cmd: peak RSS $kb KB within 2x its size ($size_kb KB) + 16 MB" \
        [ "$kb" -lt $((2 * size_kb + 16384)) ]
done
run "$PGNKIT" uci --no-progress "$TMP/p64.pgn"
check "66 MB game of (): replayed whole, mainline e2e4 e7e5" [ "$(cat "$TMP/out")" = "e2e4 e7e5" ]
if [ "$rc" = 0 ] && [ ! -s "$TMP/err" ]; then held=0; else held=1; fi
check "66 MB game of (): exit 0, no diagnostic" [ "$held" -eq 0 ]
finish
