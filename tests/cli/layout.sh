#!/bin/sh
# layout.sh - the source tree keeps the shape of the README's map: no .c file loose in
# src/ but api.c, folders that include only the folders before them, no two modules that
# include each other, no include of a missing file (scripts/check-layout.py).  And every
# header, installed or private, compiles on its own: it includes what it uses (this was
# tests/cli/headers.sh, for the installed headers only).
. tests/cli/lib/common.sh

python3 scripts/check-layout.py >"$TMP/layout" 2>&1
check "scripts/check-layout.py: $(tail -n 1 "$TMP/layout")" test $? -eq 0
grep '^not ok' "$TMP/layout"

folders=$(find src -mindepth 1 -maxdepth 1 -type d ! -name cli | wc -l)
check "at least six module folders besides cli/ ($folders)" test "$folders" -ge 6

cc=${CC:-cc}
for h in $(find include src -name '*.h' | sort); do
    # The installed header also compiles as strict ISO C (-pedantic): users' flags.
    case $h in include/*) name=${h#include/} strict=-pedantic ;; *) name=${h#src/} strict= ;; esac
    if printf '#include "%s"\n' "$name" |
        $cc -std=c11 $strict -Wall -Wextra -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Isrc -Iinclude \
            $(pkg-config --cflags libpcre2-8 libarchive 2>/dev/null) \
            -fsyntax-only -x c - 2>"$TMP/header.err"; then
        ok "$h compiles alone"
    else
        not_ok "$h compiles alone"
        cat "$TMP/header.err"
    fi
done
finish
