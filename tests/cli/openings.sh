#!/bin/sh
# openings.sh - opening classification (pgn --add-tags ECO,Opening, --with opening) against
# expectations pgnkit takes no part in:
#   - the book itself: every row of data/openings/*.tsv, played as a game, is named by
#     that row (no two rows end on the same position: were some to, the row listed last
#     would name it, and the oracle below would expect that);
#   - an oracle from FENs alone: pgn-extract writes the FEN after every move of each game
#     (--fencomments --nofauxep) and of each book row; tests/cli/lib/opening_oracle.awk
#     takes the last FEN of the game (board, side, castling, en passant) that a row ends
#     on.  Every shared PGN file is compared game by game;
#   - Debian's pgn-extract -e with its own eco.pgn: the books differ (2,014 lines and
#     their own ECO codes against lichess's 3,807), so only the games whose last book
#     position is the same position in both books, with the same ECO code in both, are
#     compared: there both tools must write that code;
#   - transpositions, games that leave the book and come back, and the starts that get no
#     opening (a FEN other than the standard start, Chess960, other variants), by hand.
. tests/cli/lib/common.sh
P=$PGNKIT
T=$TMP
PE=/usr/games/pgn-extract
ORACLE=tests/cli/lib/opening_oracle.awk
BOOK="data/openings/a.tsv data/openings/b.tsv data/openings/c.tsv data/openings/d.tsv data/openings/e.tsv"

# classes FILE [OPTION...]: one line per game, "ECO<TAB>name", or "-" with none.
classes() {
    _file=$1
    shift
    "$P" uci -q --format json --with opening "$@" "$_file" |
        sed -E 's/.*"opening":(null|\{"eco":"([^"]*)","name":"([^"]*)"\}),"uci".*/\2	\3/; s/^	$/-/'
}

# row LINE: "ECO<TAB>name" of the book row whose moves are exactly LINE.
row() { awk -F'\t' -v line="$1" '$3 == line { print $1 "\t" $2 }' $BOOK; }

# expect NAME MOVETEXT EXPECTED [TAGS]: the one game classifies as EXPECTED.
expect() {
    printf '%s\n[Event "%s"]\n\n%s *\n' "${4:-}" "$1" "$2" >"$T/one.pgn"
    got=$(classes "$T/one.pgn")
    if [ "$got" = "$3" ]; then ok "$1: $3"; else not_ok "$1: got '$got', expected '$3'"; fi
}

# --- the book: every row's own line is that row ----------------------------------------

awk -F'\t' 'FNR > 1 { n++; printf "[Event \"row %d\"]\n[ECO \"%s\"]\n[Opening \"%s\"]\n\n%s *\n\n", n, $1, $2, $3 }' \
    $BOOK >"$T/book.pgn"
awk -F'\t' 'FNR > 1 { print $1 "\t" $2 }' $BOOK >"$T/book.rows"
check "the book has its 3,807 rows" [ "$(lines "$T/book.rows")" = 3807 ]
classes "$T/book.pgn" >"$T/book.got"
if cmp -s "$T/book.rows" "$T/book.got"; then
    ok "each of the 3,807 book lines classifies as its own row"
else
    not_ok "book lines that classify as another row (< row, > pgnkit):"
    diff "$T/book.rows" "$T/book.got" | head -n 10
fi

# --- the FEN oracle on every shared file ------------------------------------------------

if [ -x "$PE" ]; then
    $PE -s --fencomments --nofauxep -w 100000 "$T/book.pgn" 2>/dev/null >"$T/book.fens"
    cp "$T/book.fens" "$T/book-as-games.fens"
    awk -f $ORACLE "$T/book.fens" "$T/book-as-games.fens" >"$T/book.oracle"
    check "oracle: each book row's position is its own (no later row shares it)" \
        cmp -s "$T/book.rows" "$T/book.oracle"
    compared=0 named=0 bad=0
    for f in "$TESTDATA"/*/*.pgn; do
        # The games pgn-extract accepts, mainline only, as pgn-extract writes them.
        $PE -s -C -N -V "$f" 2>/dev/null >"$T/base.pgn"
        $PE -s --fencomments --nofauxep -w 100000 "$T/base.pgn" 2>/dev/null >"$T/base.fens"
        awk -f $ORACLE "$T/book.fens" "$T/base.fens" >"$T/expected"
        classes "$T/base.pgn" >"$T/got"
        if [ "$(lines "$T/expected")" != "$(lines "$T/got")" ]; then
            # pgn-extract's output of some files (HTML <br /> line breaks in chess.js/0.pgn,
            # crazyhouse drops, a '{' nested in a comment) reads as a different number of
            # games: there is no game-by-game pairing to compare.
            skip "oracle: ${f#$TESTDATA/}: pgnkit reads pgn-extract's output as $(lines "$T/got") games, its FENs have $(lines "$T/expected")"
            continue
        fi
        compared=$((compared + $(lines "$T/got")))
        named=$((named + $(grep -vc '^-$' "$T/got")))
        if ! cmp -s "$T/expected" "$T/got"; then
            bad=$((bad + 1))
            echo "# ${f#$TESTDATA/}: pgnkit (>) differs from the FEN oracle (<):"
            diff "$T/expected" "$T/got" | head -n 6
        fi
    done
    check "oracle: every game of every shared file classifies as the FENs say ($compared games, $named named)" \
        [ $bad = 0 -a $compared -gt 2500 -a $named -gt 2000 ]

    # pgn-extract -e with its own book, where both books name the same last position alike.
    E=/usr/share/pgn-extract/eco.pgn
    if [ -f $E ]; then
        cat "$TESTDATA"/tcec/TCEC_Season_10_-_Superfinal.pgn "$TESTDATA"/tcec/TCEC_Match_1.pgn \
            "$TESTDATA"/pgn-extract/fischer.pgn "$TESTDATA"/pgn-extract/petrosian.pgn \
            "$TESTDATA"/chess.js/benchmark.pgn "$TESTDATA"/mutants/mutants.pgn >"$T/corpus.pgn"
        $PE -s -C -N -V "$T/corpus.pgn" 2>/dev/null >"$T/base.pgn"
        $PE -s --fencomments --nofauxep -w 100000 "$T/base.pgn" 2>/dev/null >"$T/base.fens"
        $PE -s --fencomments --nofauxep -w 100000 $E 2>/dev/null >"$T/eco.fens"
        awk -v with_fen=1 -f $ORACLE "$T/book.fens" "$T/base.fens" >"$T/lichess.last"
        awk -v with_fen=1 -f $ORACLE "$T/eco.fens" "$T/base.fens" >"$T/eco.last"
        "$P" uci -q --format json --with opening "$T/base.pgn" |
            sed -E 's/.*"opening":(null|\{"eco":"([^"]*)","name":"[^"]*"\}),"uci".*/\2/; s/^$/-/' >"$T/pgnkit.eco"
        $PE -s -e$E "$T/base.pgn" 2>/dev/null |
            awk '/^\[Event /{ if (n++) print e; e = "-" } /^\[ECO /{ e = $2; gsub(/[]"]/, "", e) } END { print e }' >"$T/pe.eco"
        # pgn-extract -e follows the same rule (the last position of its book) ...
        cut -f1 "$T/eco.last" >"$T/eco.expected"
        check "pgn-extract -e names each game by the last position of its book, as the oracle does" \
            cmp -s "$T/eco.expected" "$T/pe.eco"
        # ... so where the two books agree, the two tools must.
        paste "$T/lichess.last" "$T/eco.last" "$T/pgnkit.eco" "$T/pe.eco" | awk -F'\t' '
            $3 != "-" && $3 == $6 && $1 == $4 { same++; if ($7 != $8) { bad++; print "# game " NR ": pgnkit " $7 ", pgn-extract " $8 } }
            END { print same + 0, bad + 0 }' >"$T/agree"
        same=$(tail -n 1 "$T/agree" | cut -d' ' -f1)
        bad=$(tail -n 1 "$T/agree" | cut -d' ' -f2)
        sed '$d' "$T/agree"
        check "pgnkit = pgn-extract -e on the $same games both books end on the same position with the same ECO" \
            [ "$bad" = 0 -a "$same" -gt 300 ]
    else
        skip "pgn-extract -e: no $E"
    fi
else
    skip "oracle and pgn-extract -e comparison: no $PE (sh scripts/ensure-deps.sh test installs it)"
fi

# --- by hand -----------------------------------------------------------------------------

# Transpositions: the same position by another move order.  After 2. d4 (and 2. e4) the
# en passant square is set but no pawn can take: the position is 1. d4 d5 2. Nf3's.
expect "1. Nf3 d5 2. d4 transposes" "1. Nf3 d5 2. d4" "$(row '1. d4 d5 2. Nf3')"
expect "1. Nf3 e5 2. e4 transposes" "1. Nf3 e5 2. e4" "$(row '1. e4 e5 2. Nf3')"
expect "the Najdorf by a Pirc move order" "1. e4 d6 2. d4 Nf6 3. Nc3 c5 4. Nf3 cxd4 5. Nxd4 a6" \
    "$(row '1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6')"
# Out of the book and back: the knights return, then 3. e4 is 1. e4's position.
expect "knights out and back, then e4" "1. Nf3 Nf6 2. Ng1 Ng8 3. e4" "$(row '1. e4')"
# Leaving the book keeps the last position found (6. a3 starts no row).
expect "the Najdorf, then out of the book" \
    "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. a3 e5 7. Nb3 Be6 8. Be2 Nbd7" \
    "$(row '1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6')"
# A game stopped by an error is named by the moves played before it.
expect "an illegal 3. Ke3: the moves before it" "1. e4 c5 2. Nf3 Nc6 3. Ke3" "$(row '1. e4 c5 2. Nf3 Nc6')"
expect "no moves: none" "" "-"
# The standard start given as a FEN is the standard start; any other start is not.
expect "SetUp/FEN of the standard start" "1. e4 c5 2. Nf3" "$(row '1. e4 c5 2. Nf3')" \
    '[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]'
expect "a FEN after 1. e4: none (the book names play from the start)" "1... c5 2. Nf3" "-" \
    '[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"]'
expect "Chess960 from the standard array: none" "1. e4 c5 2. Nf3" "-" \
    '[Variant "Chess960"]
[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]'
expect "Atomic: none" "1. e4 c5 2. Nf3" "-" '[Variant "Atomic"]'
got=$(classes "$TESTDATA/python-chess/cutechess-fischerrandom.pgn" | sort -u)
check "the shared Chess960 games: none" [ "$got" = "-" ]

# --- pgn --add-tags ECO,Opening ----------------------------------------------------------

printf '[Event "a"]\n[ECO "Z99"]\n[Opening "Mine"]\n[Variation "Mine too"]\n\n1. e4 c5 2. Nf3 *\n\n[Event "b"]\n[ECO "Z98"]\n[Opening "Kept"]\n\n*\n' >"$T/tagged.pgn"
"$P" pgn -q --add-tags ECO,Opening "$T/tagged.pgn" >"$T/out"
check "a classified game's ECO and Opening are replaced, after its other tags" \
    sh -c "sed -n '8,11p' '$T/out' | tr '\n' '|' | grep -qxF '[Variation \"Mine too\"]|[ECO \"B27\"]|[Opening \"Sicilian Defense\"]||'"
check "the replaced tags are not also kept" [ "$(grep -c 'Z99\|Mine"' "$T/out")" = 0 ]
check "an unclassified game keeps its own ECO and Opening (as pgn-extract -e)" \
    sh -c "grep -qxF '[ECO \"Z98\"]' '$T/out' && grep -qxF '[Opening \"Kept\"]' '$T/out'"
"$P" pgn -q --add-tags Opening "$T/tagged.pgn" >"$T/out"
check "--add-tags Opening alone leaves the game's ECO" \
    sh -c "grep -qxF '[ECO \"Z99\"]' '$T/out' && grep -qxF '[Opening \"Sicilian Defense\"]' '$T/out'"
"$P" pgn -q --add-tags PlyCount,ECO "$T/tagged.pgn" >"$T/out"
check "--add-tags PlyCount,ECO: in that order" \
    sh -c "grep -A1 -xF '[PlyCount \"3\"]' '$T/out' | grep -qxF '[ECO \"B27\"]'"
# Read back: the tags written are the classification uci --with opening reports.
"$P" pgn -q --add-tags ECO,Opening "$TESTDATA/tcec/TCEC_Season_10_-_Superfinal.pgn" >"$T/tagged-tcec.pgn"
grep -E '^\[(ECO|Opening) ' "$T/tagged-tcec.pgn" | sed -E 's/^\[[A-Za-z]+ "(.*)"\]$/\1/' | paste - - >"$T/tags"
classes "$TESTDATA/tcec/TCEC_Season_10_-_Superfinal.pgn" >"$T/cls"
check "pgn --add-tags ECO,Opening writes uci --with opening's classes (100 TCEC games)" \
    sh -c "cmp -s '$T/tags' '$T/cls' && [ \$(wc -l <'$T/tags') = 100 ]"

# --- --with opening: TSV columns, JSON --------------------------------------------------

printf '1. e4 c5 2. Nf3 *\n\n[Variant "Atomic"]\n\n1. e4 *\n' >"$T/two.pgn"
"$P" uci -q --format tsv --with opening "$T/two.pgn" >"$T/out"
check "tsv: eco and opening are the last columns" \
    sh -c "head -n 1 '$T/out' | grep -qxF 'game	ply	uci	san	eco	opening'"
check "tsv: every row of a game has its opening" \
    [ "$(grep -c '	B27	Sicilian Defense$' "$T/out")" = 3 ]
check "tsv: empty cells for a game with none" \
    sh -c "grep -qxF '2	1	e2e4	e4		' '$T/out'"
"$P" uci -q --format tsv --with clk,opening "$T/two.pgn" >"$T/out"
check "tsv: after clk" sh -c "head -n 1 '$T/out' | grep -qxF 'game	ply	uci	san	clk	eco	opening'"
"$P" uci -q --format json --with opening "$T/two.pgn" >"$T/out"
check "json: \"opening\" object after \"tags\", null for none" \
    sh -c "grep -qF '\"tags\":{},\"opening\":{\"eco\":\"B27\",\"name\":\"Sicilian Defense\"},\"uci\"' '$T/out' && grep -qF ',\"opening\":null,' '$T/out'"
"$P" fen -q --format json --with opening "$T/two.pgn" >"$T/out"
check "fen json: the same member" grep -qF '"opening":{"eco":"B27"' "$T/out"
"$P" uci -q --format json "$T/two.pgn" >"$T/out"
check "json without --with opening: no member" sh -c "! grep -q opening '$T/out'"

run "$P" uci --with opening "$T/two.pgn"
check "uci text --with opening: usage error (exit 2) naming the formats" \
    sh -c "[ $rc = 2 ] && grep -qF 'needs --format tsv or json' '$T/err'"
run "$P" fen --with opening "$T/two.pgn"
check "fen text --with opening: usage error" sh -c "[ $rc = 2 ] && grep -qF 'needs --format json' '$T/err'"
run "$P" check --with opening "$T/two.pgn"
check "check --with opening: usage error (check writes diagnostics, no games)" [ $rc = 2 ]
run "$P" pgn --add-tags Eco "$T/two.pgn"
check "--add-tags Eco: usage error listing ECO" sh -c "[ $rc = 2 ] && grep -qF 'ECO, Opening, Variation' '$T/err'"

# --- --jobs ------------------------------------------------------------------------------

cat "$TESTDATA"/*/*.pgn "$TESTDATA"/*/*.pgn >"$T/all.pgn"
for args in "pgn --add-tags ECO,Opening" "uci --format tsv --with opening" "uci --format json --with opening"; do
    "$P" $args -q -j1 "$T/all.pgn" >"$T/j1" 2>&1
    "$P" $args -q -j2 "$T/all.pgn" >"$T/j2" 2>&1
    check "$args: --jobs 2 = --jobs 1" cmp -s "$T/j1" "$T/j2"
done

# --- --where on ECO and Opening ----------------------------------------------------------
# A game whose own ECO tag (A00) is not its opening (the Najdorf, B90), one the book does
# not name (a FEN start) with its own C00, and a plain 1. d4 d5 (D00, no tag).
cat >"$T/where.pgn" <<'PGN'
[Event "najdorf"]
[ECO "A00"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *

[Event "fen"]
[ECO "C00"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]

1. e4 *

[Event "qp"]

1. d4 d5 *
PGN
events() { "$P" pgn -q --verbatim "$@" "$T/where.pgn" | sed -n 's/^\[Event "\(.*\)"\]$/\1/p' | tr '\n' ' '; }
check "--where 'ECO = A00' without --classify reads the game's own tag" [ "$(events --where 'ECO = A00')" = "najdorf " ]
check "--classify --where 'ECO = A00': the book names that game B90" [ "$(events --classify --where 'ECO = A00')" = "" ]
check "--classify --where 'ECO ~ ^B9'" [ "$(events --classify --where 'ECO ~ ^B9')" = "najdorf " ]
check "--classify --where 'Opening ~ Najdorf'" [ "$(events --classify --where 'Opening ~ Najdorf')" = "najdorf " ]
check "--classify --where 'ECO = C00': a game the book does not name keeps its own tag" \
    [ "$(events --classify --where 'ECO = C00')" = "fen " ]
check "--classify --where 'ECO = D00' (no tag of its own)" [ "$(events --classify --where 'ECO = D00')" = "qp " ]
check "--classify --invert --where 'ECO ~ ^B'" [ "$(events --classify --invert --where 'ECO ~ ^B')" = "fen qp " ]
check "--classify --where 'ECO ~ ^B9' --where 'Event = qp': AND" \
    [ "$(events --classify --where 'ECO ~ ^B9' --where 'Event = qp')" = "" ]
# pgn --add-tags ECO,Opening turns the classification on too: the tag matched is the tag written.
"$P" pgn -q --add-tags ECO,Opening --where 'ECO = B90' "$T/where.pgn" >"$T/b90.pgn"
check "pgn --add-tags ECO --where 'ECO = B90' writes the game with the ECO it matched" \
    sh -c "grep -c '^\[Event ' '$T/b90.pgn' | grep -qx 1 && grep -qxF '[ECO \"B90\"]' '$T/b90.pgn'"
"$P" pgn -q --verbatim --classify --where 'ECO ~ ^B9' "$T/where.pgn" >"$T/verb.pgn"
check "pgn --verbatim --classify: the game as read (its own ECO A00 kept)" grep -qxF '[ECO "A00"]' "$T/verb.pgn"
# Over every shared file: the games --classify --where selects are those whose opening
# --with opening names B9x (or, unnamed, whose own ECO tag says so).
cat "$TESTDATA"/*/*.pgn >"$T/shared.pgn"
"$P" uci -q --format json --with opening --tags ECO "$T/shared.pgn" |
    awk '/"opening":\{"eco":"B9/ || (/"opening":null/ && /"ECO":"B9/) { n++ } END { print n + 0 }' >"$T/want"
"$P" check -q --summary-json "$T/sel.json" --classify --where 'ECO ~ ^B9' "$T/shared.pgn" >/dev/null 2>&1
kept=$(sed -E 's/.*"written":([0-9]+).*/\1/' "$T/sel.json")
check "shared files: --classify --where 'ECO ~ ^B9' keeps the $(cat "$T/want") games --with opening names B9x" \
    sh -c "[ '$kept' = '$(cat "$T/want")' ] && [ '$kept' -gt 0 ]"
for j in 1 2; do
    "$P" uci -q -j$j --classify --where 'ECO ~ ^[BC]' "$T/shared.pgn" >"$T/sel-j$j" 2>&1
done
check "--classify --where: --jobs 2 = --jobs 1" cmp -s "$T/sel-j1" "$T/sel-j2"

finish
