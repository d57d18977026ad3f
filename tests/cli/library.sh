#!/bin/sh
# library.sh - the installed C library: make install puts libpgnkit.{a,so.N}, pgnkit.h and
# pgnkit.pc under PREFIX; the first C program of docs/api.md, built against that
# installation with pkg-config (gcc and clang, shared and static), prints for every
# shared PGN file exactly what `pgnkit uci FILE` prints.
. tests/cli/lib/common.sh
prefix=$TMP/prefix
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"

check "make install-lib succeeds" make -s install-lib PREFIX="$prefix" >/dev/null
check "libpgnkit.a installed" test -f "$prefix/lib/libpgnkit.a"
check "pgnkit.h installed" test -f "$prefix/include/pgnkit/pgnkit.h"
check "docs/api.md installed" test -f "$prefix/share/doc/pgnkit/api.md"
soname=$(objdump -p "$prefix/lib/libpgnkit.so" 2>/dev/null | awk '/SONAME/ {print $2}')
check "the shared library has a SONAME (libpgnkit.so.N)" \
    sh -c "echo '$soname' | grep -Eq '^libpgnkit\.so\.[0-9]+$' && test -e '$prefix/lib/$soname'"
check "pkg-config knows pgnkit" pkg-config --exists pgnkit
check "the archive holds no LTO-only objects" \
    sh -c "! nm -A '$prefix/lib/libpgnkit.a' 2>/dev/null | grep -q __gnu_lto"
exported=$(nm -D --defined-only "$prefix/lib/libpgnkit.so" | awk '{print $3}' | grep -vc '^pgnkit_')
check "the shared library exports only pgnkit_* symbols ($exported others)" test "$exported" -eq 0
others=$(nm -g --defined-only "$prefix/lib/libpgnkit.a" | awk 'NF == 3 {print $3}' | grep -v '^pgnkit_')
check "the static library defines only pgnkit_* global symbols (others: $(echo $others | head -c 200))" \
    test -z "$others"
installed=$(cd "$prefix/include" && find pgnkit -type f | sort | tr '\n' ' ')
shipped=$(cd include && find pgnkit -type f | sort | tr '\n' ' ')
check "include/pgnkit/ holds exactly the headers make install installs ($shipped= $installed)" \
    test "$installed" = "$shipped"
# A program with functions of the library's internal names (buf_init, xmalloc, parse_tag)
# links with the static library: those names are the program's alone.
cat >"$TMP/clash.c" <<'CLASH'
#include <stdio.h>
#include <stdlib.h>
#include <pgnkit/pgnkit.h>
void *xmalloc(size_t n);
void *xmalloc(size_t n) { return malloc(n); }
int buf_init(void);
int buf_init(void) { return 42; }
int parse_tag(void);
int parse_tag(void) { return 7; }
int main(void)
{
    free(xmalloc(1));
    printf("%s %d %d\n", pgnkit_version(), buf_init(), parse_tag());
    return 0;
}
CLASH
check "a program defining xmalloc, buf_init and parse_tag links the static library" \
    gcc -std=c11 -Wall -Werror $(pkg-config --cflags pgnkit) "$TMP/clash.c" -o "$TMP/clash" \
    "$prefix/lib/libpgnkit.a" $(pkg-config --static --libs pgnkit | sed 's/-lpgnkit//')
check "... and runs with its own functions" sh -c "'$TMP/clash' | grep -q ' 42 7\$'"

# The first ```c block of docs/api.md, as a user would copy it.
awk '/^```c$/ {on = 1; next} on && /^```$/ {exit} on' docs/api.md >"$TMP/uci.c"
check "docs/api.md has a C program" test -s "$TMP/uci.c"
cflags=$(pkg-config --cflags pgnkit)
for cc in gcc clang; do
    command -v $cc >/dev/null 2>&1 || { not_ok "$cc is installed"; continue; }
    check "$cc builds it against the shared library" \
        $cc -std=c11 -Wall -Werror $cflags "$TMP/uci.c" -o "$TMP/uci-$cc-shared" \
        $(pkg-config --libs pgnkit) -Wl,-rpath,"$prefix/lib"
    # Static: the archive itself, with the private dependencies pkg-config --static lists.
    check "$cc builds it against the static library" \
        $cc -std=c11 -Wall -Werror $cflags "$TMP/uci.c" -o "$TMP/uci-$cc-static" \
        "$prefix/lib/libpgnkit.a" $(pkg-config --static --libs pgnkit | sed 's/-lpgnkit//')
done
check "the static program does not need libpgnkit.so" \
    sh -c "test -x '$TMP/uci-gcc-static' && ! ldd '$TMP/uci-gcc-static' | grep -q libpgnkit"
programs=$(ls "$TMP"/uci-*-* 2>/dev/null | wc -l)
check "four builds to compare (gcc, clang x shared, static): $programs" test "$programs" -eq 4

inputs=$(find testdata/pgn -name '*.pgn' | sort)
for f in $inputs testdata/bench/twic1599.pgn.zst testdata/bench/lichess-2021-10-999.pgn.zst; do
    "$PGNKIT" uci -q --jobs 1 "$f" >"$TMP/cli.txt" 2>/dev/null
    for prog in "$TMP"/uci-*-*; do
        [ -x "$prog" ] || continue
        "$prog" "$f" >"$TMP/lib.txt" 2>/dev/null
        if ! cmp -s "$TMP/cli.txt" "$TMP/lib.txt"; then
            not_ok "$(basename "$prog") on $f prints what pgnkit uci prints"
            diff "$TMP/cli.txt" "$TMP/lib.txt" | head -5
            continue 2
        fi
    done
    ok "every build of the docs/api.md program equals pgnkit uci on $f"
done
"$TMP/uci-gcc-shared" "$TMP/no-such-file.pgn" >/dev/null 2>"$TMP/err"
check "a missing file is an error value, exit 2" test $? -eq 2
check "... with the reason" grep -q "No such file" "$TMP/err"
finish
