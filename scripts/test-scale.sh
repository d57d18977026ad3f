#!/bin/sh
# test-scale.sh BIN - pgnkit on real cluster engines, on loopback only (make test-scale).
#
# Data: a file of >= SCALE_MB MB (default 100) built from the bench and test corpora
# (TWIC, Lichess, TCEC, CRLF games, the 440 mutants with errors), and a set of 4 files,
# one of them .zst.  The reference is one pgnkit run over them on this machine.
#
# 1. Dask distributed: a `dask scheduler` and 2 `dask worker` processes on 127.0.0.1;
#    scripts/dask-pgnkit.py maps pgnkit over SCALE_RANGES (default 8) byte ranges of the
#    big file and of each plain file, and over the .zst file whole, then merges.
# 2. GNU parallel --sshlogin to a real sshd on a high loopback port, with its own config,
#    host key and a throw-away client key in a temporary directory.
# Each merged output must equal the single run byte for byte (also after sorting both by
# the (file, offset) key), and `pgnkit summary` of the pieces must equal the single
# run's --summary-json (time and ranges aside), exit status included.  Everything
# started here runs in a process group of its own and is stopped at the end, with a
# bounded wait (tests/cli/lib/procs.sh); a group left running fails the test.
set -u
BIN=$1
cd "$(dirname "$0")/.."
PGNKIT=$(pwd)/$BIN
export PGNKIT
. tests/cli/lib/common.sh
. tests/cli/lib/procs.sh
PY=/usr/bin/python3 # Debian's python, which has python3-distributed
SCALE_MB=${SCALE_MB:-100}
RANGES=${SCALE_RANGES:-8}
stop_all() {
    stop_all_procs
    rm -rf "$TMP"
}
trap stop_all EXIT
trap 'exit 130' INT TERM
t0=$(date +%s)

# --- data -------------------------------------------------------------------------------
D=$TMP/data
mkdir -p "$D"
zstd -dcq testdata/bench/twic1599.pgn.zst >"$D/twic.pgn"
zstd -dcq testdata/bench/lichess-2021-10-999.pgn.zst >"$D/lichess.pgn"
zstd -dcq testdata/bench/tcec-moves.pgn.zst >"$D/tcec.pgn"
cp "$TESTDATA/mutants/mutants.pgn" "$D/mutants.pgn"
cp "$TESTDATA/tcec/TCEC_Match_1.pgn" "$D/crlf.pgn"
cat "$D/twic.pgn" "$D/lichess.pgn" "$D/tcec.pgn" "$D/mutants.pgn" "$D/crlf.pgn" >"$D/unit.pgn"
big=$D/big.pgn
: >"$big"
while [ "$(wc -c <"$big")" -lt $((SCALE_MB * 1000 * 1000)) ]; do cat "$D/unit.pgn" >>"$big"; done
zstd -q -3 "$D/lichess.pgn" -o "$D/lichess.pgn.zst"
files="$D/twic.pgn $D/mutants.pgn $D/lichess.pgn.zst $D/crlf.pgn"
echo "data: $(($(wc -c <"$big") / 1000000)) MB big file, 4 files (one .zst), $RANGES ranges per plain file"

# The reference: one run over the big file, one over the 4 files.  uci: one line per game
# with its (file, offset) key; check --format json: diagnostics (game index nulled: a range
# that does not start a file does not know it).
no_game() { sed 's/"game":[0-9][0-9]*/"game":null/g'; }
strip() { sed -E 's/"(seconds|cpu_seconds|started|ended)":[0-9.]+/"\1":0/g; s/"range":\[[^]]*\]/"range":null/g' "$1"; }
bysort() { LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n "$1"; }
s0=$(date +%s.%N)
"$PGNKIT" uci -q --with file,offset --summary-json "$TMP/ref-big.json" "$big" >"$TMP/ref-big.out" \
    2>/dev/null
ref_big_rc=$?
s1=$(date +%s.%N)
"$PGNKIT" check -q --format json --summary-json "$TMP/ref-files.json" $files >"$TMP/ref-files.raw"
ref_files_rc=$?
no_game <"$TMP/ref-files.raw" >"$TMP/ref-files.out"
if [ "$ref_big_rc" -eq 1 ] && [ "$ref_files_rc" -eq 1 ]; then held=0; else held=1; fi
check "reference runs: exit 1 (the mutants have errors)" [ "$held" -eq 0 ]
echo "single run, big file: $(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.2f", b - a }') s"

# compare WHAT MERGED REF: byte for byte, and after sorting both by (file, offset).
compare() {
    check "$1: merged output equals the single run byte for byte" cmp -s "$2" "$3"
    bysort "$2" >"$TMP/a.sorted"
    bysort "$3" >"$TMP/b.sorted"
    check "$1: and after sorting both by (file, offset)" cmp -s "$TMP/a.sorted" "$TMP/b.sorted"
    check "$1: not empty" [ -s "$2" ]
}

# --- 1. Dask distributed ---------------------------------------------------------------
if ! $PY -c 'import distributed' 2>/dev/null; then
    not_ok "no python3-distributed for $PY (scripts/ensure-deps.sh scale installs it)"
else
    W=$TMP/dask
    mkdir -p "$W"
    cd "$W" || exit 2
    spawn dask scheduler --host 127.0.0.1 --port 0 --no-dashboard \
        --scheduler-file "$W/scheduler.json" >"$W/scheduler.log" 2>&1
    for _ in $(seq 100); do [ -s "$W/scheduler.json" ] && break; sleep 0.2; done
    for k in 1 2; do
        spawn dask worker --scheduler-file "$W/scheduler.json" --host 127.0.0.1 \
            --nthreads 1 --no-nanny --no-dashboard --local-directory "$W/w$k" \
            --name "pgnkit-worker-$k" >"$W/worker$k.log" 2>&1
    done
    cd - >/dev/null || exit 2
    addr=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["address"])' "$W/scheduler.json")
    check "dask scheduler listens on loopback ($addr)" sh -c "case '$addr' in tcp://127.0.0.1:*) exit 0;; esac; exit 1"
    $PY -c 'import sys; from distributed import Client
c = Client(sys.argv[1]); c.wait_for_workers(2, timeout=60); print(len(c.scheduler_info()["workers"]))' \
        "$addr" >"$W/nworkers" 2>"$W/client.log"
    check "2 dask workers joined" [ "$(cat "$W/nworkers")" = 2 ]

    $PY scripts/dask-pgnkit.py --scheduler "$addr" --out "$W/big" --ranges "$RANGES" \
        --pgnkit "$PGNKIT" uci --with file,offset -- "$big" 2>"$W/big.err"
    rc=$?
    check "dask, big file: exit status of the merged summary is the single run's (1)" [ "$rc" -eq "$ref_big_rc" ]
    check "dask, big file: $RANGES tasks on 2 workers" grep -q "$RANGES tasks on 2 workers; 0 failed" "$W/big.err"
    compare "dask, $RANGES ranges of the big file" "$W/big/merged.out" "$TMP/ref-big.out"
    strip "$W/big/summary.json" >"$TMP/a.json"
    strip "$TMP/ref-big.json" >"$TMP/b.json"
    check "dask, big file: pgnkit summary of the pieces equals the single run's" cmp -s "$TMP/a.json" "$TMP/b.json"

    $PY scripts/dask-pgnkit.py --scheduler "$addr" --out "$W/files" --ranges "$RANGES" \
        --pgnkit "$PGNKIT" check --format json -- $files 2>"$W/files.err"
    rc=$?
    check "dask, 4 files: exit status 1 as the single run" [ "$rc" -eq "$ref_files_rc" ]
    no_game <"$W/files/merged.out" >"$W/files/merged.nogame"
    check "dask, 4 files: the .zst file ran whole, the others in $RANGES ranges" \
        grep -q "$((3 * RANGES + 1)) tasks on 2 workers; 0 failed" "$W/files.err"
    check "dask, 4 files: check --format json merged equals the single run" \
        cmp -s "$W/files/merged.nogame" "$TMP/ref-files.out"
    strip "$W/files/summary.json" >"$TMP/a.json"
    strip "$TMP/ref-files.json" >"$TMP/b.json"
    check "dask, 4 files: pgnkit summary of the pieces equals the single run's" cmp -s "$TMP/a.json" "$TMP/b.json"

    # A zip archive, bzip2 and xz: the driver asks pgnkit (by content, as every run) and
    # runs each whole; any of them cut in ranges would fail its tasks.
    zip -qj "$D/mutants.zip" "$D/mutants.pgn"
    bzip2 -c "$D/crlf.pgn" >"$D/crlf.pgn.bz2"
    xz -c "$D/twic.pgn" >"$D/twic.data"
    packed="$D/mutants.zip $D/crlf.pgn.bz2 $D/twic.data"
    "$PGNKIT" check --format json -q $packed >"$TMP/ref-packed.out" 2>/dev/null
    ref_packed_rc=$?
    $PY scripts/dask-pgnkit.py --scheduler "$addr" --out "$W/packed" --ranges "$RANGES" \
        --pgnkit "$PGNKIT" check --format json -- $packed 2>"$W/packed.err"
    rc=$?
    check "dask, zip, bz2 and xz: each ran whole (3 tasks, none failed)" \
        grep -q "3 tasks on 2 workers; 0 failed" "$W/packed.err"
    check "dask, zip, bz2 and xz: exit status as the single run ($ref_packed_rc)" \
        [ "$rc" -eq "$ref_packed_rc" ]
    check "dask, zip, bz2 and xz: merged output equals the single run" \
        cmp -s "$W/packed/merged.out" "$TMP/ref-packed.out"
fi

# --- 2. GNU parallel over ssh to a real sshd ---------------------------------------------
S=$TMP/ssh
mkdir -p "$S"
chmod 700 "$S"
if [ ! -x /usr/sbin/sshd ]; then
    not_ok "no /usr/sbin/sshd (scripts/ensure-deps.sh scale installs openssh-server)"
else
    ssh-keygen -q -t ed25519 -N '' -C pgnkit-test-host -f "$S/host_key"
    ssh-keygen -q -t ed25519 -N '' -C pgnkit-test-client -f "$S/client_key"
    cp "$S/client_key.pub" "$S/authorized_keys"
    mkdir -p /run/sshd 2>/dev/null # sshd's privilege separation directory
    sshd_up=""
    for port in $(awk -v s="$$" 'BEGIN { srand(s); for (i = 0; i < 5; i++) print 20000 + int(rand() * 40000) }'); do
        cat >"$S/sshd_config" <<CONF
ListenAddress 127.0.0.1
Port $port
HostKey $S/host_key
PidFile $S/sshd.pid
AuthorizedKeysFile $S/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
AllowUsers $(id -un)
CONF
        spawn /usr/sbin/sshd -D -e -f "$S/sshd_config" >"$S/sshd.log" 2>&1
        pid=$spawned
        # Alive is not listening: on a slow machine the first connection raced the bind
        # (CI saw "ssh ... echo hello" fail while the later parallel run got through).
        # sshd -e logs "Server listening on 127.0.0.1 port N." once it accepts.
        tries=0
        while kill -0 "$pid" 2>/dev/null && ! grep -q "Server listening" "$S/sshd.log" &&
            [ $tries -lt 100 ]; do
            sleep 0.1
            tries=$((tries + 1))
        done
        if kill -0 "$pid" 2>/dev/null && grep -q "Server listening" "$S/sshd.log"; then
            sshd_up=$port
            break
        fi
        stop_group "$pid"
    done
    cat >"$S/config" <<CONF
Host pgnkit-loopback
    HostName 127.0.0.1
    Port $sshd_up
    User $(id -un)
    IdentityFile $S/client_key
    IdentitiesOnly yes
    StrictHostKeyChecking no
    UserKnownHostsFile /dev/null
    BatchMode yes
    LogLevel ERROR
CONF
    check "sshd runs on 127.0.0.1:$sshd_up" [ -n "$sshd_up" ]
    hello=""
    for attempt in 1 2 3; do
        hello=$(ssh -F "$S/config" pgnkit-loopback echo hello 2>"$S/ssh.err")
        [ "$hello" = hello ] && break
        sleep 1
    done
    check "ssh to it with the throw-away key" [ "$hello" = hello ]
    if [ "$hello" != hello ]; then
        echo "# ssh printed: $hello" | head -5
        sed 's/^/# ssh: /' "$S/ssh.err" | head -10
        tail -n 10 "$S/sshd.log" | sed 's/^/# sshd: /'
    fi

    PARALLEL_HOME=$TMP/parallel-home
    export PARALLEL_HOME
    mkdir -p "$PARALLEL_HOME"
    touch "$PARALLEL_HOME/will-cite"
    unset PARALLEL
    P=$TMP/par
    mkdir -p "$P"
    # One job per line: an option (the range, or a repeated -q) TAB a file.
    size=$(wc -c <"$big" | tr -d ' ')
    tab=$(printf '\t')
    : >"$P/jobs"
    for i in $(seq 0 $((RANGES - 1))); do
        echo "--range=$((size * i / RANGES)):$((size * (i + 1) / RANGES))$tab$big" >>"$P/jobs"
    done
    for f in $files; do echo "-q$tab$f" >>"$P/jobs"; done
    parallel --plain --ssh "ssh -F $S/config" -S 2/pgnkit-loopback -k --colsep '\t' \
        -a "$P/jobs" "'$PGNKIT' uci -q --with file,offset --summary-json '$P/s{#}.json' {1} {2}" \
        >"$P/merged.out" 2>"$P/err"
    rc=$?
    invalid=$(grep -l '"errors":[1-9]\|"skipped":[1-9]' "$P"/s*.json | wc -l)
    check "parallel --sshlogin: exit status $rc = the jobs with invalid games ($invalid)" \
        [ "$rc" -eq "$invalid" ] && [ "$invalid" -gt 0 ]
    "$PGNKIT" uci -q "$big" $files --summary-json "$TMP/ref-par.json" >"$TMP/ref-par.out" 2>/dev/null
    compare "parallel --sshlogin, $RANGES ranges and 4 files" "$P/merged.out" "$TMP/ref-par.out"
    check "parallel --sshlogin: the jobs ran through sshd" grep -q "Accepted publickey" "$S/sshd.log"
    "$PGNKIT" summary --format json $(seq -f "$P/s%g.json" 1 $((RANGES + 4))) >"$P/summary.json"
    check "parallel --sshlogin: pgnkit summary exits 1, as the single run" [ $? -eq 1 ]
    strip "$P/summary.json" >"$TMP/a.json"
    strip "$TMP/ref-par.json" >"$TMP/b.json"
    check "parallel --sshlogin: pgnkit summary of the pieces equals the single run's" cmp -s "$TMP/a.json" "$TMP/b.json"
fi
stop_all_procs
check "every process started here stopped on SIGTERM within ${STOP_WAIT}s" [ "$procs_left" = 0 ]
echo "test-scale: $(($(date +%s) - t0)) s"
finish
