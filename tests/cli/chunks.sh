#!/bin/sh
# chunks.sh - --jobs N cuts the input into chunks at guessed game starts; where a guess
# is wrong, the chunk is read again joined with the next; where that cannot be done,
# where no cut is found, or where reading fails, the rest is read on one thread.  Every such input writes what --jobs 1 writes (stdout, stderr, exit status),
# and PGNKIT_TRACE_JOBS shows that the case was really met, not read in one chunk.
# CHUNKS_QUICK=1 (make tsan): two commands, and not the 9 MB input with no cut.
. tests/cli/lib/common.sh
pgnkit=$PGNKIT
tmp=$TMP

# A real game of ~700 bytes, for filling megabytes.
game='[Event "fill"]
[White "a"]
[Black "b"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {a comment} 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6
8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6
15. a4 c5 16. d5 c4 17. Bg5 h6 18. Be3 Nc5 19. Qd2 h5 20. Bg5 Be7 21. Rf1 Nfd7 1-0
'

# many FILE COUNT TEXT: TEXT (a game) COUNT times, a blank line after each.
many() {
    awk -v n="$2" -v t="$3" 'BEGIN { for (i = 0; i < n; i++) printf "%s\n", t }' >"$1"
}

# Wrong guesses: a result token ends a line comment (or an escape line) in a tag
# section, then a blank line and a tag that is not a repeat: the reader keeps one game,
# whose movetext is long enough that chunk ends fall inside it.
long_moves=$(awk 'BEGIN { for (i = 0; i < 400; i++) printf "{%d} Nf3 Nf6 Ng1 Ng8 ", i }')
bad_comment="[Event \"bad\"]
; a line comment that ends 1-0

[Site \"b\"]

1. $long_moves *
"
bad_escape="[Event \"bad\"]
%an escape line 0-1

[Site \"c\"]

1. $long_moves 1/2-1/2
"
{
    many "$tmp/a" 1000 "$game"
    cat "$tmp/a"
    many "$tmp/b" 40 "$bad_comment$game"
    cat "$tmp/b" "$tmp/a"
    many "$tmp/b" 40 "$bad_escape$game"
    cat "$tmp/b" "$tmp/a"
} >"$tmp/wrong-cut.pgn"

# A tag section of 2 MB whose every tag follows a line comment ending in a result
# token: every cut is wrong, joining gives up (at 1 MiB, or sooner when the chunk to
# join cannot be read yet: the ring is full) and the rest goes serial.
awk 'BEGIN { print "[Event \"long\"]"
    for (i = 0; i < 60000; i++) printf "; note %d 1-0\n\n[Tag%d \"x\"]\n", i, i
    print "\n1. e4 e5 1-0\n" }' >"$tmp/a"
many "$tmp/b" 300 "$game"
cat "$tmp/a" "$tmp/b" >"$tmp/wrong-cuts.pgn"

# No result token anywhere for 9 MB: nowhere to cut, then normal games.
no_result='[Event "open"]
[White "a"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {still playing} 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5
'
many "$tmp/a" 90000 "$no_result"
many "$tmp/b" 300 "$game"
cat "$tmp/a" "$tmp/b" >"$tmp/no-cut.pgn"

# Line ends of every kind, with diagnostics whose line numbers must survive the cuts.
broken='[Event "broken"]

1. e4 e5 2. Nf3 Qxe4 3. Bb5 {never closed
'
many "$tmp/a" 2000 "$game$broken"
tr -d '\r' <"$tmp/a" | sed 's/$/\r/' >"$tmp/crlf.pgn"
tr '\n' '\r' <"$tmp/a" >"$tmp/cr.pgn"
{ printf '\357\273\277'; cat "$tmp/a"; } >"$tmp/bom.pgn"

# A gzip stream cut short: reading fails in the middle of a game.
many "$tmp/a" 3000 "$game"
gzip -c "$tmp/a" >"$tmp/whole.gz"
head -c $(($(wc -c <"$tmp/whole.gz") / 2)) "$tmp/whole.gz" >"$tmp/truncated.pgn.gz"

# same NAME WHY-PATTERN FILE: every command writes the same with -j2 and -j3 as with
# -j1, and the -j2 trace names the case (WHY-PATTERN "" when it is read in parallel).
same() {
    name=$1 why=$2 file=$3
    # One line for eval (a line break would end the set command there).
    commands='"check -q" "check -q --format json" "uci --format tsv" "uci --tags Event"'
    commands="$commands"' "fen --every" "pgn"'
    [ -n "${CHUNKS_QUICK:-}" ] && commands='"check -q --format json" "uci --format tsv"'
    eval "set -- $commands"
    for args in "$@"; do
        # shellcheck disable=SC2086 # $args is a command and its options
        "$pgnkit" $args -j1 "$file" >"$tmp/out1" 2>"$tmp/err1"
        rc1=$?
        for j in 2 3; do
            # shellcheck disable=SC2086
            "$pgnkit" $args -j$j "$file" >"$tmp/outN" 2>"$tmp/errN"
            rcN=$?
            if cmp -s "$tmp/out1" "$tmp/outN" && cmp -s "$tmp/err1" "$tmp/errN" &&
                [ "$rc1" = "$rcN" ]; then
                ok "$name: $args -j$j writes what -j1 writes"
            else
                not_ok "$name: $args -j$j differs from -j1 (exit $rcN against $rc1)"
            fi
        done
    done
    PGNKIT_TRACE_JOBS=1 "$pgnkit" check -q -j2 "$file" >/dev/null 2>"$tmp/trace"
    trace=$(grep 'chunks read on 2 threads' "$tmp/trace")
    case $why in
    "wrong cuts mended")
        if echo "$trace" | grep -q "$why" && ! echo "$trace" | grep -q 'one thread'; then
            ok "$name: mended and read in chunks to the end ($trace)"
        else
            not_ok "$name: not mended: $(cat "$tmp/trace")"
        fi
        ;;
    "")
        if [ -n "$trace" ] && ! echo "$trace" | grep -q 'one thread'; then
            ok "$name: read in chunks to the end ($trace)"
        else
            not_ok "$name: not read in chunks to the end: $(cat "$tmp/trace")"
        fi
        ;;
    *)
        if echo "$trace" | grep -q "$why"; then
            ok "$name: the trace shows the case ($trace)"
        else
            not_ok "$name: the trace does not say '$why': $(cat "$tmp/trace")"
        fi
        ;;
    esac
}

same "wrong cut" "wrong cuts mended" "$tmp/wrong-cut.pgn"
same "wrong cuts one after another" "a game crossed the cut" "$tmp/wrong-cuts.pgn"
[ -n "${CHUNKS_QUICK:-}" ] || same "no cut" "no cut in 8 MiB" "$tmp/no-cut.pgn"
same "truncated gzip" "its reading failed" "$tmp/truncated.pgn.gz"
same "CRLF" "" "$tmp/crlf.pgn"
same "lone CR" "" "$tmp/cr.pgn"
same "BOM" "" "$tmp/bom.pgn"

# The trace also times the reading thread's serial work (the README's scaling figures come
# from it): output bytes counted are the bytes written.
PGNKIT_TRACE_JOBS=1 "$pgnkit" uci -j2 "$tmp/crlf.pgn" -o "$tmp/crlf.uci" 2>"$tmp/trace"
line=$(grep 'serial work of the reading thread: read [0-9.]* s, cut and count [0-9.]* s' "$tmp/trace")
written=$(echo "$line" | sed -n 's/.*flush [0-9.]* s (\([0-9.]*\) MB of output and.*/\1/p')
want=$(awk -v b="$(stat -c %s "$tmp/crlf.uci")" 'BEGIN { printf "%.1f", b / 1e6 }')
if [ -n "$line" ] && [ "$written" = "$want" ]; then
    ok "trace: the serial work timed, $written MB written as -o holds"
else
    not_ok "trace: no serial timing or wrong bytes ($written MB against $want): $(cat "$tmp/trace")"
fi

finish
