#!/bin/sh
# cut.sh - --first-plies (write the first N plies of each game) and --stop-after (stop
# once N games are written).  Hand-built games with the expected output written out;
# then the testdata corpus: the moves and FENs of a cut game are the first N of the
# whole game's (pgnkit uci and fen --every, without the option), the PGN written reads
# back to those moves, and pgn-extract --plylimit cuts the same moves; --stop-after N is
# the first N games of the run without it.
. tests/cli/lib/common.sh
P=$PGNKIT
T=$TMP
PE=/usr/games/pgn-extract

cat >"$T/g.pgn" <<'PGN'
[Event "a"]
[Result "1-0"]

1. e4 {c1} e5 (1... c5 2. Nf3) 2. Nf3 $1 {c2} Nc6 (2... d6) 3. Bb5 a6 1-0

[Event "b"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "c"]
[Result "*"]

1. e4 e5 2. Ke3 *
PGN

# ---- --first-plies, by hand ----
# uci: a's first 3 plies; b's too (the mate is left out); c's mainline played is 2 plies
# (2.Ke3 is illegal): it is written whole.
run "$P" uci -q -t Event --first-plies 3 "$T/g.pgn"
printf 'a\te2e4 e7e5 g1f3\nb\tf2f3 e7e5 g2g4\nc\te2e4 e7e5\n' >"$T/want"
check "uci --first-plies 3: the first 3 plies" cmp -s "$T/out" "$T/want"
# pgn: the variation of ply 2 and the comment and NAG after ply 3 stay (they belong to
# the plies written); what follows ply 3 goes; the result is * in the tag and the marker.
run "$P" pgn -q --first-plies 3 "$T/g.pgn"
sed -n '/Event "a"/,/^$/p' "$T/out" | grep -c '^\[Result "\*"\]' >"$T/n"
check "pgn --first-plies 3: Result tag *" [ "$(cat "$T/n")" = 1 ]
check "pgn --first-plies 3: a's movetext" \
    grep -qxF '1. e4 { c1 } 1... e5 ( 1... c5 2. Nf3 ) 2. Nf3 $1 { c2 } *' "$T/out"
check "pgn --first-plies 3: b's movetext, no mate" grep -qxF '1. f3 e5 2. g4 *' "$T/out"
# 4 plies: b is written whole, with its result.
run "$P" pgn -q --first-plies 4 "$T/g.pgn"
check "pgn --first-plies 4: b whole, 0-1" grep -qxF '1. f3 e5 2. g4 Qh4# 0-1' "$T/out"
check "pgn --first-plies 4: a ends after 2...Nc6 and its variation" \
    grep -qxF '1. e4 { c1 } 1... e5 ( 1... c5 2. Nf3 ) 2. Nf3 $1 { c2 } 2... Nc6 ( 2... d6 ) *' "$T/out"
run "$P" pgn -q --first-plies 0 --add-tags PlyCount "$T/g.pgn"
check "pgn --first-plies 0: no moves, PlyCount 0" \
    sh -c "[ \$(grep -cx '\\*' '$T/out') -eq 3 ] && [ \$(grep -c 'PlyCount \"0\"' '$T/out') -eq 3 ]"
# fen: the position after ply 2 of a (1.e4 e5), then with every ply.
run "$P" fen -q --first-plies 2 "$T/g.pgn"
check "fen --first-plies 2: after 1.e4 e5" [ "$(head -n 1 "$T/out")" = \
    'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2' ]
run "$P" fen -q --every --first-plies 1 "$T/g.pgn"
check "fen --every --first-plies 1: one line a game" [ "$(cut -f1,2 "$T/out" | tr '\t\n' ':,')" = '1:1,2:1,3:1,' ]
run "$P" uci -q --format json --first-plies 1 "$T/g.pgn"
check "uci json: result * for a cut game" [ "$(grep -c '"result":"\*"' "$T/out")" -eq 3 ]
run "$P" pgn --verbatim --first-plies 2 "$T/g.pgn"
check "--verbatim --first-plies: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'cannot cut' '$T/err'"
run "$P" uci --first-plies x "$T/g.pgn"
check "--first-plies x: exit 2" [ "$rc" -eq 2 ]
run "$P" check --first-plies 2 "$T/g.pgn"
check "check has no --first-plies" [ "$rc" -eq 2 ]
# The selection sees the whole game: b is mated at ply 4, and selected so when cut at 2.
run "$P" uci -q -t Event --first-plies 2 --ending checkmate "$T/g.pgn"
check "selection on the whole game" [ "$(cat "$T/out")" = "$(printf 'b\tf2f3 e7e5')" ]

# ---- --stop-after, by hand ----
run "$P" uci -t Event --stop-after 2 "$T/g.pgn"
check "--stop-after 2: a and b" [ "$(cut -f1 "$T/out" | tr '\n' ' ')" = 'a b ' ]
check "--stop-after 2: exit 0 (c, with its error, is not read)" [ "$rc" -eq 0 ]
check "--stop-after 2: stderr says it stopped" grep_err 'stopped after game 2 of'
run "$P" uci -t Event --stop-after 3 "$T/g.pgn"
check "--stop-after 3: c read: exit 1" [ "$rc" -eq 1 ]
# Counted are the games written: c (an error) dropped by --skip-invalid does not count,
# so --stop-after 3 over the file twice ends at the second file's a.
run "$P" uci -t Event --skip-invalid --stop-after 2 "$T/g.pgn" "$T/g.pgn"
check "--stop-after counts the games written, not read" \
    [ "$(cut -f3 "$T/out" | tr '\n' ' ')" = 'a b ' ]
run "$P" uci -t Event --skip-invalid --stop-after 3 "$T/g.pgn" "$T/g.pgn"
check "--stop-after 3 goes on into the next input" \
    sh -c "[ \"\$(cut -f3 '$T/out' | tr '\n' ' ')\" = 'a b a ' ] && grep -q 'game 1 of' '$T/err'"
run "$P" uci -q --stop-after 1 "$T/g.pgn"
check "--stop-after with -q: nothing on stderr" [ ! -s "$T/err" ]
run "$P" uci --stop-after 0 "$T/g.pgn"
check "--stop-after 0: exit 2" [ "$rc" -eq 2 ]
run "$P" check --summary --stop-after 1 --occurs check "$T/g.pgn"
check "check --stop-after: kept games count; the summary follows" \
    sh -c "grep -q 'stopped after game 2 of' '$T/err' && grep -q '2 games:.* 1 kept, 1 dropped' '$T/err'"

# ---- the corpus ----
ls "$TESTDATA"/*/*.pgn | grep -v -e uzchesscup -e pgn-render-pgns -e chess.js/0.pgn \
    -e nested-comment >"$T/files"
# shellcheck disable=SC2046
set -- $(cat "$T/files")
cat "$@" >"$T/corpus.pgn"
"$P" uci -q --skip-invalid "$T/corpus.pgn" >"$T/full" 2>/dev/null
"$P" fen -q --every --skip-invalid "$T/corpus.pgn" >"$T/every" 2>/dev/null
for n in 0 1 7 40; do
    "$P" uci -q --skip-invalid --first-plies $n "$T/corpus.pgn" >"$T/cut" 2>/dev/null
    awk -v n=$n '{ s = ""; for (i = 1; i <= NF && i <= n; i++) s = s (i > 1 ? " " : "") $i; print s }' \
        "$T/full" >"$T/want"
    check "uci --first-plies $n: the first $n moves of each of $(lines "$T/full") games" \
        cmp -s "$T/cut" "$T/want"
    # The PGN written reads back to the same moves, with * as its every marker cut.
    "$P" pgn -q --skip-invalid --first-plies $n "$T/corpus.pgn" >"$T/cut.pgn" 2>/dev/null
    "$P" uci -q "$T/cut.pgn" >"$T/back" 2>/dev/null
    check "pgn --first-plies $n reads back to those moves" cmp -s "$T/back" "$T/want"
done
# fen --first-plies 7: the 7th line of fen --every for the games that long.
"$P" fen -q --every --skip-invalid --first-plies 7 "$T/corpus.pgn" >"$T/every7" 2>/dev/null
awk -F'\t' '$2 <= 7' "$T/every" >"$T/want"
check "fen --every --first-plies 7: the first 7 lines of each game" cmp -s "$T/every7" "$T/want"
if [ -x "$PE" ]; then
    # pgn-extract cuts the standard games alike (variants: see select.sh, it has no
    # rules for them).  Not those from a set-up position: pgn-extract counts their plies
    # from move 1 (a FEN at move 2, White to move, is at its ply 3), pgnkit from the
    # position the game starts at.
    "$P" pgn -q --skip-invalid --where 'Variant !~ .' --where 'FEN !~ .' "$T/corpus.pgn" \
        >"$T/std.pgn" 2>/dev/null
    "$PE" -s --allownullmoves --plylimit 9 -o "$T/pe.pgn" "$T/std.pgn" 2>/dev/null
    "$P" uci -q "$T/pe.pgn" >"$T/a" 2>/dev/null
    "$P" uci -q --first-plies 9 "$T/std.pgn" >"$T/b" 2>/dev/null
    check "uci --first-plies 9 = pgn-extract --plylimit 9 ($(lines "$T/b") games)" cmp -s "$T/a" "$T/b"
else
    skip "pgn-extract --plylimit: no $PE"
fi
for n in 1 10 100; do
    "$P" uci -q --skip-invalid --stop-after $n "$T/corpus.pgn" >"$T/some" 2>/dev/null
    head -n $n "$T/full" >"$T/want"
    check "--stop-after $n: the first $n games written" cmp -s "$T/some" "$T/want"
done
"$P" uci -q --skip-invalid --occurs check "$T/corpus.pgn" | head -n 25 >"$T/want"
"$P" uci -q --skip-invalid --occurs check --stop-after 25 -j2 "$T/corpus.pgn" >"$T/some" 2>/dev/null
check "--stop-after 25 of the games selected, whatever --jobs" cmp -s "$T/some" "$T/want"

finish
