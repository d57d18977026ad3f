#!/bin/sh
# pgo-train.sh GEN_OUT USE_OUT - the training run of a profile-guided release build.
#
# GEN_OUT holds an instrumented build (gcc -fprofile-generate).  It replays the test
# corpus testdata/pgn with the main commands, which writes one .gcda profile per object;
# those are copied next to the objects USE_OUT will compile with -fprofile-use.
# The training input is deliberately not the bench corpus (testdata/bench): the gain
# make bench reports must come from code layout that generalises, not from the bench.
set -eu

gen=$1
use=$2
bin=$gen/pgnkit

# Counts from an earlier source version would not match the objects: start clean.
find "$gen/obj" -name '*.gcda' -exec rm -f {} +

files=$(find testdata/pgn -name '*.pgn' | LC_ALL=C sort)
# train JOBS CMD...: one training run over every file.  Exit status 1 (games with errors:
# the mutants) is expected; 2 and above is not.
train() {
    jobs=$1
    shift
    status=0
    # shellcheck disable=SC2086 # $files: the inputs
    "$bin" "$@" -j"$jobs" $files >/dev/null 2>&1 || status=$?
    if [ "$status" -gt 1 ]; then
        echo "pgo-train: '$bin $* -j$jobs' failed with status $status" >&2
        exit 1
    fi
}
train 1 uci
train 1 uci --format pgn
train 1 check
train 1 fen --every
train 1 fen --comments
train 1 pgn
# The --jobs pipeline's own code (cutting, tokenizing per chunk) runs only with -j2 and
# up: without this it would be laid out as cold code.
train 2 uci
train 2 check

count=0
for gcda in $(cd "$gen" && find obj -name '*.gcda'); do
    mkdir -p "$use/$(dirname "$gcda")"
    cp "$gen/$gcda" "$use/$gcda"
    count=$((count + 1))
done
if [ "$count" -eq 0 ]; then
    echo "pgo-train: the training run wrote no profile (.gcda) files" >&2
    exit 1
fi
echo "pgo-train: $count profiles from $(echo "$files" | wc -l) files of testdata/pgn" >&2
