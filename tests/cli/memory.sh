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
        [ $n = 1 ] && t1=$cpu
    done
    check "bomb, $cmd: 16x takes $cpu s CPU, at most 20 times 1x ($t1 s, at least 0.05)" \
        awk -v a="$t1" -v b="$cpu" 'BEGIN { exit !(b <= 20 * (a < 0.05 ? 0.05 : a)) }'
done

# A 60 MB game of bare moves (a cycle of knight moves, 7.2 million plies): every writer
# writes its output as it grows (fen --every wrote 11x its input, held whole: 658 MB;
# uci --format json 184 MB).  Each command stays within about the game's own bytes (its
# text is held while it is replayed) plus its mainline: under 2x + 16 MB, well under the
# 256 MB the man page promises.  Every line of output is checked by count.
knights() { # knights PLIES FILE
    { printf '[Event "k"]\n\n'
      LC_ALL=C awk -v n="$1" 'BEGIN { for (i = 1; i <= n / 2; i += 2)
          printf "%d. Nf3 Nf6 %d. Ng1 Ng8\n", i, i + 1; print "*" }'; } >"$2"
}
knights 7200000 "$TMP/k.pgn"
k_kb=$(($(stat -c %s "$TMP/k.pgn") / 1024))
for cmd in check uci "uci --format json" "uci --format tsv" "fen --every" \
    "fen --every --format json -j2" pgn; do
    # shellcheck disable=SC2086
    measure "$PGNKIT" $cmd -q --no-progress "$TMP/k.pgn"
    check "60 MB game, $cmd: exit 0" [ "$mrc" = 0 ]
    check "60 MB game, $cmd: peak RSS $kb KB under 2x its size ($k_kb KB) + 16 MB and 256 MB" \
        [ "$kb" -lt $((2 * k_kb + 16384)) ] && [ "$kb" -lt 262144 ]
done
"$PGNKIT" fen --every -q --no-progress "$TMP/k.pgn" >"$TMP/every"
check "60 MB game, fen --every: one line a ply" [ "$(lines "$TMP/every")" = 7200000 ]
check "60 MB game, fen --every: the last line, after 7.2 million plies" \
    [ "$(tail -n 1 "$TMP/every")" = "$(printf '1\t7200000\t%s' \
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7200000 3600001')" ]
rm -f "$TMP/every" "$TMP/k.pgn"

# 8 games of 7.4 MB, each under the 8 MiB in which --jobs looks for a cut: read by the
# pipeline, not the serial run.  A worker whose chunk's output passes 8 MB within a game
# writes it out once the chunks before it are written (fen --every --format json, -j2:
# 248 MB before, ~150 MB now: the calling thread's own chunks still hold theirs).
i=1
while [ $i -le 8 ]; do printf '[Event "k%d"]\n\n' $i; knights 940000 /dev/stdout | tail -n +3; echo; i=$((i + 1)); done >"$TMP/k8.pgn"
measure "$PGNKIT" fen --every --format json -j2 -q --no-progress "$TMP/k8.pgn"
check "8 games of 7.4 MB, fen --every --format json -j2: exit 0" [ "$mrc" = 0 ]
check "8 games of 7.4 MB, fen --every --format json -j2: peak RSS $kb KB under 200 MB" \
    [ "$kb" -lt 204800 ]
rm -f "$TMP/k8.pgn"

# --range deep into a file with no sync point before START (chess.com's style: a clock
# comment on every movetext line, the result on the last one): the reader starts at
# byte 0, and the search for a sync point scans back to it in windows instead of holding
# the prefix (--range 280M: took 289 MB).  315 MB of 1103-byte games: 300 copies of a
# 1000-game block, written by cat, not awk (about a second).
LC_ALL=C awk 'BEGIN { for (g = 0; g < 1000; g++) {
    printf "[Event \"Live Chess\"]\n[Site \"Chess.com\"]\n[White \"a\"]\n[Black \"b\"]\n"
    printf "[Result \"*\"]\n\n"
    for (i = 1; i <= 20; i += 2)
        printf "%d. Nf3 {[%%clk 0:03:00]} %d... Nf6 {[%%clk 0:03:00]} %d. Ng1 {[%%clk 0:02:59]} %d... Ng8 {[%%clk 0:02:59]}%s\n",
            i, i, i + 1, i + 1, (i == 19 ? " *\n" : "") } }' >"$TMP/block.pgn"
i=0
while [ $i -lt 300 ]; do cat "$TMP/block.pgn"; i=$((i + 1)); done >"$TMP/cc.pgn"
measure "$PGNKIT" uci -q --no-progress --range 280M: "$TMP/cc.pgn"
check "--range 280M: of 315 MB with no sync point: exit 0" [ "$mrc" = 0 ]
check "--range 280M: of 315 MB with no sync point: peak RSS $kb KB under 32 MB" [ "$kb" -lt 32768 ]
# 280 MiB / 1103 = 266184.3: the games from number 266185 (0-based) on, of 300000.
run "$PGNKIT" uci -q --no-progress --with offset --range 280M: "$TMP/cc.pgn"
check "--range 280M: reads the 33815 games from byte 293602055 on" \
    [ "$(lines "$TMP/out")" = 33815 ] && [ "$(head -n 1 "$TMP/out" | cut -f1)" = 293602055 ]
rm -f "$TMP/cc.pgn" "$TMP/out"
finish
