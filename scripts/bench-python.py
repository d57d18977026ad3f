"""bench-python.py FILE - what a Python user's loop costs: pgnkit.read() and every game's
.uci list (the python-chess loop it replaces: read_game + push_san + move.uci()).
Prints the plies read.  Timed from outside by scripts/bench.sh."""
import sys

import pgnkit

plies = 0
for game in pgnkit.read(sys.argv[1]):
    plies += len(game.uci)
print(plies)
