#!/bin/sh
# variants.sh - the lichess variants end to end (testdata/variants/README.md):
#  1. every game of testdata/variants/pgn gives the oracle's UCI moves and final FEN
#     (python-chess, checked against chessops), and `check` reports nothing on it;
#  2. pgn output replays to the same moves; JSON output is valid;
#  3. per variant, a special case played legally and illegally, worked out by hand
#     below; each illegal one is an ILLEGAL (or MOVE_AFTER_END) naming the variant rule.
. tests/cli/lib/common.sh
V=$(pwd)/testdata/variants/pgn

for f in "$V"/*.pgn "$V"/python-chess/*.pgn; do
    name=${f#"$V"/}
    cut -f3 "$f.oracle.tsv" >"$TMP/want.uci"
    cut -f4 "$f.oracle.tsv" >"$TMP/want.fen"
    "$PGNKIT" uci -q "$f" >"$TMP/got.uci" 2>/dev/null
    check "$name: UCI moves as the oracle" cmp -s "$TMP/want.uci" "$TMP/got.uci"
    "$PGNKIT" fen -q "$f" >"$TMP/got.fen" 2>/dev/null
    check "$name: final FENs as the oracle" cmp -s "$TMP/want.fen" "$TMP/got.fen"
    run "$PGNKIT" check -q "$f"
    check "$name: check reports nothing (claims, Result by the variant's endings)" \
        test "$rc" -eq 0 -a ! -s "$TMP/out"
    "$PGNKIT" pgn -q "$f" 2>/dev/null | "$PGNKIT" uci -q >"$TMP/again.uci" 2>/dev/null
    check "$name: pgn output replays to the same moves" cmp -s "$TMP/want.uci" "$TMP/again.uci"
done
"$PGNKIT" uci -q --format json "$V/crazyhouse.pgn" >"$TMP/zh.json" 2>/dev/null
check "uci --format json on Crazyhouse is valid JSON" /usr/bin/python3 -c '
import json, sys
for line in open(sys.argv[1]): json.loads(line)' "$TMP/zh.json"

# game VARIANT FEN MOVETEXT: a one-game PGN in $TMP/g.pgn ("" FEN: the start position).
game() {
    {
        printf '[Event "?"]\n[Result "%s"]\n[Variant "%s"]\n' "${3##* }" "$1"
        [ -n "$2" ] && printf '[SetUp "1"]\n[FEN "%s"]\n' "$2"
        printf '\n%s\n\n' "$3"
    } >"$TMP/g.pgn"
}
# legal DESC EXPECTED-UCI: the game converts to that UCI, and check is silent.
legal() {
    run "$PGNKIT" uci -q "$TMP/g.pgn"
    check "$1: legal, UCI $2" test "$rc" -eq 0 -a "$(cat "$TMP/out")" = "$2"
    run "$PGNKIT" check -q "$TMP/g.pgn"
    check "$1: check is silent" test "$rc" -eq 0 -a ! -s "$TMP/out"
}
# illegal DESC TEXT: check reports an ILLEGAL/MOVE_AFTER_END error containing TEXT.
illegal() {
    run "$PGNKIT" check -q "$TMP/g.pgn"
    grep -F -- "$2" "$TMP/out" >"$TMP/hit"
    check "$1: rejected naming the rule ($2)" grep -qE 'error\[(ILLEGAL|MOVE_AFTER_END)\]' "$TMP/hit"
    echo "#   $(cat "$TMP/hit")"
}

# Crazyhouse.  Black: Kh8, Rg8, pawns g7 h7; White: Ka1 and a knight in the pocket.
# N@f7 attacks h8; g8, g7, h7 are Black's own, nothing reaches f7 (the rook moves on g
# and rank 8, the pawns take downwards), a knight's check cannot be blocked: mate.
game Crazyhouse '6rk/6pp/8/8/8/8/8/K7[N] w - - 0 1' '1. N@f7# 1-0'
legal "Crazyhouse drop mate" "N@f7"
game Crazyhouse '6rk/6pp/8/8/8/8/8/K7[B] w - - 0 1' '1. N@f7# 1-0'
illegal "Crazyhouse drop of a piece not in the pocket" "Crazyhouse: White has no knight in the pocket"
game Crazyhouse '6rk/6pp/8/8/8/8/8/K7[P] w - - 0 1' '1. P@a8 *'
illegal "Crazyhouse pawn drop on the 8th rank" "Crazyhouse: no pawn drop on the 1st or 8th rank"
game Crazyhouse '6rk/6pp/8/8/8/8/8/K7[P] w - - 0 1' '1. @e4 *'
legal "Crazyhouse pawn drop written @e4" "P@e4"

# Atomic.  Re1xe7: the blast around e7 takes the black king on e8 (not the pawns): 1-0.
game Atomic '4k3/4p3/8/8/8/8/8/4R2K w - - 0 1' '1. Rxe7# 1-0'
legal "Atomic capture next to the enemy king" "e1e7"
# Rd1xd2 next to the own king on e1: the blast would take it.
game Atomic 'k7/8/8/8/8/8/3n4/3RK3 w - - 0 1' '1. Rxd2 *'
illegal "Atomic capture next to the own king" "Atomic: the capture would explode White's own king"
game Atomic 'k7/8/8/8/8/8/3n4/4K2R w - - 0 1' '1. Kxd2 *'
illegal "Atomic king capture" "Atomic: a king cannot capture"

# Antichess.  After 1. e4 d5 White can take on d5, so it must.
game Antichess '' '1. e4 d5 2. exd5 *'
legal "Antichess forced capture played" "e2e4 d7d5 e4d5"
game Antichess '' '1. e4 d5 2. Nf3 *'
illegal "Antichess forced capture ignored" "Antichess: a capture is compulsory"
game Antichess '' '1. e4 d5 2. exd5+ *'
run "$PGNKIT" check -q "$TMP/g.pgn"
check "Antichess has no check: + is spurious" grep -qF "CHECK_SPURIOUS" "$TMP/out"

# King of the Hill.  Kc4-d4: the king stands on the hill and White wins (#); no move after.
game 'King of the Hill' '8/8/8/8/2K5/8/8/k7 w - - 0 1' '1. Kd4# 1-0'
legal "King of the Hill king reaching the hill" "c4d4"
game 'King of the Hill' '8/8/8/8/2K5/8/8/k7 w - - 0 1' '1. Kd4 Kb1 1-0'
illegal "King of the Hill move after the hill" "King of the Hill: king-in-centre, White wins"
# Reaching the hill does not excuse walking into check (the rook on d1 holds the d-file).
game 'King of the Hill' '8/8/8/8/2K5/8/8/k2r4 w - - 0 1' '1. Kd4 *'
illegal "King of the Hill king reaching the hill into check" "the king would be in check on d4"

# Three-check.  White may still give one check: Ra8+ is the third, a win (#).
game Three-check '4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1' '1. Ra8# 1-0'
legal "Three-check third check" "a1a8"
game Three-check '4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1' '1. Ra8+ Kd7 1-0'
illegal "Three-check move after the third check" "Three-check: third-check, White wins"
run "$PGNKIT" check -q "$TMP/g.pgn"
check "Three-check: + on the third check is a missing #" grep -qF "MATE_MISSING" "$TMP/out"
game Three-check '4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +2+0' '1. Ra8# 1-0'
legal "Three-check lichess counter suffix (+2+0: one left)" "a1a8"

# Racing Kings.  Rg1-g3 would check the king on a3 along the 3rd rank.
game 'Racing Kings' '8/8/8/8/8/k7/8/6RK w - - 0 1' '1. Rg3 *'
illegal "Racing Kings move giving check" "Racing Kings: no move may give check"
game 'Racing Kings' '8/8/8/8/8/k7/8/6RK w - - 0 1' '1. Rg2 *'
legal "Racing Kings quiet rook move" "g1g2"
# Kh7-h8: White is on the 8th rank and Black's king on a2 cannot follow: 1-0 (#).
game 'Racing Kings' '8/7K/8/8/8/8/k7/8 w - - 0 1' '1. Kh8# 1-0'
legal "Racing Kings race won" "h7h8"

# Horde.  a1-a3 from the 1st rank; no en passant against it (b3xa2 takes nothing).
game Horde '4k3/8/8/8/8/1p6/8/P7 w - - 0 1' '1. a3 Kd7 *'
legal "Horde double step from the 1st rank" "a1a3 e8d7"
run "$PGNKIT" fen -q --ply 1 "$TMP/g.pgn"
check "Horde double step from the 1st rank sets no e.p. square" \
    test "$(cat "$TMP/out")" = "4k3/8/8/8/8/Pp6/8/8 b - - 0 1"
game Horde '4k3/8/8/8/8/1p6/8/P7 w - - 0 1' '1. a3 bxa2 *'
illegal "Horde en passant after a 1st-rank double step" "Horde: nothing to take on a2"

# Results judged by the variant: Atomic's exploded king wins for White, not Black.
game Atomic '4k3/4p3/8/8/8/8/8/4R2K w - - 0 1' '1. Rxe7# 0-1'
run "$PGNKIT" check -q "$TMP/g.pgn"
check "Atomic Result contradicting the explosion" grep -qF "RESULT_CONTRADICTS" "$TMP/out"
# Antichess: White loses its last piece, so White wins (# on Black's capture).
game Antichess '8/8/8/8/8/8/1p6/N7 b - - 0 1' '1... bxa1=Q# 1-0'
legal "Antichess: the side left without pieces wins" "b2a1q"

# Other variants stay unsupported, named.
game Suicide '' '1. e4 *'
run "$PGNKIT" check -q "$TMP/g.pgn"
check "Suicide is UNSUPPORTED_VARIANT, named" grep -qF 'variant "Suicide" is not supported' "$TMP/out"

# perft --variant (the unit tests run the whole suites).
run "$PGNKIT" perft --variant crazyhouse '2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - -' 1
check "perft --variant crazyhouse counts drops (301)" test "$(tail -1 "$TMP/out")" = 301
run "$PGNKIT" perft --variant shogi '8/8/8/8/8/8/8/K6k w - -' 1
check "perft --variant with an unknown name: usage error" test "$rc" -eq 2
finish
