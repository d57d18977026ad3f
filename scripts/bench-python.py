"""bench-python.py [MODE] FILE - what a Python user's loop costs, timed from outside by
scripts/bench.sh.  Prints what it counted (so the work cannot be skipped).

MODE (default uci):
  read     pgnkit.read() alone: every game read, replayed and made a Game, nothing asked
  uci      read() and every game's .uci list (the python-chess loop it replaces:
           read_game + push_san + move.uci())
  moves    read() and every game's .moves (a pgnkit.Move per ply, with its variations)
           and .comment, and each move's .comment (python-chess's mainline() walk)
  columns  pgnkit.columns(FILE, tags=("White", "Black", "Result")): the dataframe
           columns, against `pgnkit uci --tags White,Black,Result`
"""
import sys

import pgnkit

mode, path = (sys.argv[1], sys.argv[2]) if len(sys.argv) > 2 else ("uci", sys.argv[1])
count = 0
if mode == "read":
    for game in pgnkit.read(path):
        count += 1
elif mode == "uci":
    for game in pgnkit.read(path):
        count += len(game.uci)
elif mode == "moves":
    for game in pgnkit.read(path):
        count += game.comment is not None
        for move in game.moves:
            count += 1 + (move.comment is not None)
elif mode == "columns":
    count = sum(pgnkit.columns(path, tags=("White", "Black", "Result"))["plies"])
else:
    sys.exit(f"bench-python.py: unknown mode {mode!r}")
print(count)
