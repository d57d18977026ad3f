#!/bin/sh
# select.sh - selecting games: --where, --player, --result, --ending, --plies, --has,
# --reaches, --invert.  The sets of games selected are compared with Debian's pgn-extract
# (run here) on every shared PGN file where both define the same thing; the rest is
# worked out by hand below; --jobs 2 against --jobs 1 for every option; the summary's
# counts add up.
. tests/cli/lib/common.sh
P=$PGNKIT
T=$TMP
PE=/usr/games/pgn-extract

# ---- against pgn-extract ----
# A game's key: its Variant, White, Black and Round tags and its mainline in UCI, one line
# per game (pgnkit uci on pgn-extract's output too, so both sides are keyed alike; a
# difference names the game).  Games with errors are left out on our side
# (--skip-invalid): pgn-extract drops a game it cannot replay.  Null moves (Z0, --) are
# allowed on both sides (pgn-extract needs --allownullmoves).
# Left out of the comparison: Crazyhouse and Antichess games.  pgn-extract knows no
# variant rules: it rejects a drop (N@f6) as no move and calls no Antichess game won, so
# its checkmates there are chess's, not the variant's (pgnkit plays each variant's rules:
# tests/cli/variants.sh).
# And scalachess/pgn-render-pgns.pgn: its Crazyhouse game's drops derail pgn-extract's
# parser (it then writes the file's later games with no moves), and a game there has a
# FEN tag without SetUp "1", which pgnkit honours and pgn-extract does not (it plays 1.g2+
# from the standard position and rejects the game).  And chess.js/0.pgn: its moves are
# separated by HTML '<br />': pgnkit reports the game (UNEXPECTED_CHAR, an error, so
# --skip-invalid leaves it out), pgn-extract writes it with no moves at all.  And
# pgn-extract/nested-comment.pgn: a comment inside a comment, which pgnkit reports (SYNTAX,
# UNEXPECTED_CHAR); pgn-extract without --nestedcomment cuts it into pieces and writes one
# as a game of no moves ('*').
# pgn-extract writes "?" for a Seven Tag Roster tag a game lacks: so does the key.
key() { grep -avE '^(Crazyhouse|Antichess)	' | sed 's/^	/?	/; :a; s/		/	?	/; ta' | sort; }
ours() { # OPTIONS...: our selection's keys
    "$P" uci -q -j1 --skip-invalid -t Variant,White,Black,Round "$@" "$T/corpus.pgn" 2>/dev/null | key
}
theirs() { # OPTIONS...: pgn-extract's selection's keys
    "$PE" -s --allownullmoves "$@" -o "$T/pe.pgn" "$T/corpus.pgn" 2>/dev/null
    "$P" uci -q --skip-invalid -t Variant,White,Black,Round "$T/pe.pgn" 2>/dev/null | key
}
same() { # DESCRIPTION: $T/a (ours) and $T/b (pgn-extract's) hold the same games
    if cmp -s "$T/a" "$T/b"; then
        ok "$1: the same $(lines "$T/a") games"
    else
        not_ok "$1: the games differ (< ours, > pgn-extract's):"
        diff "$T/a" "$T/b" | grep '^[<>]' | cut -c1-160 | head -5
    fi
}
# first TAG FILE: the value of the first TAG in FILE.
first() { grep -am1 "^\[$1 " "$2" | sed 's/^\[[A-Za-z]* "\(.*\)"\]\r*$/\1/'; }
# A value as a PCRE2 literal (\Q...\E): names hold dots, brackets, parentheses.
literal() { printf '\\Q%s\\E' "$1"; }

: >"$T/corpus.pgn" && : >"$T/players" && : >"$T/events.txt"
# scalachess/uzchesscup.pgn ends in a tag section with no movetext: it goes last, so
# that no other file's first game follows those tags.
for f in $(ls "$TESTDATA"/*/*.pgn | grep -v uzchesscup) "$TESTDATA/scalachess/uzchesscup.pgn"; do
    case $f in */pgn-render-pgns.pgn | */chess.js/0.pgn | */nested-comment.pgn) continue ;; esac
    cat "$f" >>"$T/corpus.pgn"
    printf '\n\n' >>"$T/corpus.pgn"
    # The first word of the first White and Event of each file: the players and events
    # of every source, as a pgn-extract user types them (-TpFischer).
    w=$(first White "$f" | sed 's/[ ,].*//') e=$(first Event "$f" | sed 's/[ ,].*//')
    [ -n "$w" ] && [ "$w" != "?" ] && echo "$w" >>"$T/players"
    [ -n "$e" ] && [ "$e" != "?" ] && printf 'Event "%s"\n' "$e" >>"$T/events.txt"
done
sort -u "$T/players" -o "$T/players"
sort -u "$T/events.txt" -o "$T/events.txt"
# pgn-extract -Tp: a prefix of White or Black, several ORed; ours: one regex.
alt=$(while read -r w; do literal "$w"; echo; done <"$T/players" | paste -sd'|')
set --
while read -r w; do set -- "$@" "-Tp$w"; done <"$T/players"
ours --player "^($alt)" >"$T/a"
theirs "$@" >"$T/b"
same "--player vs pgn-extract -Tp ($(lines "$T/players") names)"
if [ "$(lines "$T/a")" -gt 100 ] && [ "$(lines "$T/a")" -lt "$(ours | wc -l)" ]; then held=0; else held=1; fi
check "the players selected are not all or none" [ "$held" -eq 0 ]
# --invert: the games pgn-extract -n writes (the valid games not matched).
ours --invert --player "^($alt)" >"$T/a"
"$PE" -s --allownullmoves "$@" -n "$T/pe-n.pgn" -o /dev/null "$T/corpus.pgn" 2>/dev/null
"$P" uci -q --skip-invalid -t Variant,White,Black,Round "$T/pe-n.pgn" 2>/dev/null | key >"$T/b"
same "--invert --player vs pgn-extract -Tp -n"
# Event: a tag file's  Event "X"  is a prefix too, several ORed.
alt=$(sed 's/^Event "\(.*\)"$/\1/' "$T/events.txt" | while read -r e; do literal "$e"; echo; done |
      paste -sd'|')
ours --where "Event ~ ^($alt)" >"$T/a"
theirs "-t$T/events.txt" >"$T/b"
same "--where 'Event ~ ^(...)' vs a pgn-extract -t tag file ($(lines "$T/events.txt") events)"
ours --ending checkmate >"$T/a"
theirs --checkmate >"$T/b"
same "--ending checkmate vs pgn-extract --checkmate"
check "some checkmates ($(lines "$T/a"))" [ "$(lines "$T/a")" -gt 5 ]
ours --ending stalemate >"$T/a"
theirs --stalemate >"$T/b"
same "--ending stalemate vs pgn-extract --stalemate"
check "some stalemates ($(lines "$T/a"))" [ "$(lines "$T/a")" -gt 1 ]
ours --result 1-0 >"$T/a"
theirs -Tr1-0 >"$T/b"
same "--result 1-0 vs pgn-extract -Tr1-0"
# --where reads the tag only: the games without a Result tag are the difference.
ours --where 'Result = 1-0' >"$T/b"
ours --where 'Result !~ .' --result 1-0 >>"$T/b"
sort "$T/b" -o "$T/b"
check "--result 1-0 is --where 'Result = 1-0' and the games without a Result tag marked 1-0" \
    cmp -s "$T/a" "$T/b"

# ---- tags, worked by hand ----
{
    game A White=Carlsen Black=Anand WhiteElo=2850 Date=2014.11.23 Result=1-0 '1. e4 e5 1-0'
    game B White=Anand Black=Carlsen WhiteElo=2792 Date=2014.??.?? Result=0-1 '1. d4 d5 0-1'
    game C White=Kasparov Black=Topalov WhiteElo=- Date=1999.01.20 Result=1-0 '1. e4 d6 1-0'
    game D White=Nobody Black=carlsen Date=????.??.?? Result=1/2-1/2 '1. c4 c5 1/2-1/2'
    game E White=Tal Black=Botvinnik WhiteElo=2700 Result=* '1. Nf3 Nf6 *'
} >"$T/tags.pgn"
sel() { "$P" uci -q -t Event "$@" "$T/tags.pgn" 2>/dev/null | cut -f1 | tr -d '\n'; }
expect() { # WANT OPTIONS...
    want=$1
    shift
    got=$(sel "$@")
    if [ "$got" = "$want" ]; then ok "$* -> $want"; else not_ok "$* -> '$got', want '$want'"; fi
}
expect AB --player 'Carlsen'
expect ABD --player '(?i)carlsen'
expect AC --result 1-0
expect ACE --result '1-0,*'
# Numbers: "-" and a missing WhiteElo are no number: they compare false.
expect AB --where 'WhiteElo > 2750'
expect ABE --where 'WhiteElo >= 2700'
expect E --where 'WhiteElo < 2792'
expect B --where 'WhiteElo = 2792'
# != and !~ are the negations of = and ~: a game without the tag matches them (D has no
# WhiteElo).  pgn-extract's <> matches only games that have the tag.
expect ACDE --where 'WhiteElo != 2792'
expect CD --where 'WhiteElo !~ ^2[78]'
expect '' --where 'NoSuchTag = x'
expect ABCDE --where 'NoSuchTag != x'
# Dates: only the parts the value gives are compared; ?? before a decision is false.
expect AB --where 'Date >= 2014'
expect A --where 'Date >= 2014.11'
expect A --where 'Date > 2014.11.22'
expect C --where 'Date < 2014.01.01'
expect C --where 'Date < 2014'
expect '' --where 'Date < 1000'
expect B --where 'Date = 2014.??.??'
# A YYYY.MM.DD value makes any tag a date (EventDate, UTCDate, or one of one's own).
game F White=x Black=y MyDate=2020.05.01 Result=* '1. e4 *' >>"$T/tags.pgn"
expect F --where 'MyDate > 2020.04.30'
# Bytes otherwise.
expect E --where 'Black >= Botvinnik' --where 'Black < Carlsen'
# Several criteria: all of them.
expect A --where 'White ~ ^C' --result 1-0
expect BCDEF --invert --where 'White ~ ^C' --result 1-0
expect 'A' --where 'Event = "A"'

# ---- game facts, worked by hand ----
{
    # 1: Fool's mate, 4 plies.
    game mate1 Result=0-1 '1. f3 e5 2. g4 Qh4# 0-1'
    # 2: the start position three times (plies 0, 4, 8): threefold at the end.
    game rep3 Result=1/2-1/2 '1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2'
    # 3: the same, one move more: the final position stands once (pgn-extract --repetition
    # would take it: a repetition anywhere; --ending is how the game ends).
    game rep3more Result=* '1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 *'
    # 4: king and bishop against king: insufficient material.
    game kbk SetUp=1 FEN='4k3/8/8/8/8/8/8/4KB2 w - - 0 1' Result=1/2-1/2 '1. Bd3 Kd7 1/2-1/2'
    # 5: bishops on squares of one colour (f8 and c1: both dark).
    game bb SetUp=1 FEN='4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1' Result=1/2-1/2 '1. Kd2 Kd7 1/2-1/2'
    # 6: two knights: mate is possible (with help): not insufficient by this rule.
    game nn SetUp=1 FEN='4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1' Result=* '1. Kd2 Kd7 *'
    # 7: halfmove clock 98, two quiet moves: 100 at the end: fifty moves.
    game fifty SetUp=1 FEN='4k3/8/8/8/8/8/8/R3K3 w - - 98 80' Result=1/2-1/2 '80. Ra2 Kd7 1/2-1/2'
    # 8: 1.e4 e5 2.Nf3 (Black to move; no e.p. capture possible).
    game e4e5Nf3 Result=* '1. e4 e5 2. Nf3 *'
    # 9: the same position by transposition: 1.Nf3 e5 2.e4 (e.p. square e3 in the FEN,
    #    but no black pawn can take on e3: the position is the same).
    game transposed Result=* '1. Nf3 e5 2. e4 *'
    # 10: an illegal move at ply 3: replayed up to ply 2, ILLEGAL.
    game broken Result=* '1. e4 e5 2. Ke3 *'
    # 11: stalemate (Qf7 takes g8, g7 and h7 from the king on h8, which is not in check).
    game stale SetUp=1 FEN='7k/8/8/5Q2/8/8/8/6K1 w - - 0 1' Result=1/2-1/2 '1. Qf7 1/2-1/2'
    # 12: Fool's mate without its '#': MATE_MISSING (a warning).
    game mate2 Result=0-1 '1. f3 e5 2. g4 Qh4 0-1'
} >"$T/facts.pgn"
fsel() { "$P" uci -q -t Event "$@" "$T/facts.pgn" 2>/dev/null | cut -f1 | tr '\n' ' ' | sed 's/ $//'; }
fexpect() {
    want=$1
    shift
    got=$(fsel "$@")
    if [ "$got" = "$want" ]; then ok "$* -> $want"; else not_ok "$* -> '$got', want '$want'"; fi
}
fexpect 'mate1 mate2' --ending checkmate
fexpect 'stale' --ending stalemate
fexpect 'rep3' --ending threefold
fexpect 'kbk bb' --ending insufficient
fexpect 'fifty' --ending fifty-moves
fexpect 'rep3more nn e4e5Nf3 transposed' --ending none
fexpect 'mate1 stale mate2' --ending checkmate,stalemate
# The broken game has no ending: no --ending value takes it (not even none).
fexpect 'broken' --invert --ending checkmate,stalemate,insufficient,fifty-moves,threefold,none
fexpect 'mate1 e4e5Nf3 transposed mate2' --plies 3:4
fexpect 'mate1 kbk bb nn fifty e4e5Nf3 transposed broken stale mate2' --plies :4
fexpect 'rep3 rep3more' --plies 8:
fexpect 'fifty' --plies 2:2 --ending fifty-moves
fexpect 'broken' --has ILLEGAL
fexpect 'broken mate2' --has ILLEGAL,MATE_MISSING
fexpect 'mate2' --has ILLEGAL,MATE_MISSING --where 'Event ~ ^mate'
# --reaches: the position after 1.e4 e5 2.Nf3, written with and without an e.p. square
# (none can be taken: the same position), found in both games.
fexpect 'e4e5Nf3 transposed' --reaches 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2'
fexpect 'e4e5Nf3 transposed' --reaches 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 0 9'
# After 1.Nf3 e5 2.e4 the FEN says e3; still the same position (no capture on e3 legal).
fexpect 'e4e5Nf3 transposed' --reaches 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq e3 0 2'
# The side to move and castling rights count: White to move, or no castling, is another.
fexpect '' --reaches 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 1 2'
fexpect '' --reaches 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b - - 1 2'
# The start position is reached by every standard game at ply 0.
fexpect 'mate1 rep3 rep3more e4e5Nf3 transposed broken mate2' --reaches 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
# An e.p. square that matters: after 1.e4 d5 2.e5 f5 White may take on f6: that FEN
# (with f6) is not the one without it.
{
    game epyes Result=* '1. e4 d5 2. e5 f5 *'
    game epno Result=* '1. e3 d5 2. e4 f6 3. e5 f5 *'
} >"$T/ep.pgn"
epsel() { "$P" uci -q -t Event --reaches "$1" "$T/ep.pgn" 2>/dev/null | cut -f1 | tr '\n' ' ' | sed 's/ $//'; }
got=$(epsel 'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3')
check "--reaches with a capturable e.p. square: only the game that has it ($got)" [ "$got" = epyes ]
got=$(epsel 'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3')
check "--reaches without it: only the game reaching it without the double push ($got)" [ "$got" = epno ]

# check with a selection: only the selected games are checked, reported and counted.
run "$P" check --where 'Event = broken' "$T/facts.pgn"
check "check --where: the selected game's diagnostics" grep -q 'error\[ILLEGAL\]' "$T/out"
check "check --where: exit 1 (the selected game has errors)" [ $rc -eq 1 ]
check "check --where: its summary counts it, the others not selected" \
    grep -q '^pgnkit: 12 games: 0 ok, 0 with warnings, 1 with errors, 0 skipped; 2 plies; .*; 1 kept, 11 dropped (0 invalid, 0 duplicate, 11 not selected)' "$T/err"
run "$P" check --where 'Event != broken' "$T/facts.pgn"
if [ $rc -eq 0 ] && ! grep -q ILLEGAL "$T/out"; then held=0; else held=1; fi
check "check --where: the games not selected are not reported (exit 0)" [ "$held" -eq 0 ]

# ---- usage errors: exit 2, naming the problem ----
usage() { # PATTERN OPTIONS...
    pat=$1
    shift
    run "$P" uci "$@" "$T/tags.pgn"
    if [ $rc -eq 2 ] && grep -qF -- "$pat" "$T/err" && [ ! -s "$T/out" ]; then
        ok "$* -> exit 2: $pat"
    else
        not_ok "$* -> exit $rc: $(head -c 200 "$T/err")"
    fi
}
usage "no operator" --where 'Event'
usage "no tag name before the operator" --where '= x'
usage "neither part of a tag name" --where 'Ev-ent = x'
usage "missing closing parenthesis at offset 1" --where 'Event ~ ('
usage "missing terminating ] for character class at offset 3" --player '[ab'
usage "--ending knows checkmate, stalemate, insufficient, fifty-moves, threefold, none, king-exploded, king-of-the-hill, three-checks, racing-kings, horde-wiped-out, antichess; not 'mate'" --ending mate
usage "--result knows 1-0, 0-1, 1/2-1/2, *; not '1:0'" --result 1:0
usage "--plies wants MIN:MAX" --plies 5:3
usage "--plies wants MIN:MAX" --plies x
usage "unknown code 'ILEGAL' (codes: CONTROL_BYTE" --has ILEGAL
usage "--reaches 'not a fen' is no FEN" --reaches 'not a fen'
usage "--invert needs a criterion" --invert
# An unknown tag is no error: it matches nothing (above).

# ---- --jobs 2 writes what --jobs 1 writes, for every option and command ----
cat "$TESTDATA"/*/*.pgn "$TESTDATA"/*/*.pgn >"$T/all.pgn"
jobs_same() { # COMMAND OPTIONS...
    "$P" "$@" -q -j1 "$T/all.pgn" >"$T/o1" 2>"$T/e1"
    r1=$?
    "$P" "$@" -q -j2 "$T/all.pgn" >"$T/o2" 2>"$T/e2"
    r2=$?
    if cmp -s "$T/o1" "$T/o2" && cmp -s "$T/e1" "$T/e2" && [ $r1 = $r2 ] && [ -s "$T/o1" ]; then
        ok "$* -j2 = -j1 ($(lines "$T/o1") lines)"
    else
        not_ok "$* -j2 differs from -j1 (exit $r2 vs $r1)"
    fi
}
jobs_same uci --where 'Result = 1-0'
jobs_same uci --where 'WhiteElo >= 2500' --where 'Date < 2020.01.01'
jobs_same fen --player '(?i)^(carlsen|stockfish)'
jobs_same pgn --result 0-1,1/2-1/2
jobs_same pgn --verbatim --ending checkmate,stalemate
jobs_same check --has ILLEGAL,AMBIGUOUS
jobs_same uci --plies 40:80 --invert
jobs_same uci --reaches 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2'
jobs_same uci --ending threefold,fifty-moves,insufficient,none --dedupe
jobs_same pgn --where 'Event ~ TCEC' --skip-invalid --dedupe

# ---- the summary: games in = written + dropped, per reason ----
"$P" uci -q -j2 --where 'Event ~ TCEC' --skip-invalid --dedupe --summary-json "$T/s.json" \
    "$T/all.pgn" >"$T/o" 2>/dev/null
written=$(lines "$T/o")
tr -d '\n' <"$T/s.json" | sed 's/"files".*//' >"$T/s.top"
num() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" "$T/s.top"; }
games=$(num games) w=$(num written) inv=$(num invalid) dup=$(num duplicate) ns=$(num not_selected)
check "summary-json: written ($w) is the lines written ($written)" [ "$w" = "$written" ]
check "summary-json: games $games = $w written + $inv invalid + $dup duplicate + $ns not selected" \
    [ "$games" = $((w + inv + dup + ns)) ] && [ "$inv" -gt 0 ] && [ "$dup" -gt 0 ] && [ "$ns" -gt 0 ]
"$P" uci -q -j1 --where 'Event ~ TCEC' --skip-invalid --dedupe --summary-json "$T/s1.json" \
    "$T/all.pgn" >/dev/null 2>&1
tr -d '\n' <"$T/s1.json" | sed -E 's/"files".*//; s/"(seconds|cpu_seconds|started|ended)":[0-9.]+//g' >"$T/s1.top"
sed -E 's/"(seconds|cpu_seconds|started|ended)":[0-9.]+//g' "$T/s.top" >"$T/s2.top"
check "summary-json: -j2 counts as -j1" cmp -s "$T/s1.top" "$T/s2.top"
# Merged: two files' summaries add up, written and dropped included.
"$P" uci -q --player Carlsen --summary-json "$T/p1.json" "$T/tags.pgn" >/dev/null 2>&1
"$P" uci -q --ending checkmate --summary-json "$T/p2.json" "$T/facts.pgn" >/dev/null 2>&1
run "$P" summary "$T/p1.json" "$T/p2.json"
check "pgnkit summary merges written (kept) and dropped: 18 games, 4 kept, 14 not selected" \
    grep -q '^pgnkit: 18 games: .*; 4 kept, 14 dropped (0 invalid, 0 duplicate, 14 not selected)' "$T/err"
"$P" summary --format json "$T/p1.json" "$T/p2.json" >"$T/m.json" 2>/dev/null
check "pgnkit summary --format json carries them" \
    grep -q '^{"schema":1,"games":18,"written":4,"dropped":{"invalid":0,"duplicate":0,"not_selected":14}' "$T/m.json"
run "$P" uci --summary --where 'White = Tal' "$T/tags.pgn"
check "uci --summary: 6 games, 1 written, 5 not selected" \
    grep -q '^pgnkit: 6 games: .*; 1 written, 5 dropped (0 invalid, 0 duplicate, 5 not selected)' "$T/err"

finish
