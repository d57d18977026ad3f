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
    # Windows: zstd --long=27 (128 MiB, declared whole when the size is not known: from a
    # pipe) is decoded; past that, as zstd -d without --memory, an error that says why.
    zstd -qc --long=27 <"$a" >"$TMP/long27.zst"
    run "$PGNKIT" uci -q "$TMP/long27.zst"
    check "zstd --long=27 (128 MiB window): same output as the plain file" cmp -s "$TMP/out" "$TMP/want"
    zstd -qc --long=28 <"$a" >"$TMP/long28.zst"
    run "$PGNKIT" uci -q "$TMP/long28.zst"
    check "zstd --long=28 (256 MiB window): exit 2" [ "$rc" -eq 2 ]
    check "zstd --long=28: says the window is too large" \
        grep_err "zstd data with a window over 128 MiB (zstd --long=28 or more)"
    check "zstd --long=28: says what to do" grep_err "'zstd -dc --memory=2048MB'"
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

# Larger input (1 MB: several of --jobs' 128 KiB chunks, more than the decoding thread's
# three 128 KiB blocks): the same output at -j1 and -j2 as the plain file.  Cut or damaged
# half-way, the games before the damage are converted and the error comes last: the
# expected games are those of the text zstd -d / gzip -d give before the damage, read as
# a plain file, less the one game the damage cuts short.  (gzip: zlib finds the damage
# only at the member's CRC; every byte decoded before that is handed out, whatever the
# size of the reads.)
zstd -dcq "$(pwd)/testdata/bench/twic1599.pgn.zst" >"$TMP/big.pgn" 2>/dev/null || :
if [ -s "$TMP/big.pgn" ]; then
    "$PGNKIT" uci -q -j1 "$TMP/big.pgn" >"$TMP/want-big" 2>/dev/null
    zstd -qc "$TMP/big.pgn" >"$TMP/big.zst"
    gzip -c "$TMP/big.pgn" >"$TMP/big.gz"
    for f in zst gz; do
        for j in 1 2; do
            run "$PGNKIT" uci -q -j$j "$TMP/big.$f"
            check "1 MB .$f at -j$j: same output as the plain file" cmp -s "$TMP/out" "$TMP/want-big"
        done
    done
    damaged() { # NAME FILE DECODER MESSAGE
        "$3" -dc <"$2" >"$TMP/prefix.pgn" 2>/dev/null
        "$PGNKIT" uci -q -j1 "$TMP/prefix.pgn" >"$TMP/want-prefix" 2>/dev/null
        want=$(lines "$TMP/want-prefix")
        for j in 1 2; do
            "$PGNKIT" uci -j$j "$2" >"$TMP/out$j" 2>"$TMP/err$j"
            rc=$?
            got=$(lines "$TMP/out$j")
            check "$1 at -j$j: exit 2" [ "$rc" -eq 2 ]
            check "$1 at -j$j: the error is the last line of stderr" \
                sh -c "tail -n 1 '$TMP/err$j' | grep -qF '$4'"
            check "$1 at -j$j: $got games before the damage ($want in the decoded text)" \
                [ "$got" -ge 100 -a "$got" -ge $((want - 1)) -a "$got" -le "$want" ]
            check "$1 at -j$j: they are the decoded text's first games" \
                sh -c "head -n $got '$TMP/want-prefix' | cmp -s - '$TMP/out$j'"
        done
        check "$1: -j1 and -j2 give the same stdout" cmp -s "$TMP/out1" "$TMP/out2"
        check "$1: -j1 and -j2 give the same stderr" cmp -s "$TMP/err1" "$TMP/err2"
    }
    # cut_and_damage EXT TOOL: the file cut half-way, and 16 bytes overwritten there.
    cut_and_damage() {
        half=$(($(stat -c %s "$TMP/big.$1") / 2))
        head -c "$half" "$TMP/big.$1" >"$TMP/half.$1"
        damaged "$2 cut half-way" "$TMP/half.$1" "$2" "$2 data is truncated"
        { head -c "$half" "$TMP/big.$1"; printf 'XXXXXXXXXXXXXXXX'; tail -c +$((half + 17)) "$TMP/big.$1"; } \
            >"$TMP/bad-big.$1"
        damaged "$2 damaged half-way" "$TMP/bad-big.$1" "$2" "$2 data is corrupt"
    }
    cut_and_damage zst zstd
    cut_and_damage gz gzip
    zstd -qc "$TMP/big.pgn" | "$PGNKIT" uci -q -j2 - >"$TMP/out" 2>"$TMP/err"
    check "1 MB zstd from a pipe at -j2: same output as the plain file" cmp -s "$TMP/out" "$TMP/want-big"
    # Where the decoding runs at -j2 (pipeline.c, budget_decoding): on the reading thread
    # when the run's threads take every core (one core here, by taskset), on a thread of
    # its own when a core is spare (three cores); the same output either way.
    # where_decoded CPUS WHERE: uci -j2 on big.zst with the CPUs CPUS only.
    where_decoded() {
        PGNKIT_TRACE_JOBS=1 taskset -c "$1" "$PGNKIT" uci -q -j2 "$TMP/big.zst" >"$TMP/out" \
            2>"$TMP/err"
        check "1 MB .zst at -j2 on CPUs $1: decoded on $2" grep -q "decoding on $2" "$TMP/err"
        check "1 MB .zst at -j2 on CPUs $1: same output as the plain file" \
            cmp -s "$TMP/out" "$TMP/want-big"
    }
    if ! command -v taskset >/dev/null 2>&1; then
        skip "where the decoding runs: no taskset command"
    else
        where_decoded 0 "the reading thread"
        if [ "$(nproc --all)" -ge 3 ] && taskset -c 0-2 true 2>/dev/null &&
           [ "$(taskset -c 0-2 nproc)" -ge 3 ]; then
            where_decoded 0-2 "a thread of its own"
        else
            skip "where the decoding runs with a core to spare: fewer than 3 CPUs"
        fi
    fi
else
    skip "1 MB tests: no zstd command"
fi

finish
