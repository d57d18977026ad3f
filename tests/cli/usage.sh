#!/bin/sh
# usage.sh - usage errors are one line on stderr naming the problem with a --help hint,
# nothing on stdout, exit 2; unknown names suggest the nearest valid one.  Inputs that
# cannot be read (missing, a directory) are exit 2 with a clear line too.
. "$(dirname "$0")/lib/common.sh"

fools=$TESTDATA/pgn-extract/fools-mate.pgn

# usage_error DESCRIPTION TEXT ARGS...: pgnkit ARGS is a one-line usage error holding TEXT.
usage_error() {
    _d=$1 _text=$2
    shift 2
    run "$PGNKIT" "$@"
    check "$_d: exit 2" [ "$rc" -eq 2 ]
    check "$_d: one line on stderr" [ "$(lines "$TMP/err")" -eq 1 ]
    check "$_d: nothing on stdout" [ ! -s "$TMP/out" ]
    check "$_d: says '$_text'" grep_err "$_text"
    check "$_d: hints at --help" grep_err "--help'"
}

usage_error "no command" "no command given"
usage_error "unknown command" "unknown command 'frobnicate'" frobnicate "$fools"
usage_error "misspelt command" "did you mean 'check'?" chekc "$fools"
usage_error "option before the command" "the command comes first" --quiet uci "$fools"
usage_error "unknown option" "unknown option '--formt'; did you mean '--format'?" \
    uci --formt json "$fools"
usage_error "unknown option with =" "did you mean '--max-errors'?" check --max-error=3 "$fools"
# Suggestions come from the command's own options: uci's --tags is no help to pgn.
usage_error "suggests this command's option" "did you mean '--tags'?" uci --notags "$fools"
run "$PGNKIT" pgn --notags "$fools"
told=0
grep_err "'--tags'" && told=1
check "pgn --notags: not told of uci's --tags" [ "$rc" -eq 2 -a "$told" -eq 0 ]
usage_error "unknown option, nothing near" "unknown option '--zzzzzzzzzz'" uci --zzzzzzzzzz
usage_error "unknown short option" "unknown option '-Z'" uci -Z "$fools"
usage_error "option of another command" "'pgnkit check' has no option --tags" \
    check --tags Event "$fools"
usage_error "fen option on uci" "has no option --every" uci --every "$fools"
usage_error "missing argument" "--tags needs an argument" uci "$fools" --tags
usage_error "missing argument (short)" "--output needs an argument" check "$fools" -o
usage_error "bad number" "--jobs wants a number, not 'many'" uci --jobs many "$fools"
usage_error "negative number" "--max-errors wants a number, not '-1'" check --max-errors -1 "$fools"
usage_error "number with junk" "--ply wants a number, not '12x'" fen --ply 12x "$fools"
usage_error "number too large" "--max-depth wants a number" check --max-depth 99999999999 "$fools"
usage_error "bad format" "unknown --format 'xml'" uci --format xml "$fools"
usage_error "format of another command" "check does not write --format pgn" \
    check --format pgn "$fools"
usage_error "flag given a value" "--strict takes no argument" check --strict=yes "$fools"
usage_error "bad --fail-on" "--fail-on is 'warning', 'error' or 'none'" check --fail-on never "$fools"

# Inputs: clear one-line reasons, exit 2.
run "$PGNKIT" uci "$TMP"
check "directory as input: exit 2" [ "$rc" -eq 2 ]
check "directory as input: says it is a directory" grep_err "it is a directory"
check "directory as input: one line" [ "$(lines "$TMP/err")" -eq 1 ]
run "$PGNKIT" uci <"$TMP"
check "directory on standard input: exit 2" [ "$rc" -eq 2 ]
check "directory on standard input: says it is a directory" grep_err "it is a directory"
run "$PGNKIT" check "$TMP/missing.pgn"
check "missing file: exit 2" [ "$rc" -eq 2 ]
check "missing file: names it and says why" \
    grep_err "cannot open $TMP/missing.pgn: No such file or directory"
run "$PGNKIT" uci -- "-dash.pgn"
check "'--' ends the options: -dash.pgn is a file name" grep_err "cannot open -dash.pgn"

# Help and version go to stdout, exit 0.
run "$PGNKIT" --version
check "--version: exit 0" [ "$rc" -eq 0 ]
check "--version: 'pgnkit X.Y.Z' on stdout" grep -Eq '^pgnkit [0-9]+\.[0-9]+\.[0-9]+' "$TMP/out"
check "--version: nothing on stderr" [ ! -s "$TMP/err" ]
run "$PGNKIT" uci --version
check "COMMAND --version: exit 0" [ "$rc" -eq 0 ]
for cmd in "" check uci fen pgn perft; do
    # shellcheck disable=SC2086
    run "$PGNKIT" $cmd --help
    check "'pgnkit $cmd --help': exit 0, usage on stdout" \
        [ "$rc" -eq 0 -a -s "$TMP/out" -a ! -s "$TMP/err" ]
    check "'pgnkit $cmd --help': starts with usage:" grep -q '^usage: pgnkit' "$TMP/out"
done

# A terminal on standard input: one line says so (else it looks like a hang); -q and a
# pipe say nothing.  A pseudo-terminal from python3's pty module stands in for it.
tty_run() {
    python3 - "$PGNKIT" "$@" <<'PY'
import os, pty, subprocess, sys
master, slave = pty.openpty()
p = subprocess.Popen(sys.argv[1:], stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
os.close(slave)
os.write(master, b"1. e4 e5 *\n\x04")
out, err = p.communicate(timeout=20)
sys.stdout.write("rc=%d out=%s\n%s" % (p.returncode, out.decode().strip(), err.decode()))
PY
}
tty_run uci >"$TMP/tty" 2>&1
check "stdin a terminal: the moves are read" grep -q "^rc=0 out=e2e4 e7e5$" "$TMP/tty"
check "stdin a terminal: says it reads standard input" \
    grep -q "^pgnkit: reading PGN from standard input (a terminal); end it with Ctrl-D" "$TMP/tty"
tty_run uci -q >"$TMP/tty" 2>&1
check "stdin a terminal, -q: nothing said" [ "$(cat "$TMP/tty")" = "rc=0 out=e2e4 e7e5" ]
run "$PGNKIT" uci <"$fools"
check "stdin a file: nothing said" [ ! -s "$TMP/err" ]

finish
