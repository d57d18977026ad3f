#!/bin/sh
# limits.sh - --max-game-bytes, --max-token-bytes, --max-comment-bytes and --max-depth:
# going past each is a diagnostic for that game (not an abort), and the next game is read.
set -u
pgnkit=${PGNKIT:-build/release/pgnkit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

next='[Event "next"]

1. d4 d5 *
'

# limit NAME OPTION CODE GAME : GAME then the next game, with OPTION.
limit() {
    name=$1
    option=$2
    code=$3
    printf '%s\n\n%s' "$4" "$next" >"$tmp/in.pgn"
    timeout 20 "$pgnkit" check --no-progress $option "$tmp/in.pgn" >"$tmp/diags" 2>"$tmp/err"
    rc=$?
    timeout 20 "$pgnkit" uci -q $option "$tmp/in.pgn" >"$tmp/uci" 2>/dev/null
    if [ $rc != 1 ]; then
        failed=$((failed + 1))
        echo "FAIL: $name: check exit status $rc, want 1"
    elif ! grep -q "game 1: .*\[$code\]\|error\[$code\]: game 1" "$tmp/diags"; then
        failed=$((failed + 1))
        echo "FAIL: $name: no $code for game 1: $(cat "$tmp/diags")"
    elif ! grep -q '^pgnkit: 2 games: 1 ok, 0 with warnings, 1 with errors, 0 skipped\|^pgnkit: 2 games: 1 ok, 0 with warnings, 0 with errors, 1 skipped' "$tmp/err"; then
        failed=$((failed + 1))
        echo "FAIL: $name: summary $(cat "$tmp/err")"
    elif [ "$(tail -n 1 "$tmp/uci")" != "d2d4 d7d5" ]; then
        failed=$((failed + 1))
        echo "FAIL: $name: the next game was not converted: $(tail -n 1 "$tmp/uci")"
    else
        passed=$((passed + 1))
    fi
}

limit "game bytes" "--max-game-bytes 100" GAME_TOO_LARGE \
    "[Event \"big\"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 *"
limit "token bytes" "--max-token-bytes 5" TOKEN_TOO_LONG \
    "[Event \"long token\"]

1. e4 e5 2. Nf3 Nc6 3. Nf3xe5 *"
limit "tag name bytes" "--max-token-bytes 5" TOKEN_TOO_LONG \
    "[Event \"x\"]
[Annotator \"long tag name\"]

1. e4 *"
limit "comment bytes" "--max-comment-bytes 10" COMMENT_TOO_LONG \
    "[Event \"long comment\"]

1. e4 {a comment longer than ten bytes} e5 *"
limit "line comment bytes" "--max-comment-bytes 10" COMMENT_TOO_LONG \
    "[Event \"long comment\"]

1. e4 ; a comment longer than ten bytes
e5 *"
limit "depth" "--max-depth 2" NESTING_TOO_DEEP \
    "[Event \"deep\"]

1. e4 (1. d4 (1. c4 (1. Nf3))) e5 *"

# Within the limits the same games are clean.
printf '[Event "x"]\n\n1. e4 {short} (1. d4 (1. c4)) e5 *\n\n%s' "$next" >"$tmp/in.pgn"
if timeout 20 "$pgnkit" check -q --max-game-bytes 200 --max-token-bytes 5 \
    --max-comment-bytes 10 --max-depth 2 "$tmp/in.pgn"; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
    echo "FAIL: games within the limits are not clean"
fi

# Bad values are usage errors (exit 2), not silently ignored.
for opt in --max-game-bytes --max-token-bytes --max-comment-bytes --max-depth; do
    for bad in -1 abc 99999999999999999999999; do
        timeout 20 "$pgnkit" check $opt "$bad" "$tmp/in.pgn" >/dev/null 2>"$tmp/err"
        rc=$?
        if [ $rc = 2 ] && [ -s "$tmp/err" ]; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            echo "FAIL: $opt $bad: exit status $rc"
        fi
    done
done

# Lines past 2^32 (issue 15: the count wrapped at 2^32): 2^32 + 5 blank lines, then a
# game with an illegal move, as a zstd frame written by hand (RLE blocks of '\n': 131 KB,
# made in well under a second).  Reading 4.3 GB takes a few CPU seconds (more under ASan),
# so it runs with PGNKIT_SLOW=1 (make check-slow); test_writer_pgn's
# lines_past_two_to_the_32 covers the 64-bit lines in every make test.
expect_line() { # DESCRIPTION WANT GOT
    if [ "$3" = "$2" ]; then passed=$((passed + 1)); else
        failed=$((failed + 1)); echo "FAIL: $1: got '$3', want '$2'"; fi
}
if [ -n "${PGNKIT_SLOW:-}" ] && command -v python3 >/dev/null; then
    python3 - "$tmp/lines.pgn.zst" <<'PY'
import struct, sys
n = (1 << 32) + 5
text = b'[Event "x"]\n\n1. e4 e5 2. Kd3 1-0\n'
def block(last, kind, size):  # a zstd block header: 3 bytes, little-endian
    return struct.pack('<I', last | kind << 1 | size << 3)[:3]
full, rest = divmod(n, 1 << 17)
with open(sys.argv[1], 'wb') as f:
    f.write(struct.pack('<I', 0xFD2FB528) + bytes([0x00, 0x38]))  # no size; window 2^17
    f.write((block(0, 1, 1 << 17) + b'\n') * full + block(0, 1, rest) + b'\n')
    f.write(block(1, 0, len(text)) + text)
PY
    "$pgnkit" check --no-progress "$tmp/lines.pgn.zst" >"$tmp/diags" 2>/dev/null
    expect_line "line past 2^32 (text)" "$tmp/lines.pgn.zst:4294967304:13: error[ILLEGAL]:" \
        "$(cut -d' ' -f1-2 "$tmp/diags")"
    "$pgnkit" uci -q -f json "$tmp/lines.pgn.zst" >"$tmp/json" 2>/dev/null
    expect_line "game line past 2^32 (json)" '"line":4294967302,' \
        "$(grep -o '"line":[0-9]*,' "$tmp/json" | head -n 1)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
