#!/bin/sh
# install.sh - make install / uninstall with PREFIX and DESTDIR put the binary and the
# man page where they belong, and take them away again.
set -u
pgnkit=${PGNKIT:-build/release/pgnkit}
build=$(basename "$(dirname "$pgnkit")")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
bad() { failed=$((failed + 1)); echo "not ok - $1"; }

make -s install BUILD="$build" PREFIX=/opt/pgnkit DESTDIR="$tmp/root" >"$tmp/log" 2>&1 \
    && ok "make install succeeds" || { bad "make install"; cat "$tmp/log"; }
[ -x "$tmp/root/opt/pgnkit/bin/pgnkit" ] && ok "binary in PREFIX/bin" || bad "binary in PREFIX/bin"
[ -f "$tmp/root/opt/pgnkit/share/man/man1/pgnkit.1" ] && ok "man page in PREFIX/share/man/man1" \
    || bad "man page"
"$tmp/root/opt/pgnkit/bin/pgnkit" --version | grep -q '^pgnkit ' && ok "installed binary runs" \
    || bad "installed binary runs"
make -s uninstall BUILD="$build" PREFIX=/opt/pgnkit DESTDIR="$tmp/root" >/dev/null 2>&1
[ ! -e "$tmp/root/opt/pgnkit/bin/pgnkit" ] && [ ! -e "$tmp/root/opt/pgnkit/share/man/man1/pgnkit.1" ] \
    && ok "make uninstall removes both" || bad "make uninstall"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
