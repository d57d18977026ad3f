#!/bin/sh
# route.sh - where games go: --skip-invalid, --invalid-to, pgn --verbatim, --dedupe,
# --duplicates-to, --split, --split-by; checked against Debian's pgn-extract where both
# define the same thing, and --jobs 2 against --jobs 1 for every option.
. tests/cli/lib/common.sh
P=$PGNKIT
T=$TMP
PE=/usr/games/pgn-extract
M=$TESTDATA/mutants/mutants.pgn

events() { grep '^\[Event ' "$1" | sort; }
games() { grep -c '^\[Event ' "$1"; }
# A file's text as lines to compare: no BOM, no trailing blanks, no blank lines (what
# lies between games is not any game's bytes).
text_lines() { sed -e '1s/^\xEF\xBB\xBF//' -e 's/[[:space:]]*$//' "$@" | grep -av '^$'; }

# ---- invalid games: pgnkit vs pgn-extract on the mutants ----
# The mutants: one defect each (mutants/README.md); pgn-extract drops a game it cannot
# replay (an illegal or ambiguous move) unless --keepbroken.
$PE -s -o "$T/pe-kept.pgn" "$M" 2>/dev/null
events "$M" >"$T/all.ev"
events "$T/pe-kept.pgn" >"$T/pe-kept.ev"
comm -23 "$T/all.ev" "$T/pe-kept.ev" >"$T/pe-rejected.ev"
kept=$(lines "$T/pe-kept.ev")
check "pgn-extract keeps some mutants" [ "$kept" -gt 100 ]
check "pgn-extract rejects some mutants" [ "$(lines "$T/pe-rejected.ev")" -gt 100 ]

"$P" pgn -q --invalid-to "$T/bad.pgn" -o "$T/good.pgn" "$M" 2>/dev/null
if events "$T/bad.pgn" | cmp -s - "$T/pe-rejected.ev"; then
    ok "--invalid-to holds exactly the games pgn-extract rejects ($(lines "$T/pe-rejected.ev"))"
else
    not_ok "--invalid-to and pgn-extract's rejected games differ:"
    events "$T/bad.pgn" | diff - "$T/pe-rejected.ev" | head -5
fi
check "pgn --invalid-to: the output holds the others" [ "$(games "$T/good.pgn")" = "$kept" ]

# Every game set aside is preceded by ';' lines naming its diagnostics, in compiler form.
awk '/^\[Event /{ if (prev !~ /^; .*mutants\.pgn:[0-9]+:[0-9]+: error\[[A-Z_]+\]: game [0-9]+/) bad++ }
     !/^\[/ || /^\[Event /{ } { if ($0 !~ /^\[/ || /^\[Event /) prev = $0 }
     END { exit bad > 0 }' "$T/bad.pgn"
check "each invalid game follows a '; FILE:LINE:COL: error[CODE]: game N' line" [ $? -eq 0 ]
# The comment lines name the same errors check reports for the input.
"$P" check -q "$M" 2>/dev/null | grep ': error\[' | sed 's/^/; /' >"$T/errs"
grep '^; ' "$T/bad.pgn" | grep ': error\[' >"$T/bad-errs"
check "the ';' lines are check's error lines for those games" cmp -s "$T/errs" "$T/bad-errs"
# Read back, the set-aside file has the same games with the same errors (the comment is
# part of the game, not a game of its own).
"$P" check -q "$T/bad.pgn" 2>/dev/null | sed 's/^[^ ]*: //; s/game [0-9]*, //' >"$T/again"
"$P" check -q "$M" 2>/dev/null | grep ': error\[' | sed 's/^[^ ]*: //; s/game [0-9]*, //' >"$T/first"
check "the invalid file reads back as the same games with the same errors" cmp -s "$T/first" "$T/again"

# --skip-invalid for every command: the games pgn-extract keeps, nothing of the others.
run "$P" uci -q --skip-invalid "$M"
check "uci --skip-invalid writes $kept games" [ "$(lines "$T/out")" = "$kept" ]
run "$P" fen -q --skip-invalid "$M"
check "fen --skip-invalid writes $kept games" [ "$(lines "$T/out")" = "$kept" ]
"$P" pgn -q --skip-invalid "$M" >"$T/skip.pgn" 2>/dev/null
check "pgn --skip-invalid writes the games pgn-extract keeps" cmp -s "$T/pe-kept.ev" "$(events "$T/skip.pgn" >"$T/skip.ev"; echo "$T/skip.ev")"
run "$P" check --skip-invalid "$M"
check "check --skip-invalid still reports the errors" grep -q ': error\[' "$T/out"
check "check --skip-invalid: games in = kept + dropped in the summary" \
    grep -qE "^pgnkit: 440 games: .*; $kept kept, $((440 - kept)) dropped \($((440 - kept)) invalid, 0 duplicate, 0 not selected\)" "$T/err"
run "$P" uci --skip-invalid --summary "$M"
check "uci --summary: $kept written, $((440 - kept)) dropped as invalid" \
    grep -qE "; $kept written, $((440 - kept)) dropped \($((440 - kept)) invalid" "$T/err"

# ---- verbatim ----
# Every game's bytes, and only those: the non-blank lines of input and output agree
# (what lies outside games, a BOM, blank lines, trailing blanks after a result, is no
# game's).
fails=0
for f in "$TESTDATA"/*/*.pgn; do
    "$P" pgn -q --verbatim "$f" >"$T/v.pgn" 2>/dev/null
    if ! text_lines "$f" | cmp -s - "$T/v.pgn.lines" 2>/dev/null; then
        text_lines "$T/v.pgn" >"$T/v.pgn.lines"
        text_lines "$f" | cmp -s - "$T/v.pgn.lines" || { fails=$((fails + 1)); echo "# differs: $f"; }
    fi
done
check "pgn --verbatim writes every game's lines as they are, in every shared file" [ $fails -eq 0 ]
"$P" pgn -q --verbatim "$TESTDATA/tcec/TCEC_Season_10_-_Superfinal.pgn" >"$T/v.pgn" 2>/dev/null
check "pgn --verbatim of a file with one blank line between games is the file itself" \
    cmp -s "$T/v.pgn" "$TESTDATA/tcec/TCEC_Season_10_-_Superfinal.pgn"
# clean (verbatim) + invalid hold every game's bytes exactly once.
"$P" pgn -q --verbatim --invalid-to "$T/bad.pgn" -o "$T/good.pgn" "$M" 2>/dev/null
text_lines "$M" | sort >"$T/in.sorted"
{ text_lines "$T/good.pgn"; text_lines "$T/bad.pgn" | grep -v '^; '; } | sort >"$T/out.sorted"
check "pgn --verbatim --invalid-to: clean + invalid = the input's lines, each once" \
    cmp -s "$T/in.sorted" "$T/out.sorted"
"$P" pgn -q --verbatim "$T/good.pgn" >"$T/good2.pgn" 2>/dev/null
check "pgn --verbatim of its own output is the same bytes" cmp -s "$T/good.pgn" "$T/good2.pgn"

# ---- duplicates: pgnkit vs pgn-extract -d on twic x3 ----
# (-d FILE: duplicates to FILE, the others to -o; that is -D with the duplicates kept)
zstd -dc testdata/bench/twic1599.pgn.zst >"$T/twic.pgn"
cat "$T/twic.pgn" "$T/twic.pgn" "$T/twic.pgn" >"$T/twic3.pgn"
$PE -s -o "$T/pe-d.pgn" -d"$T/pe-dups.pgn" "$T/twic3.pgn" 2>/dev/null
distinct=$(games "$T/pe-d.pgn")
"$P" pgn -q --verbatim --dedupe --duplicates-to "$T/dups.pgn" -o "$T/d.pgn" "$T/twic3.pgn" 2>/dev/null
check "--dedupe on twic x3 keeps as many games as pgn-extract -D ($distinct)" [ "$(games "$T/d.pgn")" = "$distinct" ]
check "twic has $distinct distinct games of $(games "$T/twic.pgn"), by uci lines too" \
    [ "$("$P" uci -q "$T/twic.pgn" | sort -u | wc -l)" = "$distinct" ]
tags() { grep -E '^\[(White|Black|Round|Date|Event) ' "$1"; }
tags "$T/d.pgn" >"$T/d.tags"; tags "$T/pe-d.pgn" >"$T/pe-d.tags"
check "--dedupe keeps the games pgn-extract -D keeps (same tags, same order)" cmp -s "$T/d.tags" "$T/pe-d.tags"
"$P" pgn -q --verbatim "$T/twic.pgn" >"$T/twic.v" 2>/dev/null
"$P" pgn -q --verbatim --dedupe "$T/twic.pgn" >"$T/twic.d" 2>/dev/null
"$P" pgn -q --verbatim --dedupe "$T/twic.v" "$T/twic.v" >"$T/twic.dd" 2>/dev/null
check "the games kept from twic x3 are those of twic alone with --dedupe" cmp -s "$T/d.pgn" "$T/twic.d"
check "two inputs: a game of the second equal to one of the first is a duplicate" cmp -s "$T/twic.dd" "$T/twic.d"
check "--duplicates-to holds as many games as pgn-extract -d" [ "$(games "$T/dups.pgn")" = "$(games "$T/pe-dups.pgn")" ]
text_lines "$T/twic3.pgn" | sort >"$T/in.sorted"
{ text_lines "$T/d.pgn"; text_lines "$T/dups.pgn"; } | sort >"$T/out.sorted"
check "--dedupe --duplicates-to: kept + duplicates = the input's lines, each once" cmp -s "$T/in.sorted" "$T/out.sorted"
run "$P" uci --dedupe --summary "$T/twic3.pgn"
n=$(games "$T/twic3.pgn")
check "uci --dedupe --summary: games in = written + duplicates" \
    grep -qE "^pgnkit: $n games: .*; $distinct written, $((n - distinct)) dropped \(0 invalid, $((n - distinct)) duplicate, 0 not selected\)" "$T/err"

# ---- --split and --split-by ----
mkdir "$T/split"
"$P" pgn -q --split 100 -o "$T/split/part-%04d.pgn" "$T/twic.pgn" 2>/dev/null
total=$(games "$T/twic.pgn")
check "--split 100: ceil($total/100) files" [ "$(ls "$T/split" | wc -l)" = $(((total + 99) / 100)) ]
check "--split 100: the first file is part-0001.pgn with 100 games" [ "$(games "$T/split/part-0001.pgn")" = 100 ]
"$P" pgn -q "$T/twic.pgn" >"$T/whole.pgn" 2>/dev/null
check "--split: the files in order are the unsplit output" sh -c "cat '$T'/split/part-*.pgn | cmp -s - '$T/whole.pgn'"
cp "$T/split/part-0002.pgn" "$T/p2"
echo junk >"$T/split/part-0002.pgn"
run "$P" pgn -q --split 100 -o "$T/split/part-%04d.pgn" "$T/twic.pgn"
check "--split over an existing file: exit 2" [ $rc = 2 ]
check "--split over an existing file: the error names it" grep_err "part-0001.pgn exists; --split does not overwrite it without --force"
check "--split over an existing file: the file is left as it was" grep -qx junk "$T/split/part-0002.pgn"
run "$P" pgn -q --split 100 --force -o "$T/split/part-%04d.pgn" "$T/twic.pgn"
check "--split --force replaces it" cmp -s "$T/p2" "$T/split/part-0002.pgn"
mkdir "$T/by"
"$P" pgn -q --verbatim --split-by Event -o "$T/by/ev-%s.pgn" "$T/twic.pgn" 2>/dev/null
check "--split-by Event: one file per event" [ "$(ls "$T/by" | wc -l)" = "$(grep '^\[Event ' "$T/twic.pgn" | sort -u | wc -l)" ]
same=0
for f in "$T"/by/*.pgn; do [ "$(grep '^\[Event ' "$f" | sort -u | wc -l)" = 1 ] || same=1; done
check "--split-by Event: each file holds one event's games" [ $same = 0 ]
check "--split-by Event: every game once" [ "$(cat "$T"/by/*.pgn | grep -c '^\[Event ')" = "$total" ]
run "$P" pgn --split 10 -o out.pgn "$M"
check "--split without %d in -o: exit 2" [ $rc = 2 ]
check "--split without %d in -o: says why" grep_err "--split needs -o with one %d"
run "$P" pgn --split-by Event -o 'x-%d.pgn' "$M"
check "--split-by without %s in -o: exit 2" [ $rc = 2 ]
check "--split-by without %s in -o: says why" grep_err "--split-by needs -o with one %s"
run "$P" pgn --split 0 -o 'x-%d.pgn' "$M"
check "--split 0: exit 2" [ $rc = 2 ]
check "--split 0: says why" grep_err "--split wants a number"

# ---- --jobs 2 writes what --jobs 1 writes, files included ----
cat "$M" "$T/twic.pgn" "$M" "$T/twic.pgn" >"$T/mix.pgn"
same_jobs() {
    name=$1
    shift
    for j in 1 2; do
        rm -rf "$T/j$j" && mkdir "$T/j$j"
        (cd "$T/j$j" && "$P" "$@" -j$j "$T/mix.pgn" >out 2>err.raw; echo $? >rc
         sed -E 's/ in [0-9.]+ s wall, [0-9.]+ s CPU \([0-9.]+ MB\/s\)$//' err.raw >err && rm err.raw)
    done
    if diff -r "$T/j1" "$T/j2" >/dev/null; then ok "$name: -j2 = -j1 (output, files, stderr)"
    else not_ok "$name: -j2 differs from -j1"; fi
}
same_jobs "uci --skip-invalid" uci --skip-invalid
same_jobs "fen --skip-invalid" fen --skip-invalid
same_jobs "check --invalid-to" check --invalid-to bad.pgn
same_jobs "pgn --invalid-to" pgn --invalid-to bad.pgn
same_jobs "pgn --verbatim --invalid-to" pgn --verbatim --invalid-to bad.pgn
same_jobs "uci --dedupe" uci --dedupe --summary
same_jobs "pgn --duplicates-to" pgn --duplicates-to dups.pgn --summary
same_jobs "pgn --verbatim --dedupe --invalid-to" pgn --verbatim --dedupe --invalid-to bad.pgn --duplicates-to d.pgn
same_jobs "pgn --split" pgn --dedupe --split 7 -o 'p-%03d.pgn'
same_jobs "pgn --split-by" pgn --split-by White -o 'w-%s.pgn'

finish
