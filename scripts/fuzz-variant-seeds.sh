#!/bin/sh
# fuzz-variant-seeds.sh DIR - seeds for tests/fuzz/fuzz_variant.c from testdata/variants:
# every perft position (its FEN alone) and the first games of every variant PGN (the
# start position or the game's FEN, then its movetext).  The first byte picks the variant
# as fuzz_variant.c reads it (1 + byte % 7): ? Crazyhouse, @ Atomic, A Antichess, B King
# of the Hill, C Three-check, D Racing Kings, E Horde.
set -eu
dir=$1
mkdir -p "$dir"
byte() {
    case $1 in
    *crazyhouse* | *zh*) echo '?' ;; *atomic*) echo '@' ;; *antichess* | *giveaway*) echo A ;;
    *kingofthehill*) echo B ;; *3check* | *threecheck*) echo C ;; *racingkings*) echo D ;;
    *horde*) echo E ;; *) echo "fuzz-variant-seeds: no variant for $1" >&2; exit 1 ;;
    esac
}
for f in testdata/variants/perft/*.perft; do
    b=$(byte "$f")
    sed -n 's/^epd //p' "$f" | awk -v dir="$dir" -v b="$b" -v base="$(basename "$f" .perft)" '
        { f = dir "/" base "-" NR; printf "%s%s\n", b, $0 > f; close(f) }'
done
for f in testdata/variants/pgn/*.pgn testdata/variants/pgn/python-chess/*.pgn; do
    b=$(byte "$f")
    # Games 1-4: the FEN tag's value (if any) on the first line, then the movetext.
    awk -v dir="$dir" -v b="$b" -v base="$(basename "$f" .pgn)" '
        function flush() { if (n > 0 && n <= 4) { f = dir "/" base "-g" n; printf "%s%s\n%s", b, fen, moves > f; close(f) } }
        /^\[Event / { flush(); n++; fen = ""; moves = ""; next }
        /^\[FEN "/ { fen = $0; sub(/^\[FEN "/, "", fen); sub(/"\].*$/, "", fen); next }
        /^\[/ { next }
        { moves = moves $0 "\n" }
        END { flush() }' "$f"
done
