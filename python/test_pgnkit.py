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
# Comments, NAGs and nested variations (the 2023 world championship, annotated).
ANNOTATED_FILE = os.path.join(ROOT, "testdata/pgn/scalachess/pgn-render-wcc2023.pgn")
VARIANTS = sorted(glob.glob(os.path.join(ROOT, "testdata/variants/pgn/*.pgn")))


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

    def test_json_clocks_are_the_modules(self):
        # `--with clk` in JSON: seconds (numbers), the values of game.clocks (Move.clock);
        # clocks.pgn has a fraction, mm:ss, and a malformed [%clk] before a good one.
        clocks = os.path.join(ROOT, "tests", "cli", "data", "clocks.pgn")
        for path in (LICHESS, clocks):
            rows = [json.loads(line) for line in
                    cli("uci", "--format", "json", "--with", "clk", path).splitlines()]
            games = list(pgnkit.read(path))
            self.assertEqual(len(rows), len(games))
            for row, game in zip(rows, games):
                self.assertEqual(row["clk"], game.clocks, (path, game.index))
        self.assertEqual(games[0].clocks, [59.5, 60.0, 3.1])

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


class ToPgn(unittest.TestCase):
    """game.to_pgn() is `pgnkit pgn`'s output for that game, byte for byte."""

    def test_every_shared_file_writes_as_the_cli(self):
        for path in INPUTS + VARIANTS:
            with self.subTest(path=os.path.relpath(path, ROOT)):
                games = list(pgnkit.read(path))
                self.assertEqual("".join(g.to_pgn() for g in games), cli("pgn", path))
                again = list(pgnkit.read(io.BytesIO("".join(g.to_pgn() for g in games)
                                                    .encode("utf-8"))))
                kept = [g for g in games if g.status != "skipped"]
                self.assertEqual([g.uci for g in again], [g.uci for g in kept])

    def test_options_as_the_cli_options(self):
        for path in (ANNOTATED_FILE, MUTANTS):
            games = pgnkit.read(path, variations=False)
            self.assertEqual("".join(g.to_pgn() for g in games),
                             cli("pgn", "--no-variations", path))
            games = pgnkit.read(path, strict=True)
            self.assertEqual("".join(g.to_pgn() for g in games), cli("pgn", "--strict", path))

    def test_cp1252_games_and_unpickled_games(self):
        data = '[Event "Caf\xe9"]\n\n1. e4 { d\xe9j\xe0 } e5 (1... c5 $1) *\n'.encode("cp1252")
        import tempfile
        with tempfile.NamedTemporaryFile(suffix=".pgn") as f:
            f.write(data)
            f.flush()
            want = cli("pgn", f.name)
        game = next(pgnkit.read(io.BytesIO(data)))
        self.assertIn("{ d\xe9j\xe0 } 1... e5 ( 1... c5 $1 )", want.replace("\n", " "))
        self.assertEqual(game.to_pgn(), want)
        copy = pickle.loads(pickle.dumps(game))
        self.assertEqual(copy.to_pgn(), game.to_pgn())
        self.assertEqual(pickle.loads(pickle.dumps(copy)).to_pgn(), game.to_pgn())

    def test_the_readers_encoding_is_kept(self):
        # 0x80 is U+0080 in Latin-1 and the euro sign in CP1252 (the auto guess).
        data = b'[Event "x\x80y"]\n\n1. e4 { \x80 } *\n'
        import tempfile
        with tempfile.NamedTemporaryFile(suffix=".pgn") as f:
            f.write(data)
            f.flush()
            for encoding in ("latin1", "cp1252", "auto"):
                with self.subTest(encoding=encoding):
                    want = cli("pgn", "--encoding", encoding, f.name)
                    game = next(pgnkit.read(f.name, encoding=encoding))
                    self.assertEqual(game.to_pgn(), want)
                    copy = pickle.loads(pickle.dumps(game))
                    self.assertEqual(copy.to_pgn(), want)
            # The encodings do differ here, so the test tells them apart.
            self.assertEqual(next(pgnkit.read(f.name, encoding="latin1")).tags["Event"], "x\x80y")
            self.assertEqual(next(pgnkit.read(f.name)).tags["Event"], "x\u20acy")

    def test_out_of_range_mate_evals_are_none(self):
        text = "1. e4 { [%eval #99999999999] } e5 { [%eval #-2147483648] [%eval #-3] } *\n"
        game = next(pgnkit.read(io.BytesIO(text.encode())))
        self.assertEqual(game.evals, [None, None])
        self.assertEqual([m.eval for m in game.moves], [None, None])
        game = next(pgnkit.read(io.BytesIO(b"1. e4 { [%eval #2147483647] } *")))
        self.assertEqual(game.evals, ["#2147483647"])


FAKE_NUMPY = r"""
import sys, types
calls = []
numpy = types.ModuleType("numpy")
numpy.int64 = "int64"
numpy.asarray = lambda values, dtype: calls.append(dtype) or ("array", tuple(values))
sys.modules["numpy"] = numpy
import pgnkit
cols = pgnkit.columns(sys.argv[1])
assert calls == ["int64"] * 3, calls
assert cols["plies"][0] == "array" and isinstance(cols["uci"], list), cols
print("ok")
"""


class Columns(unittest.TestCase):
    """pgnkit.columns() is read()'s games as columns, and `pgnkit uci`'s UCI lines."""

    def test_every_shared_file(self):
        tags = ("White", "Black", "Result", "ECO", "NoSuchTag")
        for path in INPUTS + VARIANTS:
            with self.subTest(path=os.path.relpath(path, ROOT)):
                cols = pgnkit.columns(path, tags=tags)
                games = list(pgnkit.read(path))
                want = {"file": [g.file for g in games], "index": [g.index for g in games],
                        "offset": [g.offset for g in games], "plies": [len(g) for g in games],
                        "uci": [" ".join(g.uci) for g in games],
                        "status": [g.status for g in games]}
                want |= {t: [g.tags.get(t) for g in games] for t in tags}
                self.assertEqual(cols, want)
                lines = cli("uci", "--tags", "White", path).splitlines()
                kept = [u for u, s in zip(cols["uci"], cols["status"]) if s != "skipped"]
                self.assertEqual([line.split("\t")[-1] for line in lines], kept)

    def test_options_sources_and_errors(self):
        with open(MUTANTS, "rb") as f:
            data = f.read()
        by_path = pgnkit.columns(MUTANTS, tags=["Event"], strict=True, variations=False)
        by_bytes = pgnkit.columns(io.BytesIO(data), tags=["Event"], strict=True,
                                  variations=False)
        games = list(pgnkit.read(MUTANTS, strict=True, variations=False))
        self.assertEqual(by_bytes["status"], [g.status for g in games])
        self.assertEqual(by_bytes["uci"], by_path["uci"])
        self.assertEqual(pgnkit.columns(io.BytesIO(b""), tags=()),
                         {k: [] for k in ("file", "index", "offset", "plies", "uci", "status")})
        with self.assertRaises(FileNotFoundError):
            pgnkit.columns(os.path.join(ROOT, "no/such.pgn"))
        with self.assertRaises(TypeError):
            pgnkit.columns(MUTANTS, tags=[1])
        with self.assertRaises(TypeError):
            pgnkit.columns(MUTANTS, bogus=1)

    def test_numpy_arrays_when_numpy_imports(self):
        run = subprocess.run([sys.executable, "-c", FAKE_NUMPY, MUTANTS], capture_output=True,
                             text=True, env=os.environ)
        self.assertEqual((run.returncode, run.stdout.strip()), (0, "ok"), run.stderr)

    def test_batches_of_many_games(self):
        # 3 x 999 games, 7 MB: past a batch's 2048 games and its 4 MB of text (columns.c).
        text = "".join(g.to_pgn() for g in pgnkit.read(LICHESS)).encode() * 3
        cols = pgnkit.columns(io.BytesIO(text), tags=("White",))
        games = list(pgnkit.read(io.BytesIO(text)))
        self.assertEqual(len(cols["uci"]), 2997)
        self.assertEqual(cols["uci"], [" ".join(g.uci) for g in games])
        self.assertEqual(cols["White"], [g.tags["White"] for g in games])
        self.assertEqual(cols["offset"], [g.offset for g in games])


class DamagedInput(unittest.TestCase):
    """python/fuzz_pgnkit.py: 300 damaged pieces of the shared files through every part of
    the module, in a child interpreter: it must exit 0 by itself (no signal, no exception
    but the documented OSError)."""

    def test_damaged_pgn_never_crashes_the_interpreter(self):
        script = os.path.join(ROOT, "python", "fuzz_pgnkit.py")
        run = subprocess.run([sys.executable, script, "300", "1"], capture_output=True,
                             text=True, env=os.environ, timeout=300)
        last_case = (run.stderr.strip().splitlines() or ["none"])[-1]
        self.assertEqual(run.returncode, 0, f"died (signal {-run.returncode})"
                         if run.returncode < 0 else run.stderr[-3000:])
        self.assertEqual(run.stdout.strip(), "ok 300 cases", last_case)


GAME_ATTRIBUTES = ("tags", "uci", "san", "diagnostics", "clocks", "evals", "result", "ending",
                   "status", "file", "member", "index", "offset", "bytes", "line", "error_ply")


def attributes(game):
    return {name: getattr(game, name) for name in GAME_ATTRIBUTES} | {
        "fens": game.fens(), "fens_standard": game.fens(ep="standard"),
        "fens_legal": game.fens(ep="legal"), "len": len(game), "repr": repr(game),
        "moves": game.moves, "comment": game.comment, "to_pgn": game.to_pgn()}


def games_of(path):
    """What a multiprocessing worker returns: every game of path, pickled back."""
    return list(pgnkit.read(path))


def cli_selected(path, *args):
    """(index, offset, uci, tags) of the games `uci --format json ARGS` writes."""
    rows = [json.loads(line) for line in cli("uci", "--format", "json", *args, path).splitlines()]
    return [(r["game"] or 0, r["offset"], r["uci"], r["tags"]) for r in rows]


def cli_usage_error(*args):
    """The CLI's message for a bad option value, without "pgnkit: " and the hint."""
    run = subprocess.run([PGNKIT, "uci", "-q", *args, MUTANTS], capture_output=True)
    assert run.returncode == 2, run
    line = run.stderr.decode("utf-8").strip()
    return line.removeprefix("pgnkit: ").removesuffix(" (try 'pgnkit uci --help')")


def py_selected(path, **options):
    return [(g.index, g.offset, g.uci, g.tags) for g in pgnkit.read(path, **options)]


# Files with many kinds of games: errors of every code, players, results, ECO tags,
# checkmates and stalemates, long and short games.
SELECT_FILES = [MUTANTS, LICHESS, os.path.join(ROOT, "testdata/pgn/python-chess/stalemate.pgn")]
SELECT_FILES = [f for f in SELECT_FILES if os.path.exists(f)]
AFTER_E4_E5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"

# (keyword arguments of read(), the CLI's options that mean the same)
SELECTIONS = [
    ({"encoding": "latin1"}, ["--encoding", "latin1"]),
    ({"encoding": "utf-8"}, ["--encoding", "utf-8"]),
    ({"encoding": "cp1252"}, ["--encoding", "cp1252"]),
    ({"where": "Result = 1-0"}, ["--where", "Result = 1-0"]),
    ({"where": ["WhiteElo > 1800", "BlackElo <= 2000"]},
     ["--where", "WhiteElo > 1800", "--where", "BlackElo <= 2000"]),
    ({"where": "Date < 2000"}, ["--where", "Date < 2000"]),
    ({"player": "(?i)^[a-m]"}, ["--player", "(?i)^[a-m]"]),
    ({"result": "1-0,0-1"}, ["--result", "1-0,0-1"]),
    ({"result": ["1/2-1/2", "*"]}, ["--result", "1/2-1/2,*"]),
    ({"ending": "checkmate,stalemate"}, ["--ending", "checkmate,stalemate"]),
    ({"ending": ["none"]}, ["--ending", "none"]),
    ({"plies": "20:40"}, ["--plies", "20:40"]),
    ({"plies": ":10"}, ["--plies", ":10"]),
    ({"has": "ILLEGAL,AMBIGUOUS"}, ["--has", "ILLEGAL,AMBIGUOUS"]),
    ({"has": ["CHECK_SPURIOUS", "MATE_MISSING"]}, ["--has", "CHECK_SPURIOUS,MATE_MISSING"]),
    ({"reaches": AFTER_E4_E5}, ["--reaches", AFTER_E4_E5]),
    ({"occurs": "en-passant,underpromotion"}, ["--occurs", "en-passant,underpromotion"]),
    ({"occurs": ["castling-long"]}, ["--occurs", "castling-long"]),
    ({"material": ["KQ+vK+", "KRvKR"]}, ["--material", "KQ+vK+,KRvKR"]),
    ({"moves": "e4 e5 Nf3"}, ["--moves", "e4 e5 Nf3"]),
    ({"moves": "... Nf3 Nc6"}, ["--moves", "... Nf3 Nc6"]),
    ({"where": "Result = 1-0", "invert": True}, ["--where", "Result = 1-0", "--invert"]),
    ({"plies": ":30", "result": "0-1", "invert": True},
     ["--plies", ":30", "--result", "0-1", "--invert"]),
    ({"classify": True, "where": "ECO ~ ^B"}, ["--classify", "--where", "ECO ~ ^B"]),
    ({"classify": True, "where": "Opening ~ Sicilian"},
     ["--classify", "--where", "Opening ~ Sicilian"]),
    ({"where": "ECO ~ ^B"}, ["--where", "ECO ~ ^B"]),
    ({"skip_invalid": True}, ["--skip-invalid"]),
    ({"dedupe": True}, ["--dedupe"]),
    ({"dedupe": True, "skip_invalid": True, "result": "1-0"},
     ["--dedupe", "--skip-invalid", "--result", "1-0"]),
]


class Selection(unittest.TestCase):
    """read()'s selection options yield exactly the games the CLI writes with the same
    options: same indexes (the input's), offsets, moves and tags."""

    def setUp(self):
        self.assertGreaterEqual(len(SELECT_FILES), 2)

    def assert_same_selection(self, path, options, args):
        want = cli_selected(path, *args)
        got = py_selected(path, **options)
        self.assertEqual(len(got), len(want))
        self.assertEqual(got, want)
        return got

    def test_each_option_selects_as_the_cli(self):
        for options, args in SELECTIONS:
            picked_some = False
            for path in SELECT_FILES:
                with self.subTest(options=options, path=os.path.relpath(path, ROOT)):
                    got = self.assert_same_selection(path, options, args)
                    picked_some |= 0 < len(got)
            self.assertTrue(picked_some, f"{options} selects nothing anywhere: no test")

    def test_criteria_really_filter(self):
        # The test above would pass with options ignored if the CLI ignored them too.
        everything = len(list(pgnkit.read(MUTANTS)))
        for options in ({"result": "1-0"}, {"skip_invalid": True}, {"has": "ILLEGAL"},
                        {"plies": "20:40"}, {"where": "Date < 2000"}):
            with self.subTest(options=options):
                self.assertLess(len(list(pgnkit.read(MUTANTS, **options))), everything)

    def test_dedupe_drops_a_file_read_twice(self):
        with open(MUTANTS, "rb") as f:
            data = f.read()
        twice = os.path.join(self.tmp(), "twice.pgn")
        with open(twice, "wb") as f:
            f.write(data + b"\n\n" + data)
        got = self.assert_same_selection(twice, {"dedupe": True}, ["--dedupe"])
        once = list(pgnkit.read(MUTANTS, dedupe=True))
        self.assertGreater(len(got), len(once))  # games with errors are never duplicates
        self.assertEqual(len([g for g in pgnkit.read(twice, dedupe=True) if g.status != "errors"]),
                         len([g for g in once if g.status != "errors"]))

    def tmp(self):
        import tempfile
        d = tempfile.TemporaryDirectory()
        self.addCleanup(d.cleanup)
        return d.name

    def test_check_takes_the_same_options(self):
        got = [(v.index, v.offset) for v in pgnkit.check(MUTANTS, result="1-0", skip_invalid=True)]
        want = [(i, o) for i, o, _, _ in cli_selected(MUTANTS, "--result", "1-0", "--skip-invalid")]
        self.assertEqual(got, want)

    def test_bad_values_raise_valueerror_with_the_clis_message(self):
        for options, args in [
            ({"encoding": "ebcdic"}, ["--encoding", "ebcdic"]),
            ({"where": "Nonsense"}, ["--where", "Nonsense"]),
            ({"where": ["Result = 1-0", "White ~ ("]}, ["--where", "White ~ ("]),
            ({"player": "(("}, ["--player", "(("]),
            ({"result": "2-0"}, ["--result", "2-0"]),
            ({"ending": ["mate"]}, ["--ending", "mate"]),
            ({"plies": "9:3"}, ["--plies", "9:3"]),
            ({"has": "NOPE"}, ["--has", "NOPE"]),
            ({"reaches": "not a fen"}, ["--reaches", "not a fen"]),
            ({"occurs": "sometimes"}, ["--occurs", "sometimes"]),
            ({"material": "KXvK"}, ["--material", "KXvK"]),
            ({"moves": "e4 zz"}, ["--moves", "e4 zz"]),
            ({"invert": True}, ["--invert"]),
            ({"in_variations": True}, ["--in-variations"]),
            ({"in_variations": True, "material": "KvK", "variations": False},
             ["--in-variations", "--material", "KvK", "--no-variations"]),
            ({"range": (9, 3)}, ["--range", "9:3"]),
            ({"range": (10 ** 9, None)}, ["--range", f"{10 ** 9}:"]),
        ]:
            with self.subTest(options=options):
                want = cli_usage_error(*args)
                with self.assertRaises(ValueError) as caught:
                    pgnkit.read(MUTANTS, **options)
                self.assertEqual(str(caught.exception), want)
        with self.assertRaises(TypeError):
            pgnkit.read(MUTANTS, where=3)
        with self.assertRaises(TypeError):
            pgnkit.read(io.BytesIO(b""), range=(0, None))

    def test_in_variations_selects_as_the_cli(self):
        # Hand-made games (tests/cli/data): 1.e4 c5 2.Nf3 and the 7 pawns each after
        # 1.e4 d5 2.exd5 Qxd5 are reached in variations only, except in "mainline-only".
        path = os.path.join(ROOT, "tests/cli/data/variation-positions.pgn")
        sicilian = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        pawns7 = "KQRRBBNNPPPPPPPvKQRRBBNNPPPPPPP"
        for options, args, events in [
            ({"reaches": sicilian}, ["--reaches", sicilian], ["mainline-only"]),
            ({"reaches": sicilian, "in_variations": True},
             ["--reaches", sicilian, "--in-variations"], ["sicilian-in-variation", "mainline-only"]),
            ({"material": pawns7}, ["--material", pawns7], []),
            ({"material": pawns7, "in_variations": True},
             ["--material", pawns7, "--in-variations"], ["capture-in-variation"]),
        ]:
            with self.subTest(options=options):
                got = self.assert_same_selection(path, options, args)
                self.assertEqual([tags["Event"] for _, _, _, tags in got], events)

    def test_in_variations_against_the_move_tree(self):
        # The oracle: every position of game.moves and of each move's variations
        # (recursively; the tree is built apart from the selection's walk), as FENs with
        # the e.p. square only when a capture is legal (--reaches's rule), read here.
        def material(fen):
            board = fen.split()[0]
            side = lambda up: "".join(p * board.count(p if up else p.lower()) for p in "KQRBNP")
            return side(True) + "v" + side(False)

        def walk(line, out):
            for m in line:
                out.add(m.fen)
                for v in m.variations:
                    walk(v, out)

        start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        paths = [ANNOTATED_FILE, os.path.join(ROOT, "testdata/pgn/scalachess/pgn-render-pgns.pgn")]
        for path in paths:
            games = {}
            for g in pgnkit.read(path, ep="legal"):
                if g.tags.get("Variant", "Standard") != "Standard" or g.status == "skipped":
                    continue
                main = {g.tags.get("FEN", start)} | {m.fen for m in g.moves}
                every = set(main)
                walk(g.moves, every)
                games[g.index] = (main, every)
            # Material signatures and FENs some variation reaches, off that game's mainline.
            sigs = sorted({material(f) for m, e in games.values() for f in e - m})[:12]
            fens = sorted({f for m, e in games.values() for f in e - m})[:12]
            self.assertGreater(len(sigs), 3, path)
            board = lambda f: " ".join(f.split()[:4])  # the clocks aside
            decided = 0  # values some game has in a variation only
            for option, values, key, as_key in (("material", sigs, material, lambda v: v),
                                                ("reaches", fens, board, board)):
                for value in values:
                    want = sorted(i for i, (_, e) in games.items()
                                  if as_key(value) in {key(f) for f in e})
                    mainline = sorted(i for i, (m, _) in games.items()
                                      if as_key(value) in {key(f) for f in m})
                    with self.subTest(path=os.path.relpath(path, ROOT), **{option: value}):
                        got = self.assert_same_selection(
                            path, {option: value, "in_variations": True},
                            ["--" + option, value, "--in-variations"])
                        self.assertEqual(sorted(i for i, _, _, _ in got if i in games), want)
                    decided += want != mainline
            self.assertGreater(decided, 6, path)

    def test_range_reads_the_games_the_cli_reads(self):
        for path in (MUTANTS, ANNOTATED_FILE):
            size = os.path.getsize(path)
            cuts = [0, size // 3, size // 3 + 1, 2 * size // 3, size]
            whole = [(o, u) for _, o, u, _ in py_selected(path)]
            tiled = []
            for start, end in zip(cuts, cuts[1:]):
                with self.subTest(path=os.path.relpath(path, ROOT), range=(start, end)):
                    got = self.assert_same_selection(path, {"range": (start, end)},
                                                     ["--range", f"{start}:{end}"])
                    tiled += [(o, u) for _, o, u, _ in got]
                    lines = [g.line for g in pgnkit.read(path, range=(start, end))]
                    want_lines = [json.loads(r)["line"] for r in cli(
                        "uci", "--format", "json", "--range", f"{start}:{end}", path).splitlines()]
                    self.assertEqual(lines, want_lines)
            self.assertEqual(tiled, whole)  # the ranges tile the file: every game once
            start = size // 2
            self.assertEqual(py_selected(path, range=(start, None)),
                             cli_selected(path, "--range", f"{start}:"))
        # With selection options too.
        self.assertEqual(py_selected(MUTANTS, range=(1000, None), skip_invalid=True),
                         cli_selected(MUTANTS, "--range", "1000:", "--skip-invalid"))

    def test_range_refuses_compressed_files(self):
        with self.assertRaises(ValueError) as caught:
            pgnkit.read(LICHESS, range=(0, 100))
        self.assertEqual(str(caught.exception), cli_usage_error_on(LICHESS, "--range", "0:100"))


def cli_usage_error_on(path, *args):
    run = subprocess.run([PGNKIT, "uci", "-q", *args, path], capture_output=True)
    return run.stderr.decode("utf-8").strip().removeprefix("pgnkit: ").removesuffix(
        " (try 'pgnkit uci --help')")


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
            self.assert_survive_pickling([MUTANTS, LICHESS, archive, ANNOTATED_FILE, VARIANTS[0]])

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



ANNOTATED = """[Event "Annotated"]
[Result "*"]

{ Opening  
  remarks } 1. e4! { best by test [%clk 0:03:00] [%eval 0.31] } e5 $1 $14
( { instead } 1... c5?! { Sicilian } (1... e6 2. d4) 2. Nf3 ; to the end of the line
) { after the variation } 2. Nf3 { [%clk 0:02:58] [%eval #-2] } {} { second comment }
Nc6?? 3. Bb5 !! a6!? 4. Bxc6? dxc6 *
"""

# The same moves as plain mainlines, for the CLI's FENs (an independent replay).
ANNOTATED_LINES = {
    "main": "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 *",
    "sicilian": "1. e4 c5 2. Nf3 *",
    "french": "1. e4 e6 2. d4 *",
}

CHECKS = """[Event "Promotion"]
[SetUp "1"]
[FEN "8/P6k/8/8/8/8/8/K7 w - - 0 1"]

1. a8=Q Kg6 2. Qg8+ *

[Event "Fool's mate"]

1. f3 e5 2. g4 Qh4# 0-1
"""


def read_text(text):
    return list(pgnkit.read(io.BytesIO(text.encode("utf-8"))))


def cli_fens(text):
    """FEN after every ply of each game of text, from `pgnkit fen --every`."""
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"pgnkit-moves-{os.getpid()}.pgn")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    try:
        fens = {}
        for line in cli("fen", "--every", path).splitlines():
            game, ply, fen = line.split("\t")
            fens.setdefault(int(game), []).append(fen)
        return [fens[k] for k in sorted(fens)]
    finally:
        os.unlink(path)


class MovesLikePythonChess(unittest.TestCase):
    """game.moves and game.comment: every attribute of every move, worked out by hand."""

    def assert_moves(self, moves, want, fens):
        self.assertEqual(len(moves), len(want))
        for move, (san, uci, ply), fen in zip(moves, want, fens):
            with self.subTest(san=san):
                self.assertIsInstance(move, pgnkit.Move)
                self.assertEqual((move.san, move.uci, move.ply), (san, uci, ply))
                self.assertEqual(move.fen, fen)

    def test_annotated_game(self):
        (game,) = read_text(ANNOTATED)
        self.assertEqual([d.code for d in game.diagnostics], ["NONSTANDARD"], "'!!' as a word")
        main, sicilian, french = cli_fens("\n\n".join(ANNOTATED_LINES.values()) + "\n")
        moves = game.moves
        self.assert_moves(moves, [("e4", "e2e4", 1), ("e5", "e7e5", 2), ("Nf3", "g1f3", 3),
                                  ("Nc6", "b8c6", 4), ("Bb5", "f1b5", 5), ("a6", "a7a6", 6),
                                  ("Bxc6", "b5c6", 7), ("dxc6", "d7c6", 8)], main)
        self.assertEqual(game.comment, "Opening\n  remarks")
        self.assertEqual([m.comment for m in moves],
                         ["best by test [%clk 0:03:00] [%eval 0.31]", "after the variation",
                          "[%clk 0:02:58] [%eval #-2] second comment", None, None, None, None,
                          None])
        self.assertEqual([m.nags for m in moves], [[1], [1, 14], [], [4], [3], [5], [2], []])
        self.assertEqual([m.clock for m in moves], [180.0, None, 178.0] + [None] * 5)
        self.assertEqual([m.eval for m in moves], [0.31, None, "#-2"] + [None] * 5)
        self.assertEqual([m.clock for m in moves], game.clocks)
        self.assertEqual([m.eval for m in moves], game.evals)
        self.assertEqual([m.is_capture for m in moves], [False] * 6 + [True, True])
        self.assertFalse(any(m.is_check or m.is_checkmate or m.promotion for m in moves))
        self.assertEqual([len(m.variations) for m in moves], [0, 1, 0, 0, 0, 0, 0, 0])
        (line,) = moves[1].variations
        self.assert_moves(line, [("c5", "c7c5", 2), ("Nf3", "g1f3", 3)], sicilian[1:])
        self.assertEqual([(m.comment, m.starting_comment, m.nags) for m in line],
                         [("Sicilian", "instead", [6]), ("to the end of the line", None, [])])
        self.assertEqual(line[1].variations, [])
        (nested,) = line[0].variations
        self.assert_moves(nested, [("e6", "e7e6", 2), ("d4", "d2d4", 3)], french[1:])
        self.assertEqual([(m.comment, m.nags, m.variations) for m in nested],
                         [(None, [], []), (None, [], [])])

    def test_comments_alike_at_both_ends(self):
        # Short comments' strs are shared between moves with the same text (moves.c):
        # texts of 8, 16 and 24 bytes with the same first and last 8 bytes, one byte
        # apart in the middle, each its own; non-ASCII and 7-byte ones; repeats equal.
        texts = ["[%clk 1]", "[%clk 1][%clk 1]", "[%clk 1]xxxxxxxx[%clk 1]",
                 "[%clk 1]xxxxyxxx[%clk 1]", "[%clk 1]xxxxxxxx[%clk 1]", "[%clk 1]",
                 "caf\u00e9 [%clk 1]", "caf\u00e9 [%clk 1]", "1234567", "[%clk 1][%clk 1]"]
        moves = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7".split()
        text = " ".join(f"{m} {{ {c} }}" for m, c in zip(moves, texts)) + " *\n"
        for _ in range(2):
            (game,) = read_text(text)
            self.assertEqual([m.comment for m in game.moves], texts)

    def test_checks_mates_and_promotions(self):
        promotion, mate = read_text(CHECKS)
        fens = cli_fens(CHECKS)
        self.assert_moves(promotion.moves, [("a8=Q", "a7a8q", 1), ("Kg6", "h7g6", 2),
                                            ("Qg8+", "a8g8", 3)], fens[0])
        self.assertEqual([m.promotion for m in promotion.moves], ["q", None, None])
        self.assertEqual([m.is_check for m in promotion.moves], [False, False, True])
        self.assertEqual(promotion.comment, None)
        self.assert_moves(mate.moves, [("f3", "f2f3", 1), ("e5", "e7e5", 2), ("g4", "g2g4", 3),
                                       ("Qh4#", "d8h4", 4)], fens[1])
        self.assertEqual([(m.is_check, m.is_checkmate) for m in mate.moves],
                         [(False, False)] * 3 + [(True, True)])

    def test_moves_stop_at_an_illegal_move(self):
        (game,) = read_text("1. e4 { fine } e5 2. Ke3 { never reached } Nf6 (2... Nc6) *\n")
        self.assertEqual([m.san for m in game.moves], ["e4", "e5"])
        self.assertEqual(game.moves[1].comment, "never reached",
                         "comments after an error stay with the last move played (as clocks)")
        self.assertEqual(game.diagnostics[0].code, "ILLEGAL")
        self.assertEqual(game.error_ply, 3)
        (empty,) = read_text("[Event \"no moves\"]\n\n{ only a comment } *\n")
        self.assertEqual((empty.moves, empty.comment), ([], "only a comment"))

    def test_equality_and_repr(self):
        first, second = read_text(ANNOTATED + "\n" + ANNOTATED)
        self.assertEqual(first.moves, second.moves)
        self.assertIs(first.moves, first.moves, "built once")
        self.assertNotEqual(first.moves[0], first.moves[1])
        self.assertFalse(first.moves[0] == "e4")
        self.assertEqual(repr(first.moves[0]), "Move(ply=1, san='e4', uci='e2e4')")
        moves = first.moves
        del first, second
        gc.collect()
        self.assertEqual(moves[2].san, "Nf3", "moves outlive their game")

    def test_attributes_in_any_order_after_the_game_is_gone(self):
        # A Move makes each attribute on first use, from its game (kept by its Moves):
        # asked backwards, FEN before SAN, once the Game is gone, the answers are the
        # CLI's FENs and the game's lists.
        (game,) = read_text(ANNOTATED)
        main = cli_fens(ANNOTATED_LINES["main"] + "\n")[0]
        san, uci, clocks = game.san, game.uci, game.clocks
        moves = game.moves
        del game
        gc.collect()
        got = [(m.fen, m.san, m.clock, m.uci) for m in reversed(moves)][::-1]
        self.assertEqual(got, list(zip(main, san, clocks, uci)))
        self.assertEqual([m.ply for m in moves], list(range(1, 9)))
        (line,) = moves[1].variations
        self.assertEqual([(m.ply, m.san) for m in line], [(2, "c5"), (3, "Nf3")])
        self.assertEqual(line[0].variations[0][1].fen,
                         cli_fens(ANNOTATED_LINES["french"] + "\n")[0][2])

    def test_every_shared_file(self):
        for path in INPUTS:
            with self.subTest(path=os.path.relpath(path, ROOT)):
                for game in pgnkit.read(path):
                    moves = game.moves
                    self.assertEqual([m.uci for m in moves], game.uci)
                    self.assertEqual([m.san for m in moves], game.san)
                    self.assertEqual([m.fen for m in moves], game.fens()[1:])
                    self.assertEqual([m.clock for m in moves], game.clocks)
                    self.assertEqual([m.eval for m in moves], game.evals)
                    self.assertEqual([m.ply for m in moves], list(range(1, len(moves) + 1)))


    def test_variant_games_in_both_ep_conventions(self):
        # Drops, explosions and pockets: a move's FEN is the variant's (the C API's tree
        # replays by the game's rules), equal to game.fens() in the reader's convention.
        self.assertTrue(VARIANTS)
        for path in VARIANTS:
            for ep in ("standard", "legal"):
                with self.subTest(path=os.path.relpath(path, ROOT), ep=ep):
                    for game in pgnkit.read(path, ep=ep):
                        moves = game.moves
                        self.assertEqual([m.uci for m in moves], game.uci)
                        self.assertEqual([m.fen for m in moves], game.fens()[1:len(moves) + 1])


class VariantEndings(unittest.TestCase):
    """Game.ending on every game of testdata/variants/: always one of the documented
    names, and the one the oracle's termination (python-chess and chessops, the
    .outcome.tsv files) says."""

    DOCUMENTED = {"none", "checkmate", "stalemate", "king-exploded", "king-of-the-hill",
                  "three-checks", "racing-kings", "horde-wiped-out", "antichess",
                  "insufficient"}
    # The oracle's termination (testdata/variants/README.md) -> the ending's name.
    BY_TERMINATION = {"unfinished": "none", "checkmate": "checkmate",
                      "king-exploded": "king-exploded", "king-in-centre": "king-of-the-hill",
                      "third-check": "three-checks", "goal-reached": "racing-kings",
                      "goal-draw": "racing-kings", "horde-destroyed": "horde-wiped-out",
                      "no-pieces": "antichess", "insufficient-material": "insufficient"}

    def test_every_variant_game(self):
        real = os.path.join(ROOT, "testdata/variants/pgn/python-chess/*.pgn")
        paths = VARIANTS + sorted(glob.glob(real))
        self.assertEqual(len(paths), 10)
        count = 0
        for path in paths:
            with open(path + ".outcome.tsv") as f:
                outcomes = [line.rstrip("\n").split("\t") for line in f]
            games = list(pgnkit.read(path))
            self.assertEqual(len(games), len(outcomes))
            for game, (_, result, termination, _) in zip(games, outcomes):
                with self.subTest(path=os.path.basename(path), index=game.index):
                    self.assertIn(game.ending, self.DOCUMENTED)
                    want = self.BY_TERMINATION.get(termination)
                    if termination == "stalemate":  # Antichess's is a win, the others a draw
                        want = "antichess" if result != "1/2-1/2" else "stalemate"
                    self.assertEqual(game.ending, want)
                    count += 1
        self.assertEqual(count, 2104)


class MovesDoNotLeak(unittest.TestCase):
    """NoLeaks' RSS bound, with every game's moves, comments and variations built."""

    def read_all(self):
        for game in pgnkit.read(LICHESS):
            game.moves, game.comment
        for game in read_text(ANNOTATED * 50):
            game.moves[1].variations[0][0].variations, game.comment

    def test_repeated_moves_keep_memory_flat(self):
        for _ in range(3):
            self.read_all()
        gc.collect()
        before = rss_kib()
        for _ in range(15):
            self.read_all()
        gc.collect()
        grown = rss_kib() - before
        # 15 reads of ~66,000 moves: a Move or a tree left behind per move would be
        # tens of MiB.
        self.assertLess(grown, 4 * 1024, f"RSS grew by {grown} KiB")

TWIC = os.path.join(ROOT, "testdata/bench/twic1599.pgn.zst")
PYTHON_CHESS_FILES = sorted(glob.glob(os.path.join(ROOT, "testdata/pgn/python-chess/*.pgn")))


class BoardTest(unittest.TestCase):
    """pgnkit.Board on positions worked out by hand, and on every position of real games."""

    START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

    def test_start_position_and_e4(self):
        board = pgnkit.Board()
        self.assertEqual(board.fen(), self.START)
        self.assertEqual(board, pgnkit.Board(self.START, variant="standard"))
        moves = board.legal_moves()
        self.assertEqual(len(moves), 20)  # 16 pawn moves, 4 knight moves
        self.assertIn("e2e4", moves)
        self.assertIn("g1f3", moves)
        self.assertEqual(board.turn, "w")
        self.assertEqual(board.piece_at("e1"), "K")
        self.assertEqual(board.piece_at(59), "q")  # d8 = 7 * 8 + 3
        self.assertIsNone(board.piece_at("e4"))
        for bad in ("i1", "e9", "", 64, -1):
            with self.assertRaises(ValueError):
                board.piece_at(bad)
        self.assertEqual(board.push_san("e4"), "e2e4")
        # The PGN standard names e3 after every double push; python-chess (ep="legal")
        # only when a capture is legal, and no black pawn stands on d4 or f4.
        self.assertEqual(board.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
        self.assertEqual(board.fen(ep="legal"),
                         "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        self.assertEqual(board.turn, "b")
        self.assertEqual(board.piece_at("e4"), "P")
        self.assertIsNone(board.piece_at(12))  # e2 is empty now
        with self.assertRaises(ValueError):
            board.fen(ep="sometimes")

    def test_scholars_mate(self):
        board = pgnkit.Board()
        for san, uci in (("e4", "e2e4"), ("e5", "e7e5"), ("Bc4", "f1c4"), ("Nc6", "b8c6"),
                         ("Qh5", "d1h5"), ("Nf6", "g8f6")):
            self.assertEqual(board.push_san(san), uci)
        self.assertFalse(board.is_check())
        self.assertEqual(board.san("h5f7"), "Qxf7#")
        self.assertEqual(board.turn, "w", "san() plays nothing")
        self.assertEqual(board.push_uci("h5f7"), "Qxf7#")
        self.assertTrue(board.is_check())
        self.assertTrue(board.is_checkmate())
        self.assertFalse(board.is_stalemate())
        self.assertEqual(board.legal_moves(), [])
        with self.assertRaises(pgnkit.MoveError) as caught:
            board.push_san("a6")
        self.assertEqual(caught.exception.code, "MOVE_AFTER_END")

    def test_stalemate(self):
        # Black's king on h8: g8 and g7 are the queen's, h7 the king's; h8 is not attacked.
        board = pgnkit.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
        self.assertFalse(board.is_check())
        self.assertFalse(board.is_checkmate())
        self.assertTrue(board.is_stalemate())
        self.assertEqual(board.legal_moves(), [])

    def test_ambiguous_and_illegal_moves_raise_and_play_nothing(self):
        fen = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"  # knights on b1 and f1 both reach d2
        board = pgnkit.Board(fen)
        with self.assertRaises(ValueError) as caught:
            board.push_san("Nd2")
        error = caught.exception
        self.assertIsInstance(error, pgnkit.MoveError)
        self.assertEqual(error.code, "AMBIGUOUS")
        self.assertEqual(sorted(error.candidates), ["b1d2", "f1d2"])
        self.assertIn("Nbd2", str(error))
        self.assertEqual(board.fen(), fen)
        self.assertEqual(board.san("f1d2"), "Nfd2")
        for san, code in (("Ne4", "ILLEGAL"), ("hello", "SYNTAX"), ("", "SYNTAX"),
                          ("Nd2\x00", "SYNTAX"), ("\u265e" * 100, "SYNTAX")):
            with self.subTest(san=san), self.assertRaises(pgnkit.MoveError) as caught:
                board.push_san(san)
            self.assertEqual(caught.exception.code, code)
        for uci, code in (("b1d3", "ILLEGAL"), ("b1d2x", "SYNTAX"), ("e1e1", "ILLEGAL"),
                          ("e1g1", "ILLEGAL"), ("", "SYNTAX"), ("e2e4\x00", "SYNTAX")):
            with self.subTest(uci=uci), self.assertRaises(pgnkit.MoveError) as caught:
                board.push_uci(uci)
            self.assertEqual(caught.exception.code, code)
        with self.assertRaises(TypeError):
            board.push_san(None)
        self.assertEqual(board.fen(), fen, "nothing played")
        self.assertEqual(board.push_san("Nbd2"), "b1d2")
        start = pgnkit.Board()
        with self.assertRaises(pgnkit.MoveError) as caught:
            start.push_san("e5")
        self.assertEqual(caught.exception.code, "ILLEGAL")
        with self.assertRaises(ValueError):
            start.push_uci("e2e5")

    def test_bad_fen_and_variant(self):
        for fen in ("not a fen", "8/8/8/8/8/8/8/8 w - - 0 1", "", "\xff" * 300):
            with self.subTest(fen=fen), self.assertRaises(ValueError) as caught:
                pgnkit.Board(fen)
            self.assertIn("FEN", str(caught.exception))
        with self.assertRaises(ValueError) as caught:
            pgnkit.Board(variant="bughouse")
        self.assertIn("bughouse", str(caught.exception))

    def test_copy_pickle_equality_and_repr(self):
        board = pgnkit.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
        copy = board.copy()
        self.assertEqual(board.push_uci("e1g1"), "O-O")
        self.assertNotEqual(board, copy)
        self.assertEqual(copy.push_uci("e1h1"), "O-O")  # king takes rook, as python-chess
        self.assertEqual(board, copy)
        self.assertEqual(board.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1")
        self.assertEqual(pickle.loads(pickle.dumps(board)), board)
        self.assertEqual(eval(repr(board), {"pgnkit": pgnkit}), board)
        with self.assertRaises(TypeError):
            hash(board)
        house = pgnkit.Board(variant="crazyhouse")
        house.push_san("e4")
        self.assertEqual(pickle.loads(pickle.dumps(house)), house)
        self.assertNotEqual(house, pgnkit.Board(), "other rules")
        with self.assertRaises(ValueError):
            pgnkit.Board(house.fen())  # pockets are no standard FEN
        c960 = pgnkit.Board(variant="chess960")
        self.assertEqual(c960.variant, "Chess960")
        self.assertEqual(pickle.loads(pickle.dumps(c960)).variant, "Chess960")

    def test_crazyhouse_drops(self):
        board = pgnkit.Board(variant="crazyhouse")
        for san in ("e4", "d5", "exd5", "Qxd5"):
            board.push_san(san)
        # Each side took a pawn; e4 is empty again.
        self.assertEqual(board.fen(),
                         "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3")
        self.assertIn("P@e4", board.legal_moves())
        other = board.copy()
        self.assertEqual(board.push_uci("P@e4"), "P@e4")
        self.assertEqual(other.push_san("P@e4"), "P@e4")
        self.assertEqual(board, other)
        self.assertEqual(board.piece_at("e4"), "P")
        with self.assertRaises(pgnkit.MoveError) as caught:
            board.push_uci("P@e4")
        self.assertEqual(caught.exception.code, "ILLEGAL")
        self.assertEqual(board.push_uci("P@e5"), "P@e5")  # Black's: UCI drops are upper case

    def test_every_position_of_real_games(self):
        # For each ply of each game, a Board set to the FEN before it agrees with the
        # reader: the move is legal, its SAN is the reader's, and it leads to the next FEN.
        checked = 0
        for path in PYTHON_CHESS_FILES + [TWIC]:
            bad = []
            for game in pgnkit.read(path, ep="standard"):
                if game.status == "skipped":
                    continue
                fens, ucis, sans = game.fens(), game.uci, game.san
                variant = game.tags.get("Variant") or None
                for i, (uci, san) in enumerate(zip(ucis, sans)):
                    board = pgnkit.Board(fens[i], variant=variant)
                    # A null move (0000, --) is no legal move, but push_uci plays it.
                    legal = board.legal_moves() + ["0000"] if uci == "0000" else board.legal_moves()
                    if (uci not in legal or board.san(uci) != san
                            or board.push_uci(uci) != san or board.fen() != fens[i + 1]):
                        bad.append((game.index, i + 1, uci, san))
                    checked += 1
            with self.subTest(path=os.path.relpath(path, ROOT)):
                self.assertEqual(bad[:5], [])
        self.assertGreater(checked, 100000)


if __name__ == "__main__":
    unittest.main()
