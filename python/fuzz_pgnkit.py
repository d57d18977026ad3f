"""fuzz_pgnkit.py [CASES] [SEED] - damaged PGN through every part of the Python module.

Deterministic (case N of SEED: random.Random(SEED * 1000003 + N)): each case is a piece of a shared test file (or two
spliced) truncated, bit-flipped, with bytes deleted, repeated or inserted (PGN's own
delimiters, [%clk]/[%eval] commands with huge numbers, NUL, bytes >= 0x80, CR, a gzip
magic), read with random options by pgnkit.read() from bytes, from a file object and
from a path, by pgnkit.check() and pgnkit.columns(); every attribute of every game is
touched (tags, uci, san, fens both ways, diagnostics, clocks, evals, moves and their
variations walked whole, comment, to_pgn, pickling, ==, hash, repr, len).

The only exception the module documents for bad input is OSError (an input that breaks
off, e.g. a damaged compressed stream); any other exception fails the run with exit
status 1, and a crash kills the interpreter (python/test_pgnkit.py checks that it exits
0 by itself).  The case number goes to stderr before each case, to find a crash's input:
fuzz_pgnkit.py --dump N writes case N's bytes to stdout.
"""
import glob
import io
import os
import pickle
import random
import sys
import tempfile

import pgnkit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = sorted(glob.glob(os.path.join(ROOT, "testdata/pgn/**/*.pgn"), recursive=True)) + sorted(
    glob.glob(os.path.join(ROOT, "testdata/variants/pgn/*.pgn")))
INSERTS = [b"{", b"}", b"(", b")", b"[", b"]", b'"', b"\\", b";", b"\n", b"\r", b"\x00",
           b"\xff", b"\xc3", b"$", b"*", b"1-0", b"...", b"%", b"\n\n[Event \"x\"]\n\n",
           b"{ [%eval #99999999999] }", b"{ [%eval -1e308] }", b"{ [%clk 99999999999:00:00] }",
           b"{ [%eval #-2147483648] [%clk 0:00:01.5] }", b"e8=Q#", b"O-O-O", b"--", b"Z0",
           b"[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n", b"[Variant \"crazyhouse\"]\n", b"P@e4",
           b"\x1f\x8b", b"$255", b"$99999999999", b"(((((((((("]
OPTIONS = ["strict", "lenient", "variations", "king_takes_rook"]


def piece(rng, data):
    start = rng.randrange(len(data)) if rng.random() < 0.5 else 0
    return data[start:start + rng.randrange(64, 6000)]


def mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.randrange(1, 8)):
        kind = rng.randrange(5)
        at = rng.randrange(len(data) + 1)
        if kind == 0 and data:
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
        elif kind == 1:
            data[at:at + rng.randrange(1, 40)] = b""
        elif kind == 2:
            data[at:at] = rng.choice(INSERTS)
        elif kind == 3:
            data[at:at] = data[at:at + rng.randrange(1, 200)] * rng.randrange(1, 4)
        else:
            del data[at:]
    return bytes(data)


def case(rng, sources):
    data = piece(rng, rng.choice(sources))
    if rng.random() < 0.2:
        data += piece(rng, rng.choice(sources))
    return mutate(rng, data)


def walk(line, depth=0):
    """Every attribute of every move of a line and of its variations, recursively."""
    for move in line:
        (move.san, move.uci, move.ply, move.fen, move.comment, move.starting_comment,
         move.nags, move.clock, move.eval, move.is_check, move.is_checkmate,
         move.is_capture, move.promotion, repr(move))
        assert move == move
        for variation in move.variations:
            walk(variation, depth + 1)


def touch(game, options):
    (game.tags, game.uci, game.san, game.diagnostics, game.clocks, game.evals, game.result,
     game.ending, game.status, game.file, game.member, game.index, game.offset, game.bytes,
     game.line, game.error_ply, len(game), repr(game))
    game.fens(), game.fens(ep="legal"), game.fens(ep="standard")
    walk(game.moves)
    game.comment
    text = game.to_pgn()
    copy = pickle.loads(pickle.dumps(game))
    assert copy == game and hash(copy) == hash(game)
    assert copy.to_pgn() == text
    for ev in game.evals:  # a mate distance is an int's (comment.h)
        assert not isinstance(ev, str) or -2**31 < int(ev[1:]) < 2**31, ev
    if text:  # what pgnkit writes reads back with the same moves
        # (the output may be longer than a small max_game_bytes: roster tags are added)
        same = {k: v for k, v in options.items() if k != "max_game_bytes"}
        again = list(pgnkit.read(io.BytesIO(text.encode("utf-8")), **same))
        assert [g.uci for g in again] == [game.uci], (text, game.uci)


def run(data, rng, tmp):
    options = {name: rng.random() < 0.3 for name in OPTIONS}
    options["variations"] = not options["variations"]
    options["ep"] = rng.choice(["standard", "legal"])
    if rng.random() < 0.1:
        options["max_game_bytes"] = rng.randrange(1, 500)
    try:
        games = list(pgnkit.read(io.BytesIO(data), **options))
        for game in games:
            touch(game, options)
        with open(tmp, "wb") as f:
            f.write(data)
        with open(tmp, "rb") as f:
            assert [g.uci for g in pgnkit.read(f, **options)] == [g.uci for g in games]
        assert len(list(pgnkit.check(tmp, **options))) == len(games)
        cols = pgnkit.columns(tmp, tags=("White", "Result", "FEN"), **options)
        assert cols["uci"] == [" ".join(g.uci) for g in games]
    except OSError:
        pass  # an input that breaks off (damaged compression): documented


def cases(count, seed):
    """Case n's bytes and its own generator (for its options): each case stands alone."""
    sources = [open(path, "rb").read() for path in FILES]
    sources = [s for s in sources if s]
    for n in range(count):
        rng = random.Random(seed * 1000003 + n)
        yield n, case(rng, sources), rng


def main():
    if sys.argv[1:2] == ["--dump"]:
        want = int(sys.argv[2])
        for n, data, _ in cases(want + 1, int(sys.argv[3]) if len(sys.argv) > 3 else 1):
            if n == want:
                sys.stdout.buffer.write(data)
        return
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = os.path.join(tmpdir, "case.pgn")
        for n, data, rng in cases(count, seed):
            print(n, file=sys.stderr, flush=True)
            run(data, rng, tmp)
    print(f"ok {count} cases")


if __name__ == "__main__":
    main()
