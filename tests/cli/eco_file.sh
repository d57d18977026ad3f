#!/bin/sh
# eco_file.sh - --eco-file: classification by a user's ECO file (pgn-extract's eco.pgn
# format).  Oracles: the hand-written tests/cli/data/eco-small.pgn, whose games'
# expected tags are argued move by move in their Event tags; and pgn-extract -e itself
# (when installed) on those games and on real ones, with its own eco.pgn.
. "$(dirname "$0")/lib/common.sh"

D=tests/cli/data
ECO=$D/eco-small.pgn
GAMES=$D/eco-games.pgn
PX=$(command -v pgn-extract || ls /usr/games/pgn-extract 2>/dev/null || true)
PXECO=/usr/share/pgn-extract/eco.pgn

# The tags of each game, one line per game: "EVENT|ECO|Opening|Variation|SubVariation".
tags_per_game() {
    awk '/^\[Event /{if (n) print s; s=""; n=1}
         /^\[(Event|ECO|Opening|Variation|SubVariation) /{s = s $0 "|"}
         END{if (n) print s}' "$1"
}

run "$PGNKIT" pgn -q --eco-file "$ECO" "$GAMES"
tags_per_game "$TMP/out" >"$TMP/pk"
check "10 games out" [ "$(wc -l <"$TMP/pk")" -eq 10 ]
want() { grep -qxF "$1" "$TMP/pk"; } # the game's whole line: no tag more, none less
check "the deepest line wins: C54 with its SubVariation" \
    want '[Event "1 Giuoco Piano to 5. d4: the deepest line, C54"]|[ECO "C54"]|[Opening "Giuoco Piano"]|[Variation "main line"]|[SubVariation "centre attack"]|'
check "a transposition is named by the position: C53" \
    want '[Event "2 transposed into C53 (2. Bc4 first)"]|[ECO "C53"]|[Opening "Giuoco Piano"]|[Variation "main line"]|'
check "leaving the book keeps the last name: C50" \
    want '[Event "3 leaves the book after C50"]|[ECO "C50"]|[Opening "Italian Game"]|'
check "a game the file does not name keeps its own ECO tag" \
    want '[Event "4 never in the book: its own ECO stays"]|[ECO "B20"]|'
check "lines sharing a position: the one followed move for move" \
    want '[Event "5 the A04 order exactly: A04"]|[ECO "A04"]|[Opening "Reti"]|[Variation "Nf3 first"]|'
check "lines sharing a position, neither followed: the first in the file" \
    want '[Event "6 a third order to the shared position: the first in the file, A13"]|[ECO "A13"]|[Opening "English"]|[Variation "c4 first"]|'
check "a line's position reached 8 plies late: not named by it" \
    want '[Event "7 reaches 1. e4 e5 at ply 10, 8 plies late: none"]|'
check "a line's position reached 4 plies late: named by it" \
    want "[Event \"8 reaches 1. e4 e5 at ply 6, 4 plies late: C20\"]|[ECO \"C20\"]|[Opening \"King's pawn game\"]|"
check "the same pieces with the other side to move: none" \
    want '[Event "9 the C50 pieces with White to move: none (pgn-extract: C50)"]|'

# The same through --jobs 2, and as uci's JSON.
"$PGNKIT" pgn -q -j2 --eco-file "$ECO" "$GAMES" >"$TMP/j2"
check "--jobs 2: the same output" cmp -s "$TMP/out" "$TMP/j2"
run "$PGNKIT" uci --format json --with opening --eco-file "$ECO" "$GAMES"
check "uci json: variation and subvariation members" \
    grep -qF '"opening":{"eco":"C54","name":"Giuoco Piano","variation":"main line","subvariation":"centre attack"}' "$TMP/out"
run "$PGNKIT" pgn -q --eco-file "$ECO" --add-tags ECO "$GAMES"
check "--add-tags ECO: only the tags named" sh -c "! grep -q '^\[Opening ' '$TMP/out' && grep -q '^\[ECO \"C54\"' '$TMP/out'"
run "$PGNKIT" check --eco-file "$ECO" --where 'ECO = C53' "$GAMES"
check "--where on ECO reads the classification: game 2 only" grep -qF "1 kept, 9 dropped" "$TMP/err"

# Bad ECO files: usage errors (exit 2) naming FILE:LINE:COL.
bad() { # bad NAME CONTENT PATTERN
    printf '%b' "$2" >"$TMP/$1.pgn"
    run "$PGNKIT" pgn --eco-file "$TMP/$1.pgn" "$GAMES"
    check "bad ECO file, $1: exit 2, says where" sh -c "[ $rc -eq 2 ] && grep -qF -- '$3' '$TMP/err' && [ ! -s '$TMP/out' ]"
}
bad no-eco '[Opening "x"]\n\n1. e4 *\n' "$TMP/no-eco.pgn:1:1: --eco-file: an entry needs an ECO tag"
bad no-moves '[ECO "A00"]\n[Opening "x"]\n\n*\n' "$TMP/no-moves.pgn:1:1: --eco-file: an entry needs moves"
bad fen '[ECO "A00"]\n[Opening "x"]\n[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n\n1. Kb1 *\n' "no FEN tag"
bad syntax '[ECO "A00"]\n[Opening "x"]\n\n1. e4 e5\n2. Zz9 *\n' "$TMP/syntax.pgn:5:4: --eco-file: SYNTAX at Zz9"
bad empty '' "$TMP/empty.pgn:1:1: --eco-file: no entries"
run "$PGNKIT" pgn --eco-file "$TMP/none.pgn" "$GAMES"
check "a missing ECO file: exit 2, named" sh -c "[ $rc -eq 2 ] && grep -qF 'none.pgn' '$TMP/err'"
run "$PGNKIT" pgn --eco-file "$ECO" --eco-file "$ECO" "$GAMES"
check "--eco-file twice: usage error" [ "$rc" -eq 2 ]

# pgn-extract -e itself, where meanings agree.
if [ -z "$PX" ]; then
    skip "pgn-extract is not installed: no comparison with pgn-extract -e"
    finish
fi
"$PX" -s -e"$ECO" "$GAMES" >"$TMP/px.pgn" 2>/dev/null
tags_per_game "$TMP/px.pgn" | head -8 >"$TMP/px8"
head -8 "$TMP/pk" >"$TMP/pk8"
check "pgn-extract -e names games 1-8 the same (9: side to move, 10: FEN, documented)" \
    cmp -s "$TMP/px8" "$TMP/pk8"
if [ ! -f "$PXECO" ]; then
    skip "no $PXECO: no comparison on real games"
    finish
fi
for corpus in twic1599 lichess-2021-10-999; do
    zstd -dcq "testdata/bench/$corpus.pgn.zst" |
        grep -v -E '^\[(ECO|Opening|Variation|SubVariation) ' >"$TMP/$corpus.pgn"
    "$PX" -s -e"$PXECO" "$TMP/$corpus.pgn" >"$TMP/px.pgn" 2>/dev/null
    "$PGNKIT" pgn -q --eco-file "$PXECO" "$TMP/$corpus.pgn" >"$TMP/pk.pgn"
    for tag in Event ECO Variation; do
        a=$(grep -c "^\[$tag " "$TMP/px.pgn")
        b=$(grep -c "^\[$tag " "$TMP/pk.pgn")
        check "$corpus: $tag tags as pgn-extract -e writes them ($a, $b)" [ "$a" -eq "$b" ]
    done
    tags_per_game "$TMP/px.pgn" >"$TMP/pxt"
    tags_per_game "$TMP/pk.pgn" >"$TMP/pkt"
    n=$(paste -d'#' "$TMP/pxt" "$TMP/pkt" | awk -F'#' '$1 != $2' | wc -l)
    check "$corpus: at most 6 games named otherwise (the side to move: $n)" [ "$n" -le 6 ]
done
finish
