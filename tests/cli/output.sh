#!/bin/sh
# output.sh - -o FILE is all or nothing: a run that fails leaves neither FILE nor its
# temporary file behind (and an existing FILE untouched); a run that succeeds, or only
# finds errors in games, creates it with what standard output would have shown.
. "$(dirname "$0")/lib/common.sh"

a=$TESTDATA/pgn-extract/fischer.pgn
"$PGNKIT" uci -q "$a" >"$TMP/want" 2>/dev/null

# no_leftovers DIR: nothing named *.tmp.* in DIR.
no_leftovers() { [ -z "$(find "$1" -name '*.tmp.*' -print)" ]; }

mkdir "$TMP/o"
run "$PGNKIT" uci -q -o "$TMP/o/games.uci" "$a"
check "success: exit 0" [ "$rc" -eq 0 ]
check "success: FILE has the output" cmp -s "$TMP/o/games.uci" "$TMP/want"
check "success: nothing on standard output" [ ! -s "$TMP/out" ]
check "success: no temporary file left" no_leftovers "$TMP/o"

run "$PGNKIT" uci -q --output="$TMP/o/eq.uci" "$a"
check "--output=FILE works too" cmp -s "$TMP/o/eq.uci" "$TMP/want"

run "$PGNKIT" uci -q -o - "$a"
check "-o - is standard output" cmp -s "$TMP/out" "$TMP/want"

# A missing second input: the first one's output must not survive.
run "$PGNKIT" uci -q -o "$TMP/o/fail1.uci" "$a" "$TMP/no-such.pgn"
check "missing second input: exit 2" [ "$rc" -eq 2 ]
check "missing second input: says which" grep_err "no-such.pgn"
check "missing second input: no FILE" [ ! -e "$TMP/o/fail1.uci" ]
check "missing second input: no temporary file" no_leftovers "$TMP/o"

# A directory as second input.
run "$PGNKIT" uci -q -o "$TMP/o/fail2.uci" "$a" "$TMP"
check "directory as second input: exit 2" [ "$rc" -eq 2 ]
check "directory as second input: no FILE" [ ! -e "$TMP/o/fail2.uci" ]
check "directory as second input: no temporary file" no_leftovers "$TMP/o"

# Corrupt compressed data in the second input is a read failure mid-run.
gzip -c "$a" | head -c 5000 >"$TMP/cut.pgn.gz"
run "$PGNKIT" uci -q -o "$TMP/o/fail3.uci" "$a" "$TMP/cut.pgn.gz"
check "read error mid-run: exit 2" [ "$rc" -eq 2 ]
check "read error mid-run: no FILE" [ ! -e "$TMP/o/fail3.uci" ]
check "read error mid-run: no temporary file" no_leftovers "$TMP/o"

# An unreadable file (skipped as root, who can read anything).
if [ "$(id -u)" -ne 0 ]; then
    cp "$a" "$TMP/locked.pgn"
    chmod 000 "$TMP/locked.pgn"
    run "$PGNKIT" uci -q -o "$TMP/o/fail4.uci" "$a" "$TMP/locked.pgn"
    check "unreadable second input: exit 2" [ "$rc" -eq 2 ]
    check "unreadable second input: no FILE" [ ! -e "$TMP/o/fail4.uci" ]
    check "unreadable second input: no temporary file" no_leftovers "$TMP/o"
else
    skip "unreadable input: running as root"
fi

# A failed run leaves an existing FILE as it was.
echo "old contents" >"$TMP/o/keep.uci"
run "$PGNKIT" uci -q -o "$TMP/o/keep.uci" "$a" "$TMP/no-such.pgn"
check "failed run: existing FILE untouched" [ "$(cat "$TMP/o/keep.uci")" = "old contents" ]
run "$PGNKIT" uci -q -o "$TMP/o/keep.uci" "$a"
check "successful run: existing FILE replaced" cmp -s "$TMP/o/keep.uci" "$TMP/want"

# Errors in games are not I/O failures: exit 1, and FILE is written.
run "$PGNKIT" uci -q -o "$TMP/o/mutants.uci" "$TESTDATA/mutants/mutants.pgn"
check "invalid games: exit 1" [ "$rc" -eq 1 ]
check "invalid games: FILE is written" [ -s "$TMP/o/mutants.uci" ]
check "invalid games: no temporary file" no_leftovers "$TMP/o"

# Nowhere to write.
run "$PGNKIT" uci -q -o "$TMP/no-such-dir/x.uci" "$a"
check "-o into a missing directory: exit 2" [ "$rc" -eq 2 ]
check "-o into a missing directory: says why" grep_err "cannot create"
if [ -w /dev/full ]; then
    "$PGNKIT" uci -q "$a" >/dev/full 2>"$TMP/err"
    rc=$?
    check "standard output full: exit 2" [ "$rc" -eq 2 ]
    check "standard output full: says why" grep_err "cannot write to standard output"
fi

finish
