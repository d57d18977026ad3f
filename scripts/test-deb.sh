#!/bin/sh
# test-deb.sh [--build-only] - the Debian packages, built as a distribution would build
# them and installed as a user would.
#
# Clones HEAD (committed work only) into a fresh directory, runs dpkg-buildpackage -us -uc
# -b there (debian/: pgnkit, libpgnkit0, libpgnkit-dev, python3-pgnkit), and with
# --build-only leaves the .debs in build/deb/ (make deb).  Otherwise (make test-deb, as
# root) dpkg -i's them and checks: /usr/bin/pgnkit writes what the package build's own
# binary and $PGNKIT (this checkout's build, if given) write over testdata/pgn; man -w
# finds the page; the bash completion answers; python3 imports pgnkit from / with no
# PYTHONPATH, from /usr/lib/python3/dist-packages, and reads a game; a C program builds
# against pkg-config pgnkit and runs with libpgnkit.so.0.  Then dpkg -r removes them.
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-test}
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $1"; }
check() { _d=$1; shift; if "$@"; then ok "$_d"; else not_ok "$_d"; fi; }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

work=$(mktemp -d "${TMPDIR:-/tmp}/pgnkit-deb.XXXXXX")
installed=""
cleanup() {
    # shellcheck disable=SC2086
    [ -z "$installed" ] || dpkg -r $installed >/dev/null 2>&1 ||
        echo "test-deb: dpkg -r $installed failed: remove them by hand" >&2
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if [ "$mode" != --build-only ] && [ "$(id -u)" -ne 0 ]; then
    echo "test-deb: dpkg -i needs root" >&2
    exit 2
fi
for p in pgnkit libpgnkit0 libpgnkit-dev python3-pgnkit; do
    if [ "$mode" != --build-only ] && dpkg -s "$p" >/dev/null 2>&1; then
        echo "test-deb: $p is installed already: this test installs and removes it" >&2
        exit 2
    fi
done

# --- build, from a clean clone -------------------------------------------------------
git clone -q "$repo" "$work/pgnkit" || exit 2
echo "test-deb: dpkg-buildpackage -us -uc -b in $work/pgnkit ($(git -C "$work/pgnkit" log -1 --format='%h %s'))"
start=$(date +%s)
if ! (cd "$work/pgnkit" && dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1; then
    tail -n 40 "$work/build.log"
    not_ok "dpkg-buildpackage -us -uc -b"
    finish
fi
ok "dpkg-buildpackage -us -uc -b ($(($(date +%s) - start)) s)"
check "the build did not use -march=native" sh -c "! grep -q -- '-march=native' '$work/build.log'"
debs=""
for p in pgnkit libpgnkit0 libpgnkit-dev python3-pgnkit; do
    deb=$(ls "$work"/${p}_*.deb 2>/dev/null | head -n 1)
    check "built $p (${deb##*/})" test -n "$deb"
    debs="$debs $deb"
done
if [ "$mode" = --build-only ]; then
    mkdir -p "$repo/build/deb"
    cp "$work"/*.deb "$work"/*.buildinfo "$work"/*.changes "$repo/build/deb/" 2>/dev/null
    ls -l "$repo/build/deb/"
    finish
fi
[ "$failed" -eq 0 ] || finish

pkg() { ls "$work"/${1}_*.deb; }
check "pgnkit holds /usr/bin/pgnkit, the man page and the bash completion" sh -c "
    contents() { dpkg-deb -c \"\$1\" | awk '{print \$NF}'; }
    contents $(pkg pgnkit) | grep -qx './usr/bin/pgnkit' &&
    contents $(pkg pgnkit) | grep -q '^./usr/share/man/man1/pgnkit.1' &&
    contents $(pkg pgnkit) | grep -qx './usr/share/bash-completion/completions/pgnkit'"
check "libpgnkit0 holds libpgnkit.so.0 (its SONAME)" sh -c \
    "dpkg-deb -c $(pkg libpgnkit0) | grep -q '/libpgnkit.so.0 ->'"
check "libpgnkit-dev holds pgnkit.h, libpgnkit.a, libpgnkit.so and pgnkit.pc" sh -c "
    c=\$(dpkg-deb -c $(pkg libpgnkit-dev));
    for f in /usr/include/pgnkit/pgnkit.h /libpgnkit.a /libpgnkit.so /pgnkit.pc; do
        echo \"\$c\" | grep -q -- \"\$f\" || exit 1; done"

# --- install ---------------------------------------------------------------------------
# shellcheck disable=SC2086
if ! dpkg -i $debs >"$work/install.log" 2>&1; then
    cat "$work/install.log"
    installed="pgnkit libpgnkit0 libpgnkit-dev python3-pgnkit"
    not_ok "dpkg -i of the four packages"
    finish
fi
installed="python3-pgnkit libpgnkit-dev pgnkit libpgnkit0"
ok "dpkg -i of the four packages"

built=$work/pgnkit/build/release/pgnkit
outputs_equal() { # BINARY: /usr/bin/pgnkit's output equals BINARY's over testdata/pgn
    for f in "$repo"/testdata/pgn/*/*.pgn; do
        for args in "uci" "fen" "check" "pgn" "uci --format json" "fen --every"; do
            # shellcheck disable=SC2086
            /usr/bin/pgnkit $args -q "$f" >"$work/a" 2>&1
            a=$?
            # shellcheck disable=SC2086
            "$1" $args -q "$f" >"$work/b" 2>&1
            [ "$a" = $? ] && cmp -s "$work/a" "$work/b" ||
                { echo "differs: pgnkit $args $f" >&2; return 1; }
        done
    done
}
n=$(ls "$repo"/testdata/pgn/*/*.pgn | wc -l)
check "/usr/bin/pgnkit = the package build's binary over $n testdata files, 6 ways" \
    outputs_equal "$built"
if [ -n "${PGNKIT:-}" ] && [ -x "$PGNKIT" ]; then
    check "/usr/bin/pgnkit = $PGNKIT (this checkout's build) over the same" \
        outputs_equal "$PGNKIT"
fi
check "man -w pgnkit finds the installed page" sh -c \
    "man -w pgnkit 2>/dev/null | grep -q '^/usr/share/man/man1/pgnkit.1'"
check "the bash completion offers --where for 'pgnkit uci --wh'" bash --norc -c '
    . /usr/share/bash-completion/completions/pgnkit
    COMP_WORDS=(pgnkit uci --wh); COMP_CWORD=2; PATH=/usr/bin:$PATH; _pgnkit
    [ "${COMPREPLY[*]}" = --where ]'
check "python3 imports pgnkit from / without PYTHONPATH, from dist-packages" sh -c "
    cd / && env -u PYTHONPATH /usr/bin/python3 -c 'import pgnkit, sys
assert pgnkit.__file__ == \"/usr/lib/python3/dist-packages/pgnkit.so\", pgnkit.__file__
g = next(iter(pgnkit.read(sys.argv[1])))
assert g.uci == [\"f2f3\", \"e7e5\", \"g2g4\", \"d8h4\"], g.uci' \
    '$repo/testdata/pgn/pgn-extract/fools-mate.pgn'"
cat >"$work/use.c" <<'CEOF'
#include <pgnkit/pgnkit.h>
#include <stdio.h>
int main(void) { puts(pgnkit_version()); return pgnkit_version_number() != PGNKIT_VERSION_NUMBER; }
CEOF
check "a C program builds with pkg-config pgnkit and runs on libpgnkit.so.0" sh -c "
    cc -o '$work/use' '$work/use.c' \$(pkg-config --cflags --libs pgnkit) &&
    { ldd '$work/use' | grep -q 'libpgnkit.so.0 => /\(usr/\)\?lib/' || { ldd '$work/use'; exit 1; }; } &&
    '$work/use' >/dev/null"

# --- remove ----------------------------------------------------------------------------
# shellcheck disable=SC2086
check "dpkg -r removes them" sh -c "dpkg -r $installed >'$work/remove.log' 2>&1"
installed=""
check "/usr/bin/pgnkit is gone" test ! -e /usr/bin/pgnkit
check "python3 no longer finds the module there" test ! -e /usr/lib/python3/dist-packages/pgnkit.so
finish
