#!/bin/sh
# brackets.sh - a '[' in the moves is charged to the game it stands in.
#
# A stray '[' that does not begin a tag pair at the start of a line is an UNEXPECTED_CHAR
# error of its own game; it no longer opens a tag section that swallows the next game's
# tags (whose BAD_TAG then made --skip-invalid drop the clean game).  "[%clk 0:00:10]"
# outside braces (a broken export) is a comment of its game with one NONSTANDARD warning:
# one game stays one game, its clocks readable by --with clk.
. tests/cli/lib/common.sh

printf '[Event "broken"]\n\n1. e4 e5 [ 2. Nf3 *\n\n[Event "clean"]\n\n1. d4 d5 *\n' \
    >"$TMP/stray.pgn"
run "$PGNKIT" check --no-progress "$TMP/stray.pgn"
check "stray '[': an UNEXPECTED_CHAR of game 1" \
    grep -q "stray.pgn:3:10: error\[UNEXPECTED_CHAR\]: game 1: '\[' in the moves" "$TMP/out"
check "stray '[': nothing charged to game 2" sh -c "! grep -q 'game 2' '$TMP/out'"
check "stray '[': no BAD_TAG at all" sh -c "! grep -q BAD_TAG '$TMP/out'"
check "stray '[': 2 games, 1 ok, 1 with errors" \
    grep_err "2 games: 1 ok, 0 with warnings, 1 with errors"
run "$PGNKIT" uci -q --skip-invalid "$TMP/stray.pgn"
check "--skip-invalid drops the broken game and keeps the clean one" \
    [ "$(cat "$TMP/out")" = "d2d4 d7d5" ]

printf '[Event "clocks"]\n\n1. e4 [%%clk 0:00:10] 1... e5 [%%clk 0:00:09] 2. Nf3 [%%clk 0:00:08] *\n' \
    >"$TMP/clk.pgn"
run "$PGNKIT" check --no-progress "$TMP/clk.pgn"
check "unbraced [%clk]: one game" grep_err "1 game: 0 ok, 1 with warnings, 0 with errors"
check "unbraced [%clk]: one NONSTANDARD warning at the first" \
    [ "$(grep -c "clk.pgn:3:7: warning\[NONSTANDARD\]: game 1: '\[%clk 0:00:10\]' outside braces" "$TMP/out")" = 1 ]
check "unbraced [%clk]: no other diagnostic" [ "$(lines "$TMP/out")" = 1 ]
run "$PGNKIT" uci -q --format tsv --with clk "$TMP/clk.pgn"
printf 'game\tply\tuci\tsan\tclk\n1\t1\te2e4\te4\t0:00:10\n1\t2\te7e5\te5\t0:00:09\n1\t3\tg1f3\tNf3\t0:00:08\n' \
    >"$TMP/want"
check "unbraced [%clk]: the clocks read as if braced" cmp -s "$TMP/out" "$TMP/want"
run "$PGNKIT" pgn -q "$TMP/clk.pgn"
check "unbraced [%clk]: pgn writes it braced" grep -q '{ \[%clk 0:00:10\] }' "$TMP/out"

# A tag pair that begins its line still ends a game without a result.
printf '[Event "a"]\n\n1. e4 e5\n[Event "b"]\n\n1. d4 d5 *\n' >"$TMP/next.pgn"
run "$PGNKIT" uci -q "$TMP/next.pgn"
check "a tag line after moves still starts the next game" \
    [ "$(cat "$TMP/out")" = "$(printf 'e2e4 e7e5\nd2d4 d7d5')" ]
finish
