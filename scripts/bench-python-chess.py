"""bench-python-chess.py MODE FILE - python-chess's loop for what bench-python.py times in
pgnkit, timed from outside by scripts/bench.sh (PYTHON_CHESS=DIR puts python-chess on
sys.path; it is not part of this repository).  Prints what it counted (so the work cannot
be skipped): with MODE uci, the mainline plies; with MODE moves, the plies plus the
comments seen, as bench-python.py moves counts them.

MODE:
  uci    read_game() until None, and every mainline move's UCI (read_game replays the SAN
         as it reads: parse_san + push; Move.uci() needs no board in standard chess):
         against read() + .uci
  moves  read_game() until None, the game's comment, and for node in game.mainline(): the
         node's move and comment: against read() + .moves + .comment
"""
import sys

import chess.pgn

mode, path = sys.argv[1], sys.argv[2]
if mode not in ("uci", "moves"):
    sys.exit(f"bench-python-chess.py: unknown mode {mode!r}")
count = 0
# python-chess 1.x keeps a node's comment as a str in .comment; its later releases as a
# list of str in .comments.  Either way "has a comment" is the attribute's truth.
attr = None
with open(path, encoding="utf-8", errors="replace") as handle:
    while (game := chess.pgn.read_game(handle)) is not None:
        if mode == "uci":
            count += len([move.uci() for move in game.mainline_moves()])
            continue
        if attr is None:
            attr = "comment" if isinstance(getattr(game, "comment", None), str) else "comments"
        count += bool(getattr(game, attr))
        for node in game.mainline():  # node.move read as .moves hands out each Move
            count += 1 + bool(getattr(node, attr)) + (node.move is None)
print(count)
