#!/bin/sh
# no_silent.sh - no option is silently ignored: each works in every combination it is
# accepted in (--tags and --with in JSON, -q for every command, --max-errors says that it
# stopped, fen --ply past the end is a diagnostic) or the combination is a usage error;
# each command's --help lists its own formats; short options bundle.
. "$(dirname "$0")/lib/common.sh"

fischer=$TESTDATA/pgn-extract/fischer.pgn
fools=$TESTDATA/pgn-extract/fools-mate.pgn
mutants=$TESTDATA/mutants/mutants.pgn
lichess=tests/cli/data/lichess-2.pgn
PY=$(command -v /usr/bin/python3 python3 | head -n 1)

# one_line_saying TEXT: the last run's stderr is one line, holding TEXT.
one_line_saying() { [ "$(lines "$TMP/err")" -eq 1 ] && grep_err "$1"; }

# refused DESCRIPTION TEXT ARGS...: pgnkit ARGS is a one-line usage error holding TEXT.
refused() {
    _d=$1 _text=$2
    shift 2
    run "$PGNKIT" "$@"
    check "$_d: exit 2, nothing on stdout" [ "$rc" -eq 2 -a ! -s "$TMP/out" ]
    check "$_d: one line saying '$_text'" one_line_saying "$_text"
}

# ---- combinations that would do nothing are refused ----------------------------------
refused "uci --with clk in text" "--with clk, eval, emt need --format tsv or json: text writes" \
    uci --with clk "$lichess"
refused "uci --with eval in pgn" "--with clk, eval, emt need --format tsv or json: PGN writes" \
    uci --format pgn --with eval "$lichess"
refused "fen --with clk in text" "--with clk, eval, emt need --format json" \
    fen --every --with clk "$lichess"
refused "uci --with file in pgn" "--with file, offset add columns: PGN output has none" \
    uci --format pgn --with file "$lichess"
refused "fen --comments --with offset" "PGN output has none" fen --comments --with offset "$lichess"
refused "uci --ep without JSON" "--ep changes FENs" uci --ep legal "$fools"
refused "uci --shredder without JSON" "--shredder changes FENs" uci -f tsv --shredder "$fools"
refused "fen --castling without JSON" "--castling changes UCI moves" \
    fen --castling king-takes-rook "$fools"
refused "fen --ply with --every" "--ply, --every and --comments exclude each other" \
    fen --ply 3 --every "$fools"
refused "fen --every with --comments" "exclude each other" fen --every --comments "$fools"
refused "fen --comments in JSON" "--comments writes PGN" fen --comments -f json "$fools"
refused "-q with --summary" "--quiet and --summary contradict" check -q --summary "$fools"
refused "--max-errors with --jobs 2" "--max-errors stops at an exact game" \
    check --max-errors 1 -j2 "$fools"
run "$PGNKIT" check --max-errors 1 -j1 "$fools"
check "--max-errors with --jobs 1: accepted" [ "$rc" -eq 0 ]

# ---- short options bundle ------------------------------------------------------------
"$PGNKIT" uci -q -j1 -f json "$fischer" >"$TMP/want" 2>/dev/null
run "$PGNKIT" uci -qj1 -fjson "$fischer"
check "-qj1 -fjson = -q -j1 -f json" cmp -s "$TMP/out" "$TMP/want"
run "$PGNKIT" uci -qj1fjson "$fischer"
check "-qj1fjson: j takes the rest of the word ('1fjson')" grep_err "--jobs wants a number, not '1fjson'"
run "$PGNKIT" uci -qo "$TMP/bundled.json" -fjson -j1 "$fischer"
check "-qo FILE: the next word is FILE" cmp -s "$TMP/bundled.json" "$TMP/want"
check "-qo FILE: nothing on stdout or stderr" [ ! -s "$TMP/out" -a ! -s "$TMP/err" ]
refused "unknown letter in a bundle" "unknown option '-Z' in '-qZ'" uci -qZ "$fools"
refused "flag given a value in a bundle" "unknown option '-x' in '-qx'" uci -qx "$fools"

# ---- -q for every command: nothing on stderr but failures -----------------------------
for cmd in uci fen pgn; do
    run "$PGNKIT" "$cmd" "$mutants"
    check "$cmd without -q: diagnostics on stderr" grep -q 'error\[' "$TMP/err"
    run "$PGNKIT" "$cmd" -q "$mutants"
    check "$cmd -q: exit 1 still (errors in games)" [ "$rc" -eq 1 ]
    check "$cmd -q: nothing on stderr" [ ! -s "$TMP/err" ]
done
run "$PGNKIT" check -q "$mutants"
check "check -q: diagnostics (its output) still on stdout" grep -q 'error\[' "$TMP/out"
check "check -q: no summary line" [ ! -s "$TMP/err" ]
run "$PGNKIT" uci -q -o "$TMP/no-such-dir/x" "$fools"
check "uci -q: failures still said" grep_err "cannot create"

# ---- --max-errors says that it stopped; the counts are those of the games read --------
run "$PGNKIT" check --max-errors 2 "$mutants" "$fools"
check "--max-errors: exit 1" [ "$rc" -eq 1 ]
check "--max-errors: says where it stopped" \
    grep_err "pgnkit: stopped after game "
check "--max-errors: and what was not read" grep_err "the rest was not read (nor 1 more input)"
stopped=$(sed -n 's/^pgnkit: stopped after game \([0-9]*\) .*/\1/p' "$TMP/err")
counted=$(sed -n 's/^pgnkit: \([0-9]*\) games\?: .*/\1/p' "$TMP/err")
check "--max-errors: the summary counts the games read ($stopped = $counted)" \
    [ -n "$stopped" -a "$stopped" = "$counted" ]
check "--max-errors: the diagnostics are of those games only" \
    [ -z "$(sed -n 's/.*: game \([0-9]*\)[,:].*/\1/p' "$TMP/out" | awk -v n="$stopped" '$1 > n')" ]

# ---- fen --ply past the end: a PLY_PAST_END warning -------------------------------------
# Fool's mate is 4 plies: 1. f3 e5 2. g4 Qh4#.
run "$PGNKIT" fen --ply 4 "$fools"
check "fen --ply 4 (the last): the position after 2... Qh4#" \
    [ "$(cat "$TMP/out")" = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3" ]
check "fen --ply 4: no warning" [ ! -s "$TMP/err" ]
run "$PGNKIT" fen --ply 5 "$fools"
check "fen --ply 5: an empty line, aligned with the game" [ "$(cat "$TMP/out")" = "" -a "$(lines "$TMP/out")" -eq 1 ]
check "fen --ply 5: a PLY_PAST_END warning naming the game and its length" \
    grep_err "warning[PLY_PAST_END]: game 1: --ply 5: the game ends after ply 4"
check "fen --ply 5: exit 0 (a warning)" [ "$rc" -eq 0 ]
run "$PGNKIT" fen --ply 5 --fail-on warning "$fools"
check "fen --ply 5 --fail-on warning: exit 1" [ "$rc" -eq 1 ]
run "$PGNKIT" fen --ply 5 -f json --summary "$fools"
check "fen --ply 5 --summary: counted as a game with warnings" \
    grep_err "1 game: 0 ok, 1 with warnings"
check "fen --ply 5 --summary: in the per-code report" grep_err "PLY_PAST_END "
check "fen --ply 5 -f json: an empty fens array" grep -q '"fens":\[\]' "$TMP/out"

# ---- each command's --help lists its own formats --------------------------------------
for pair in "check:text|json (default text)" "uci:text|json|pgn|tsv|san|lalg (default text)" \
    "fen:text|json|epd (default text)" "pgn:pgn (default pgn)"; do
    cmd=${pair%%:*}
    "$PGNKIT" "$cmd" --help >"$TMP/help"
    check "$cmd --help: --format ${pair#*:}" grep -qF -- "--format FMT               ${pair#*:}" "$TMP/help"
done
refused "uci: unknown format lists uci's" "unknown --format 'xml' (text|json|pgn|tsv|san|lalg)" \
    uci -f xml "$fools"
refused "pgn: unknown format lists pgn's" "unknown --format 'xml' (pgn)" pgn -f xml "$fools"

# ---- --tags in JSON and PGN: only the tags named, in their order -----------------------
if [ -n "$PY" ]; then
    "$PGNKIT" uci -q -f json --tags Black,White,Nope "$fischer" >"$TMP/tags.json"
    grep -o '^\[White "[^"]*"\]' "$fischer" | sed 's/^\[White "//; s/"\]$//' >"$TMP/whites"
    "$PY" -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
whites = [l.rstrip("\n") for l in open(sys.argv[2])]
assert len(rows) == len(whites) == 34, (len(rows), len(whites))
for r, w in zip(rows, whites):
    assert list(r["tags"]) == ["Black", "White", "Nope"], list(r["tags"])
    assert r["tags"]["White"] == w and r["tags"]["Nope"] is None
' "$TMP/tags.json" "$TMP/whites"
    check "uci -f json --tags: only the tags named, in that order, null when missing" [ $? -eq 0 ]
else
    skip "--tags in JSON: no python3"
fi
"$PGNKIT" uci -q -f pgn --tags Result,White "$fools" >"$TMP/tags.pgn"
check "uci -f pgn --tags: the tag section has only those, in that order" \
    [ "$(grep '^\[' "$TMP/tags.pgn" | cut -d' ' -f1 | tr '\n' ' ')" = "[Result [White " ]

# ---- --with in JSON: one value (or null) per mainline move, as the comments say --------
if [ -n "$PY" ]; then
    "$PGNKIT" uci -q -f json --with clk,eval,emt "$lichess" >"$TMP/with.json"
    "$PGNKIT" uci -q -f tsv --with clk,eval,emt "$lichess" >"$TMP/with.tsv"
    "$PY" -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
tsv = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])][1:]
# Game 1 as written: 1. e4 { [%clk 0:01:00] } 1... c5 { [%clk 0:01:00] } 2. Nf3 { [%clk 0:01:00] } 2... d6 { [%clk 0:00:59] }
# JSON gives clocks in seconds (numbers), TSV as written (h:mm:ss).
assert rows[0]["clk"][:4] == [60, 60, 60, 59], rows[0]["clk"][:4]
assert all(type(c) is int for c in rows[0]["clk"][:4])
assert rows[0]["eval"][0] is None and rows[0]["emt"][0] is None
def seconds(text):
    if not text:
        return None
    h, m, s = text.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)
def same(j, t):
    return [j[0], j[1], j[2], j[3], j[4], j[5], j[6]] == [t[0], t[1], t[2], t[3], seconds(t[4]), t[5], seconds(t[6])]
flat = []
for r in rows:
    assert len(r["clk"]) == len(r["eval"]) == len(r["emt"]) == len(r["uci"])
    for i, u in enumerate(r["uci"]):
        flat.append([str(r["game"]), str(i + 1), u, r["san"][i], r["clk"][i],
                     r["eval"][i] or "", r["emt"][i]])
assert len(flat) == len(tsv) and all(same(j, t) for j, t in zip(flat, tsv)), "JSON and TSV disagree"
' "$TMP/with.json" "$TMP/with.tsv"
    check "uci -f json --with: clk/eval/emt arrays as the comments say, clk in seconds, equal to the TSV columns" [ $? -eq 0 ]
    "$PGNKIT" fen -q -f json --with clk "$lichess" >"$TMP/fen-with.json"
    "$PY" -c '
import json, sys
fen = [json.loads(l) for l in open(sys.argv[1])]
uci = [json.loads(l) for l in open(sys.argv[2])]
assert [r["clk"] for r in fen] == [r["clk"] for r in uci]
' "$TMP/fen-with.json" "$TMP/with.json"
    check "fen -f json --with clk: the same clk arrays as uci" [ $? -eq 0 ]
else
    skip "--with in JSON: no python3"
fi

# A reader that goes away (| head -1) ends check quietly, exit 0; its summary line is
# the counts so far, and a second line says they are not the whole input's.
# Ten copies: ~0.5 MB of diagnostics, more than a pipe holds, so the reader's going
# away is always seen.
for i in 1 2 3 4 5 6 7 8 9 10; do cat "$TESTDATA/mutants/mutants.pgn"; done >"$TMP/mutants10.pgn"
mutants=$TMP/mutants10.pgn
"$PGNKIT" check "$mutants" 2>"$TMP/head-err" | head -n 1 >/dev/null
check "| head -1: the partial counts are said to be partial" \
    grep -q "^pgnkit: the output was closed: these are the counts so far" "$TMP/head-err"
"$PGNKIT" check "$mutants" >/dev/null 2>"$TMP/whole-err"
check "a whole run: no such line" [ "$(grep -c "counts so far" "$TMP/whole-err")" -eq 0 ]

finish
