#!/bin/sh
# perft_variants.sh - `pgnkit perft` against every variant perft suite of
# testdata/variants/perft (python-chess's counts, and a King of the Hill suite made with
# python-chess: that folder's README).  Every (position, depth) of at most 100,000 nodes
# here; every depth under make check-slow (PGNKIT_SLOW=1).  The variant is given both
# ways: --variant NAME, and as the FEN's EPD operation "variant NAME;" (depth 1).
. tests/cli/lib/common.sh
S=testdata/variants/perft
cap=100000
[ "${PGNKIT_SLOW:-0}" = 1 ] && cap=999999999999

# suite FILE VARIANT: one perft run per count within the cap; one summary check per file.
suite() {
    _file=$1 _variant=$2 _runs=0 _bad=0 _fen=
    while read -r _kw _a _b; do
        case $_kw in
        epd) _fen="$_a $_b"
            run "$PGNKIT" perft "$_fen variant $_variant;" 1
            _want=$(awk -v f="$_fen" '$1 == "epd" { cur = substr($0, 5) } $1 == "perft" && $2 == 1 && cur == f { print $3; exit }' "$_file")
            [ -n "$_want" ] && [ "$(cat "$TMP/out")" != "$_want" ] && {
                _bad=$((_bad + 1)); echo "  $_file: '$_fen variant $_variant;' depth 1: $(cat "$TMP/out" "$TMP/err")"; } ;;
        perft)
            [ "$_b" -le "$cap" ] || continue
            _runs=$((_runs + 1))
            run "$PGNKIT" perft --variant "$_variant" "$_fen" "$_a"
            if [ "$rc" -ne 0 ] || [ "$(cat "$TMP/out")" != "$_b" ]; then
                _bad=$((_bad + 1))
                echo "  $_file: $_fen depth $_a: got $(cat "$TMP/out" "$TMP/err"), want $_b"
            fi ;;
        esac
    done <"$_file"
    check "$_file: perft --variant $_variant matches $_runs counts (<= $cap nodes)" test "$_bad" -eq 0 -a "$_runs" -gt 0
}
suite $S/crazyhouse.perft crazyhouse
suite $S/atomic.perft atomic
suite $S/giveaway.perft antichess
suite $S/kingofthehill.perft kingofthehill
suite $S/3check.perft 3check
suite $S/racingkings.perft racingkings
suite $S/horde.perft horde

# The operation's name may be lichess's, quoted, after a ';' of its own.
run "$PGNKIT" perft '2k5/8/8/8/8/8/8/4K3[Qn] w - - ; variant "Crazyhouse";' 2
check "variant operation quoted and after ';': 3083" test "$rc" -eq 0 -a "$(cat "$TMP/out")" = 3083
run "$PGNKIT" perft '2k5/8/8/8/8/8/8/4K3[Qn] w - - variant shogi;' 1
if test "$rc" -eq 2 && grep_err "unknown variant 'shogi'"; then held=0; else held=1; fi
check "an unknown variant operation: usage error naming it" [ "$held" -eq 0 ]
run "$PGNKIT" perft --variant atomic '2k5/8/8/8/8/8/8/4K3[Qn] w - - variant crazyhouse;' 1
if test "$rc" -eq 2 && grep_err "disagree"; then held=0; else held=1; fi
check "--variant and the operation disagree: usage error" [ "$held" -eq 0 ]
finish
