#!/bin/sh
# test-cross.sh - pgnkit cross-compiled for aarch64 (gcc-aarch64-linux-gnu, BUILD=generic,
# gen_openings by CC_FOR_BUILD) and run under qemu-user writes what the native build
# ($PGNKIT) writes: uci, fen and check over every testdata/pgn file, at --jobs 1 and 2.
#
# Installs what is missing (root): the arm64 architecture for dpkg, the cross compiler,
# qemu-user and the arm64 -dev packages the link needs.
#
# The loader and libc must come from one glibc build.  With the arm64 libc6 installed
# (multiarch, pulled in by libpcre2-dev:arm64), 'qemu-aarch64 -L /usr/aarch64-linux-gnu'
# took ld-linux-aarch64.so.1 from libc6-arm64-cross (2.36-8cross1) but libc.so.6 from
# /lib/aarch64-linux-gnu (2.36-9+deb12u14, found through /etc/ld.so.cache): the first
# pthread_create then walked the stack cache list (kept in the loader's _rtld_global) for
# ever, so every --jobs 2 run spun at 100% CPU while --jobs 1 (no thread) worked.  Hence
# no -L when /lib/ld-linux-aarch64.so.1 is there.
set -u
: "${PGNKIT:?set PGNKIT to the native pgnkit binary}"
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 2
out=build/cross-aarch64
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $1"; }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

need=""
dpkg --print-foreign-architectures | grep -qx arm64 || need=arch
for p in gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user libpcre2-dev:arm64 \
         libzstd-dev:arm64 zlib1g-dev:arm64; do
    dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
    echo "test-cross: installing:$need" >&2
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    case $need in arch*) $SUDO dpkg --add-architecture arm64; need=${need#arch} ;; esac
    export DEBIAN_FRONTEND=noninteractive
    { $SUDO apt-get update -qq &&
      # shellcheck disable=SC2086
      $SUDO apt-get install -y -qq --no-install-recommends $need; } >&2 || exit 2
fi

start=$(date +%s)
if ! make --no-print-directory -j2 BUILD=generic OUT=$out CC=aarch64-linux-gnu-gcc \
        AR=aarch64-linux-gnu-ar $out/pgnkit >$out.log 2>&1; then
    tail -n 30 $out.log
    not_ok "cross build (make BUILD=generic CC=aarch64-linux-gnu-gcc)"
    finish
fi
ok "cross build ($(($(date +%s) - start)) s)"
file $out/pgnkit | grep -q 'ARM aarch64' && ok "$out/pgnkit is an aarch64 program" ||
    not_ok "$out/pgnkit is an aarch64 program"
file $out/tools/gen_openings | grep -q 'x86-64' && ok "gen_openings ran on the build machine" ||
    not_ok "gen_openings is a build-machine program"

if [ -e /lib/ld-linux-aarch64.so.1 ]; then qemu="qemu-aarch64"
else qemu="qemu-aarch64 -L /usr/aarch64-linux-gnu"; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgnkit-cross.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0
bad=0
for f in testdata/pgn/*/*.pgn; do
    for cmd in uci fen check; do
        "$PGNKIT" $cmd -q -j1 "$f" >"$tmp/want" 2>/dev/null
        want=$?
        for j in 1 2; do
            n=$((n + 1))
            # shellcheck disable=SC2086
            timeout -s KILL 120 $qemu $out/pgnkit $cmd -q -j$j "$f" >"$tmp/got" 2>/dev/null
            got=$?
            if [ "$got" != "$want" ] || ! cmp -s "$tmp/want" "$tmp/got"; then
                bad=$((bad + 1))
                echo "differs (exit $got, native $want): $qemu $out/pgnkit $cmd -q -j$j $f"
            fi
        done
    done
done
[ "$bad" -eq 0 ] && ok "aarch64 under qemu = native: $n runs (uci, fen, check; -j1, -j2)" ||
    not_ok "aarch64 under qemu differs from native in $bad of $n runs"
finish
