#!/bin/sh
# encoding.sh - each game is UTF-8 or decoded as CP1252/Latin-1 with one ENCODING warning;
# --encoding forces it; every output is valid UTF-8.  Oracle: iconv's decoding of the
# same bytes (pgn-extract's odds.pgn is Latin-1: "François André Philidor").
. "$(dirname "$0")/lib/common.sh"

odds=$TESTDATA/pgn-extract/odds.pgn
# The oracle: Python's codecs, per game (a game starts at an [Event line): UTF-8 when
# its bytes are UTF-8, else CP1252.  odds.pgn mixes both (game 2 is UTF-8).
python3 -c '
import re, sys
data = open(sys.argv[1], "rb").read()
games = re.split(rb"(?m)^(?=\[Event )", data)
out = []
for g in games:
    try:
        out.append(g.decode("utf-8"))
    except UnicodeDecodeError:
        out.append(g.decode("cp1252"))
sys.stdout.buffer.write("".join(out).encode("utf-8"))' "$odds" >"$TMP/odds-utf8.pgn"
check "the fixture has Latin-1 games (François André Philidor)" \
    grep -q 'François André Philidor' "$TMP/odds-utf8.pgn"
check "the fixture is not UTF-8" sh -c "! iconv -f UTF-8 -t UTF-8 '$odds' >/dev/null 2>&1"
lacks() { ! grep -q "$1" "$2"; }

# valid_utf8 FILE: strictly decodable (python3 when there, else iconv).
valid_utf8() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import sys; sys.stdin.buffer.read().decode("utf-8")' <"$1" 2>/dev/null
    else
        iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1
    fi
}

for cmd in "uci --tags White,Black" "uci --format json" "uci --format tsv --tags White,Black" \
    "fen --format json" "pgn" "fen --comments" "check --format json" "check"; do
    # shellcheck disable=SC2086
    "$PGNKIT" $cmd -q "$odds" >"$TMP/out" 2>"$TMP/err"
    check "$cmd: Latin-1 input gives valid UTF-8" valid_utf8 "$TMP/out"
    check "$cmd: diagnostics are valid UTF-8" valid_utf8 "$TMP/err"
done
# Where no byte offset is printed, the output is that of the oracle's UTF-8 text.
for cmd in "uci --tags White,Black" "uci --format tsv --tags White,Black" "pgn" "fen --comments"; do
    # shellcheck disable=SC2086
    "$PGNKIT" $cmd -q "$TMP/odds-utf8.pgn" >"$TMP/want" 2>/dev/null
    # shellcheck disable=SC2086
    "$PGNKIT" $cmd -q "$odds" >"$TMP/out" 2>/dev/null
    check "$cmd: the output of the oracle's UTF-8 text" cmp -s "$TMP/out" "$TMP/want"
done
"$PGNKIT" uci --tags Black -q "$odds" 2>/dev/null | grep -c 'François André Philidor' >"$TMP/n"
check "the names come out right" [ "$(cat "$TMP/n")" -ge 1 ]

# One ENCODING note per file, not per game: the first game with a byte that is not UTF-8
# (file:line:col, game), and how many games of the file were (n of the 32 by the oracle).
n=$(python3 -c '
import re, sys
games = re.split(rb"(?m)^(?=\[Event )", open(sys.argv[1], "rb").read())
def utf8(g):
    try:
        g.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False
print(sum(not utf8(g) for g in games))' "$odds")
run "$PGNKIT" check -q "$odds"
check "check: one ENCODING note for the file's $n games" \
    [ "$(grep -c 'warning\[ENCODING\]' "$TMP/out")" -eq 1 ] && [ "$n" -ge 15 ]
check "ENCODING names line, column, the first game and the count" \
    grep -q "odds.pgn:8:13: warning\[ENCODING\]: game 1: not UTF-8 (byte 0xE7): the game is read as CP1252 (Latin-1); so were $((n - 1)) more games of this file" "$TMP/out"
for cmd in uci pgn fen "uci -j2" "check --format json"; do
    # shellcheck disable=SC2086
    "$PGNKIT" $cmd "$odds" "$odds" >"$TMP/out" 2>"$TMP/err"
    cat "$TMP/out" "$TMP/err" >"$TMP/both"
    check "$cmd: one ENCODING note per file (two files, two notes)" \
        [ "$(grep -c 'ENCODING' "$TMP/both")" -eq 2 ]
done
"$PGNKIT" pgn -q "$odds" >/dev/null 2>"$TMP/err"
check "pgn -q: no note" lacks ENCODING "$TMP/err"
# The pipeline finds the file's first such game wherever its batch is: UTF-8 games
# first (three TWICs), then odds.pgn twice; -j1 and -j4 say the same.
zstd -dcq "$(pwd)/testdata/bench/twic1599.pgn.zst" >"$TMP/twic.pgn"
cat "$TMP/twic.pgn" "$TMP/twic.pgn" "$TMP/twic.pgn" "$odds" "$odds" >"$TMP/late.pgn"
first=$(( 3 * $(grep -c '^\[Event ' "$TMP/twic.pgn") + 1 ))
"$PGNKIT" uci -j1 "$TMP/late.pgn" 2>"$TMP/e1" >/dev/null
"$PGNKIT" uci -j4 "$TMP/late.pgn" 2>"$TMP/e4" >/dev/null
check "a late first game (game $first), $((2 * n)) in all: one note, -j1 as -j4" \
    sh -c "[ \$(grep -c ENCODING '$TMP/e4') -eq 1 ] && cmp -s '$TMP/e1' '$TMP/e4' &&
           grep -q 'game $first: not UTF-8.*so were $((2 * n - 1)) more games' '$TMP/e4'"
run "$PGNKIT" check "$TMP/odds-utf8.pgn"
check "no ENCODING warning on UTF-8 input" lacks 'ENCODING' "$TMP/out"
run "$PGNKIT" check --fail-on warning "$odds"
check "ENCODING is a warning: --fail-on warning makes it exit 1" [ "$rc" -eq 1 ]

# Per game: a UTF-8 game and a CP1252 game in one file.  CP1252 bytes 0x80 0x93 0x94 are
# the euro sign and curly quotes; Latin-1 reads them as C1 controls.
printf '[Event "a"]\n[White "Jos\303\251"]\n\n1. e4 *\n\n[Event "b"]\n[White "\223Jos\351\224 \200"]\n\n1. d4 *\n' \
    >"$TMP/mixed.pgn"
run "$PGNKIT" uci -q --tags White "$TMP/mixed.pgn"
printf 'José\te2e4\n“José” €\td2d4\n' >"$TMP/want"
check "per game: UTF-8 kept, CP1252 decoded" cmp -s "$TMP/out" "$TMP/want"
run "$PGNKIT" check -q "$TMP/mixed.pgn"
check "per game: one warning, for game 2" [ "$(grep -c 'ENCODING' "$TMP/out")" -eq 1 ] &&
    grep -q 'game 2: not UTF-8' "$TMP/out"

# --encoding forces it.
run "$PGNKIT" uci -q --tags White --encoding latin1 "$TMP/mixed.pgn"
# (0x93, 0x94 and 0x80 are the C1 controls U+0093, U+0094, U+0080 in Latin-1: control
# characters, written as U+FFFD like any other; control.sh)
printf 'JosÃ©\te2e4\n\357\277\275Jos\303\251\357\277\275 \357\277\275\td2d4\n' >"$TMP/want"
check "--encoding latin1: every byte >= 0x80 is its Latin-1 character (C1: U+FFFD)" cmp -s "$TMP/out" "$TMP/want"
run "$PGNKIT" check --encoding latin1 "$TMP/mixed.pgn"
check "--encoding latin1: no warning" lacks 'ENCODING' "$TMP/out"
run "$PGNKIT" uci -q --tags White --encoding cp1252 "$TMP/mixed.pgn"
printf 'JosÃ©\te2e4\n“José” €\td2d4\n' >"$TMP/want"
check "--encoding cp1252: every byte >= 0x80 is its CP1252 character" cmp -s "$TMP/out" "$TMP/want"
run "$PGNKIT" uci -q --tags White --encoding utf-8 "$TMP/mixed.pgn"
printf 'José\te2e4\n\357\277\275Jos\357\277\275\357\277\275 \357\277\275\td2d4\n' >"$TMP/want"
check "--encoding utf-8: bytes that are not UTF-8 become U+FFFD" cmp -s "$TMP/out" "$TMP/want"
run "$PGNKIT" check -q --encoding utf-8 "$TMP/mixed.pgn"
check "--encoding utf-8: the game is still warned about" grep -q 'game 2: not UTF-8.*U+FFFD' "$TMP/out"
run "$PGNKIT" uci --encoding ebcdic "$odds"
if [ "$rc" -eq 2 ] && grep_err "--encoding"; then held=0; else held=1; fi
check "--encoding with an unknown name: usage error" [ "$held" -eq 0 ]

# The same through --jobs 2 and a compressor.
"$PGNKIT" check -j1 "$odds" >"$TMP/want" 2>&1
gzip -c "$odds" | "$PGNKIT" check -j2 >"$TMP/out" 2>&1
sed 's/^<stdin>/odds/; s/[0-9.]* s wall, [0-9.]* s CPU ([0-9.]* MB\/s)//' "$TMP/out" >"$TMP/out2"
sed "s|^$odds|odds|; s/[0-9.]* s wall, [0-9.]* s CPU ([0-9.]* MB\/s)//" "$TMP/want" >"$TMP/want2"
check "--jobs 2 on gzip: the same warnings" cmp -s "$TMP/out2" "$TMP/want2"

# A game decoded as CP1252 keeps its diagnostic cap's count: 20 '}' + ENCODING = 21, 3
# shown, so 18 more (the decoded copy once lost the count and said 1).
{ printf '[White "M\374ller"]\n\n1. e4 '; i=0; while [ $i -lt 20 ]; do printf '} '; i=$((i + 1)); done
  printf '*\n'; } >"$TMP/capped.pgn"
run "$PGNKIT" check --max-diagnostics 3 "$TMP/capped.pgn"
check "CP1252 game over --max-diagnostics: 18 more counted" grep -qF "18 more diagnostics" "$TMP/out"

finish
