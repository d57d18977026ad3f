#!/bin/sh
# split_variations.sh - pgn --split-variations on every game of testdata/pgn without
# errors: one game per line of play (the mainline and each variation: the count of
# variations is that of the '(' outside comments in pgn's own output), each game a
# single line (no variation left), each replaying cleanly, and the mainline's game the
# same as pgn --no-variations --no-comments --no-nags writes.
. "$(dirname "$0")/lib/common.sh"

for f in $(find "$TESTDATA" -name '*.pgn' | sort); do cat "$f"; printf '\n\n'; done >"$TMP/all.pgn"
"$PGNKIT" pgn -q --skip-invalid "$TMP/all.pgn" >"$TMP/clean.pgn" 2>/dev/null
games=$(grep -c '^\[Event ' "$TMP/clean.pgn")
# (comments may span lines: the movetext is joined first)
variations=$(grep -v '^\[' "$TMP/clean.pgn" | tr '\n' ' ' | sed 's/{[^}]*}//g' | tr -cd '(' | wc -c | tr -d ' ')
check "the corpus has games with variations ($games games, $variations variations)" \
    [ "$variations" -gt 100 ]

run "$PGNKIT" pgn -q --split-variations "$TMP/clean.pgn"
check "--split-variations: exit 0" [ "$rc" -eq 0 ]
lines=$(grep -c '^\[Event ' "$TMP/out")
check "one game per line of play: $lines = $games + $variations" [ "$lines" -eq $((games + variations)) ]
check "no game written holds a variation" sh -c '! grep -v "^\[" "$1" | grep -q "("' _ "$TMP/out"
cp "$TMP/out" "$TMP/split.pgn"
"$PGNKIT" pgn -q --split-variations --part-tokens 16 "$TMP/clean.pgn" >"$TMP/parts.pgn" 2>/dev/null
check "games replayed in parts of 16 tokens: the same lines" cmp -s "$TMP/parts.pgn" "$TMP/split.pgn"
run "$PGNKIT" check "$TMP/split.pgn"
check "every line's game replays cleanly" [ "$rc" -eq 0 ]

# The mainlines: every first game of a run of games cut from one (its Event and the rest
# of the tags are the same, so take the games in order: the split games of game k come
# before those of game k+1, the mainline first).
"$PGNKIT" pgn -q --no-variations --no-comments --no-nags "$TMP/clean.pgn" >"$TMP/main.pgn" 2>/dev/null
"$PGNKIT" pgn -q --split-variations "$TMP/main.pgn" >"$TMP/main_split.pgn" 2>/dev/null
check "a game without variations is written as pgn writes it without comments and NAGs" \
    cmp -s "$TMP/main_split.pgn" "$TMP/main.pgn"

for bad in --verbatim "--first-plies 3" --fixes --no-variations "--add-tags PlyCount"; do
    # shellcheck disable=SC2086
    run "$PGNKIT" pgn --split-variations $bad "$TMP/clean.pgn"
    check "--split-variations with $bad: refused" sh -c '[ "$1" -eq 2 ] && grep -q "split-variations" "$2"' _ "$rc" "$TMP/err"
done
finish
