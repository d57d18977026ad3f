#!/bin/sh
# man.sh - man/pgnkit.1 lints clean (make check-man) and cannot drift from the program:
# its OPTIONS are exactly the options of every "pgnkit COMMAND --help", each with the
# commands that take it; its COMMANDS are those of "pgnkit --help"; its DIAGNOSTICS list
# every code of src/base/diag.h with its default severity, and the JSON keys that
# "check --format json" writes.
. "$(dirname "$0")/lib/common.sh"

page=man/pgnkit.1
commands="check uci fen pgn perft summary"

if command -v mandoc >/dev/null 2>&1; then
    run make -s --no-print-directory check-man
    check "make check-man: mandoc -Tlint -W warning is clean" [ "$rc" -eq 0 -a ! -s "$TMP/out" ]
    [ "$rc" -eq 0 ] || cat "$TMP/out" "$TMP/err"
else
    skip "lint: no mandoc (sh scripts/ensure-deps.sh test installs it)"
fi

# section NAME: the roff source of one .SH section of the page.
section() { awk -v name="$1" '/^\.SH /{on = ($2 == name)} on' "$page"; }

# --- options --------------------------------------------------------------------------

# From --help: "name<TAB>command" per option a command lists (long and short names).
for cmd in $commands; do
    "$PGNKIT" "$cmd" --help |
        sed -nE 's/^ +(-[a-zA-Z]), (--[a-z0-9-]+).*/\1 \2/p; s/^ +(--[a-z0-9-]+).*/\1/p' |
        tr ' ' '\n' | sed "s/\$/	$cmd/"
done | sort -u >"$TMP/help-pairs"
cut -f1 "$TMP/help-pairs" | sort -u >"$TMP/help-names"
check "--help lists options" [ "$(lines "$TMP/help-names")" -gt 20 ]

# From the page: the tag line after each .TP in OPTIONS names the option(s); a line
# "[cmd, cmd]" in its paragraph names the commands (none: -h and --version, all).
section OPTIONS | awk '
    /^\.(SH|SS)/ { tag = 0; next }
    /^\.TP/ { tag = 1; next }
    tag == 1 {
        names = ""
        s = $0
        gsub(/\\-/, "-", s)
        gsub(/\\f[RBIP]/, "", s)
        while (match(s, /(^|[ "])--?[a-zA-Z][a-z0-9-]*/)) {
            n = substr(s, RSTART, RLENGTH); sub(/^[ "]/, "", n)
            names = names " " n
            s = substr(s, RSTART + RLENGTH)
        }
        tag = 2; next
    }
    tag == 2 && /^\[[a-z, ]+\]$/ {
        cmds = substr($0, 2, length($0) - 2); gsub(/,/, "", cmds)
        k = split(names, nv, " "); c = split(cmds, cv, " ")
        for (i = 1; i <= k; i++) for (j = 1; j <= c; j++) print nv[i] "\t" cv[j]
        tag = 0
    }
    tag == 2 && /^\.(TP|SH|SS)/ { tag = 0 }
' | sort -u >"$TMP/man-pairs"
section OPTIONS | awk '/^\.TP/ {getline; print}' | sed 's/\\-/-/g; s/\\f[RBIP]//g' |
    grep -oE '(^|[ "])--?[a-zA-Z][a-z0-9-]*' | sed 's/^[ "]//' | sort -u >"$TMP/man-names"

# -h/--help and --version belong to every command and carry no [commands] line.
grep -vE '^(-h|--help|--version)	' "$TMP/help-pairs" >"$TMP/help-pairs-cmd"
for n in $(cat "$TMP/help-names"); do
    if grep -qxF -- "$n" "$TMP/man-names"; then ok "man page documents $n"; else not_ok "man page lacks $n (in --help)"; fi
done
for n in $(cat "$TMP/man-names"); do
    if grep -qxF -- "$n" "$TMP/help-names"; then ok "--help lists $n"; else not_ok "man page has $n, no --help lists it"; fi
done
if cmp -s "$TMP/help-pairs-cmd" "$TMP/man-pairs"; then
    ok "every option is given the same commands in --help and in the man page"
else
    not_ok "options and commands differ (< --help, > man page):"
    diff "$TMP/help-pairs-cmd" "$TMP/man-pairs" | grep '^[<>]'
fi

# --- commands -------------------------------------------------------------------------

"$PGNKIT" --help | sed -nE 's/^  ([a-z]+) .*/\1/p' | sort >"$TMP/help-cmds"
section COMMANDS | awk '/^\.TP/ {getline; print}' | sed -nE 's/^\.B ([a-z]+)$/\1/p' | sort \
    >"$TMP/man-cmds"
check "COMMANDS are those of pgnkit --help" cmp -s "$TMP/help-cmds" "$TMP/man-cmds"
check "... and they are: $commands" [ "$(tr '\n' ' ' <"$TMP/help-cmds")" = "check fen perft pgn summary uci " ]

# --- diagnostics ----------------------------------------------------------------------

# "NAME severity" for every code of the X-macro table except OK, which is never printed.
tr -d '\n\\' <src/base/diag.h | grep -oE 'X\(DIAG_[A-Z_]+, *"[A-Z_]+", *DIAG_(ERROR|WARNING)' |
    sed -E 's/.*"([A-Z_]+)", *DIAG_(ERROR|WARNING)/\1 \2/' | tr 'A-Z' 'a-z' |
    awk '$1 != "ok" {print toupper($1), $2}' | sort >"$TMP/codes"
section DIAGNOSTICS | sed -nE 's/^\.BR ([A-Z_]+) " \((error|warning)\)"$/\1 \2/p' | sort \
    >"$TMP/man-codes"
check "diag.h has codes" [ "$(lines "$TMP/codes")" -gt 30 ]
while read -r name sev; do
    if grep -qx "$name $sev" "$TMP/man-codes"; then
        ok "man page documents $name ($sev)"
    else
        not_ok "man page lacks $name, or not as $sev"
    fi
done <"$TMP/codes"
check "the man page lists no code diag.h lacks" cmp -s "$TMP/codes" "$TMP/man-codes"

# The JSON keys of a diagnostic, as check --format json writes them.
"$PGNKIT" check -q --format json "$TESTDATA/mutants/mutants.pgn" 2>/dev/null | head -n 1 |
    grep -oE '"[a-z_]+":' | tr -d '":' >"$TMP/json-keys"
check "check --format json writes keys" [ "$(lines "$TMP/json-keys")" -ge 13 ]
section DIAGNOSTICS >"$TMP/diag-section"
for k in $(cat "$TMP/json-keys"); do
    check "DIAGNOSTICS names the JSON key $k" grep -qE "^\.BR? $k( |\$)" "$TMP/diag-section"
done

finish
