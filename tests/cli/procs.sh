#!/bin/sh
# procs.sh - the process handling of tests/cli/lib/procs.sh (used by make test-scale):
# a started process and its children are stopped, one that ignores SIGTERM is killed
# after STOP_WAIT seconds and counted as left, so the test that started it fails.
. tests/cli/lib/common.sh
STOP_WAIT=1
. tests/cli/lib/procs.sh
gone() { ! group_alive "$1"; }

# A polite process with a child: both end on SIGTERM, nothing counted.
spawn sh -c 'sleep 300 & wait' >/dev/null 2>&1
g=$spawned
sleep 0.3
check "spawn: a group of its own, with its child in it" \
    [ "$(ps -eo pgid= | awk -v g="$g" '$1 == g' | wc -l)" -ge 2 ]
stop_all_procs
check "a polite group: stopped, not counted" [ "$procs_left" = 0 ]
check "a polite group: nothing of it left" gone "$g"

# One that ignores SIGTERM, with a child that does too (a worker that will not go).
spawn sh -c 'trap "" TERM; sh -c "trap \"\" TERM; sleep 300; :" & sleep 300; :' >/dev/null 2>&1
g=$spawned
sleep 0.3
t0=$(date +%s)
stop_all_procs 2>"$TMP/err"
t1=$(date +%s)
check "a group ignoring SIGTERM: killed within a few seconds ($((t1 - t0)) s)" [ $((t1 - t0)) -le 5 ]
check "a group ignoring SIGTERM: nothing of it left" gone "$g"
check "a group ignoring SIGTERM: counted, so the test fails" [ "$procs_left" = 1 ]
check "a group ignoring SIGTERM: its processes named" grep -q 'sleep 300' "$TMP/err"
finish
