#!/bin/sh
# shape.sh - shaping pgn output: --no-comments, --no-nags, --no-variations, --add-tags
# PlyCount,FinalFEN, --fix-result; each against Debian's pgn-extract (-C, -N, -V,
# --plycount -F, --fixresulttags) on every shared file, and --jobs 2 against --jobs 1.
. tests/cli/lib/common.sh
P=$PGNKIT
T=$TMP
PE=/usr/games/pgn-extract

# The games pgn-extract accepts from f, as pgn-extract writes them: both tools then
# start from the same games (pgn-extract drops the ones it cannot replay).
base() { $PE -s "$1" 2>/dev/null >"$T/base.pgn"; }
movetext() { grep -v '^\['; }

# pgn-extract OPTION vs pgnkit OPTION: pgn-extract's output normalized by pgnkit must be
# pgnkit's own output, movetext for movetext (pgn-extract orders tags its own way).
# --skip-invalid on both sides: pgn-extract writes an empty game as tags alone.
compare_shaping() {
    pe=$1
    pk=$2
    bad=0
    for f in "$TESTDATA"/*/*.pgn; do
        base "$f"
        $PE -s $pe "$T/base.pgn" 2>/dev/null | "$P" pgn -q --skip-invalid 2>/dev/null | movetext >"$T/a"
        "$P" pgn -q --skip-invalid $pk "$T/base.pgn" 2>/dev/null | movetext >"$T/b"
        cmp -s "$T/a" "$T/b" && continue
        # scalachess/pgn-render-pgns.pgn: pgn-extract, reading its own output again,
        # rejects "3... Qh4" in the game 1. g4 e5 2. d4 e4 3. c4 Qh4 (after a game with a
        # FEN tag).  The move is legal: d8-e7-f6-g5-h4 is open once 1... e5 is played.
        # pgnkit keeps that game; it must be the only difference.
        if [ "${f##*/}" = pgn-render-pgns.pgn ] && diff "$T/a" "$T/b" | grep -q '^> 1. g4 e5 2. d4 e4 3. c4 Qh4' &&
            [ "$(diff "$T/a" "$T/b" | grep -c '^<')" = 0 ]; then
            continue
        fi
        bad=$((bad + 1))
        echo "# $pk differs from pgn-extract $pe on $f"
    done
    check "pgn $pk = pgn-extract $pe, on every shared file" [ $bad = 0 ]
}
compare_shaping -C --no-comments
compare_shaping -N --no-nags
compare_shaping -V --no-variations
compare_shaping "-C -N -V" "--no-comments --no-nags --no-variations"

# The options do remove something (the comparisons above would pass if both kept all).
f=$TESTDATA/tcec/TCEC_Season_10_-_Superfinal.pgn
check "the shared TCEC file has comments" sh -c "'$P' pgn -q '$f' | grep -q '{'"
check "--no-comments leaves none" sh -c "! '$P' pgn -q --no-comments '$f' | grep -v '^\\[' | grep -q '{'"
f=$TESTDATA/pgn-extract/test-nagcomments.pgn
check "a shared file has NAGs" sh -c "'$P' pgn -q '$f' | grep -q '\\$'"
check "--no-nags leaves none" sh -c "! '$P' pgn -q --no-nags '$f' | grep -v '^\\[' | grep -q '\\$'"
f=$TESTDATA/pgn-extract/test-splitvariants.pgn
check "a shared file has variations" sh -c "'$P' pgn -q '$f' | grep -v '^\\[' | grep -q '('"
check "--no-variations leaves none" sh -c "! '$P' pgn -q --no-variations '$f' | grep -v '^\\[' | grep -q '('"
check "--no-comments --no-nags --no-variations: the same moves (uci)" \
    sh -c "'$P' pgn -q --no-comments --no-nags --no-variations '$f' | '$P' uci -q | cmp -s - \"\$('$P' uci -q '$f' >'$T/u'; echo '$T/u')\""

# --add-tags PlyCount,FinalFEN = pgn-extract --plycount -F (the final position as a
# comment; -w keeps it on one line).  pgn-extract writes no such comment for a game
# with no moves: those games are left out on both sides.
bad=0
for f in "$TESTDATA"/*/*.pgn; do
    base "$f"
    $PE -s -w100000 --plycount -F "$T/base.pgn" 2>/dev/null |
        awk '/^\[PlyCount "/ { split($0, a, "\""); p = a[2] }
             /\{ "[^"]*" \} [^ ]*$/ { s = $0; sub(/.*\{ "/, "", s); sub(/" \} [^ ]*$/, "", s); print p " " s }' >"$T/a"
    "$P" pgn -q --skip-invalid --add-tags PlyCount,FinalFEN "$T/base.pgn" 2>/dev/null |
        awk '/^\[PlyCount "/ { split($0, a, "\""); p = a[2] }
             /^\[FinalFEN "/ { split($0, a, "\""); if (p != "0") print p " " a[2] }' >"$T/b"
    cmp -s "$T/a" "$T/b" && continue
    # The same game pgn-extract rejects on reading its output again (see above): its
    # 37 plies to 19. gxh7 are pgnkit's alone.
    if [ "${f##*/}" = pgn-render-pgns.pgn ] &&
        [ "$(diff "$T/a" "$T/b" | grep '^[<>]')" = "> 37 rnbqk1r1/pppn3P/3p1p2/3N4/2PPp2B/2P1P3/P3BP2/1R1QK2R b Kq - 0 19" ]; then
        continue
    fi
    bad=$((bad + 1))
    echo "# --add-tags differs from pgn-extract on $f"
done
check "--add-tags PlyCount,FinalFEN = pgn-extract --plycount -F, on every shared file" [ $bad = 0 ]
printf '[Event "x"]\n[PlyCount "99"]\n[Result "*"]\n\n1. e4 e5 *\n' >"$T/pc.pgn"
"$P" pgn -q --add-tags PlyCount "$T/pc.pgn" >"$T/out" 2>/dev/null
check "--add-tags replaces the game's own tag of that name" [ "$(grep -c '^\[PlyCount "2"\]$' "$T/out")$(grep -c PlyCount "$T/out")" = 11 ]
run "$P" pgn --add-tags PlyCount,Elo "$T/pc.pgn"
check "--add-tags with an unknown name: exit 2 naming it" sh -c "[ $rc = 2 ] && grep -q \"not 'Elo'\" '$T/err'"

# --fix-result = pgn-extract --fixresulttags.
for f in pgn-extract/test-fixresulttags-in.pgn pgn-extract/test-checkmate.pgn \
    pgn-extract/test-stalemate.pgn mutants/mutants.pgn; do
    base "$TESTDATA/$f"
    $PE -s --fixresulttags "$T/base.pgn" 2>/dev/null | grep '^\[Result ' >"$T/a"
    "$P" pgn -q --fix-result "$T/base.pgn" 2>/dev/null | grep '^\[Result ' >"$T/b"
    check "--fix-result = pgn-extract --fixresulttags on $f" cmp -s "$T/a" "$T/b"
done
base "$TESTDATA/pgn-extract/test-fixresulttags-in.pgn"
"$P" pgn -q "$T/base.pgn" 2>/dev/null | grep '^\[Result ' >"$T/plain"
check "--fix-result changes results there (30... Qh5# under a 1-0 tag becomes 0-1)" \
    sh -c "! cmp -s '$T/plain' '$T/b' && grep -q 0-1 '$T/b'"
"$P" pgn -q --fix-result --fixes "$T/base.pgn" >/dev/null 2>"$T/err"
check "--fix-result says so in --fixes" grep -q 'fix\[RESULT\]: game 1: the game ends in checkmate: result 0-1' "$T/err"
"$P" pgn -q --fix-result "$T/b.pgn" >/dev/null 2>&1
"$P" pgn -q --fix-result "$T/base.pgn" >"$T/fixed.pgn" 2>/dev/null
"$P" pgn -q --fix-result "$T/fixed.pgn" >"$T/fixed2.pgn" 2>/dev/null
check "--fix-result output is a fixed point" cmp -s "$T/fixed.pgn" "$T/fixed2.pgn"

run "$P" pgn --verbatim --no-comments "$T/pc.pgn"
check "--verbatim with a shaping option: exit 2" sh -c "[ $rc = 2 ] && grep -q 'cannot also --no-comments' '$T/err'"

# --jobs 2 = --jobs 1.
cat "$TESTDATA"/*/*.pgn >"$T/all.pgn"
for opts in "--no-comments" "--no-nags" "--no-variations" "--add-tags PlyCount,FinalFEN" \
    "--fix-result --fixes" "--no-comments --no-nags --no-variations --add-tags FinalFEN --fix-result"; do
    "$P" pgn $opts -q -j1 "$T/all.pgn" >"$T/o1" 2>"$T/e1"
    "$P" pgn $opts -q -j2 "$T/all.pgn" >"$T/o2" 2>"$T/e2"
    check "pgn $opts: -j2 = -j1" sh -c "cmp -s '$T/o1' '$T/o2' && cmp -s '$T/e1' '$T/e2'"
done

finish
