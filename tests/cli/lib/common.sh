# common.sh - sourced by tests/cli/*.sh: counters, a scratch directory, small asserts.
# Each script runs from the repository root with PGNKIT set to the binary; it prints
# "ok - ..." / "not ok - ..." per check and ends with "N passed, N failed".
set -u
: "${PGNKIT:?set PGNKIT to the pgnkit binary}"
case $PGNKIT in /*) ;; *) PGNKIT=$(pwd)/$PGNKIT ;; esac
TESTDATA=$(pwd)/testdata/pgn
passed=0
failed=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pgnkit-cli.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

ok() { passed=$((passed + 1)); echo "ok - $1"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $1"; }
skip() { echo "skip - $1"; }

# check DESCRIPTION COMMAND...: passes when COMMAND succeeds.
check() {
    _desc=$1
    shift
    if "$@"; then ok "$_desc"; else not_ok "$_desc"; fi
}

# run COMMAND...: stdout to $TMP/out, stderr to $TMP/err, status in $rc.
run() {
    "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
}

# grep_err PATTERN: the last run's stderr matches (fixed string).
grep_err() { grep -qF -- "$1" "$TMP/err"; }

# lines FILE: the number of lines in FILE.
lines() { wc -l <"$1" | tr -d ' '; }

finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit $?
}

# measure_bounds_or_finish: the RSS and time checks that follow need /usr/bin/time and a
# release build (sanitizers multiply both); otherwise say so and end the test here.
measure_bounds_or_finish() {
    if [ ! -x /usr/bin/time ]; then
        skip "peak RSS: /usr/bin/time is missing (package time)"
        finish
    fi
    case $PGNKIT in *asan* | *tsan* | *debug*) skip "RSS and time bounds: release builds only"; finish ;; esac
    # make test-cross runs the aarch64 binary through a qemu-user wrapper: the RSS and
    # time measured would be the emulator's (its translation cache), not pgnkit's.
    case $PGNKIT in *qemu*) skip "RSS and time bounds: not under qemu-user"; finish ;; esac
}

# measure CMD...: peak RSS in KB, elapsed seconds and CPU seconds (user + system) of CMD
# into $kb, $secs and $cpu, its exit status into $mrc.  Bounds on how time grows use
# $cpu: a busy neighbour on the machine stretches wall time, not the CPU time used.
measure() {
    /usr/bin/time -o "$TMP/time" -f '%M %e %U %S' "$@" >/dev/null 2>&1
    mrc=$?
    kb=$(tail -n 1 "$TMP/time" | cut -d' ' -f1)
    secs=$(tail -n 1 "$TMP/time" | cut -d' ' -f2)
    cpu=$(tail -n 1 "$TMP/time" | awk '{ printf "%.2f", $3 + $4 }')
}

# game EVENT TAGS... MOVES: one PGN game on stdout: [Event], the tags given as name=value,
# then the movetext after a blank line.
game() {
    ev=$1
    shift
    printf '[Event "%s"]\n' "$ev"
    while [ $# -gt 1 ]; do
        printf '[%s "%s"]\n' "${1%%=*}" "${1#*=}"
        shift
    done
    printf '\n%s\n\n' "$1"
}
