#!/bin/sh
# golden.sh [--update] - CLI golden tests: for each tests/cli/cases/NAME.args, run
#   PGNKIT $(NAME.args) < NAME.stdin (or /dev/null)
# from the repository root and compare standard output, standard error and the exit
# status exactly with NAME.stdout, NAME.stderr and NAME.exit.
#
# NAME.args is one line of arguments, split by the shell (quotes work; no expansion
# of variables is intended).  The summary line on stderr ends with the run time
# (" in 0.01 s wall, 0.01 s CPU (3.4 MB/s)"): that part, and only that part, is cut from the actual
# stderr before comparing, so the counts stay tested.  --update (make check-update)
# rewrites the expected files from the current binary: review the diff before
# committing, since a golden file that records a bug is a defect.
set -u
P=${PGNKIT:-build/release/pgnkit}
update=0
[ "${1:-}" = "--update" ] && update=1
dir=tests/cli/cases
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

strip_timing() { sed -E 's/ in [0-9]+\.[0-9]+ s wall, [0-9]+\.[0-9]+ s CPU \([0-9]+\.[0-9]+ MB\/s\)$//'; }

for args_file in "$dir"/*.args; do
    name=$(basename "$args_file" .args)
    stdin=/dev/null
    [ -f "$dir/$name.stdin" ] && stdin="$dir/$name.stdin"
    args=$(cat "$args_file")
    eval "set -- $args"
    "$P" "$@" <"$stdin" >"$tmp/stdout" 2>"$tmp/stderr.raw"
    echo $? >"$tmp/exit"
    strip_timing <"$tmp/stderr.raw" >"$tmp/stderr"
    if [ "$update" -eq 1 ]; then
        for part in stdout stderr exit; do
            cp "$tmp/$part" "$dir/$name.$part"
        done
        passed=$((passed + 1))
        continue
    fi
    bad=""
    for part in stdout stderr exit; do
        if ! cmp -s "$tmp/$part" "$dir/$name.$part"; then
            bad="$bad $part"
        fi
    done
    if [ -z "$bad" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $name ($args):$bad differ"
        for part in $bad; do
            diff "$dir/$name.$part" "$tmp/$part" 2>&1 | head -10
        done
    fi
done

[ "$update" -eq 1 ] && echo "updated $passed cases in $dir: review with git diff"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
