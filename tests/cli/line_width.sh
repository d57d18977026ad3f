#!/bin/sh
# line_width.sh - pgn --line-width N on every PGN file of testdata/pgn, at several widths:
#   - no movetext line passes N columns unless it holds a single word (a word is never
#     split; "{ " belongs to the comment's first word, and a word starting with '%' never
#     starts a line, so it stays after the word before it);
#   - the text is the default output's, only the line breaks differ: read back, each file
#     gives the default output again;
#   - the output is a fixed point at its width;
#   - the default is 80 columns, --line-width 0 never wraps, and widths under 20 are
#     refused.
. "$(dirname "$0")/lib/common.sh"

files=$(find "$TESTDATA" -name '*.pgn' | sort)
for f in $files; do cat "$f"; printf '\n\n'; done >"$TMP/all.pgn"
"$PGNKIT" pgn -q "$TMP/all.pgn" >"$TMP/default.pgn" 2>/dev/null

# over WIDTH FILE: the movetext lines past WIDTH that hold more than one word.
over() {
    awk -v W="$1" 'W > 0 && !/^\[/ && length($0) > W {
        line = $0; sub(/^\{ /, "", line)
        n = split(line, words, " ")
        for (i = 2; i <= n; i++) if (substr(words[i], 1, 1) == "%") n--
        if (n > 1) bad++
    } END { print bad + 0 }' "$2"
}

for w in 20 33 47 64 79 100 0; do
    "$PGNKIT" pgn -q --line-width "$w" "$TMP/all.pgn" >"$TMP/w.pgn" 2>/dev/null
    check "--line-width $w: no line of several words passes $w columns" \
        [ "$(over "$w" "$TMP/w.pgn")" -eq 0 ]
    "$PGNKIT" pgn -q "$TMP/w.pgn" >"$TMP/back.pgn" 2>/dev/null
    check "--line-width $w: read back, the default output again" cmp -s "$TMP/back.pgn" "$TMP/default.pgn"
    "$PGNKIT" pgn -q --line-width "$w" "$TMP/w.pgn" >"$TMP/again.pgn" 2>/dev/null
    check "--line-width $w: a fixed point" cmp -s "$TMP/again.pgn" "$TMP/w.pgn"
done

full=$(awk '!/^\[/ && length($0) == 80' "$TMP/default.pgn" | wc -l)
check "the default fills lines up to 80 columns ($full lines of 80)" [ "$full" -gt 0 ]
check "the default: no line of several words passes 80 columns" \
    [ "$(over 80 "$TMP/default.pgn")" -eq 0 ]
"$PGNKIT" pgn -q --line-width 80 "$TMP/all.pgn" >"$TMP/w80.pgn" 2>/dev/null
check "--line-width 80 is the default" cmp -s "$TMP/w80.pgn" "$TMP/default.pgn"
"$PGNKIT" pgn -q --line-width 0 "$TMP/all.pgn" >"$TMP/w0.pgn" 2>/dev/null
games=$(grep -c '^\[Event ' "$TMP/w0.pgn")
movetext=$(awk '/^\[/ { tags = 1; next } tags && NF { n++; tags = 0 } END { print n }' "$TMP/w0.pgn")
check "--line-width 0: one movetext line per game ($movetext for $games)" [ "$movetext" -eq "$games" ]

for bad in 19 1 -5 x; do
    run "$PGNKIT" pgn --line-width "$bad" "$TMP/all.pgn"
    check "--line-width $bad: refused (exit 2, says the range)" \
        sh -c '[ "$1" -eq 2 ] && grep -qF "from 20" "$2"' _ "$rc" "$TMP/err"
done
run "$PGNKIT" pgn --line-width 60 --verbatim "$TMP/all.pgn"
check "--line-width with --verbatim: refused" [ "$rc" -eq 2 ]
finish
