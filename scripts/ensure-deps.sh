#!/bin/sh
# ensure-deps.sh [build|test|bench|fuzz|scale|deb] - install the Debian packages a target needs.
# Installs only what is missing and says so; needs root (or sudo) only when it installs.
set -eu

# libacl1-dev and liblz4-dev: libarchive's private dependencies a static link needs.
need="libpcre2-dev:libpcre2-8 libcriterion-dev:criterion libzstd-dev:libzstd zlib1g-dev:zlib
      libarchive-dev:libarchive libacl1-dev:libacl liblz4-dev:liblz4"
case "${1:-build}" in
    # The library tests build with clang too; the Python module needs Debian's
    # python3 and its headers (a python3 elsewhere on PATH is not the one tested).
    # zip, bzip2, xz, 7z and tar make the archives of tests/cli/archives.sh.  setuptools,
    # wheel, pip and venv: tests/cli/python.sh builds a wheel offline and installs it in
    # a fresh venv (%module: a module Debian's python3 must import).  qemu-user: the
    # default build runs on an x86-64 without AVX (tests/cli/cpu_baseline.sh).
    test) extra="mandoc:mandoc zstd:zstd parallel:parallel python3:python3 clang:clang pgn-extract:pgn-extract time:time
                 python3-dev:/usr/bin/python3-config zip:zip bzip2:bzip2 xz-utils:xz
                 p7zip-full:7z tar:tar python3-setuptools:%setuptools python3-wheel:%wheel
                 python3-pip:%pip python3-venv:%ensurepip qemu-user:qemu-x86_64" ;;
    bench) extra="pgn-extract:pgn-extract stockfish:stockfish zstd:zstd time:time" ;;
    fuzz) extra="clang:clang" ;;
    # test-scale: Dask distributed (Debian's python3), an sshd and ssh for GNU parallel.
    scale) extra="zstd:zstd parallel:parallel python3-distributed:dask-scheduler openssh-server:sshd openssh-client:ssh" ;;
    # make deb, make test-deb: dpkg-buildpackage and debhelper, the Python module's headers
    # (python3-pgnkit), man-db for 'man -w' and bash for the completion check.
    deb) extra="debhelper:dh dpkg-dev:dpkg-buildpackage build-essential:/usr/share/build-essential/list
                fakeroot:fakeroot python3-dev:/usr/bin/python3-config man-db:man bash:bash
                pkg-config:pkg-config git:git" ;;
    *) extra="" ;;
esac

missing=""
command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"
for pair in $need; do
    pkg=${pair%%:*}; mod=${pair#*:}
    if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists "$mod"; then
        missing="$missing $pkg"
    fi
done
for pair in $extra; do
    pkg=${pair%%:*}; cmd=${pair#*:}
    [ -x "/usr/games/$cmd" ] && continue
    [ -x "/usr/sbin/$cmd" ] && continue
    case $cmd in
        /*) [ -e "$cmd" ] || missing="$missing $pkg" ;;
        %*) /usr/bin/python3 -c "import ${cmd#%}" >/dev/null 2>&1 || missing="$missing $pkg" ;;
        *) command -v "$cmd" >/dev/null 2>&1 || missing="$missing $pkg" ;;
    esac
done
# Compilers and make are assumed (the brief: "nothing installed but the compiler").
[ -z "$missing" ] && exit 0

echo "ensure-deps: installing missing Debian packages:$missing" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >&2
