#!/bin/sh
# progress.sh - progress goes to stderr only and never changes standard output; it is on
# by default only when stderr is a terminal (tried under script(1)), --progress forces
# it on and --no-progress off.  The input pauses for 0.6 s mid-way, so that a redraw
# (at most 4 a second) is due.
. "$(dirname "$0")/lib/common.sh"

a=$TESTDATA/pgn-extract/fischer.pgn
cat "$a" "$a" | "$PGNKIT" uci -q --no-progress >"$TMP/want" 2>/dev/null

# slow_input: the games of $a twice, with a pause between.
slow_input() { cat "$a"; sleep 0.6; cat "$a"; }

slow_input | "$PGNKIT" uci -q --progress >"$TMP/out" 2>"$TMP/err"
check "--progress: standard output unchanged" cmp -s "$TMP/out" "$TMP/want"
check "--progress: a progress line on stderr" grep_err "<stdin>: "
check "--progress: it counts games" grep_err " games, "
check "--progress: it is redrawn with a carriage return" grep -q "$(printf '\r')" "$TMP/err"

slow_input | "$PGNKIT" uci -q >"$TMP/out" 2>"$TMP/err"
check "stderr not a terminal: standard output unchanged" cmp -s "$TMP/out" "$TMP/want"
check "stderr not a terminal: no progress by default" [ ! -s "$TMP/err" ]

if command -v script >/dev/null 2>&1; then
    # script(1) gives the command a terminal; its stdout goes to a file, stderr to the tty.
    export PGNKIT a TMP
    script -qec 'sh -c '\''{ cat "$a"; sleep 0.6; cat "$a"; } | "$PGNKIT" uci -q >"$TMP/tty-out"'\''' \
        /dev/null </dev/null >"$TMP/tty-err" 2>&1
    check "stderr a terminal: standard output unchanged" cmp -s "$TMP/tty-out" "$TMP/want"
    check "stderr a terminal: progress by default" grep -q " games, " "$TMP/tty-err"
    script -qec 'sh -c '\''{ cat "$a"; sleep 0.6; cat "$a"; } | "$PGNKIT" uci -q --no-progress >"$TMP/tty-out"'\''' \
        /dev/null </dev/null >"$TMP/tty-err" 2>&1
    check "stderr a terminal, --no-progress: standard output unchanged" \
        cmp -s "$TMP/tty-out" "$TMP/want"
    check "stderr a terminal, --no-progress: nothing on the terminal" [ ! -s "$TMP/tty-err" ]
else
    skip "terminal tests: no script(1)"
fi

# Progress moves by bytes read, even where no game ends: 12 MB of blanks over 1.8 s (no
# game at all) redraw the line several times (a redraw is at most 4 a second; the final
# clear is one more carriage return).
blanks() {
    for _ in 1 2 3 4 5 6; do head -c 2000000 /dev/zero | tr '\0' ' '; sleep 0.3; done
}
for j in 1 2; do
    blanks | "$PGNKIT" check --progress -j$j >/dev/null 2>"$TMP/err"
    redraws=$(tr -cd '\r' <"$TMP/err" | wc -c)
    check "--progress -j$j, no game in 1.8 s of blanks: redrawn by bytes ($redraws times)" \
        [ "$redraws" -ge 4 ]
    check "--progress -j$j, blanks: the line shows megabytes read" grep_err "<stdin>: 1"
done

# --jobs 2 counts the games written so far: 20 copies of $a, then a pause, then one more,
# so that the line is redrawn after the chunks of the copies are flushed.
{ for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do cat "$a"; done
  sleep 0.6; cat "$a"; } | "$PGNKIT" uci -q --progress -j2 >/dev/null 2>"$TMP/err"
check "--progress -j2: the line counts the games flushed" \
    grep -qE ': [0-9.]+ MB, [1-9][0-9]* games, ' "$TMP/err"

# Compressed input: the decoded size is not known, but the compressed bytes taken from
# the file against its size are: a percentage and an ETA; with two inputs, "file 1 of
# 2".  150 MB of blanks, gzip -1: ~650 KB, read 64 KiB at a time, ~1 s to decode and
# scan at ~100-200 MB/s (a machine that does it in under 0.25 s draws no line: skipped).
yes ' ' | head -c 150000000 | gzip -1 >"$TMP/blanks.gz"
for j in 1 2; do
    "$PGNKIT" check --progress -j$j "$TMP/blanks.gz" "$a" >/dev/null 2>"$TMP/err"
    tr '\r' '\n' <"$TMP/err" | grep 'blanks.gz' >"$TMP/lines"
    if [ -s "$TMP/lines" ]; then
        check "--progress -j$j, .gz input: a percentage and an ETA ($(lines "$TMP/lines") lines)" \
            grep -qE ': [0-9.]+ MB, [0-9]+ games, [0-9.]+ MB/s, [0-9]+%, ETA [0-9]+ s' "$TMP/lines"
        check "--progress -j$j, .gz input: never past 100%" \
            sh -c '! grep -qE ", ([2-9][0-9][0-9]|1[1-9][0-9]|10[1-9]|[0-9]{4,})%" "$1"' sh "$TMP/lines"
        check "--progress -j$j, two inputs: \"file 1 of 2\"" grep -q 'blanks.gz (file 1 of 2): ' "$TMP/lines"
    else
        skip "--progress -j$j, .gz input: done in under 0.25 s, no line drawn"
    fi
done
slow_input | "$PGNKIT" uci -q --progress >/dev/null 2>"$TMP/err"
check "--progress, one input: no \"file k of n\"" sh -c '! grep -q "(file " "$1"' sh "$TMP/err"

# With -o FILE, progress still goes to stderr and FILE gets exactly the output.
slow_input | "$PGNKIT" uci -q --progress -o "$TMP/file.uci" >"$TMP/out" 2>"$TMP/err"
check "--progress -o FILE: FILE unchanged" cmp -s "$TMP/file.uci" "$TMP/want"
check "--progress -o FILE: nothing on standard output" [ ! -s "$TMP/out" ]

finish
