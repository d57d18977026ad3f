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

# With -o FILE, progress still goes to stderr and FILE gets exactly the output.
slow_input | "$PGNKIT" uci -q --progress -o "$TMP/file.uci" >"$TMP/out" 2>"$TMP/err"
check "--progress -o FILE: FILE unchanged" cmp -s "$TMP/file.uci" "$TMP/want"
check "--progress -o FILE: nothing on standard output" [ ! -s "$TMP/out" ]

finish
