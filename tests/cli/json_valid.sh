#!/bin/sh
# json_valid.sh - every --format json output is valid JSON Lines: one JSON value per
# line, valid UTF-8 (Latin-1 input bytes are escaped as \u00XX), control bytes escaped;
# each object starts with "schema": 1.
# Inputs: the Latin-1 file odds.pgn, a file with control bytes and a NUL, errors,
# variants, the mutants.  Uses python3 when present (strict UTF-8 and JSON), else jq
# (install it yourself; scripts/ensure-deps.sh test installs python3) plus iconv;
# JSON_VALIDATOR=jq forces the latter.
set -u
P=${PGNKIT:-build/release/pgnkit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

validate() {
    if [ "${JSON_VALIDATOR:-}" != jq ] && command -v python3 >/dev/null 2>&1; then
        python3 -c '
import json, sys
n = 0
for line in sys.stdin.buffer:
    obj = json.loads(line.decode("utf-8"))
    assert isinstance(obj, dict), "not an object"
    assert next(iter(obj), None) == "schema" and obj["schema"] == 1, "no schema 1 first"
    n += 1
print(n)' <"$1"
    else
        iconv -f UTF-8 -t UTF-8 "$1" >/dev/null && jq -c 'if type != "object" then error("not an object") elif .schema != 1 then error("no schema 1") else . end' <"$1" >/dev/null && wc -l <"$1"
    fi
}

for f in testdata/pgn/pgn-extract/odds.pgn tests/cli/data/control-bytes.pgn \
    tests/cli/data/errors.pgn testdata/pgn/scalachess/pgn-render-pgns.pgn \
    testdata/pgn/mutants/mutants.pgn testdata/pgn/python-chess/cutechess-fischerrandom.pgn; do
    for cmd in "uci --format json" "fen --format json" "fen --format json --every" \
        "fen --format json --ply 3" "check --format json"; do
        # shellcheck disable=SC2086
        "$P" $cmd -q "$f" >"$tmp/out" 2>/dev/null
        # check prints nothing for a clean file; uci and fen print one object per game.
        min=1
        case "$cmd" in check*) min=0 ;; esac
        if n=$(validate "$tmp/out" 2>"$tmp/err") && [ "$n" -ge "$min" ]; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            echo "FAIL: pgnkit $cmd $f: not JSON Lines (or empty)"
            head -3 "$tmp/err"
        fi
    done
done

# One object per game for uci/fen: lines align with games.
games=$("$P" uci -q testdata/pgn/pgn-extract/odds.pgn 2>/dev/null | wc -l)
objects=$("$P" uci -q --format json testdata/pgn/pgn-extract/odds.pgn 2>/dev/null | wc -l)
if [ "$games" -eq "$objects" ]; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL: $objects JSON objects for $games games"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
