#!/bin/sh
# hostile.sh - hostile input never crashes, never hangs, never loses the next game.
#
# Each case writes a hostile fragment followed by a well-formed sentinel game into one
# file, runs `pgnkit uci` on it under `timeout 20`, and requires a normal exit (status
# 0, 1 or 2: no signal, no timeout) and the sentinel's UCI line as the last line of
# output.  Then the CLI-level cases: empty and blank files, a directory, a missing or
# unreadable path, a closed stdout, /dev/full.  Big inputs are generated on the fly in
# a temporary directory; under ASan (PGNKIT in build/asan/) they are made 10x smaller.
set -u
pgnkit=${PGNKIT:-build/release/pgnkit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

scale=1
case $pgnkit in *asan*) scale=10 ;; esac

fail() {
    failed=$((failed + 1))
    echo "FAIL: $*"
}

# The sentinel: preceded by a blank line, as any game after a broken one would be.
sentinel_uci="d2d4 g8f6 c2c4 g7g6"
sentinel() {
    printf '\n\n[Event "sentinel"]\n[Result "*"]\n\n1. d4 Nf6 2. c4 g6 *\n'
}

# A byte generator that needs nothing but awk: N pseudo-random bytes, fixed seed.
random_bytes() {
    LC_ALL=C awk -v n="$1" 'BEGIN { srand(42); for (i = 0; i < n; i++)
        printf "%c", int(rand() * 256) }'
}
# N copies of the string S (no line end).
repeat() {
    LC_ALL=C awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'
}

# run_status FILE ARGS... : run pgnkit, fail unless it ended normally; sets $rc.
run_status() {
    name=$1
    shift
    timeout 20 "$pgnkit" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    case $rc in
    0 | 1 | 2) return 0 ;;
    124) fail "$name: timed out" ;;
    *) fail "$name: exit status $rc (signal $((rc - 128))?)"; tail -n 5 "$tmp/err" ;;
    esac
    return 1
}

# hostile NAME : $tmp/case.pgn (the fragment) plus the sentinel, through uci and check.
hostile() {
    name=$1
    sentinel >>"$tmp/case.pgn"
    for jobs in 1 2; do
        run_status "$name (-j$jobs)" uci -q -j$jobs "$tmp/case.pgn" || continue
        if [ "$(tail -n 1 "$tmp/out")" = "$sentinel_uci" ]; then
            passed=$((passed + 1))
        else
            fail "$name (-j$jobs): the next game was lost; last line: $(tail -n 1 "$tmp/out" | cut -c1-80)"
        fi
    done
    # check must finish too, and count the sentinel as a clean game.
    if run_status "$name (check)" check --no-progress "$tmp/case.pgn"; then
        if grep -q '^pgnkit: [0-9]* games\?: [1-9]' "$tmp/err"; then
            passed=$((passed + 1))
        else
            fail "$name (check): no clean game in the summary: $(tail -n 1 "$tmp/err")"
        fi
    fi
    rm -f "$tmp/case.pgn"
}

# hostile_diag NAME CODE : as hostile, and check reports CODE.
hostile_diag() {
    cp "$tmp/case.pgn" "$tmp/case.keep"
    hostile "$1"
    cat "$tmp/case.keep" >"$tmp/case.pgn"
    sentinel >>"$tmp/case.pgn"
    timeout 20 "$pgnkit" check -q "$tmp/case.pgn" >"$tmp/out" 2>&1
    if grep -q "\[$2\]" "$tmp/out"; then
        passed=$((passed + 1))
    else
        fail "$1: no $2 diagnostic"
    fi
    rm -f "$tmp/case.pgn" "$tmp/case.keep"
}

# ---- hostile bytes -------------------------------------------------------------------

# Input that starts as binary is refused as a whole (tests/cli/archives.sh); garbage after
# a start of real PGN (the first 4 KiB decide) is read as hostile PGN.
{ head -c 5000 testdata/pgn/pgn-extract/fischer.pgn; printf '\n\n'; random_bytes 100000; } \
    >"$tmp/case.pgn"
hostile "100 kB of binary garbage after some games"

printf '[Event "a\0b"]\n[Si\0te "x"]\n\n1. e4\0 e5 2. N\0f3 *\n' >"$tmp/case.pgn"
hostile_diag "NUL bytes in tags and movetext" CONTROL_BYTE

printf '[Event "x"]\n\n1. e4 { this comment never closes\n2. e4 e5\n' >"$tmp/case.pgn"
hostile_diag "a comment that never closes" UNTERMINATED_COMMENT

printf '[Event "this string never closes]\n[Site "x"]\n\n1. e4 *\n' >"$tmp/case.pgn"
hostile "a tag string that never closes"

printf '[Event "x"\n[Site "y"\n[White "z"\n\n1. e4 e5 *\n' >"$tmp/case.pgn"
hostile_diag "tag lines that never close" BAD_TAG

{ printf '[Event "x"]\n\n1. e4 '; repeat 300000 '('; printf ' e5 '; repeat 300000 ')'
  printf ' e5 *\n'; } >"$tmp/case.pgn"
hostile_diag "300,000 nested balanced parentheses" NESTING_TOO_DEEP

{ printf '[Event "x"]\n\n1. e4 '; repeat 300000 '('; printf ' e5 *\n'; } >"$tmp/case.pgn"
hostile_diag "300,000 unbalanced open parentheses" UNTERMINATED_VARIATION

{ printf '[Event "x"]\n\n1. e4 '; repeat 300000 ')'; printf ' e5 *\n'; } >"$tmp/case.pgn"
hostile_diag "300,000 unbalanced close parentheses" UNBALANCED_VARIATION

{ printf '[Event "x"]\n\n1. e4 {'; head -c $((30000000 / scale)) /dev/zero | tr '\0' c
  printf '} e5 *\n'; } >"$tmp/case.pgn"
hostile "a 30 MB comment"

{ printf '[Event "x"]\n\n1. e4 e5 2. '; head -c 1000000 /dev/zero | tr '\0' N; printf ' *\n'; } \
    >"$tmp/case.pgn"
hostile_diag "a 1 MB token" TOKEN_TOO_LONG

{ printf '['; head -c 200000 /dev/zero | tr '\0' T; printf ' "x"]\n\n1. e4 *\n'; } \
    >"$tmp/case.pgn"
hostile_diag "a 200 kB tag name" TOKEN_TOO_LONG

# From a pipe (short reads): an endless tag value was rescanned from its start after
# every read, quadratic (18 s for 30 MB).  Now it reads in linear time.
{ printf '[Event "'; head -c $((60000000 / scale)) /dev/zero | tr '\0' v; sentinel; } >"$tmp/case.pgn"
{ timeout 20 "$pgnkit" uci -q - <"$tmp/case.pgn" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"; } </dev/null
rc=$(cat "$tmp/rc")
if [ "$rc" -le 2 ] && [ "$(tail -n 1 "$tmp/out")" = "$sentinel_uci" ]; then
    passed=$((passed + 1))
else
    fail "a 60 MB tag value (stdin): status $rc"
fi
cat "$tmp/case.pgn" | timeout 20 "$pgnkit" uci -q - >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -le 2 ] && [ "$(tail -n 1 "$tmp/out")" = "$sentinel_uci" ]; then
    passed=$((passed + 1))
else
    fail "a 60 MB tag value (stdin): status $rc"
fi
rm -f "$tmp/case.pgn"

for fen in "8/8/8/8/8/8/8/8 w - - 0 1" \
    "P3k3/8/8/8/8/8/8/4K3 w - - 0 1" \
    "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1" \
    "4k3/8/8/8/8/8/8/4K3 w - e3 0 1" \
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra" \
    "not a fen at all" ""; do
    printf '[Event "x"]\n[SetUp "1"]\n[FEN "%s"]\n\n1. e4 *\n' "$fen" >"$tmp/case.pgn"
    hostile_diag "invalid FEN '$fen'" BAD_FEN
done
# A castling right with no rook is dropped with a warning and the game played (issue 14.9).
printf '[Event "x"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/8/4K3 w K - 0 1"]\n\n1. Kd1 *\n' \
    >"$tmp/case.pgn"
hostile_diag "FEN castling right without its rook" CASTLING_DROPPED

printf '[Event "x"]\n\n123456789012345678901234567890. e4 e5 123456789012345678901234567890... Nf3 *\n' \
    >"$tmp/case.pgn"
hostile "move numbers of 30 digits"

printf '[Event "cr"]\r[Site "x"]\r\r1. e4 e5\r2. Nf3 *\r' >"$tmp/case.pgn"
sentinel | tr '\n' '\r' >>"$tmp/case.pgn"
run_status "CR-only line ends" uci -q "$tmp/case.pgn" &&
    if [ "$(cat "$tmp/out")" = "$(printf 'e2e4 e7e5 g1f3\n%s' "$sentinel_uci")" ]; then
        passed=$((passed + 1))
    else
        fail "CR-only line ends: $(cat "$tmp/out")"
    fi

{ printf '[Event "crlf"]\r\n[Site "x"]\r\n\r\n1. e4 e5\r\n2. Nf3 *\r\n'; sentinel | sed 's/$/\r/'; } \
    >"$tmp/case.pgn"
run_status "CRLF line ends" uci -q "$tmp/case.pgn" &&
    if [ "$(cat "$tmp/out")" = "$(printf 'e2e4 e7e5 g1f3\n%s' "$sentinel_uci")" ]; then
        passed=$((passed + 1))
    else
        fail "CRLF line ends: $(cat "$tmp/out")"
    fi

printf '\357\273\277[Event "bom"]\n\n1. e4 e5 *\n' >"$tmp/case.pgn"
sentinel >>"$tmp/case.pgn"
run_status "a BOM" check -q "$tmp/case.pgn" &&
    if [ $rc = 0 ] && [ ! -s "$tmp/out" ]; then
        passed=$((passed + 1))
    else
        fail "a BOM: status $rc, $(head -n 1 "$tmp/out")"
    fi

# ---- whole inputs --------------------------------------------------------------------

: >"$tmp/empty.pgn"
printf ' \n\t\r\n\n   \n' >"$tmp/blank.pgn"
for f in empty blank; do
    run_status "$f file" uci "$tmp/$f.pgn" &&
        if [ $rc = 0 ] && [ ! -s "$tmp/out" ]; then
            passed=$((passed + 1))
        else
            fail "$f file: status $rc, output $(wc -c <"$tmp/out") bytes"
        fi
    run_status "$f file (check)" check --no-progress "$tmp/$f.pgn" &&
        if [ $rc = 0 ] && grep -q '^pgnkit: 0 games' "$tmp/err"; then
            passed=$((passed + 1))
        else
            fail "$f file (check): status $rc, $(cat "$tmp/err")"
        fi
done

# expect_io NAME PATTERN ARGS... : exit status 2 and PATTERN in the message.
expect_io() {
    name=$1
    pattern=$2
    shift 2
    run_status "$name" "$@" &&
        if [ $rc = 2 ] && grep -q "$pattern" "$tmp/err"; then
            passed=$((passed + 1))
        else
            fail "$name: status $rc, stderr: $(head -n 2 "$tmp/err")"
        fi
}

expect_io "a directory as input" "cannot read $tmp: .*directory" uci "$tmp"
expect_io "a missing file" "cannot open $tmp/missing.pgn: No such file" uci "$tmp/missing.pgn"
printf '[Event "x"]\n\n1. e4 *\n' >"$tmp/locked.pgn"
chmod 000 "$tmp/locked.pgn"
if [ "$(id -u)" != 0 ]; then # root reads it anyway
    expect_io "an unreadable file" "cannot open $tmp/locked.pgn: Permission denied" uci "$tmp/locked.pgn"
fi

# Many games, so output is still being written when head exits.
repeat $((200000 / scale)) '[Event "x"]
1. e4 e5 *

' >"$tmp/big.pgn"
for jobs in 1 2; do
    { timeout 20 "$pgnkit" uci -j$jobs "$tmp/big.pgn" 2>"$tmp/err"; echo $? >"$tmp/rc"; } |
        head -n 1 >"$tmp/out"
    rc=$(cat "$tmp/rc")
    case $rc in
    0 | 1 | 2)
        if [ -s "$tmp/err" ]; then
            fail "closed stdout (-j$jobs): a message: $(head -n 1 "$tmp/err")"
        elif [ "$(cat "$tmp/out")" != "e2e4 e7e5" ]; then
            fail "closed stdout (-j$jobs): first line $(cat "$tmp/out")"
        else
            passed=$((passed + 1))
        fi ;;
    *) fail "closed stdout (-j$jobs): exit status $rc" ;;
    esac
done

if [ -w /dev/full ]; then
    for jobs in 1 2; do
        timeout 20 "$pgnkit" uci -j$jobs "$tmp/big.pgn" >/dev/full 2>"$tmp/err"
        rc=$?
        if [ $rc = 2 ] && grep -q 'cannot write to standard output: No space left' "$tmp/err" &&
            [ "$(wc -l <"$tmp/err")" = 1 ]; then
            passed=$((passed + 1))
        else
            fail "/dev/full (-j$jobs): status $rc, stderr: $(head -n 3 "$tmp/err")"
        fi
    done
fi

# A file that shrinks while it is read: plain files are mapped, not copied, and the pages
# cut off are gone from the mapping.  pgnkit blocks writing to a FIFO nobody reads yet
# (well inside the file), the file is cut to nothing, then the FIFO is drained: the cut
# is reported, the file named, status 2, never a death by SIGBUS.
repeat $((400000 / scale)) '[Event "x"]
1. e4 e5 *

' >"$tmp/shrinks.pgn"
mkfifo "$tmp/fifo"
timeout 20 "$pgnkit" uci -j1 "$tmp/shrinks.pgn" >"$tmp/fifo" 2>"$tmp/err" &
pid=$!
exec 3<"$tmp/fifo"
sleep 1
: >"$tmp/shrinks.pgn"
cat <&3 >/dev/null
exec 3<&-
wait $pid
rc=$?
if [ $rc = 2 ] && [ "$(cat "$tmp/err")" = "pgnkit: $tmp/shrinks.pgn: the file shrank while it was being read; the output is incomplete" ]; then
    passed=$((passed + 1))
else
    fail "a file cut while it is read: status $rc, stderr: $(head -n 2 "$tmp/err")"
fi

# Standard input may be a file read from its middle ({ read header; pgnkit -; } < F):
# pgnkit reads from there on, as from a pipe (a file is mapped only from its first byte).
first='[Event "one"]

1. e4 e5 *

'
printf '%s[Event "two"]\n\n1. d4 d5 *\n' "$first" >"$tmp/two.pgn"
skip=$(printf '%s' "$first" | wc -c)
got=$({ dd bs="$skip" count=1 2>/dev/null >/dev/null; "$pgnkit" uci -j1 -q -; } <"$tmp/two.pgn")
whole=$("$pgnkit" uci -j1 -q - <"$tmp/two.pgn" | tr '\n' '|')
if [ "$got" = "d2d4 d7d5" ] && [ "$whole" = "e2e4 e7e5|d2d4 d7d5|" ]; then
    passed=$((passed + 1))
else
    fail "standard input read from a file's middle: got '$got', whole '$whole'"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
