#!/bin/sh
# output_targets.sh - what -o PATH does with what is at PATH, and what interrupts it:
# a symlink's target is replaced and the link stays; a FIFO, a character device or a
# socket is written in place, never renamed over; a directory is a usage error.
# SIGINT/SIGTERM/SIGHUP mid-run, `ulimit -f` and a full device leave no temporary file
# and the target untouched.  Closed standard descriptors never receive output or
# diagnostics meant elsewhere; a reader that goes away (| head) ends the run quietly.
. "$(dirname "$0")/lib/common.sh"

a=$TESTDATA/pgn-extract/fischer.pgn
mutants=$TESTDATA/mutants/mutants.pgn
"$PGNKIT" uci -q "$a" >"$TMP/want" 2>/dev/null

# no_leftovers DIR: nothing named *.tmp.* in DIR or below.
no_leftovers() { [ -z "$(find "$1" -name '*.tmp.*' -print)" ]; }
mode_of() { stat -c %a "$1"; }
no_err() { ! grep_err "$1"; }
# one_line_saying TEXT: the last run's stderr is one line, holding TEXT.
one_line_saying() { [ "$(lines "$TMP/err")" -eq 1 ] && grep_err "$1"; }

# ---- symbolic links ------------------------------------------------------------------
d=$TMP/links
mkdir -p "$d/sub"
echo old >"$d/real.uci"
chmod 640 "$d/real.uci"
ln -s real.uci "$d/link.uci"
run "$PGNKIT" uci -q -o "$d/link.uci" "$a"
check "symlink: exit 0" [ "$rc" -eq 0 ]
check "symlink: still a symlink" [ -h "$d/link.uci" ]
check "symlink: still points to real.uci" [ "$(readlink "$d/link.uci")" = real.uci ]
check "symlink: the target has the output" cmp -s "$d/real.uci" "$TMP/want"
check "symlink: the target keeps its mode (640)" [ "$(mode_of "$d/real.uci")" = 640 ]
check "symlink: no temporary file" no_leftovers "$d"

# A chain of links, the last relative to its own directory and dangling: created there.
ln -s sub/new.uci "$d/dangling.uci"
ln -s "$d/dangling.uci" "$d/chain.uci"
run "$PGNKIT" uci -q -o "$d/chain.uci" "$a"
check "link chain to a missing file: exit 0" [ "$rc" -eq 0 ]
check "link chain: both links stay links" [ -h "$d/chain.uci" -a -h "$d/dangling.uci" ]
check "link chain: the final target is created" cmp -s "$d/sub/new.uci" "$TMP/want"
check "link chain: no temporary file" no_leftovers "$d"

ln -s loop1 "$d/loop2"
ln -s loop2 "$d/loop1"
run "$PGNKIT" uci -q -o "$d/loop1" "$a"
check "symlink loop: exit 2" [ "$rc" -eq 2 ]
check "symlink loop: says so" grep_err "symbolic links"

# ---- modes of regular files ----------------------------------------------------------
d=$TMP/modes
mkdir "$d"
echo old >"$d/kept.uci"
chmod 604 "$d/kept.uci"
run "$PGNKIT" uci -q -o "$d/kept.uci" "$a"
check "existing file: its mode is kept (604)" [ "$(mode_of "$d/kept.uci")" = 604 ]
(umask 027 && "$PGNKIT" uci -q -o "$d/new.uci" "$a")
check "new file: the umask's mode (027 -> 640)" [ "$(mode_of "$d/new.uci")" = 640 ]

# ---- a directory ---------------------------------------------------------------------
d=$TMP/dir
mkdir -p "$d/target"
ln -s target "$d/dirlink"
for t in target dirlink; do
    run "$PGNKIT" uci -q -o "$d/$t" "$a"
    check "-o $t (a directory): exit 2" [ "$rc" -eq 2 ]
    check "-o $t: one line naming the problem" one_line_saying "it is a directory"
    check "-o $t: nothing written in it" [ -z "$(ls -A "$d/target")" ]
done
check "-o directory-link: the link stays" [ -h "$d/dirlink" ]

# ---- a FIFO: written in place --------------------------------------------------------
d=$TMP/fifo
mkdir "$d"
mkfifo "$d/pipe"
timeout 30 cat "$d/pipe" >"$d/got" & # bounded: a pgnkit that renames over the FIFO never opens it
reader=$!
run "$PGNKIT" uci -q -o "$d/pipe" "$a"
wait "$reader"
check "FIFO: exit 0" [ "$rc" -eq 0 ]
check "FIFO: the reader got the output" cmp -s "$d/got" "$TMP/want"
check "FIFO: still a FIFO" [ -p "$d/pipe" ]
check "FIFO: no temporary file" no_leftovers "$d"

# ---- character devices (copies made with mknod; never the machine's own /dev) --------
d=$TMP/dev
mkdir "$d"
if mknod "$d/null" c 1 3 2>/dev/null && mknod "$d/full" c 1 7 2>/dev/null; then
    run "$PGNKIT" uci -q -o "$d/null" "$a"
    check "char device: exit 0" [ "$rc" -eq 0 ]
    check "char device: still a character device" [ -c "$d/null" ]
    check "char device: no temporary file" no_leftovers "$d"
    run "$PGNKIT" uci -q -o "$d/full" "$a"
    check "full device (ENOSPC): exit 2" [ "$rc" -eq 2 ]
    check "full device: says why" grep_err "cannot write to $d/full: No space left on device"
    check "full device: still a character device" [ -c "$d/full" ]
    check "full device: no temporary file" no_leftovers "$d"
else
    skip "character devices: mknod needs root"
fi

# /dev/stdout names the descriptor the shell opened: written there, not renamed over.
run "$PGNKIT" uci -q -o /dev/stdout "$a"
check "-o /dev/stdout into a file: exit 0" [ "$rc" -eq 0 ]
check "-o /dev/stdout into a file: the file has the output" cmp -s "$TMP/out" "$TMP/want"
echo "first line" >"$TMP/appended"
"$PGNKIT" uci -q -o /dev/stdout "$a" >>"$TMP/appended"
check "-o /dev/stdout under >>: appended, not replaced" \
    [ "$(head -n 1 "$TMP/appended")" = "first line" -a "$(lines "$TMP/appended")" -eq $(($(lines "$TMP/want") + 1)) ]

# ---- a socket: connected to, written in place ----------------------------------------
d=$TMP/sock
mkdir "$d"
PY=$(command -v /usr/bin/python3 python3 | head -n 1)
if [ -n "$PY" ]; then
    timeout 30 "$PY" -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(1)
open(sys.argv[1] + ".ready", "w").close()
c, _ = s.accept()
with open(sys.argv[2], "wb") as f:
    while True:
        b = c.recv(65536)
        if not b: break
        f.write(b)
' "$d/s" "$d/got" &
    server=$!
    i=0
    while [ ! -e "$d/s.ready" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
    run "$PGNKIT" uci -q -o "$d/s" "$a"
    wait "$server"
    check "socket: exit 0" [ "$rc" -eq 0 ]
    check "socket: the listener got the output" cmp -s "$d/got" "$TMP/want"
    check "socket: still a socket" [ -S "$d/s" ]
    check "socket: no temporary file" no_leftovers "$d"
else
    skip "socket: no python3 to listen"
fi

for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do cat "$a"; done >"$TMP/big.pgn"

# ---- signals in the middle of a run --------------------------------------------------
# The input is a FIFO this script holds open: pgnkit has read and written part of it
# and waits for more when the signal comes, whatever the machine's speed.
# interrupt SIGNAL STATUS JOBS
interrupt() {
    _sig=$1 _want=$2 _jobs=$3
    _d=$TMP/sig-$_sig-$_jobs
    mkdir "$_d"
    echo "old contents" >"$_d/out.uci"
    mkfifo "$_d/in"
    # A background job of a script starts with SIGINT ignored; env gives it back.
    # Two temporary files at once: -o's and --invalid-to's.
    env --default-signal=INT,TERM,HUP "$PGNKIT" uci -q -j "$_jobs" -o "$_d/out.uci" \
        --invalid-to "$_d/invalid.pgn" "$_d/in" 2>"$_d/err" &
    _pid=$!
    (sleep 60 && kill -s KILL "$_pid") >/dev/null 2>&1 & # a pgnkit that ignores the signal
    _watchdog=$!
    exec 7>"$_d/in"
    cat "$TMP/big.pgn" "$TMP/big.pgn" >&7 # 40 copies: several chunks for -j2
    _i=0 # until some output is in the temporary file (past the 64 KiB first flush)
    while [ -z "$(find "$_d" -name 'out.uci.tmp.*' -size +0 -print)" ] && [ $_i -lt 200 ]; do
        sleep 0.05
        _i=$((_i + 1))
    done
    check "SIG$_sig -j$_jobs: a temporary file with output before the signal" [ "$_i" -lt 200 ]
    check "SIG$_sig -j$_jobs: and one for --invalid-to" \
        [ -n "$(find "$_d" -name 'invalid.pgn.tmp.*' -print)" ]
    kill -s "$_sig" "$_pid"
    wait "$_pid"
    _rc=$?
    kill "$_watchdog" 2>/dev/null
    exec 7>&-
    check "SIG$_sig -j$_jobs: dies of the signal (exit $_want, got $_rc)" [ "$_rc" -eq "$_want" ]
    check "SIG$_sig -j$_jobs: no temporary file" no_leftovers "$_d"
    check "SIG$_sig -j$_jobs: the target untouched" [ "$(cat "$_d/out.uci")" = "old contents" ]
    check "SIG$_sig -j$_jobs: no --invalid-to file" [ ! -e "$_d/invalid.pgn" ]
}
interrupt INT 130 1
interrupt TERM 143 1
interrupt HUP 129 1
interrupt INT 130 2
interrupt TERM 143 2

# With --jobs the flusher thread opens and renames the --split-by files as chunks are
# written, and takes the signals while it runs: SIGTERM then leaves none of them half
# written, and no temporary file.
d=$TMP/sig-split
mkdir "$d"
mkfifo "$d/in"
env --default-signal=INT,TERM,HUP "$PGNKIT" pgn -q -j 2 --split-by Event -o "$d/ev-%s.pgn" \
    "$d/in" 2>"$d/err" &
pid=$!
(sleep 60 && kill -s KILL "$pid") >/dev/null 2>&1 &
watchdog=$!
exec 7>"$d/in"
cat "$TMP/big.pgn" "$TMP/big.pgn" >&7
i=0
while [ -z "$(find "$d" -name 'ev-*.tmp.*' -size +0 -print)" ] && [ $i -lt 200 ]; do
    sleep 0.05
    i=$((i + 1))
done
check "SIGTERM -j2 --split-by: split files being written before the signal" [ "$i" -lt 200 ]
kill -s TERM "$pid"
wait "$pid"
rc=$?
kill "$watchdog" 2>/dev/null
exec 7>&-
check "SIGTERM -j2 --split-by: dies of the signal (exit 143, got $rc)" [ "$rc" -eq 143 ]
check "SIGTERM -j2 --split-by: no temporary file" no_leftovers "$d"

# ---- ulimit -f: SIGXFSZ is a write error ---------------------------------------------
d=$TMP/fsize
mkdir "$d"
echo "old contents" >"$d/out.uci"
(ulimit -f 8 && exec "$PGNKIT" uci -q -o "$d/out.uci" "$a" "$a" "$a" "$a") \
    >"$TMP/out" 2>"$TMP/err"
rc=$?
check "ulimit -f: exit 2, not killed by SIGXFSZ" [ "$rc" -eq 2 ]
check "ulimit -f: says why" grep_err "cannot write to $d/out.uci: File too large"
check "ulimit -f: no temporary file" no_leftovers "$d"
check "ulimit -f: the target untouched" [ "$(cat "$d/out.uci")" = "old contents" ]

# ---- closed standard descriptors -----------------------------------------------------
d=$TMP/closed
mkdir "$d"
"$PGNKIT" uci -q "$mutants" >"$d/want" 2>/dev/null
"$PGNKIT" uci -o "$d/out.uci" "$mutants" 2>&-
rc=$?
check "2>&-: exit 1 (errors in games)" [ "$rc" -eq 1 ]
check "2>&-: no diagnostics in the -o file" cmp -s "$d/out.uci" "$d/want"
check "2>&-: no temporary file" no_leftovers "$d"
"$PGNKIT" uci -q "$a" >&- 2>"$TMP/err"
rc=$?
check ">&-: a write error, exit 2" [ "$rc" -eq 2 ]
check ">&-: says so" grep_err "cannot write to standard output"
"$PGNKIT" uci -q <&- >"$TMP/out" 2>"$TMP/err"
rc=$?
check "<&- and no file: a read error, exit 2" [ "$rc" -eq 2 -a ! -s "$TMP/out" ]

# ---- a reader that goes away ---------------------------------------------------------
{
    "$PGNKIT" uci -q "$TMP/big.pgn" 2>"$TMP/err"
    echo $? >"$TMP/rc"
} | head -n 1 >"$TMP/out"
check "| head -1: one line" [ "$(lines "$TMP/out")" -eq 1 ]
check "| head -1: exit 0" [ "$(cat "$TMP/rc")" -eq 0 ]
check "| head -1: quiet" [ ! -s "$TMP/err" ]
# The errors of games already read keep their status.
{
    "$PGNKIT" uci -q -j1 tests/cli/data/errors.pgn "$TMP/big.pgn" 2>"$TMP/err"
    echo $? >"$TMP/rc"
} | head -n 1 >/dev/null
check "| head -1 after games with errors: exit 1" [ "$(cat "$TMP/rc")" -eq 1 ]
check "| head -1 after games with errors: no write error" no_err "cannot write"
{
    "$PGNKIT" check --format json "$mutants" "$TMP/big.pgn" "$mutants" 2>"$TMP/err"
    echo $? >"$TMP/rc"
} | head -n 1 >/dev/null
check "check | head -1: exit 1 (errors in the games read)" [ "$(cat "$TMP/rc")" -eq 1 ]
partial_summary() {
    [ "$(lines "$TMP/err")" -eq 2 ] && grep -q '^pgnkit: [0-9]* games\?: ' "$TMP/err" &&
        grep_err "pgnkit: the output was closed: these are the counts so far"
}
check "check | head -1: the summary line, and that its counts are partial" partial_summary

finish
