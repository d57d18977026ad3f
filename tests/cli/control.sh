#!/bin/sh
# control.sh - control bytes (NUL, ESC, BEL, DEL, ...) and C1 control characters (U+0080-
# U+009F: UTF-8 C2 80-9F, or a Latin-1/CP1252 byte decoded to one) anywhere in a game: one CONTROL_BYTE
# warning per game at the first one (its line and column computed here by Python, byte by
# byte), the game still counted (with warnings, exit 0); no text output copies one (U+FFFD
# instead), JSON writes \u00XX, and pgn --verbatim / --invalid-to keep the bytes exactly.
. "$(dirname "$0")/lib/common.sh"

PY=$(command -v /usr/bin/python3 python3 | head -n 1)

# first_ctrl FILE: "LINE:COL" of the file's first control byte (C0 but TAB LF VT FF CR; DEL)
# or C1 control in UTF-8 (C2 80-9F; its column is that of the C2).
first_ctrl() {
    "$PY" - "$1" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
line, col = 1, 1
for i, c in enumerate(data):
    if c < 0x09 or 0x0e <= c < 0x20 or c == 0x7f or (c == 0xc2 and 0x80 <= data[i + 1] < 0xa0):
        print(f"{line}:{col}")
        break
    eol = c == 0x0a or (c == 0x0d and data[i + 1:i + 2] != b'\n')
    line, col = (line + 1, 1) if eol else (line, col + 1)
PY
}

# raw_ctrl FILE: FILE holds a control byte.
raw_ctrl() {
    "$PY" -c 'import re, sys
sys.exit(0 if re.search(rb"[\x00-\x08\x0e-\x1f\x7f]|\xc2[\x80-\x9f]", open(sys.argv[1], "rb").read()) else 1)' "$1"
}

# has FILE TEXT: FILE holds the bytes TEXT (a printf format).
has() { "$PY" -c 'import sys; sys.exit(0 if sys.argv[2].encode("latin1").decode("unicode_escape").encode("utf-8") in open(sys.argv[1], "rb").read() else 1)' "$1" "$2"; }

# one_game NAME FORMAT: a one-game file (printf FORMAT) with a control byte where NAME says.
one_game() {
    f=$TMP/$1.pgn
    printf "$2" >"$f"
    run "$PGNKIT" check "$f"
    want=$(first_ctrl "$f")
    check "$1: exit 0 (a warning)" [ "$rc" -eq 0 ]
    check "$1: one CONTROL_BYTE" [ "$(grep -c 'CONTROL_BYTE' "$TMP/out")" -eq 1 ]
    check "$1: at the first control byte, $want" \
        grep -Eq "^$f:$want: warning\[CONTROL_BYTE\]: game 1: control (byte|character)" "$TMP/out"
    check "$1: the game counts as with warnings" grep_err "1 game: 0 ok, 1 with warnings"
    for cmd in "check" "pgn" "uci --tags Event,Site,Annotator" "uci -f tsv --tags Event,Annotator" \
               "fen --comments" "pgn --fixes"; do
        # shellcheck disable=SC2086
        "$PGNKIT" $cmd "$f" >"$TMP/text.out" 2>"$TMP/text.err"
        if raw_ctrl "$TMP/text.out" || raw_ctrl "$TMP/text.err"; then
            not_ok "$1: $cmd: a raw control byte in the output"
        else ok "$1: $cmd: no raw control byte in the output"; fi
    done
    "$PGNKIT" pgn --verbatim "$f" >"$TMP/verbatim.out" 2>/dev/null
    check "$1: pgn --verbatim keeps the bytes" "$PY" -c 'import sys
a, b = (open(f, "rb").read() for f in sys.argv[1:])
sys.exit(0 if b.startswith(a.rstrip(b"\r\n")) else 1)' "$f" "$TMP/verbatim.out"
}

one_game tag-value '[Event "a\033[31mred"]\n[Site "s"]\n\n1. e4 e5 1-0\n'
one_game brace-comment '[Event "e"]\n\n1. e4 {a \000 b} e5 1-0\n'
one_game line-comment '[Event "e"]\n\n1. e4 ; bell \007 here\n1... e5 1-0\n'
one_game escape-line '[Event "e"]\n\n%% esc \033 line\n1. e4 e5 1-0\n'
one_game moves '[Event "e"]\n\n1. e4 \002 e5 1-0\n'
one_game tag-then-moves '[Event "e"]\n[Annotator "del \177"]\n\n1. e4 \001 e5 1-0\n'
one_game crlf-comment '[Event "e"]\r\n\r\n1. e4 {two\r\nlines \033 here} e5 1-0\r\n'
# C1 controls in UTF-8: U+009B is CSI to a UTF-8 terminal, U+0085 NEL, U+009D OSC.
one_game c1-tag-value '[Event "a\302\23331mred"]\n[Site "s"]\n\n1. e4 e5 1-0\n'
one_game c1-comment '[Event "e"]\n[Annotator "Gr\303\274\303\237 \302\240ok"]\n\n1. e4 {a \302\205 b} e5 1-0\n'
one_game c1-after-latin '[Event "\302\251 \302\277"]\n\n1. e4 e5 {x \302\235]0;t\007} 1-0\n'
run "$PGNKIT" check "$TMP/c1-tag-value.pgn"
check "c1: the message names the character, U+009B" grep -q 'control character U+009B' "$TMP/out"
"$PGNKIT" uci -f json "$TMP/c1-tag-value.pgn" >"$TMP/out" 2>/dev/null
check "json: the tag's U+009B as \\u009b" grep -qF '"Event":"a\u009b31mred"' "$TMP/out"
"$PGNKIT" pgn "$TMP/c1-comment.pgn" >"$TMP/out" 2>/dev/null
check "pgn: U+00A0 and other C2 characters are kept, only C1 replaced" \
    has "$TMP/out" '[Annotator "Gr\u00fc\u00df \u00a0ok"]'
check "pgn: the comment's U+0085 as U+FFFD" has "$TMP/out" '{ a \ufffd b }'

# A C1 control inside a token (C2 80-9F is no delimiter): the move is no move (an error),
# and every text output, a PGN comment of unplayed moves included, writes U+FFFD for it.
printf '[Event "e"]\n\n1. e4\302\233 e5 2. Nf3 $1\302\205 {x} (2. d4\302\235) Nc6 *\n' >"$TMP/c1-token.pgn"
run "$PGNKIT" check "$TMP/c1-token.pgn"
check "c1 in a token: SYNTAX at 3:4, the token shown with U+FFFD" \
    has "$TMP/out" ':3:4: error[SYNTAX]: game 1, ply 1 (1. e4\ufffd)'
check "c1 in a token: CONTROL_BYTE at 3:6, exit 1" \
    [ "$(grep -c ':3:6: warning\[CONTROL_BYTE\]: game 1: control character U+009B' "$TMP/out")" -eq 1 -a "$rc" -eq 1 ]
for cmd in "check" "pgn" "pgn --fixes" "uci" "uci -f tsv --with san" "uci -f json" "uci -f pgn" \
           "fen --comments" "fen --every" "check -f json"; do
    # shellcheck disable=SC2086
    "$PGNKIT" $cmd "$TMP/c1-token.pgn" >"$TMP/text.out" 2>"$TMP/text.err"
    if raw_ctrl "$TMP/text.out" || raw_ctrl "$TMP/text.err"; then
        not_ok "c1 in a token: $cmd: a raw control character in the output"
    else ok "c1 in a token: $cmd: none raw"; fi
done

# A CP1252 / Latin-1 game: the bytes that decode to C1 controls (CP1252 leaves 0x81 0x8D
# 0x8F 0x90 0x9D unassigned; Latin-1 maps all of 0x80-0x9F there) are control characters
# too, reported at the byte (the column counted here by hand: in '[White "M\374ller\235"]'
# '[' is column 1, '"' 8, 'M' 9, 'r' 14, so 0x9D is column 15).
printf '[Event "e"]\n[White "M\374ller\235"]\n\n1. e4 {\200 euro} e5 1-0\n' >"$TMP/cp1252.pgn"
run "$PGNKIT" check "$TMP/cp1252.pgn"
check "cp1252: exit 0, ENCODING and one CONTROL_BYTE" \
    [ "$rc" -eq 0 -a "$(grep -c 'ENCODING' "$TMP/out")" -eq 1 -a "$(grep -c CONTROL_BYTE "$TMP/out")" -eq 1 ]
check "cp1252: CONTROL_BYTE at 2:15, U+009D from byte 0x9D" \
    grep -q ':2:15: warning\[CONTROL_BYTE\]: game 1: control character U+009D (byte 0x9D read as CP1252' "$TMP/out"
"$PGNKIT" pgn "$TMP/cp1252.pgn" >"$TMP/out" 2>/dev/null
check "cp1252: pgn writes U+FFFD for it, the euro sign as such" \
    sh -c "$(printf '%s' "\"$PY\" -c 'import sys; d = open(sys.argv[1], \"rb\").read(); sys.exit(0 if \"[White \\\"Müller\ufffd\\\"]\".encode() in d and \"{ € euro }\".encode() in d else 1)' '$TMP/out'")"
if raw_ctrl "$TMP/out"; then not_ok "cp1252: a raw control character in pgn"; else ok "cp1252: none raw in pgn"; fi
run "$PGNKIT" check --encoding latin1 "$TMP/cp1252.pgn"
check "latin1: the first of 0x9D and 0x80 (U+0080 there too), at 2:15; no ENCODING warning (forced)" \
    [ "$(grep -c ENCODING "$TMP/out")" -eq 0 -a \
      "$(grep -c ':2:15: warning\[CONTROL_BYTE\]: game 1: control character U+009D (byte 0x9D read as Latin-1' "$TMP/out")" -eq 1 ]
printf '[Event "e"]\n\n1. e4 {a \001} e5 {\235} 1-0\n' >"$TMP/both.pgn"
run "$PGNKIT" check "$TMP/both.pgn"
check "cp1252 after a C0 byte: one CONTROL_BYTE, the C0 one at 3:10" \
    [ "$(grep -c CONTROL_BYTE "$TMP/out")" -eq 1 -a "$(grep -c ':3:10: warning\[CONTROL_BYTE\].*0x01' "$TMP/out")" -eq 1 ]

# What the text outputs write instead: U+FFFD; JSON: \u00XX.
f=$TMP/tag-value.pgn
"$PGNKIT" pgn "$f" >"$TMP/out" 2>/dev/null
check "pgn: the tag's ESC as U+FFFD" has "$TMP/out" '[Event "a\ufffd[31mred"]'
"$PGNKIT" uci -f tsv --tags Event "$f" >"$TMP/out" 2>/dev/null
check "tsv: the tag's ESC as U+FFFD" has "$TMP/out" 'a\ufffd[31mred\t1\t1\te2e4'
"$PGNKIT" pgn "$TMP/brace-comment.pgn" >"$TMP/out" 2>/dev/null
check "pgn: the comment's NUL as U+FFFD" has "$TMP/out" '{ a \ufffd b }'
"$PGNKIT" uci -f json "$f" >"$TMP/out" 2>/dev/null
check "json: the tag's ESC as \\u001b" grep -qF '"Event":"a\u001b[31mred"' "$TMP/out"
"$PGNKIT" check -f json "$f" >"$TMP/out" 2>/dev/null
check "check json: CONTROL_BYTE at 1:10" grep -q '"line":1,"col":10,.*"code":"CONTROL_BYTE"' "$TMP/out"

# Between two games: the next game's, once.
printf '[Event "a"]\n\n1. e4 1-0\n\003\n[Event "b"]\n\n1. d4 {x \033} 1-0\n' >"$TMP/between.pgn"
run "$PGNKIT" check "$TMP/between.pgn"
check "between games: one CONTROL_BYTE, game 2's, at 4:1" \
    [ "$(grep -c CONTROL_BYTE "$TMP/out")" -eq 1 -a \
      "$(grep -c ':4:1: warning\[CONTROL_BYTE\]: game 2' "$TMP/out")" -eq 1 ]
check "between games: 1 ok, 1 with warnings" grep_err "2 games: 1 ok, 1 with warnings"

# --invalid-to keeps a bad game's bytes exactly, control bytes included.
printf '[Event "x\033"]\n\n1. e4 e5 2. Kd3 1-0\n' >"$TMP/bad.pgn"
"$PGNKIT" pgn --invalid-to "$TMP/invalid.pgn" "$TMP/bad.pgn" >/dev/null 2>&1
check "--invalid-to: the game's bytes, ESC included" "$PY" -c 'import sys
a, b = (open(f, "rb").read() for f in sys.argv[1:])
sys.exit(0 if a.rstrip(b"\r\n") in b else 1)' "$TMP/bad.pgn" "$TMP/invalid.pgn"
check "--invalid-to: its ; diagnostic comments have no raw control byte" \
    sh -c "grep -a '^;' '$TMP/invalid.pgn' >'$TMP/comments'; true"
if raw_ctrl "$TMP/comments"; then not_ok "--invalid-to: a raw control byte in a ; comment"; fi

# File names and arguments are the user's bytes: a name with ESC, U+009B or a line end is
# shown with U+FFFD in every message (diagnostics, "cannot open", usage errors, -o), so it
# neither reaches the terminal raw nor forges a line of its own; the file is still read.
odd=$TMP/$(printf 'ev\033[31mil\nx\302\233.pgn')
printf '[Event "e"]\n\n1. e4 Kd5 *\n' >"$odd"
run "$PGNKIT" check "$odd"
if [ "$rc" -eq 1 ] && grep -q 'ILLEGAL' "$TMP/out"; then held=0; else held=1; fi
check "odd name: the file is read (ILLEGAL found, exit 1)" [ "$held" -eq 0 ]
check "odd name: each diagnostic on one line, the name shown with U+FFFD" \
    has "$TMP/out" 'ev\ufffd[31mil\ufffdx\ufffd.pgn:3:7: error[ILLEGAL]'
for cmd in "check" "check -f json" "uci -f tsv --with file" "pgn --fixes"; do
    # shellcheck disable=SC2086
    "$PGNKIT" $cmd "$odd" "$odd.missing" >"$TMP/text.out" 2>"$TMP/text.err"
    if raw_ctrl "$TMP/text.out" || raw_ctrl "$TMP/text.err"; then
        not_ok "odd name: $cmd: a raw control character in a message"
    else ok "odd name: $cmd: none raw"; fi
done
check "odd name: cannot open, shown" has "$TMP/text.err" "cannot open $TMP/ev\ufffd[31mil\ufffdx\ufffd.pgn.missing"
"$PGNKIT" check "--bogus$(printf '\033')x" >/dev/null 2>"$TMP/text.err"
if raw_ctrl "$TMP/text.err"; then not_ok "usage error: a raw ESC from the argument"
else ok "usage error: the argument shown with U+FFFD"; fi
"$PGNKIT" uci "$odd" -o "$odd.dir/x" >/dev/null 2>"$TMP/text.err"
if raw_ctrl "$TMP/text.err"; then not_ok "-o: a raw control character in 'cannot create'"
else ok "-o: the name shown with U+FFFD"; fi

finish
