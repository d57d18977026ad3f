#!/bin/sh
# pgn_roundtrip.sh - `pgnkit pgn` over every shared PGN file (testdata/pgn/**/*.pgn, and
# tests/cli/data/*.pgn; the non-PGN inputs of testdata/README.md included: the properties hold for them too):
#   1. idempotence: pgn of its own output is byte-identical, and no line of it starts
#      with '%' (tests/cli/data/percent-bad-fen.pgn: a game copied as written);
#   2. round trip: `pgn X | uci` equals `uci X`, line for line, for every game -- a game
#      stopped by an error keeps its played moves and puts the rest in a comment, so
#      both sides hold the moves before the error;
#   3. the output replays cleanly: `check` of it reports no error but
#      UNSUPPORTED_VARIANT and BAD_FEN (those games are copied as written);
#   4. movetext lines are at most 80 columns, except a line holding one single token;
#   5. `fen --comments`: the last FEN comment of each game is `fen X`'s final FEN.
# Needs PGNKIT (path to the binary); run from the repository root.
set -u
P=${PGNKIT:-build/release/pgnkit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

for f in $(find testdata/pgn tests/cli/data -name '*.pgn' | sort); do
    "$P" pgn -q "$f" >"$tmp/once.pgn" 2>/dev/null
    "$P" pgn -q "$tmp/once.pgn" >"$tmp/twice.pgn" 2>/dev/null
    if cmp -s "$tmp/once.pgn" "$tmp/twice.pgn"; then ok; else
        fail "$f: pgn is not idempotent"; diff "$tmp/once.pgn" "$tmp/twice.pgn" | head -10
    fi

    # 1b. no line of the output starts with '%' (an escape line: its moves would be lost).
    if grep -q '^%' "$tmp/once.pgn"; then
        fail "$f: a line of the pgn output starts with '%'"; grep -n '^%' "$tmp/once.pgn" | head -3
    else ok; fi

    "$P" uci -q "$f" >"$tmp/uci.direct" 2>/dev/null
    "$P" uci -q "$tmp/once.pgn" >"$tmp/uci.via" 2>/dev/null
    if cmp -s "$tmp/uci.direct" "$tmp/uci.via"; then ok; else
        fail "$f: pgn | uci differs from uci"; diff "$tmp/uci.direct" "$tmp/uci.via" | head -6
    fi

    "$P" check -q "$tmp/once.pgn" 2>/dev/null | grep ': error\[' |
        grep -v 'error\[UNSUPPORTED_VARIANT\]' | grep -v 'error\[BAD_FEN\]' >"$tmp/errors"
    if [ ! -s "$tmp/errors" ]; then ok; else
        fail "$f: the normalized output has errors"; head -5 "$tmp/errors"
    fi

    # ("{ word" is one unit: a comment's first word keeps its brace.)
    long=$(awk 'length > 80 && !/^\[/ { sub(/^\{ /, "{"); if (index($0, " ")) print }' \
        "$tmp/once.pgn" | wc -l)
    if [ "$long" -eq 0 ]; then ok; else fail "$f: $long movetext lines over 80 columns"; fi

    # The output alternates paragraphs: tags, movetext, tags, movetext...  Keep the
    # last comment of each movetext that looks like a FEN.
    "$P" fen -q --comments "$f" 2>/dev/null | awk 'BEGIN { RS = "" }
        NR % 2 == 0 {
            gsub(/\n/, " "); last = ""
            n = split($0, parts, "{ ")
            for (i = 2; i <= n; i++) {
                c = parts[i]; sub(/ }.*/, "", c)
                if (c ~ /^[1-8pnbrqkPNBRQK\/]+ [wb] /) last = c
            }
            print last
        }' >"$tmp/fen.comments"
    "$P" fen -q "$f" 2>/dev/null >"$tmp/fen.final"
    # A game with no move played has no FEN comment: compare the others, line by line.
    bad=$(paste "$tmp/fen.final" "$tmp/fen.comments" | awk -F'\t' '$2 != "" && $1 != $2' | wc -l)
    if [ "$(wc -l <"$tmp/fen.final")" -eq "$(wc -l <"$tmp/fen.comments")" ] && [ "$bad" -eq 0 ]
    then ok; else
        fail "$f: fen --comments disagrees with fen"; diff "$tmp/fen.final" "$tmp/fen.comments" | head -6
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
