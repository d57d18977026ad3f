# procs.sh - sourced by tests that start long-lived processes (scripts/test-scale.sh):
# each in a process group of its own, all stopped at the end, with a bounded wait.
#
# A `dask worker` whose scheduler was stopped first kept reconnecting, and `wait` on it
# held `make test-scale` for over an hour after "22 passed, 0 failed".  So: a process
# started by spawn gets its own group (setsid: its children too), groups are stopped
# newest first (workers before their scheduler) with SIGTERM, then SIGKILL after
# STOP_WAIT seconds, and a group that needed SIGKILL, or has a member left even then, is
# counted in $procs_left for the test to fail on.  Needs $TMP (common.sh).
STOP_WAIT=${STOP_WAIT:-15}
procs_started="" # process group ids, newest first
procs_left=0

# spawn CMD...: CMD in the background in a process group of its own (its id is the
# group's); the id into $spawned.  Redirect the call: spawn cmd >log 2>&1.
spawn() {
    if command -v setsid >/dev/null 2>&1; then
        # A background job of a shell without job control leads no group: setsid()
        # succeeds in place and CMD keeps the pid $! names.
        setsid "$@" &
    else
        "$@" &
    fi
    spawned=$!
    procs_started="$spawned $procs_started"
}

# group_alive ID: a member of group ID that is not a zombie is left.
group_alive() {
    ps -eo pgid=,stat= 2>/dev/null | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { f = 1 } END { exit !f }'
}

# stop_group ID: SIGTERM to the group, SIGKILL after STOP_WAIT seconds, the leader
# reaped; $procs_left counts a group that took SIGKILL or outlived it.
stop_group() {
    kill -s TERM -- "-$1" 2>/dev/null || kill -s TERM "$1" 2>/dev/null
    _waited=0
    while group_alive "$1" && [ "$_waited" -lt $((STOP_WAIT * 10)) ]; do
        sleep 0.1
        _waited=$((_waited + 1))
    done
    if group_alive "$1"; then
        echo "# process group $1 still running ${STOP_WAIT}s after SIGTERM: SIGKILL" >&2
        ps -eo pid=,pgid=,args= | awk -v g="$1" '$2 == g' | sed 's/^/#   /' >&2
        kill -s KILL -- "-$1" 2>/dev/null || kill -s KILL "$1" 2>/dev/null
        procs_left=$((procs_left + 1))
        sleep 0.2
        group_alive "$1" && procs_left=$((procs_left + 1))
    fi
    wait "$1" 2>/dev/null # reaped: it is dead by now, or was never our child
}

# stop_all_procs: every group spawn started, newest first; then none is left to stop.
stop_all_procs() {
    for _g in $procs_started; do stop_group "$_g"; done
    procs_started=""
}
