#!/bin/sh
# install.sh - make install / uninstall with PREFIX and DESTDIR put the binary and the
# man page where they belong, and take them away again.
. tests/cli/lib/common.sh
build=$(basename "$(dirname "$PGNKIT")")
root=$TMP/root

check "make install succeeds" \
    make -s install BUILD="$build" PREFIX=/opt/pgnkit DESTDIR="$root"
check "binary in PREFIX/bin" test -x "$root/opt/pgnkit/bin/pgnkit"
check "man page in PREFIX/share/man/man1" test -f "$root/opt/pgnkit/share/man/man1/pgnkit.1"
check "bash completion in PREFIX/share/bash-completion/completions" \
    test -f "$root/opt/pgnkit/share/bash-completion/completions/pgnkit"
check "zsh completion in PREFIX/share/zsh/site-functions" \
    test -f "$root/opt/pgnkit/share/zsh/site-functions/_pgnkit"
run "$root/opt/pgnkit/bin/pgnkit" --version
check "installed binary runs" grep -q '^pgnkit ' "$TMP/out"
# The version has one source (pgnkit.h): the installed page's header names the program's.
version=$(sed -n 's/^pgnkit \([0-9.]*\).*/\1/p' "$TMP/out")
check "the man page names the program's version ($version)" \
    grep -q "^\.TH PGNKIT 1 [^ ]* \"pgnkit $version\"" "$root/opt/pgnkit/share/man/man1/pgnkit.1"
make -s uninstall BUILD="$build" PREFIX=/opt/pgnkit DESTDIR="$root" >/dev/null 2>&1
check "make uninstall removes the binary" test ! -e "$root/opt/pgnkit/bin/pgnkit"
check "make uninstall removes the man page" test ! -e "$root/opt/pgnkit/share/man/man1/pgnkit.1"
check "make uninstall removes the bash completion" \
    test ! -e "$root/opt/pgnkit/share/bash-completion/completions/pgnkit"
finish
