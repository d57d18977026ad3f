#!/bin/sh
# jobs.sh - --jobs N writes exactly the bytes --jobs 1 writes, for every command and
# format, on every shared PGN file at once and on standard input.
. tests/cli/lib/common.sh
pgnkit=$PGNKIT
tmp=$TMP

# Many games in one stream, so several batches are in flight at once.
cat testdata/pgn/*/*.pgn testdata/pgn/*/*.pgn > "$tmp/all.pgn"

check() {
    name=$1
    shift
    "$pgnkit" "$@" -q -j1 "$tmp/all.pgn" >"$tmp/out1" 2>"$tmp/err1"
    rc1=$?
    for j in 2 3 8; do
        "$pgnkit" "$@" -q -j$j "$tmp/all.pgn" >"$tmp/outN" 2>"$tmp/errN"
        rcN=$?
        if cmp -s "$tmp/out1" "$tmp/outN" && cmp -s "$tmp/err1" "$tmp/errN" && [ $rc1 = $rcN ]; then
            ok "$name: -j$j writes what -j1 writes"
        else
            not_ok "$name: -j$j differs from -j1 (exit $rcN vs $rc1)"
        fi
    done
    # Standard input (a pipe, no size known) through both paths.
    cat "$tmp/all.pgn" | "$pgnkit" "$@" -q -j1 - >"$tmp/outS1" 2>/dev/null
    cat "$tmp/all.pgn" | "$pgnkit" "$@" -q -j2 - >"$tmp/outS2" 2>/dev/null
    if cmp -s "$tmp/outS1" "$tmp/outS2"; then
        ok "$name: standard input, -j2 = -j1"
    else
        not_ok "$name: from standard input, -j2 differs from -j1"
    fi
}

check "check" check
check "check json" check --format json
check "uci" uci
check "uci tags" uci --tags Event,White,Black
check "uci json" uci --format json
check "fen" fen
check "fen every" fen --every
check "pgn" pgn
check "pgn add-tags ECO,Opening" pgn --add-tags ECO,Opening

finish
