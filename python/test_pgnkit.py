"""Tests of the Python module against the command line's own output.

The CLI (PGNKIT, the binary under test) is the reference: for every shared PGN file,
pgnkit.read() must give the same tags, UCI, SAN, final FEN, result and diagnostics as
`pgnkit uci --format json`, and the same clocks and evals as `uci --format tsv --with
clk,eval` (parsed here, independently of the C parser).  Run by tests/cli/python.sh.
"""
import doctest
import gc
import glob
import io
import json
import multiprocessing
import os
import pickle
import subprocess
import sys
import threading
import tracemalloc
import unittest

import pgnkit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PGNKIT = os.environ.get("PGNKIT", os.path.join(ROOT, "build/release/pgnkit"))
INPUTS = sorted(glob.glob(os.path.join(ROOT, "testdata/pgn/**/*.pgn"), recursive=True)) + [
    os.path.join(ROOT, "testdata/bench/lichess-2021-10-999.pgn.zst"),
    os.path.join(ROOT, "testdata/bench/twic1599.pgn.zst"),
]
LICHESS = os.path.join(ROOT, "testdata/bench/lichess-2021-10-999.pgn.zst")
MUTANTS = os.path.join(ROOT, "testdata/pgn/mutants/mutants.pgn")


def cli(*args):
    run = subprocess.run([PGNKIT, *args, "-q", "--jobs", "1"], capture_output=True)
    return run.stdout.decode("utf-8")


def cli_json(path):
    return [json.loads(line) for line in cli("uci", "--format", "json", path).splitlines()]


def clock_seconds(text):
    seconds = 0.0
    for part in text.split(":"):
        seconds = seconds * 60 + float(part)
    return seconds


def eval_value(text):
    return text if text.startswith("#") else float(text)


class AgreesWithTheCli(unittest.TestCase):
    def test_every_shared_file(self):
        self.assertGreater(len(INPUTS), 50)
        for path in INPUTS:
            with self.subTest(path=os.path.relpath(path, ROOT)):
                expected = cli_json(path)
                games = list(pgnkit.read(path))
                self.assertEqual(len(games), len(expected))
                for game, want in zip(games, expected):
                    self.assert_same_game(game, want)

    def assert_same_game(self, game, want):
        where = f"game {want['game']}"
        self.assertEqual(game.index, want["game"], where)
        self.assertEqual(game.line, want["line"], where)
        self.assertEqual(game.status, want["status"], where)
        self.assertEqual(game.tags, want["tags"], where)
        self.assertEqual(game.uci, want["uci"], where)
        self.assertEqual(game.san, want["san"], where)
        self.assertEqual(game.result, want["result"], where)
        fens = game.fens()
        self.assertEqual(fens[-1] if fens else None, want["fen"], where)
        self.assertEqual(len(game), len(want["uci"]), where)
        got = [(d.line, d.col, d.ply, d.code, d.severity, d.message, d.candidates)
               for d in game.diagnostics]
        exp = [(d["line"], d["col"], d.get("ply") or 0, d["code"], d["severity"],
                d["message"], d.get("candidates") or []) for d in want["diagnostics"]]
        self.assertEqual(got, exp, where)

    def test_clocks_and_evals(self):
        rows = cli("uci", "--format", "tsv", "--with", "clk,eval", LICHESS).splitlines()
        header = rows[0].split("\t")
        want = {}
        for row in rows[1:]:
            cols = dict(zip(header, row.split("\t")))
            want[(int(cols["game"]), int(cols["ply"]))] = (
                clock_seconds(cols["clk"]) if cols["clk"] else None,
                eval_value(cols["eval"]) if cols["eval"] else None)
        evals_seen = clocks_seen = 0
        for game in pgnkit.read(LICHESS):
            for ply, (clock, ev) in enumerate(zip(game.clocks, game.evals), 1):
                self.assertEqual((clock, ev), want[(game.index, ply)], (game.index, ply))
                clocks_seen += clock is not None
                evals_seen += ev is not None
        self.assertGreater(clocks_seen, 50000)
        self.assertGreater(evals_seen, 5000)

    def test_verdicts_equal_the_games(self):
        verdicts = list(pgnkit.check(MUTANTS))
        games = list(pgnkit.read(MUTANTS))
        self.assertEqual(len(verdicts), 440)
        for v, g in zip(verdicts, games):
            self.assertEqual((v.index, v.offset, v.status, v.plies, v.diagnostics),
                             (g.index, g.offset, g.status, len(g.uci), g.diagnostics))
        error_games = {line.split(": game ")[1].split(",")[0]
                       for line in cli("check", MUTANTS).splitlines() if " error[" in line}
        self.assertEqual(sum(v.status == "errors" for v in verdicts), len(error_games))

    def test_offsets_cut_the_file_into_games(self):
        with open(MUTANTS, "rb") as f:
            data = f.read()
        games = list(pgnkit.read(MUTANTS))
        self.assertEqual(games[0].offset, 0)
        for a, b in zip(games, games[1:]):
            self.assertLessEqual(a.offset + a.bytes, b.offset)
        self.assertTrue(data[games[5].offset:].startswith(b"[Event"))


class Sources(unittest.TestCase):
    def uci_of(self, source):
        return [g.uci for g in pgnkit.read(source)]

    def test_file_objects_and_memory(self):
        path = INPUTS[0]
        want = self.uci_of(path)
        with open(path, "rb") as f:
            self.assertEqual(self.uci_of(f), want)
        with open(path, "rb") as f:
            self.assertEqual(self.uci_of(io.BytesIO(f.read())), want)
        import pathlib
        self.assertEqual(self.uci_of(pathlib.Path(path)), want)

    def test_compressed_by_content(self):
        self.assertEqual(len(list(pgnkit.read(LICHESS))), 999)

    def test_every_pgn_member_of_an_archive(self):
        """A zip made by zip(1): every .pgn member in order, as the CLI reads it."""
        import tempfile
        fischer = os.path.join(ROOT, "testdata/pgn/pgn-extract/fischer.pgn")
        with tempfile.TemporaryDirectory() as tmp:
            with open(fischer, "rb") as f, open(os.path.join(tmp, "a.pgn"), "wb") as a:
                a.write(f.read())
            with open(os.path.join(tmp, "skip.txt"), "w") as t:
                t.write('[Event "not read"]\n\n1. d4 *\n')
            with open(MUTANTS, "rb") as f, open(os.path.join(tmp, "b.pgn"), "wb") as b:
                b.write(f.read())
            subprocess.run(["zip", "-q", "games.zip", "a.pgn", "skip.txt", "b.pgn"], cwd=tmp,
                           check=True)
            path = os.path.join(tmp, "games.zip")
            expected = cli_json(path)
            games = list(pgnkit.read(path))
            members = {g.member for g in games}
            self.assertEqual(members, {"a.pgn", "b.pgn"})
            self.assertEqual(len(games), len(expected))
            self.assertGreater(len(games), len(cli_json(fischer)), "b.pgn's games too")
            for game, want in zip(games, expected):
                self.assertEqual(game.file, want["file"])
                self.assertEqual(game.file, path + ":" + game.member)
                AgreesWithTheCli.assert_same_game(self, game, want)
        self.assertIsNone(next(iter(pgnkit.read(fischer))).member)

    def test_io_errors_raise_oserror(self):
        with self.assertRaises(FileNotFoundError):
            pgnkit.read(os.path.join(ROOT, "no-such-file.pgn"))
        with self.assertRaises(IsADirectoryError):
            pgnkit.read(ROOT)
        with open(LICHESS, "rb") as f:
            data = f.read()
        games = []
        with self.assertRaises(OSError) as caught:
            for game in pgnkit.read(io.BytesIO(data[: len(data) // 2])):
                games.append(game)
        self.assertIn("truncated", str(caught.exception))
        self.assertGreater(len(games), 100)

    def test_game_errors_are_data(self):
        statuses = {g.status for g in pgnkit.read(MUTANTS)}
        self.assertIn("errors", statuses)

    def test_options(self):
        strict = list(pgnkit.read(MUTANTS, strict=True))
        codes = {d.code for g in strict for d in g.diagnostics}
        self.assertIn("OVER_DISAMBIGUATED", codes)
        self.assertNotIn("OVER_DISAMBIGUATED",
                         {d.code for g in pgnkit.read(MUTANTS) for d in g.diagnostics})
        with self.assertRaises(TypeError):
            pgnkit.read(MUTANTS, no_such_option=True)

    def test_ep_legal_fens_equal_the_cli(self):
        # Files with e.p. squares no legal capture can use (standard FENs differ there),
        # a Chess960 one and a variant: ep="legal" is `fen --every --ep legal`, line for line.
        for name in ("pgn-extract/fischer.pgn", "mutants/mutants.pgn",
                     "tcec/TCEC_Season_16_-_Frc_Sufi.pgn",
                     "python-chess/antichess-programfox.pgn"):
            path = os.path.join(ROOT, "testdata/pgn", name)
            with self.subTest(path=name):
                want = cli("fen", "--every", "--ep", "legal", path).splitlines()

                def lines(games, **fens_options):
                    return [f"{g.index}\t{ply}\t{fen}" for g in games
                            for ply, fen in enumerate(g.fens(**fens_options)[1:], 1)]

                self.assertEqual(lines(pgnkit.read(path, ep="legal")), want)
                self.assertEqual(lines(pgnkit.read(path), ep="legal"), want)
                standard = lines(pgnkit.read(path))
                self.assertEqual(lines(pgnkit.read(path, ep="legal"), ep="standard"), standard)
                self.assertEqual(lines(pgnkit.read(path, ep="standard")), standard)
                self.assertNotEqual(standard, want)  # the file does test the difference
        for bad in ("Legal", "", 1):
            with self.assertRaises(ValueError):
                pgnkit.read(MUTANTS, ep=bad)
            with self.assertRaises(ValueError):
                next(pgnkit.read(MUTANTS)).fens(ep=bad)

    def test_threads_read_independently(self):
        want = self.uci_of(LICHESS)
        results = [None] * 4

        def work(i):
            results[i] = self.uci_of(LICHESS)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(results, [want] * 4)


GAME_ATTRIBUTES = ("tags", "uci", "san", "diagnostics", "clocks", "evals", "result", "ending",
                   "status", "file", "member", "index", "offset", "bytes", "line", "error_ply")


def attributes(game):
    return {name: getattr(game, name) for name in GAME_ATTRIBUTES} | {
        "fens": game.fens(), "fens_standard": game.fens(ep="standard"),
        "fens_legal": game.fens(ep="legal"), "len": len(game), "repr": repr(game)}


def games_of(path):
    """What a multiprocessing worker returns: every game of path, pickled back."""
    return list(pgnkit.read(path))


class Help(unittest.TestCase):
    def test_the_example_in_help_runs(self):
        self.assertIn(">>> ", pgnkit.__doc__)
        failed, attempted = doctest.testmod(pgnkit, raise_on_error=False)
        self.assertGreater(attempted, 5)
        self.assertEqual(failed, 0)


class Pickling(unittest.TestCase):
    def test_every_game_survives_pickling(self):
        import tarfile
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            archive = os.path.join(tmp, "games.tar")  # games with a member name
            with tarfile.open(archive, "w") as tar:
                tar.add(os.path.join(ROOT, "testdata/pgn/pgn-extract/fischer.pgn"), "a.pgn")
            self.assertEqual({g.member for g in pgnkit.read(archive)}, {"a.pgn"})
            self.assert_survive_pickling([MUTANTS, LICHESS, archive])

    def assert_survive_pickling(self, paths):
        for path in paths:
            for ep in ("standard", "legal"):
                with self.subTest(path=os.path.relpath(path, ROOT), ep=ep):
                    games = list(pgnkit.read(path, ep=ep))
                    copies = pickle.loads(pickle.dumps(games))
                    self.assertEqual(len(copies), len(games))
                    for game, copy in zip(games, copies):
                        self.assertIsNot(copy, game)
                        self.assertEqual(attributes(copy), attributes(game))
                        self.assertEqual(copy, game)
                        self.assertEqual(hash(copy), hash(game))
        first, second = list(pgnkit.read(MUTANTS))[:2]
        self.assertNotEqual(first, second)
        self.assertEqual(first, next(pgnkit.read(MUTANTS)))

    def test_damaged_pickles_raise_valueerror(self):
        game = list(pgnkit.read(MUTANTS))[5]
        load, (data, ep_legal) = game.__reduce__()
        self.assertEqual(load(data, ep_legal), game)
        for cut in range(len(data)):
            with self.assertRaises(ValueError):
                load(data[:cut], ep_legal)
        with self.assertRaises(ValueError):
            load(data + b"x", ep_legal)

    def test_multiprocessing_returns_games(self):
        paths = [MUTANTS, LICHESS]
        with multiprocessing.Pool(2) as pool:
            returned = pool.map(games_of, paths)
        for path, games in zip(paths, returned):
            local = list(pgnkit.read(path))
            self.assertEqual(len(games), len(local))
            self.assertEqual([attributes(g) for g in games], [attributes(g) for g in local])


# Threads sharing one reader, run in a child interpreter so that a crash is a failure
# of this test rather than the end of the run.  Every next() either yields the next
# game or raises RuntimeError (the reader is busy); close() during a next() raises
# RuntimeError too; together the threads see every game exactly once.
SHARED_READER_RACE = r"""
import sys, threading, pgnkit
sys.setswitchinterval(1e-6)  # pass the GIL as often as it can be passed
path, mode = sys.argv[1], sys.argv[2]
open_reader = pgnkit.check if mode == "check" else pgnkit.read
want = sum(1 for _ in pgnkit.check(path))
for _ in range(20):
    reader = open_reader(path)
    seen, busy, lock = [], [0], threading.Lock()
    def work():
        while True:
            try:
                item = next(reader)
            except StopIteration:
                return
            except RuntimeError:
                with lock:
                    busy[0] += 1
                continue
            with lock:
                seen.append(item.index)
    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seen) == list(range(1, want + 1)), (len(seen), want)
for _ in range(20):
    reader, refused = open_reader(path), [0]
    def iterate():
        try:
            for _ in reader:
                pass
        except RuntimeError:
            pass
    def close():
        while True:
            try:
                reader.close()
                return
            except RuntimeError:
                refused[0] += 1
    threads = [threading.Thread(target=iterate), threading.Thread(target=close)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert list(reader) == []
print("ok")
"""


class SharedReader(unittest.TestCase):
    def race(self, mode):
        run = subprocess.run([sys.executable, "-c", SHARED_READER_RACE, MUTANTS, mode],
                             capture_output=True, text=True, timeout=300)
        self.assertEqual((run.returncode, run.stdout.strip()), (0, "ok"), run.stderr[-2000:])

    def test_threads_sharing_one_check_reader(self):
        self.race("check")

    def test_threads_sharing_one_read_reader(self):
        self.race("read")

    def test_threads_sharing_games(self):
        want = [attributes(g) for g in pgnkit.read(MUTANTS)]
        games = list(pgnkit.read(MUTANTS))  # attributes not built yet: the threads build them
        results = [None] * 4

        def work(i):
            results[i] = [attributes(g) for g in (games if i % 2 else reversed(games))]

        switch = sys.getswitchinterval()
        sys.setswitchinterval(1e-5)
        try:
            threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        finally:
            sys.setswitchinterval(switch)
        for i, got in enumerate(results):
            self.assertEqual(got if i % 2 else got[::-1], want)


def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


class NoLeaks(unittest.TestCase):
    def read_all(self):
        for game in pgnkit.read(LICHESS):
            game.tags, game.uci, game.san, game.fens(), game.clocks, game.evals
            game.diagnostics
        list(pgnkit.check(MUTANTS))

    def test_repeated_reads_keep_memory_flat(self):
        for _ in range(3):
            self.read_all()
        gc.collect()
        tracemalloc.start()
        before_py = tracemalloc.get_traced_memory()[0]
        before = rss_kib()
        for _ in range(15):
            self.read_all()
        gc.collect()
        grown_py = tracemalloc.get_traced_memory()[0] - before_py
        tracemalloc.stop()
        grown = rss_kib() - before
        # 15 reads of 999 games: a leak of one allocation per game would be ~15,000
        # blocks, far past these bounds.
        self.assertLess(grown_py, 64 * 1024, "Python objects left behind")
        self.assertLess(grown, 4 * 1024, f"RSS grew by {grown} KiB")


if __name__ == "__main__":
    unittest.main()
