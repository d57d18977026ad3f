#!/bin/sh
# fen_corpus.sh - `pgnkit fen X` prints, per game, the final FEN the independent oracle
# expects: column 4 of X.pgnextract.tsv where it exists (PGN-standard game splitting),
# else of X.oracle.tsv (testdata/README.md).  Every shared PGN file but the inputs
# that are not PGN as written or hold variant games (testdata/README.md lists them;
# the same list as tests/test_corpus.c).  Then `--ep legal` on tests/cli/data/ep.pgn,
# whose expectations are worked out by hand below.
set -u
P=${PGNKIT:-build/release/pgnkit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

for f in $(find testdata/pgn -name '*.pgn' | sort); do
    case "$f" in
    */chess.js/0.pgn | */nested-comment.pgn | */uzchesscup.pgn | */antichess-programfox.pgn | \
        *-zh-lichess.pgn | */pgn-render-pgns.pgn) continue ;;
    esac
    expect="$f.pgnextract.tsv"
    [ -f "$expect" ] || expect="$f.oracle.tsv"
    cut -f4 "$expect" >"$tmp/want"
    "$P" fen -q "$f" >"$tmp/got" 2>/dev/null
    if cmp -s "$tmp/want" "$tmp/got"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $f: final FENs differ from $expect"
        diff "$tmp/want" "$tmp/got" | head -6
    fi
done

# By hand (FEN fields: board, side, castling, e.p., halfmove clock, fullmove number):
# 1. after 1. e4 the PGN standard sets e3, but no black pawn stands on d4 or f4: legal '-'.
# 2. after 1. e4 d5 2. e5 f5 the e5 pawn can take on f6: f6 in both conventions.
# 3. after 1... c5 (FEN set-up) bxc6 would empty rank 5 between the a5 king and the h5
#    rook: the capture is illegal, so legal mode writes '-'; the standard writes c6.
cat >"$tmp/ep.standard" <<'FENS'
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1
rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3
7k/8/8/KPp4r/8/8/8/8 w - c6 0 2
FENS
cat >"$tmp/ep.legal" <<'FENS'
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3
7k/8/8/KPp4r/8/8/8/8 w - - 0 2
FENS
for mode in standard legal; do
    "$P" fen -q --ep "$mode" tests/cli/data/ep.pgn >"$tmp/got" 2>/dev/null
    if cmp -s "$tmp/ep.$mode" "$tmp/got"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: fen --ep $mode tests/cli/data/ep.pgn"
        diff "$tmp/ep.$mode" "$tmp/got"
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
