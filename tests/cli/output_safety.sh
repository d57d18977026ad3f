#!/bin/sh
# output_safety.sh - no output destroys another, an input, or a file it should not
# touch, and no run leaves a half result: two outputs naming one file, or an output
# that is an input (standard output included), are refused before anything is written;
# --split name patterns that would cut names to one are refused; --split files are
# final only when the run succeeds (a truncated input, a signal: none left); --split-by
# works past `ulimit -n` values; every terminating signal removes the temporary files;
# a dangling symbolic link is an existing name for --split-by; a read-only file is
# never replaced.  Each refusal: exit 2, a message naming the file, files unchanged.
. "$(dirname "$0")/lib/common.sh"

a=$TESTDATA/pgn-extract/fischer.pgn
errs=tests/cli/data/errors.pgn
no_leftovers() { [ -z "$(find "$1" -name '*.tmp.*' -print)" ]; }

# ---- two outputs, one file; an output that is an input -------------------------------
d=$TMP/clash
mkdir "$d"
cp "$errs" "$d/games.pgn"
cp "$errs" "$d/orig.pgn"
echo "old" >"$d/X"
for opt in --invalid-to --duplicates-to --summary-json; do
    run "$PGNKIT" check -q -o "$d/X" $opt "$d/X" "$d/games.pgn"
    check "-o X $opt X: exit 2" [ "$rc" -eq 2 ]
    check "-o X $opt X: says they are one file" grep_err "and $opt $d/X are one file"
    check "-o X $opt X: X unchanged" [ "$(cat "$d/X")" = old ]
    check "-o X $opt X: no temporary file" no_leftovers "$d"
done
# A new name spelled two ways, and a hard link to an existing file.
mkdir "$d/sub"
run "$PGNKIT" check -q -o "$d/sub/../new.txt" --invalid-to "$d/new.txt" "$d/games.pgn"
check "one new name spelled two ways: exit 2" [ "$rc" -eq 2 ]
check "one new name spelled two ways: nothing created" [ ! -e "$d/new.txt" ]
ln "$d/X" "$d/hard"
run "$PGNKIT" check -q -o "$d/X" --duplicates-to "$d/hard" "$d/games.pgn"
check "a hard link: exit 2" [ "$rc" -eq 2 ]
run "$PGNKIT" check -q --invalid-to "$d/games.pgn" "$d/games.pgn"
check "--invalid-to an input: exit 2" [ "$rc" -eq 2 ]
check "--invalid-to an input: says so" grep_err "--invalid-to $d/games.pgn is also the input $d/games.pgn"
check "--invalid-to an input: the input unchanged" cmp -s "$d/games.pgn" "$d/orig.pgn"
ln -s games.pgn "$d/link.pgn"
run "$PGNKIT" pgn -q -o "$d/link.pgn" "$d/games.pgn"
check "-o a link to an input: exit 2" [ "$rc" -eq 2 ]
check "-o a link to an input: the input unchanged" cmp -s "$d/games.pgn" "$d/orig.pgn"
timeout 20 "$PGNKIT" pgn -q -o /dev/stdout "$d/games.pgn" >>"$d/games.pgn" 2>"$TMP/err"
rc=$?
check "-o /dev/stdout >> input: exit 2, no endless loop" [ "$rc" -eq 2 ]
check "-o /dev/stdout >> input: says so" grep_err "is also the input"
check "-o /dev/stdout >> input: the input unchanged" cmp -s "$d/games.pgn" "$d/orig.pgn"
timeout 20 "$PGNKIT" pgn -q <"$d/games.pgn" >>"$d/games.pgn" 2>"$TMP/err"
rc=$?
check "stdin and stdout one file: exit 2" [ "$rc" -eq 2 ]
check "stdin and stdout one file: the file unchanged" cmp -s "$d/games.pgn" "$d/orig.pgn"
# Not a clash: two outputs to one device, standard output to another file.
run "$PGNKIT" check -q -o /dev/null --invalid-to /dev/null "$d/games.pgn"
check "-o /dev/null --invalid-to /dev/null: allowed (exit 1: errors in games)" [ "$rc" -eq 1 ]
# A --split file that is another output.
run "$PGNKIT" pgn -q --split 1 -o "$d/p-%d.pgn" --invalid-to "$d/p-2.pgn" "$d/games.pgn"
check "--split file = --invalid-to: exit 2" [ "$rc" -eq 2 ]
check "--split file = --invalid-to: says so" grep_err "--invalid-to $d/p-2.pgn and --split file $d/p-2.pgn are one file"
check "--split file = --invalid-to: no file left" [ -z "$(find "$d" -name 'p-*' -print)" ]

# ---- --split name patterns -----------------------------------------------------------
d=$TMP/pattern
mkdir "$d"
run "$PGNKIT" pgn -q --split 2 --force -o "$d/part-%099d.pgn" "$a"
check "%099d: exit 2" [ "$rc" -eq 2 ]
check "%099d: says why" grep_err "the width of -o's %d is 99; at most 20"
check "%099d: nothing written" [ -z "$(ls -A "$d")" ]
run "$PGNKIT" pgn -q --split 2 -o "$d/part-%020d.pgn" "$a"
check "%020d: exit 0, one file per 2 games (17)" [ "$rc" -eq 0 -a "$(ls "$d" | wc -l)" -eq 17 ]

# ---- --split files are final only when the run succeeds -----------------------------
d=$TMP/final
mkdir "$d" "$d/o"
for k in 1 2 3 4 5 6 7 8 9 10; do cat "$a"; done >"$d/big.pgn"
gzip -c "$d/big.pgn" >"$d/big.pgn.gz"
head -c $(($(wc -c <"$d/big.pgn.gz") * 2 / 3)) "$d/big.pgn.gz" >"$d/trunc.pgn.gz"
run "$PGNKIT" pgn -q --split 10 -o "$d/o/p-%04d.pgn" "$d/trunc.pgn.gz"
check "--split, truncated gzip: exit 2" [ "$rc" -eq 2 ]
check "--split, truncated gzip: says why" grep_err "truncated"
check "--split, truncated gzip: no file left, full or temporary" [ -z "$(ls -A "$d/o")" ]

# ---- --split-by: more values than descriptors ----------------------------------------
d=$TMP/many
mkdir "$d" "$d/o"
awk '/^\[Event /{n++; print "[Event \"ev" n "\"]"; next} {print}' "$TMP/final/big.pgn" >"$d/many.pgn"
(ulimit -n 24 && exec "$PGNKIT" pgn -q --split-by Event -o "$d/o/e-%s.pgn" "$d/many.pgn") \
    >"$TMP/out" 2>"$TMP/err"
rc=$?
check "--split-by, 340 values under ulimit -n 24: exit 0" [ "$rc" -eq 0 ]
check "--split-by, 340 values: 340 files" [ "$(ls "$d/o" | wc -l)" -eq 340 ]
check "--split-by, 340 values: every game once" [ "$(cat "$d"/o/*.pgn | grep -c '^\[Event ')" -eq 340 ]
"$PGNKIT" pgn -q "$d/many.pgn" | grep -c '^\[Event ' >/dev/null
check "--split-by, 340 values: the files hold the unsplit output" \
    sh -c "cat '$d'/o/e-ev*.pgn | sort | cmp -s - \"\$(\"$PGNKIT\" pgn -q '$d/many.pgn' >'$d/whole'; echo '$d/whole.sorted'; sort '$d/whole' >'$d/whole.sorted')\""

# ---- --split-by and existing names ---------------------------------------------------
d=$TMP/names
mkdir "$d"
ln -s "$d/elsewhere.pgn" "$d/e-unknown.pgn"
printf '1. e4 e5 *\n\n' >"$d/in.pgn"
run "$PGNKIT" pgn -q --split-by Event -o "$d/e-%s.pgn" "$d/in.pgn"
check "--split-by over a dangling link: exit 2" [ "$rc" -eq 2 ]
check "--split-by over a dangling link: names it" grep_err "$d/e-unknown.pgn exists (a symbolic link)"
check "--split-by over a dangling link: its target not created" [ ! -e "$d/elsewhere.pgn" ]
check "--split-by over a dangling link: still a link" [ -h "$d/e-unknown.pgn" ]

# ---- read-only files ------------------------------------------------------------------
d=$TMP/ro
mkdir "$d"
echo "keep me" >"$d/ro.txt"
chmod 444 "$d/ro.txt"
for opt in -o --invalid-to --summary-json; do
    run "$PGNKIT" check -q $opt "$d/ro.txt" "$errs"
    check "$opt read-only: exit 2" [ "$rc" -eq 2 ]
    check "$opt read-only: names it" grep_err "$d/ro.txt is read-only (mode 0444): not replaced"
    check "$opt read-only: unchanged" [ "$(cat "$d/ro.txt")" = "keep me" -a "$(stat -c %a "$d/ro.txt")" = 444 ]
    check "$opt read-only: no temporary file" no_leftovers "$d"
done
cp "$errs" "$d/p-1.pgn"
chmod 444 "$d/p-1.pgn"
run "$PGNKIT" pgn -q --split 1000 --force -o "$d/p-%d.pgn" "$a"
check "--split --force over a read-only file: exit 2" [ "$rc" -eq 2 ]
check "--split --force over a read-only file: unchanged" cmp -s "$d/p-1.pgn" "$errs"

# ---- every terminating signal ---------------------------------------------------------
# The input is a FIFO this script holds open: pgnkit waits for more when the signal
# comes.  Two temporary files at once (-o and --invalid-to), or --split's parts.
for k in 1 2 3 4; do cat "$TMP/final/big.pgn"; done >"$TMP/huge.pgn"
# interrupt SIGNAL NUMBER MODE: MODE o (-o and --invalid-to) or split (--split 20).
interrupt() {
    _sig=$1 _num=$2 _mode=$3
    _d=$TMP/sig-$_sig-$_mode
    mkdir "$_d"
    echo "old contents" >"$_d/out.pgn"
    mkfifo "$_d/in"
    if [ "$_mode" = o ]; then
        set -- -o "$_d/out.pgn" --invalid-to "$_d/invalid.pgn"
    else
        set -- --split 20 -o "$_d/p-%03d.pgn"
    fi
    env --default-signal "$PGNKIT" pgn -q "$@" "$_d/in" 2>"$_d/err" &
    _pid=$!
    (sleep 30 && kill -s KILL "$_pid") >/dev/null 2>&1 &
    _watchdog=$!
    exec 7>"$_d/in"
    cat "$TMP/huge.pgn" >&7
    _i=0 # until output reached a temporary file (two parts for --split)
    while { [ "$(find "$_d" -name '*.tmp.*' -print | wc -l)" -lt 2 ] ||
        [ -z "$(find "$_d" -name '*.tmp.*' -size +0 -print)" ]; } && [ $_i -lt 200 ]; do
        sleep 0.05
        _i=$((_i + 1))
    done
    kill -s "$_sig" "$_pid"
    wait "$_pid"
    _rc=$?
    kill "$_watchdog" 2>/dev/null
    exec 7>&-
    _want=$((128 + _num))
    check "SIG$_sig $_mode: temporary files before the signal" [ "$_i" -lt 200 ]
    check "SIG$_sig $_mode: dies of it (exit $_want, got $_rc)" [ "$_rc" -eq "$_want" ]
    check "SIG$_sig $_mode: no temporary file" no_leftovers "$_d"
    check "SIG$_sig $_mode: existing output unchanged" [ "$(cat "$_d/out.pgn")" = "old contents" ]
    check "SIG$_sig $_mode: no new file" [ "$(ls "$_d")" = "err
in
out.pgn" ]
}
# Linux's numbers (dash's kill -l does not map names to numbers).
for sig in XCPU:24 USR1:10 USR2:12 ALRM:14 VTALRM:26 PROF:27; do
    interrupt "${sig%:*}" "${sig#*:}" o
done
interrupt TERM 15 split
interrupt USR1 10 split

# --- fsync before the rename, and the folder after it ----------------------------------
# The order of the calls, as strace sees them: the temporary file's fsync, its rename to
# the final name, then an fsync of the folder (opened after the rename).
if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null; then
    d=$TMP/sync
    mkdir -p "$d"
    strace -f -o "$d/trace" -e trace=fsync,fdatasync,rename,renameat,renameat2,openat \
        "$PGNKIT" uci -q -o "$d/out.uci" --invalid-to "$d/bad.pgn" "$errs" >/dev/null 2>&1
    for name in out.uci bad.pgn; do
        awk -v final="$d/$name" -v dir="$d" '
            /fsync\(/ { synced = 1; if (renamed && dir_fd != "" && $0 ~ "fsync\\(" dir_fd "\\)") ok = 1 }
            /rename/ && index($0, "\"" final "\"") { renamed = synced; synced = 0 }
            renamed && /openat/ && index($0, "\"" dir "\"") { split($0, a, "= "); dir_fd = a[2] + 0 }
            END { exit !ok }' "$d/trace"
        check "fsync: $name synced before its rename, its folder after" [ $? -eq 0 ]
    done
else
    skip "fsync order: no strace here (or ptrace is not allowed)"
fi

finish
