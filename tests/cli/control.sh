#!/bin/sh
# control.sh - control bytes (NUL, ESC, BEL, DEL, ...) anywhere in a game: one CONTROL_BYTE
# warning per game at the first one (its line and column computed here by Python, byte by
# byte), the game still counted (with warnings, exit 0); no text output copies one (U+FFFD
# instead), JSON writes \u00XX, and pgn --verbatim / --invalid-to keep the bytes exactly.
. "$(dirname "$0")/lib/common.sh"

PY=$(command -v /usr/bin/python3 python3 | head -n 1)

# first_ctrl FILE: "LINE:COL" of the file's first control byte (C0 but TAB LF VT FF CR; DEL).
first_ctrl() {
    "$PY" - "$1" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
line, col = 1, 1
for i, c in enumerate(data):
    if c < 0x09 or 0x0e <= c < 0x20 or c == 0x7f:
        print(f"{line}:{col}")
        break
    eol = c == 0x0a or (c == 0x0d and data[i + 1:i + 2] != b'\n')
    line, col = (line + 1, 1) if eol else (line, col + 1)
PY
}

# raw_ctrl FILE: FILE holds a control byte.
raw_ctrl() {
    "$PY" -c 'import re, sys
sys.exit(0 if re.search(rb"[\x00-\x08\x0e-\x1f\x7f]", open(sys.argv[1], "rb").read()) else 1)' "$1"
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
        grep -q "^$f:$want: warning\[CONTROL_BYTE\]: game 1: control byte" "$TMP/out"
    check "$1: the game counts as with warnings" grep_err "1 games: 0 ok, 1 with warnings"
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

finish
