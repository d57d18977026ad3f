#!/bin/sh
# completion.sh - the bash completion (completion/pgnkit.bash, which asks
# `pgnkit --complete`) offers the commands, each command's own options and no other
# command's, the values of the options that take a fixed set, and file names.  Expected
# lists are the --help texts and values written out here by hand; every value offered is
# one the parser takes.
. tests/cli/lib/common.sh
script=$(pwd)/completion/pgnkit.bash
fools=$TESTDATA/pgn-extract/fools-mate.pgn

if ! command -v bash >/dev/null 2>&1; then
    skip "no bash"
    finish
fi

# offered WORD...: what bash offers at the last WORD (the first is the program), sorted.
offered() {
    bash --norc --noprofile -c '
        . "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _pgnkit
        [ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"' sh "$script" "$PGNKIT" "$@" |
        LC_ALL=C sort
}

# is WORD...: the sorted lines of $got equal the WORDs, sorted.
is() { [ "$got" = "$(printf '%s\n' "$@" | LC_ALL=C sort)" ]; }

check "sourcing it registers _pgnkit for pgnkit" \
    bash --norc -c '. "$1" && complete -p pgnkit | grep -q _pgnkit' sh "$script"

got=$(offered uci --wh)
check "'pgnkit uci --wh' offers --where ($got)" is --where

# The commands: those 'pgnkit --help' lists.
got=$(offered "" | grep -v '^-')
want=$("$PGNKIT" --help | sed -nE 's/^  ([a-z]+) .*/\1/p' | LC_ALL=C sort)
check "'pgnkit ' offers the commands of --help ($(echo $got))" [ "$got" = "$want" ]
got=$(offered p)
check "'pgnkit p' offers perft, pgn" is perft pgn

got=$(offered uci --format "")
check "'pgnkit uci --format ' offers text json pgn tsv san lalg" is text json pgn tsv san lalg
got=$(offered check --format "")
check "'pgnkit check --format ' offers only check's formats: text json" is text json
got=$(offered pgn -f "")
check "'pgnkit pgn -f ' offers pgn" is pgn
got=$(offered uci --format = j)
check "'pgnkit uci --format=j' (bash splits at =) offers json" is json
got=$(offered fen --ep "")
check "'pgnkit fen --ep ' offers standard legal" is standard legal
got=$(offered check --ending "")
check "'pgnkit check --ending ' offers the six endings" \
    is checkmate stalemate insufficient fifty-moves threefold none
got=$(offered uci --encoding "")
check "'pgnkit uci --encoding ' offers auto utf-8 latin1 cp1252" is auto utf-8 latin1 cp1252

# Each command's options: exactly the long options its --help lists.
for cmd in check uci fen pgn; do
    got=$(offered "$cmd" --)
    want=$("$PGNKIT" "$cmd" --help | sed -nE 's/^ +(-[a-zA-Z], )?(--[a-z0-9-]+).*/\2/p' |
        grep -vx -- --version | LC_ALL=C sort)
    check "'pgnkit $cmd --' offers the options of '$cmd --help' ($(echo "$got" | wc -l))" \
        [ "$got" = "$want" ]
done
# The table gives --verbatim to pgn only and --every to fen only.
got=$(offered pgn --verb)
check "'pgnkit pgn --verb' offers --verbatim" is --verbatim
got=$(offered uci --verb)
check "'pgnkit uci --verb' offers nothing: --verbatim is pgn's" [ -z "$got" ]
got=$(offered uci --ev)
check "'pgnkit uci --ev' offers nothing: --every is fen's" [ -z "$got" ]
got=$(offered perft --)
check "'pgnkit perft --' offers perft's own --divide --variant --help" is --divide --help --variant

# Files: after a command, after -o; no files where tag names go.
mkdir -p "$TMP/dir"
: >"$TMP/dir/games.pgn"
: >"$TMP/dir/other.pgn"
got=$(offered uci "$TMP/dir/ga")
check "'pgnkit uci DIR/ga' completes the file" is "$TMP/dir/games.pgn"
got=$(offered check -o "$TMP/dir/ot")
check "'pgnkit check -o DIR/ot' completes the file" is "$TMP/dir/other.pgn"
got=$(offered uci --tags "")
check "'pgnkit uci --tags ' offers no files (tag names)" [ -z "$got" ]

# Every value offered is one the parser takes (no drift between the two lists): the
# options whose argument completes to a fixed set of words, not to file names.
set -f # --result offers '*'
cd "$TMP/dir"
files=$(offered check "")
values=0 refused=0
for cmd in check uci fen pgn; do
    for opt in $(offered "$cmd" --); do
        list=$(offered "$cmd" "$opt" "")
        [ -n "$list" ] && [ "$list" != "$files" ] || continue
        case $cmd$opt in pgn* | *--format) fmt= ;; *) fmt="--format json" ;; esac
        for v in $list; do
            values=$((values + 1))
            # shellcheck disable=SC2086
            run "$PGNKIT" "$cmd" $fmt "$opt" "$v" "$fools"
            [ "$rc" -ne 2 ] || { refused=$((refused + 1)); echo "refused: pgnkit $cmd $fmt $opt $v: $(cat "$TMP/err")"; }
        done
    done
done
cd - >/dev/null
check "the parser takes each of the $values values offered" [ "$refused" -eq 0 ]
set +f

# zsh: completion/_pgnkit run with compadd and _files stubbed (no terminal needed).
zsh_offered() {
    zsh -f -c '
        compadd() { [[ $1 == -Q ]] && shift; [[ $1 == -a ]] && print -l -- ${(P)2}; }
        _files() { print "<files>"; }
        words=("$@"); CURRENT=$#
        source completion/_pgnkit' zsh "$PGNKIT" "$@" | LC_ALL=C sort
}
if command -v zsh >/dev/null 2>&1; then
    got=$(zsh_offered uci --wh)
    check "zsh: 'pgnkit uci --wh' offers --where" is --where
    got=$(zsh_offered uci --format=j)
    check "zsh: 'pgnkit uci --format=j' (one word in zsh) offers --format=json" is --format=json
    got=$(zsh_offered fen --ep "")
    check "zsh: 'pgnkit fen --ep ' offers standard legal" is standard legal
    got=$(zsh_offered uci "")
    check "zsh: 'pgnkit uci ' completes files" is "<files>"
else
    skip "zsh is not installed: completion/_pgnkit unchecked"
fi
finish
