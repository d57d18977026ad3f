#!/bin/sh
# test-cross.sh - pgnkit cross-compiled for aarch64 (gcc-aarch64-linux-gnu, BUILD=generic,
# gen_openings by CC_FOR_BUILD) and run under qemu-user:
#   1. writes what the native build ($PGNKIT) writes: uci, fen and check over every
#      testdata/pgn file, at --jobs 1 and 2;
#   2. passes every Criterion unit test (tests/test_*.c, built with the cross compiler);
#   3. passes the CLI golden cases (tests/cli/golden.sh) and the --jobs tests
#      (tests/cli/jobs.sh), run with PGNKIT set to a wrapper that starts the aarch64
#      binary under qemu-aarch64 (both scripts only ever run "$PGNKIT" ARGS...).
# Time: on this 2-core machine under load 8 the unit tests took ~9.5 min wall (perft at its
# default 100,000-node cap: 19 s, no quick mode needed), golden.sh 14 s, jobs.sh 4.5 min
# (1.5 min of CPU); a few minutes on CI's unshared cores.
#
# Installs what is missing (root): the arm64 architecture for dpkg, the cross compiler,
# qemu-user, the arm64 -dev packages the link needs and libarchive13:arm64 (pgnkit opens it
# with dlopen for archives: test_api and the golden cases read a zip).
#
# Criterion for arm64 cannot be installed by multiarch next to the amd64 one make test
# uses: libcriterion-dev and libcriterion3 are Multi-Arch: same, but they depend on
# libnanomsg5 and libnanomsg-dev (and libgit2-dev on libhttp-parser-dev), which have no
# Multi-Arch field, so apt removes the amd64 Criterion to install the arm64 one (bookworm:
# also libnanomsg5 is 1.1.5+dfsg-1.1+b1 on amd64 and -1.1 on arm64).  So the arm64
# Criterion and those of its run-time libraries that are not installed are fetched with
# apt-get download (the archive's signed packages) and unpacked with dpkg-deb -x into
# $out/criterion-root, not installed: the tests link it there (-rpath, DT_RPATH so that
# libcriterion's own dependencies resolve there too).  libc6:arm64 is never taken from
# there (see the loader note below).
#
# Criterion runs each test in a worker that BoxFort starts by execve("/proc/self/exe"):
# under qemu-user without binfmt_misc (a kernel-wide setting CI's container lacks) the host
# kernel refuses an aarch64 program ("Exec format error", Criterion: "Could not spawn test
# instance: Protocol error").  tests/cross/qemu_execve.c, linked only into these test
# binaries, does what binfmt_misc would: an execve of an aarch64 ELF runs
# $PGNKIT_CROSS_QEMU on it.  The tests themselves are the unchanged sources.
#
# jobs.sh's peak-RSS bounds are skipped (tests/cli/lib/common.sh: PGNKIT names a qemu
# wrapper): /usr/bin/time would measure the emulator.
#
# The loader and libc must come from one glibc build.  With the arm64 libc6 installed
# (multiarch, pulled in by libpcre2-dev:arm64), 'qemu-aarch64 -L /usr/aarch64-linux-gnu'
# took ld-linux-aarch64.so.1 from libc6-arm64-cross (2.36-8cross1) but libc.so.6 from
# /lib/aarch64-linux-gnu (2.36-9+deb12u14, found through /etc/ld.so.cache): the first
# pthread_create then walked the stack cache list (kept in the loader's _rtld_global) for
# ever, so every --jobs 2 run spun at 100% CPU while --jobs 1 (no thread) worked.  Hence
# no -L (QEMU_LD_PREFIX) when /lib/ld-linux-aarch64.so.1 is there.
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
         libzstd-dev:arm64 zlib1g-dev:arm64 libarchive13:arm64; do
    dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
    echo "test-cross: installing:$need" >&2
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    case $need in arch*) $SUDO dpkg --add-architecture arm64; need=${need#arch} ;; esac
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    { $SUDO apt-get update -qq &&
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

# QEMU_LD_PREFIX is qemu-user's -L, in the environment so that the wrapper and the
# workers Criterion starts (tests/cross/qemu_execve.c) get it too.
[ -e /lib/ld-linux-aarch64.so.1 ] || export QEMU_LD_PREFIX=/usr/aarch64-linux-gnu
qemu="qemu-aarch64"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgnkit-cross.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# 1. The x86-64 output, file by file.
n=0
bad=0
for f in testdata/pgn/*/*.pgn; do
    for cmd in uci fen check; do
        "$PGNKIT" $cmd -q -j1 "$f" >"$tmp/want" 2>/dev/null
        want=$?
        for j in 1 2; do
            n=$((n + 1))
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

# 2. The unit tests.  Criterion for arm64, unpacked (see above), once per build directory.
root=$repo/$out/criterion-root
lib=$root/usr/lib/aarch64-linux-gnu
if [ ! -e "$lib/libcriterion.so" ]; then
    pkgs=libcriterion-dev:arm64
    for p in $(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
                   --no-breaks --no-replaces --no-enhances libcriterion3:arm64 |
               grep -E '^[a-z0-9]' | sort -u); do
        case $p in libc6:* | gcc-*-base:*) continue ;; esac
        dpkg -s "$p" >/dev/null 2>&1 || pkgs="$pkgs $p"
    done
    mkdir -p "$tmp/debs" && chmod 777 "$tmp/debs"  # apt's _apt user writes there
    echo "test-cross: unpacking into $root:$pkgs" >&2
    # A second try after apt-get update: stale lists name versions the mirror dropped.
    # shellcheck disable=SC2086
    if (cd "$tmp/debs" && { apt-get download -q $pkgs ||
                            { apt-get update -qq && apt-get download -q $pkgs; }; }) \
           >"$out.debs.log" 2>&1; then
        for d in "$tmp"/debs/*.deb; do dpkg-deb -x "$d" "$root"; done
    else
        tail -n 20 "$out.debs.log"
    fi
fi
units=""
for c in tests/test_*.c; do c=${c#tests/}; units="$units $out/tests/${c%.c}"; done
built=0
# shellcheck disable=SC2086
aarch64-linux-gnu-gcc -std=c11 -O2 -Wall -Wextra -c tests/cross/qemu_execve.c \
        -o $out/qemu_execve.o >>$out.log 2>&1 &&
    make --no-print-directory -j2 BUILD=generic OUT=$out CC=aarch64-linux-gnu-gcc \
        AR=aarch64-linux-gnu-ar CRITERION_CFLAGS="-I$root/usr/include" \
        CRITERION_LIBS="$out/qemu_execve.o -L$lib -Wl,--disable-new-dtags,-rpath,$lib -lcriterion" \
        $units >>$out.log 2>&1 && [ -e "$lib/libcriterion.so" ] && built=1
if [ $built -eq 0 ]; then
    tail -n 30 $out.log
    not_ok "unit tests: cross build with Criterion for arm64 ($root)"
else
    export PGNKIT_CROSS_QEMU
    PGNKIT_CROSS_QEMU=$(command -v $qemu)
    for t in $units; do
        name=$(basename "$t")
        if timeout -s KILL 1200 $qemu "$t" --jobs 2 >"$t.log" 2>&1; then
            ok "$name under qemu: $(tail -n 1 "$t.log" | sed 's/^\[====\] Synthesis: //')"
        else
            grep -v '^\[----\] *$' "$t.log" | tail -n 30
            not_ok "$name under qemu"
        fi
    done
fi

# 3. The CLI golden cases and the --jobs tests, through a wrapper.
wrap=$repo/$out/pgnkit-qemu
printf '#!/bin/sh\nexec %s %s "$@"\n' "$qemu" "$repo/$out/pgnkit" >"$wrap" && chmod +x "$wrap"
for s in golden jobs; do
    if PGNKIT=$wrap sh tests/cli/$s.sh >"$out/cli-$s.log" 2>&1; then
        ok "tests/cli/$s.sh under qemu: $(tail -n 1 "$out/cli-$s.log")"
    else
        grep -v '^ok ' "$out/cli-$s.log" | tail -n 30
        not_ok "tests/cli/$s.sh under qemu"
    fi
done
finish
