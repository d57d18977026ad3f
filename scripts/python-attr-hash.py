"""python-attr-hash.py FILE... - a hash of every Move attribute a reader loop reads (comment,
clock, eval, nags, starting_comment, variations, recursively), game.comment, clocks,
evals and the same of a pickled copy, under three ways of asking: every game's moves,
one game in three (the tree built at detach turned on and off), and clocks before moves.
Run with PYTHONPATH at each of two builds of the module (e.g. main's and a branch's):
the outputs must be equal (a change that keeps every behaviour)."""
import hashlib, pickle, sys
import pgnkit

def mv(m):
    return (m.san, m.uci, m.ply, m.comment, m.starting_comment, m.nags, m.clock, m.eval,
            m.is_check, m.is_checkmate, m.is_capture, m.promotion,
            [[mv(x) for x in line] for line in m.variations])

def game(g, how):
    if how == 2:
        head = (g.clocks, g.evals)
    out = [g.comment, [mv(m) for m in g.moves], g.clocks, g.evals]
    if how == 2:
        out.append(head)
    c = pickle.loads(pickle.dumps(g))
    out.append([c.comment, [mv(m) for m in c.moves], c.clocks, c.evals])
    return repr(out)

for path in sys.argv[1:]:
    for how in range(3):
        h = hashlib.sha256()
        n = 0
        for i, g in enumerate(pgnkit.read(path)):
            if how == 1 and i % 3:
                continue
            h.update(game(g, how).encode())
            n += 1
        print(path, how, n, h.hexdigest()[:16])
