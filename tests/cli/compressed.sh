#!/bin/sh
# compressed.sh - gzip and zstd input is recognised by content (not by name), from files
# and from pipes, and gives exactly the output of the plain file; broken data is exit 2.
. "$(dirname "$0")/lib/common.sh"

a=$TESTDATA/pgn-extract/fischer.pgn
b=$TESTDATA/pgn-extract/petrosian.pgn
"$PGNKIT" uci -q "$a" >"$TMP/want" 2>/dev/null
check "plain run succeeds" [ $? -eq 0 ]
check "plain run gives one line per game" [ "$(lines "$TMP/want")" -eq 34 ]

gzip -c "$a" >"$TMP/a.pgn.gz"
run "$PGNKIT" uci -q "$TMP/a.pgn.gz"
check "gzip file: exit 0" [ "$rc" -eq 0 ]
check "gzip file: same output as the plain file" cmp -s "$TMP/out" "$TMP/want"

gzip -c "$a" >"$TMP/misnamed.pgn"
run "$PGNKIT" uci -q "$TMP/misnamed.pgn"
check "gzip data named .pgn is still decompressed" cmp -s "$TMP/out" "$TMP/want"

cp "$a" "$TMP/plain.gz"
run "$PGNKIT" uci -q "$TMP/plain.gz"
check "plain data named .gz is read as is" cmp -s "$TMP/out" "$TMP/want"

gzip -c "$a" | "$PGNKIT" uci -q >"$TMP/out" 2>"$TMP/err"
check "gzip on standard input (no file argument)" cmp -s "$TMP/out" "$TMP/want"
gzip -c "$a" | "$PGNKIT" uci -q - >"$TMP/out" 2>"$TMP/err"
check "gzip on standard input ('-')" cmp -s "$TMP/out" "$TMP/want"

# Concatenated members read as one stream, like gzip -d.
{ gzip -c "$a"; gzip -c "$b"; } >"$TMP/ab.pgn.gz"
cat "$a" "$b" | "$PGNKIT" uci -q >"$TMP/want-ab" 2>/dev/null
run "$PGNKIT" uci -q "$TMP/ab.pgn.gz"
check "concatenated gzip members: same as the concatenated text" cmp -s "$TMP/out" "$TMP/want-ab"
check "concatenated gzip members: 69 games" [ "$(lines "$TMP/out")" -eq 69 ]

# Other commands go through the same input: fen and check agree with the plain file.
"$PGNKIT" fen -q "$a" >"$TMP/want-fen" 2>/dev/null
run "$PGNKIT" fen -q "$TMP/a.pgn.gz"
check "fen reads gzip too" cmp -s "$TMP/out" "$TMP/want-fen"
run "$PGNKIT" check "$TMP/a.pgn.gz"
check "check on gzip: exit 0" [ "$rc" -eq 0 ]

if command -v zstd >/dev/null 2>&1; then
    zstd -qc "$a" >"$TMP/a.pgn.zst"
    run "$PGNKIT" uci -q "$TMP/a.pgn.zst"
    check "zstd file: exit 0" [ "$rc" -eq 0 ]
    check "zstd file: same output as the plain file" cmp -s "$TMP/out" "$TMP/want"
    zstd -qc "$a" | "$PGNKIT" uci -q >"$TMP/out" 2>"$TMP/err"
    check "zstd on standard input" cmp -s "$TMP/out" "$TMP/want"
    { zstd -qc "$a"; zstd -qc "$b"; } | "$PGNKIT" uci -q >"$TMP/out" 2>"$TMP/err"
    check "several zstd frames: same as the concatenated text" cmp -s "$TMP/out" "$TMP/want-ab"
    head -c 2000 "$TMP/a.pgn.zst" >"$TMP/cut.zst"
    run "$PGNKIT" uci -q "$TMP/cut.zst"
    check "truncated zstd: exit 2" [ "$rc" -eq 2 ]
    check "truncated zstd: says so" grep_err "zstd data is truncated"
else
    skip "zstd tests: no zstd command (sh scripts/ensure-deps.sh test installs it)"
fi

# Broken data is an I/O failure (exit 2) with a reason, never a crash.
head -c 3000 "$TMP/a.pgn.gz" >"$TMP/cut.gz"
run "$PGNKIT" uci -q "$TMP/cut.gz"
check "truncated gzip: exit 2" [ "$rc" -eq 2 ]
check "truncated gzip: names the file and the problem" grep_err "cut.gz: gzip data is truncated"

# Flip bytes inside the deflate data (offset 2000).
{ head -c 2000 "$TMP/a.pgn.gz"; printf 'XXXXXXXXXXXXXXXX'; tail -c +2017 "$TMP/a.pgn.gz"; } \
    >"$TMP/bad.gz"
run "$PGNKIT" uci -q "$TMP/bad.gz"
check "corrupt gzip: exit 2" [ "$rc" -eq 2 ]
check "corrupt gzip: says corrupt" grep_err "gzip data is corrupt"

{ cat "$TMP/a.pgn.gz"; echo "[Event \"plain\"]"; } >"$TMP/tail.gz"
run "$PGNKIT" uci -q "$TMP/tail.gz"
check "bytes after the gzip data: exit 2" [ "$rc" -eq 2 ]
check "bytes after the gzip data: says so" grep_err "unexpected bytes after the gzip data"

finish
