#!/bin/sh
# memory.sh - hostile input costs bounded memory and linear time.
#
# The diagnostic bomb (one UNEXPECTED_CHAR per two bytes of `} ` in one game): at most
# --max-diagnostics (1000) are kept and printed per game, then one MORE_DIAGNOSTICS with
# the count of the rest.  At 1x, 4x and 16x size (0.5, 2, 8 MB), for check, pgn and
# fen --comments: peak RSS (/usr/bin/time -f %M) stays under 32 MB, and the time of 16x
# is at most 20 times the time of 1x (taken as at least 0.05 s: %e has 10 ms steps).
. tests/cli/lib/common.sh

bomb() { # bomb N FILE: one game, N times "} "
    { printf '[Event "bomb"]\n\n1. e4 '
      LC_ALL=C awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "} " }'
      printf '*\n'; } >"$2"
}

bomb 5000 "$TMP/b.pgn"
run "$PGNKIT" check --no-progress "$TMP/b.pgn"
check "bomb: 1000 UNEXPECTED_CHAR kept" [ "$(grep -c 'error\[UNEXPECTED_CHAR\]' "$TMP/out")" = 1000 ]
check "bomb: then one MORE_DIAGNOSTICS counting the other 4000" \
    [ "$(grep -c 'error\[MORE_DIAGNOSTICS\]: game 1: 4000 more diagnostics' "$TMP/out")" = 1 ]
check "bomb: the game still has errors, exit 1" [ "$rc" = 1 ]
run "$PGNKIT" check --no-progress --max-diagnostics 3 "$TMP/b.pgn"
check "--max-diagnostics 3: 3 kept" [ "$(grep -c 'UNEXPECTED_CHAR' "$TMP/out")" = 3 ]
check "--max-diagnostics 3: then 4997 counted" grep -q '4997 more' "$TMP/out"
run "$PGNKIT" check --max-diagnostics 0 "$TMP/b.pgn"
check "--max-diagnostics 0 is a usage error" [ "$rc" = 2 ]
check "--max-diagnostics 0: the reason names the option" grep_err "max-diagnostics"

measure_bounds_or_finish

for n in 1 4 16; do bomb $((250000 * n)) "$TMP/b$n.pgn"; done
for cmd in check pgn "fen --comments"; do
    t1=
    for n in 1 4 16; do
        # shellcheck disable=SC2086
        measure "$PGNKIT" $cmd -q --no-progress "$TMP/b$n.pgn"
        check "bomb ${n}x, $cmd: peak RSS ${kb} KB under 32 MB" [ "$kb" -lt 32768 ]
        [ $n = 1 ] && t1=$secs
    done
    check "bomb, $cmd: 16x takes $secs s, at most 20 times 1x ($t1 s, at least 0.05)" \
        awk -v a="$t1" -v b="$secs" 'BEGIN { exit !(b <= 20 * (a < 0.05 ? 0.05 : a)) }'
done
finish
