#!/bin/sh
# dialects.sh - the PGN spellings real files use (issue 14), end to end: each is read as
# its author meant, with the diagnostic the README's dialect table names, and `pgn`
# writes the standard spelling.  Every expected UCI move is argued from the position
# beside it; nothing here is pgnkit's own output pasted back.
. tests/cli/lib/common.sh

# game FEN MOVETEXT: a game from FEN (or the start when FEN is empty) on stdout.
game() {
    if [ -n "$1" ]; then
        printf '[SetUp "1"]\n[FEN "%s"]\n\n%s\n\n' "$1" "$2"
    else
        printf '%s\n\n' "$2"
    fi
}

# expect_uci DESC FILE WANT [OPTIONS...]: `pgnkit uci` prints WANT (one line per game,
# newline-separated) and exits 0.
expect_uci() {
    _d=$1 _f=$2 _w=$3
    shift 3
    run "$PGNKIT" uci -q "$@" "$_f"
    if [ "$rc" -eq 0 ] && [ "$(cat "$TMP/out")" = "$_w" ]; then
        ok "$_d"
    else
        not_ok "$_d (exit $rc; got: $(tr '\n' '|' <"$TMP/out"); want: $(printf '%s' "$_w" |
            tr '\n' '|'); $(head -c 300 "$TMP/err"))"
    fi
}

# ---- 1: castling written as a king move --------------------------------------------------
# Ke1, Rh1, Ra1 / Ke8: Kg1, Kh1 and Kxh1 are O-O, Kc1 and Ka1 O-O-O.
castle_fen="r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
for km in Kg1:O-O Kh1:O-O Kxh1:O-O Kc1:O-O-O Ka1:O-O-O; do
    tok=${km%%:*} want=${km#*:}
    game "$castle_fen" "1. $tok *" >"$TMP/k.pgn"
    run "$PGNKIT" pgn -q "$TMP/k.pgn"
    if [ "$rc" -eq 0 ] && grep -q "^1\. $want \*\$" "$TMP/out"; then
        ok "pgn writes $tok as $want"
    else
        not_ok "pgn writes $tok as $want (exit $rc: $(cat "$TMP/out" "$TMP/err" | tail -3))"
    fi
    run "$PGNKIT" check -q "$TMP/k.pgn"
    check "$tok is castling with a NONSTANDARD warning" \
        grep -q "NONSTANDARD.*castling written as a king move, read as $want" "$TMP/out"
    run "$PGNKIT" check -q --strict "$TMP/k.pgn"
    check "$tok is an ILLEGAL error under --strict" \
        sh -c "[ $rc -eq 1 ] && grep -q 'error\[ILLEGAL\].*castling is written $want' '$TMP/out'"
done

# ---- 2: a '[' line after a blank line inside a comment that closes ------------------------
for line in '[%clk 0:01:00]' '[Event "x"]' '[' '[Event "x"]
[Site "y"]'; do
    printf '1. e4 { note\n\n%s } e5 2. Nf3 *\n' "$line" >"$TMP/c.pgn"
    expect_uci "a closed comment holding a blank line and '$(echo "$line" | head -1)' is one game" \
        "$TMP/c.pgn" "e2e4 e7e5 g1f3"
done
printf '1. e4 { never closed\n\n[Event "next"]\n\n1. d4 *\n' >"$TMP/c.pgn"
run "$PGNKIT" uci "$TMP/c.pgn" # no -q: the diagnostic is checked
check "an unterminated comment still ends at the next game's tag pair" \
    sh -c "[ \"\$(cat '$TMP/out')\" = 'e2e4
d2d4' ] && grep -q UNTERMINATED_COMMENT '$TMP/err'"

# ---- 3: byte-order marks of concatenated files ---------------------------------------------
printf '\357\273\277[Event "a"]\n\n1. e4 e5 *\n' >"$TMP/a.pgn"
printf '\357\273\277[Event "b"]\n\n1. d4 d5 *\n' >"$TMP/b.pgn"
cat "$TMP/a.pgn" "$TMP/b.pgn" "$TMP/a.pgn" >"$TMP/ab.pgn"
expect_uci "cat of three BOM files: three games, no error" "$TMP/ab.pgn" "a	e2e4 e7e5
b	d2d4 d7d5
a	e2e4 e7e5" --tags Event
run "$PGNKIT" check -q "$TMP/ab.pgn"
check "cat of three BOM files: no diagnostic" sh -c "[ $rc -eq 0 ] && [ ! -s '$TMP/out' ]"

# ---- 4: every promotion spelling, with and without capture, both colours -------------------
# P1: Pa7 and Rb1 / Rb8, Pa2: a8 / axb8 (White), a1 / axb1 (Black).
# P2: Pb7 and Ra1 / Ra8, Pb2: b8 / bxa8 (White), b1 / bxa1 (Black): the b-pawn.
p1="1r5k/P7/8/8/8/8/p7/1R5K"
p2="r6k/1P6/8/8/8/8/1p6/R6K"
for spelling in '=%s' '%s' '(%s)' '/%s' '=%l'; do
    for piece in Q R B N; do
        lower=$(echo "$piece" | tr QRBN qrbn)
        letter=$(printf '%s' "$spelling" | sed "s/%s/$piece/; s/%l/$lower/")
        for mv in "$p1 w:a8:a7a8" "$p1 w:axb8:a7b8" "$p1 b:a1:a2a1" "$p1 b:axb1:a2b1" \
            "$p2 w:b8:b7b8" "$p2 w:bxa8:b7a8" "$p2 b:b1:b2b1" "$p2 b:bxa1:b2a1"; do
            fen="${mv%%:*} - - 0 1"
            rest=${mv#*:}
            san="${rest%%:*}$letter"
            want="${rest#*:}$lower"
            game "$fen" "1. $san *" >"$TMP/p.pgn"
            case $fen in *" b "*) game "$fen" "1... $san *" >"$TMP/p.pgn" ;; esac
            run "$PGNKIT" uci -q "$TMP/p.pgn"
            if [ "$rc" -eq 0 ] && [ "$(cat "$TMP/out")" = "$want" ]; then
                passed=$((passed + 1))
            else
                not_ok "$san from ${fen%% *}: want $want (exit $rc; $(cat "$TMP/out" "$TMP/err"))"
            fi
        done
    done
done
ok "every promotion spelling resolved (5 spellings x 4 pieces x 8 moves, counted above)"

# ---- 5, 6: the reasons given -------------------------------------------------------------
# Ka5 Pb5 / Pc5 (just pushed) Rh5: bxc6 e.p. would open the rank; White has no bishop.
game "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1" "1. bxc6 *" >"$TMP/m.pgn"
run "$PGNKIT" check -q "$TMP/m.pgn"
check "a b-pawn's failed en passant says so, with no bishop named" \
    sh -c "grep -q 'en passant' '$TMP/out' && ! grep -q bishop '$TMP/out'"
# Pd3 takes the c4 knight: "c4" leaves out the file.
game "4k3/8/8/8/2n5/3P4/8/4K3 w - - 0 1" "1. c4 *" >"$TMP/m.pgn"
run "$PGNKIT" check -q "$TMP/m.pgn"
check "a pawn capture without its file says the origin file is missing" \
    grep -q 'CAPTURE_MISSING.*origin file.*dxc4' "$TMP/out"

# ---- 7: annotation glyphs as words, glued, in variations ----------------------------------
# Each glyph and its NAG; "N" is never a knight move (there is no knight move to make).
for gn in '!:1' '?:2' '!!:3' '??:4' '!?:5' '?!:6' '+-:18' '-+:19' '+=:14' '=+:15' \
    '±:16' '∓:17' '=:10' '∞:13' 'N:146' '⩲:14' '⩱:15' '□:7' 'Δ:140' '⨀:22'; do
    g=${gn%:*} nag=${gn##*:}
    printf '1. e4 %s e5 2. Nf3%s (2. Nc3 %s) Nc6 %s *\n' "$g" "$g" "$g" "$g" >"$TMP/g.pgn"
    run "$PGNKIT" uci -q "$TMP/g.pgn"
    if [ "$rc" -eq 0 ] && [ "$(cat "$TMP/out")" = "e2e4 e7e5 g1f3 b8c6" ]; then
        passed=$((passed + 1))
    else
        not_ok "glyph $g: the moves are read (exit $rc; $(cat "$TMP/out" "$TMP/err"))"
    fi
    run "$PGNKIT" pgn -q "$TMP/g.pgn"
    if [ "$(grep -o "\\\$$nag\\b" "$TMP/out" | wc -l)" -eq 4 ]; then
        passed=$((passed + 1))
    else
        not_ok "glyph $g: pgn writes \$$nag four times (got: $(tail -2 "$TMP/out"))"
    fi
done
ok "every glyph between moves, glued and in a variation (counted above)"
printf '1. e4 N e5 *\n' >"$TMP/g.pgn"
run "$PGNKIT" check -q "$TMP/g.pgn"
check "N alone is the novelty glyph with a NONSTANDARD warning" \
    grep -q "NONSTANDARD.*'N' as its own word, read as \$146" "$TMP/out"

# ---- 8: dashes, o-o, ep ------------------------------------------------------------------
printf '1. e4 e5 1\342\200\2230 1. d4 d5 0\342\200\2241 1. c4 c5 \302\275\342\200\223\302\275 1. f4 f5 1/2\342\200\2231/2\n' >"$TMP/r.pgn"
expect_uci "results with en and em dashes end their games" "$TMP/r.pgn" "e2e4 e7e5
d2d4 d7d5
c2c4 c7c5
f2f4 f7f5"
run "$PGNKIT" pgn -q "$TMP/r.pgn"
check "pgn writes them as 1-0, 0-1, 1/2-1/2" \
    sh -c "[ \"\$(grep -c '^\\[Result \"1-0\"\\]\$\\|^\\[Result \"0-1\"\\]\$\\|^\\[Result \"1/2-1/2\"\\]\$' '$TMP/out')\" -eq 4 ]"
printf '1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. o-o O-o *\n' >"$TMP/o.pgn"
expect_uci "o-o and O-o are castling" "$TMP/o.pgn" "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1g1 e8g8"
# 1. e4 d5 2. e5 f5: exf6 is en passant, however it is marked.
for ep in 'exf6ep' 'exf6 ep' 'exf6e.p' 'exf6 e.p' 'exf6e.p.' 'exf6 e.p.'; do
    printf '1. e4 d5 2. e5 f5 3. %s *\n' "$ep" >"$TMP/e.pgn"
    expect_uci "en passant written $ep" "$TMP/e.pgn" "e2e4 d7d5 e4e5 f7f5 e5f6"
done

# ---- 9: a FEN castling right with no rook -------------------------------------------------
# Ke1 without rooks but "KQ": both white rights dropped; Black keeps k and castles.
game "r3k2r/8/8/8/8/8/8/4K3 w KQkq - 0 1" "1. Kd1 O-O *" >"$TMP/f.pgn"
expect_uci "a castling right without its rook is dropped and the game played on" \
    "$TMP/f.pgn" "e1d1 e8g8"
run "$PGNKIT" check -q "$TMP/f.pgn"
check "... with a CASTLING_DROPPED warning" grep -q 'warning\[CASTLING_DROPPED\]' "$TMP/out"

# ---- 10: tag values with unescaped quotes --------------------------------------------------
printf '[Event "5th "X" Intl"]\n[Site "Tournament \\"]\n\n1. e4 e5 *\n' >"$TMP/t.pgn"
expect_uci "unescaped quotes in tag values lose no move" "$TMP/t.pgn" \
    "5th \"X\" Intl	Tournament \\	e2e4 e7e5" --tags Event,Site
run "$PGNKIT" pgn -q "$TMP/t.pgn"
check "pgn writes the recovered values escaped" \
    sh -c "grep -qF '[Event \"5th \\\"X\\\" Intl\"]' '$TMP/out' && grep -qF '[Site \"Tournament \\\\\"]' '$TMP/out'"

# ---- 11: tags and a result, no moves --------------------------------------------------------
printf '[Event "a"]\n[Result "1-0"]\n\n1-0\n\n[Event "b"]\n[Result "0-1"]\n0-1\n' >"$TMP/n.pgn"
run "$PGNKIT" check -q "$TMP/n.pgn"
check "tags and a result without moves are valid empty games" \
    sh -c "[ $rc -eq 0 ] && [ ! -s '$TMP/out' ]"
expect_uci "... with one (empty) uci line each" "$TMP/n.pgn" "a	
b	" --tags Event
printf '[Event "a"]\n[Result "1-0"]\n\n' >"$TMP/n.pgn"
run "$PGNKIT" check -q "$TMP/n.pgn"
check "tags with neither moves nor result stay NO_MOVETEXT" grep -q 'error\[NO_MOVETEXT\]' "$TMP/out"

# ---- 12: e.p. and ++ when true -------------------------------------------------------------
# 1. e4 d5 2. e5 f5 3. exf6 e.p.; then Re1-style double check: from the FEN, Ne4-f6 checks
# e8 and opens the e1 rook's file.
printf '1. e4 d5 2. e5 f5 3. exf6 e.p. *\n' >"$TMP/s.pgn"
game "4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1" "1. Nf6++ *" >>"$TMP/s.pgn"
run "$PGNKIT" check -q "$TMP/s.pgn"
check "true e.p. and ++ are clean by default" sh -c "[ $rc -eq 0 ] && [ ! -s '$TMP/out' ]"
run "$PGNKIT" check -q --strict "$TMP/s.pgn"
check "--strict flags both as outside the export format" \
    sh -c "[ $rc -eq 1 ] && [ \"\$(grep -c 'NONSTANDARD.*export format' '$TMP/out')\" -eq 2 ]"

# ---- 13: movetext restarting at 1. ---------------------------------------------------------
printf '1. d4 d5 2. c4\n\n1. e4 e5 2. Nf3 Nc6 *\n' >"$TMP/x.pgn"
run "$PGNKIT" check -q "$TMP/x.pgn"
check "a restart at 1. after a blank line is named at the first wrong move" \
    grep -q '^[^:]*:3:4: error\[ILLEGAL\].*a new game probably starts at line 3' "$TMP/out"

finish
