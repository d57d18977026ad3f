#!/bin/sh
# demo.sh BIN - the main job on bundled sample data: validate, convert, find problems.
set -u
bin=${1:?usage: demo.sh PGNKIT_BINARY}
say() { printf '\n$ %s\n' "$*"; }

say pgnkit check testdata/pgn/pgn-extract/fischer.pgn
"$bin" check testdata/pgn/pgn-extract/fischer.pgn

say pgnkit uci --tags White,Black testdata/pgn/pgn-extract/fools-mate.pgn
"$bin" uci --tags White,Black testdata/pgn/pgn-extract/fools-mate.pgn

say pgnkit fen testdata/pgn/python-chess/kasparov-deep-blue-1997.pgn
"$bin" fen testdata/pgn/python-chess/kasparov-deep-blue-1997.pgn

say "pgnkit check testdata/pgn/mutants/mutants.pgn | head -n 12   # planted defects"
"$bin" check testdata/pgn/mutants/mutants.pgn | head -n 12

say "pgnkit check --format json testdata/pgn/mutants/mutants.pgn | grep AMBIGUOUS | head -n 1"
"$bin" check --format json testdata/pgn/mutants/mutants.pgn | grep AMBIGUOUS | head -n 1
exit 0
