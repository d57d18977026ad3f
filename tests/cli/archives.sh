#!/bin/sh
# archives.sh - archives and compressors made here with the real tools (zip, 7z, tar,
# bzip2, xz, gzip, zstd) give exactly the output of the plain files, from files and from
# standard input; each .pgn member is named archive:member in diagnostics; damaged
# archives are one error (exit 2) after the games before the damage; input that is no
# PGN text (PDF, ELF, images, a .docx, random bytes) is one error naming it, exit 2;
# UTF-16 (LE/BE, with and without BOM) reads as its UTF-8 original.
. "$(dirname "$0")/lib/common.sh"

a=$TESTDATA/pgn-extract/fischer.pgn
b=$TESTDATA/pgn-extract/petrosian.pgn
big=$TESTDATA/tcec/TCEC_Season_10_-_Superfinal.pgn
mkdir "$TMP/m"
cp "$a" "$TMP/m/fischer.pgn"
cp "$b" "$TMP/m/petrosian.pgn"
echo "not a game" >"$TMP/m/readme.txt"

cat "$a" "$b" | "$PGNKIT" uci -q >"$TMP/want-ab" 2>/dev/null
check "plain run: 69 games" [ "$(lines "$TMP/want-ab")" -eq 69 ]
"$PGNKIT" uci -q "$a" >"$TMP/want-a" 2>/dev/null

have() { command -v "$1" >/dev/null 2>&1; }

# same_as WANT NAME FILE: FILE read by name and on standard input gives WANT, exit 0.
same_as() {
    run "$PGNKIT" uci -q "$3"
    check "$2: exit 0" [ "$rc" -eq 0 ]
    check "$2: same output as the plain files" cmp -s "$TMP/out" "$1"
    check "$2: nothing on stderr" [ ! -s "$TMP/err" ]
    cat "$3" | "$PGNKIT" uci -q >"$TMP/out" 2>"$TMP/err"
    check "$2 on a pipe: same output" cmp -s "$TMP/out" "$1"
    cat "$3" | "$PGNKIT" uci -q -j2 >"$TMP/out" 2>"$TMP/err"
    check "$2 with --jobs 2: same output" cmp -s "$TMP/out" "$1"
}

# ---- archives: every .pgn member in archive order, other members passed over ----------

if have zip; then
    (cd "$TMP/m" && zip -q ../ab.zip readme.txt fischer.pgn petrosian.pgn)
    same_as "$TMP/want-ab" "zip of two .pgn members and a .txt" "$TMP/ab.zip"
    (cd "$TMP/m" && zip -q ../ba.zip petrosian.pgn fischer.pgn)
    cat "$b" "$a" | "$PGNKIT" uci -q >"$TMP/want-ba" 2>/dev/null
    same_as "$TMP/want-ba" "zip members in archive order" "$TMP/ba.zip"
    cp "$a" "$TMP/m/UPPER.PGN"
    (cd "$TMP/m" && zip -q ../upper.zip UPPER.PGN)
    same_as "$TMP/want-a" "zip member named .PGN" "$TMP/upper.zip"

    # Diagnostics name archive:member as the file; otherwise as for the plain file.
    cp tests/cli/data/errors.pgn "$TMP/m/errors.pgn"
    (cd "$TMP/m" && zip -q ../errs.zip errors.pgn)
    (cd "$TMP/m" && "$PGNKIT" check errors.pgn) 2>&1 | grep '^errors.pgn:' |
        sed 's|^errors.pgn:|errs.zip:errors.pgn:|' >"$TMP/want-diag"
    (cd "$TMP" && "$PGNKIT" check errs.zip) >"$TMP/out" 2>&1
    grep '^errs.zip' "$TMP/out" >"$TMP/got-diag"
    check "zip: diagnostics name errs.zip:errors.pgn" \
        [ -s "$TMP/want-diag" ] && cmp -s "$TMP/got-diag" "$TMP/want-diag"
    (cd "$TMP" && "$PGNKIT" check --summary ab.zip) >"$TMP/out" 2>&1
    check "zip: --summary has a line per member" \
        grep -q '^ab.zip:fischer.pgn' "$TMP/out" && grep -q '^ab.zip:petrosian.pgn' "$TMP/out"

    (cd "$TMP/m" && zip -q ../none.zip readme.txt)
    run "$PGNKIT" uci -q "$TMP/none.zip"
    check "zip without a .pgn member: exit 2" [ "$rc" -eq 2 ]
    check "zip without a .pgn member: one line saying so" \
        [ "$(lines "$TMP/err")" -eq 1 ] && grep_err "zip archive with no .pgn member"
else
    skip "zip tests: no zip command (sh scripts/ensure-deps.sh test installs it)"
fi

if have 7z; then
    (cd "$TMP/m" && 7z a -bd -bso0 -bsp0 ../ab.7z fischer.pgn petrosian.pgn readme.txt >/dev/null)
    run "$PGNKIT" uci -q "$TMP/ab.7z"
    check "7z: exit 0" [ "$rc" -eq 0 ]
    check "7z: same output as the plain files" cmp -s "$TMP/out" "$TMP/want-ab"
    "$PGNKIT" uci -q <"$TMP/ab.7z" >"$TMP/out" 2>"$TMP/err"
    check "7z on standard input from a file (seekable): same output" cmp -s "$TMP/out" "$TMP/want-ab"
    cat "$TMP/ab.7z" | "$PGNKIT" uci -q >"$TMP/out" 2>"$TMP/err"
    check "7z on a pipe: exit 2, says to give the file" \
        [ $? -eq 2 ] && grep_err "7z archives cannot be read from a pipe"
    head -c 2000 "$TMP/ab.7z" >"$TMP/cut.7z"
    run "$PGNKIT" uci -q "$TMP/cut.7z"
    if [ "$rc" -eq 2 ] && [ "$(lines "$TMP/err")" -eq 1 ]; then held=0; else held=1; fi
    check "truncated 7z: exit 2, one line" [ "$held" -eq 0 ]
    check "truncated 7z: says so" grep_err "7z archive data is truncated or corrupt"
else
    skip "7z tests: no 7z command (p7zip-full)"
fi

if have tar; then
    tar -C "$TMP/m" -cf "$TMP/ab.tar" fischer.pgn readme.txt petrosian.pgn
    same_as "$TMP/want-ab" "tar" "$TMP/ab.tar"
    tar -C "$TMP/m" -czf "$TMP/ab.tgz" fischer.pgn readme.txt petrosian.pgn
    same_as "$TMP/want-ab" "tar.gz" "$TMP/ab.tgz"
    if have xz; then
        tar -C "$TMP/m" -cJf "$TMP/ab.txz" fischer.pgn petrosian.pgn
        same_as "$TMP/want-ab" "tar.xz" "$TMP/ab.txz"
    fi
    if have bzip2; then
        tar -C "$TMP/m" -cjf "$TMP/ab.tbz" fischer.pgn petrosian.pgn
        same_as "$TMP/want-ab" "tar.bz2" "$TMP/ab.tbz"
    fi
    if have zstd; then
        tar -C "$TMP/m" --zstd -cf "$TMP/ab.tzst" fischer.pgn petrosian.pgn
        same_as "$TMP/want-ab" "tar.zst" "$TMP/ab.tzst"
    fi
fi

# ---- single-stream compressors ---------------------------------------------------------

for tool in bzip2 xz; do
    if have $tool; then
        $tool -c "$a" >"$TMP/a.$tool"
        same_as "$TMP/want-a" "$tool" "$TMP/a.$tool"
    else
        skip "$tool tests: no $tool command"
    fi
done

# ---- damage: one error, exit 2, the games before it converted -----------------------------

"$PGNKIT" uci -q "$big" >"$TMP/want-big" 2>/dev/null
all=$(lines "$TMP/want-big")
# damaged NAME FILE: exit 2, one line on stderr, some games out and each as in the plain run.
damaged() {
    run "$PGNKIT" uci -q "$2"
    got=$(lines "$TMP/out")
    check "$1: exit 2" [ "$rc" -eq 2 ]
    check "$1: one line on stderr" [ "$(lines "$TMP/err")" -eq 1 ]
    check "$1: says truncated or corrupt" grep_err "truncated"
    check "$1: the games before the damage ($got of $all)" \
        [ "$got" -gt 0 ] && [ "$got" -lt "$all" ] &&
        head -n "$got" "$TMP/want-big" | cmp -s - "$TMP/out"
}
cut_half() { head -c $(($(wc -c <"$1") / 2)) "$1" >"$2"; }
for tool in bzip2 xz gzip zstd; do
    have $tool || continue
    $tool -c "$big" >"$TMP/big.c"
    cut_half "$TMP/big.c" "$TMP/big-cut.$tool"
    damaged "truncated $tool" "$TMP/big-cut.$tool"
done
if have zip; then
    cp "$big" "$TMP/m/big.pgn"
    (cd "$TMP/m" && zip -q ../big.zip big.pgn)
    cut_half "$TMP/big.zip" "$TMP/big-cut.zip"
    damaged "truncated zip" "$TMP/big-cut.zip"
    # A flipped byte in the middle of the member: its CRC-32 (or the inflater) catches it.
    half=$(($(wc -c <"$TMP/big.zip") / 2))
    { head -c "$half" "$TMP/big.zip"; printf 'XXXXXXXX'; tail -c +$((half + 9)) "$TMP/big.zip"; } \
        >"$TMP/bad.zip"
    run "$PGNKIT" uci -q "$TMP/bad.zip"
    if [ "$rc" -eq 2 ] && [ "$(lines "$TMP/err")" -eq 1 ]; then held=0; else held=1; fi
    check "corrupt zip: exit 2, one line" [ "$held" -eq 0 ]
    check "corrupt zip: names the member" grep_err "bad.zip:big.pgn: zip archive data is"
fi
if have tar && have xz; then
    tar -C "$TMP/m" -cJf "$TMP/big.txz" big.pgn 2>/dev/null || tar -C "$(dirname "$big")" \
        -cJf "$TMP/big.txz" "$(basename "$big")"
    cut_half "$TMP/big.txz" "$TMP/big-cut.txz"
    damaged "truncated tar.xz" "$TMP/big-cut.txz"
fi

# ---- no PGN text at all: one error naming what it is, exit 2 ---------------------------------

# refused NAME FILE TEXT: exit 2, nothing on stdout, one stderr line with TEXT; also on a pipe.
refused() {
    run "$PGNKIT" uci -q "$2"
    check "$1: exit 2" [ "$rc" -eq 2 ]
    check "$1: no output" [ ! -s "$TMP/out" ]
    check "$1: one line on stderr" [ "$(lines "$TMP/err")" -eq 1 ]
    check "$1: says it is $3" grep_err "$3, not PGN text"
    run "$PGNKIT" check "$2"
    if [ "$rc" -eq 2 ] && ! grep -q 'error\[' "$TMP/err"; then held=0; else held=1; fi
    check "$1: check gives no game diagnostics" [ "$held" -eq 0 ]
    cat "$2" | "$PGNKIT" uci -q >"$TMP/out" 2>"$TMP/err"
    if [ $? -eq 2 ] && grep_err "$3, not PGN text"; then held=0; else held=1; fi
    check "$1 on a pipe: exit 2, says so" [ "$held" -eq 0 ]
}
printf '%%PDF-1.7\n%%\342\343\317\323\n1 0 obj\n<< /Type /Catalog >>\nendobj\n' >"$TMP/doc.pdf"
refused "a PDF" "$TMP/doc.pdf" "a PDF document"
cp /bin/true "$TMP/true.pgn"
refused "an ELF binary named .pgn" "$TMP/true.pgn" "an ELF executable or library"
printf '\211PNG\r\n\032\n\000\000\000\rIHDR\000\000\000\001' >"$TMP/img.png"
refused "a PNG image" "$TMP/img.png" "a PNG image"
printf '\377\330\377\340\000\020JFIF\000' >"$TMP/img.jpg"
refused "a JPEG image" "$TMP/img.jpg" "a JPEG image"
LC_ALL=C awk 'BEGIN { srand(7); for (i = 0; i < 20000; i++) printf "%c", int(rand() * 256) }' \
    >"$TMP/random.bin"
refused "random bytes" "$TMP/random.bin" "binary data"
gzip -c "$TMP/doc.pdf" >"$TMP/doc.pdf.gz"
refused "a gzipped PDF" "$TMP/doc.pdf.gz" "gzip data holding a PDF document"
if have zip; then
    mkdir -p "$TMP/docx/word" "$TMP/docx/_rels"
    echo '<?xml version="1.0"?><Types/>' >"$TMP/docx/[Content_Types].xml"
    echo '<?xml version="1.0"?><Relationships/>' >"$TMP/docx/_rels/.rels"
    echo '<?xml version="1.0"?><w:document/>' >"$TMP/docx/word/document.xml"
    (cd "$TMP/docx" && zip -q -r ../games.docx '[Content_Types].xml' _rels word)
    refused "a .docx" "$TMP/games.docx" "a Word document (.docx)"
fi

# A few NULs in real text stay text: CONTROL_BYTE warnings, not a refusal.
run "$PGNKIT" check tests/cli/data/control-bytes.pgn
if [ "$rc" -ne 2 ] && grep -q "CONTROL_BYTE" "$TMP/out"; then held=0; else held=1; fi
check "control bytes in PGN: read (not refused)" [ "$held" -eq 0 ]

# ---- UTF-16 -----------------------------------------------------------------------------

u=$TESTDATA/scalachess/uzchesscup.pgn  # UTF-8, with a non-ASCII Opening name
"$PGNKIT" uci -q --tags White,Black,Opening "$u" >"$TMP/want-u" 2>/dev/null
check "the UTF-8 original has non-ASCII names" grep -q 'Sämisch' "$TMP/want-u"
if have iconv; then
    for enc in UTF-16LE UTF-16BE UTF-16; do
        iconv -f UTF-8 -t $enc "$u" >"$TMP/u16.pgn"
        run "$PGNKIT" uci -q --tags White,Black,Opening "$TMP/u16.pgn"
        check "$enc: same output as the UTF-8 original" cmp -s "$TMP/out" "$TMP/want-u"
        "$PGNKIT" uci -q -j2 --tags White,Black,Opening <"$TMP/u16.pgn" >"$TMP/out" 2>/dev/null
        check "$enc on a pipe, --jobs 2: same output" cmp -s "$TMP/out" "$TMP/want-u"
    done
    # With a BOM, explicitly, both byte orders.
    { printf '\376\377'; iconv -f UTF-8 -t UTF-16BE "$u"; } >"$TMP/u16be-bom.pgn"
    run "$PGNKIT" uci -q --tags White,Black,Opening "$TMP/u16be-bom.pgn"
    check "UTF-16BE with a BOM: same output" cmp -s "$TMP/out" "$TMP/want-u"
    { printf '\377\376'; iconv -f UTF-8 -t UTF-16LE "$u"; } | gzip -c >"$TMP/u16le.pgn.gz"
    run "$PGNKIT" uci -q --tags White,Black,Opening "$TMP/u16le.pgn.gz"
    check "UTF-16LE with a BOM, gzipped: same output" cmp -s "$TMP/out" "$TMP/want-u"
else
    skip "UTF-16 tests: no iconv"
fi

# Member names are bytes an archive's author chose: an ESC (a terminal escape) or a line
# end (a forged report line) in one is shown as U+FFFD wherever a name is printed: the
# --summary report, pgnkit summary, a member that is not PGN text, a game's diagnostic.
if have tar; then
    mkdir "$TMP/ctl"
    esc=$(printf 'a\033[31mred.pgn')
    nl=$(printf 'b\nFORGED: 0 games.pgn')
    png=$(printf 'c\033[2J.pgn')
    cp "$TESTDATA/tcec/TCEC_Match_1.pgn" "$TMP/ctl/$esc"
    printf '[Event "x"]\n\n1. e4 e4 *\n' >"$TMP/ctl/$nl"
    printf '\211PNG\r\n\032\n\0\0\0binary' >"$TMP/ctl/$png"
    (cd "$TMP/ctl" && tar -cf ../ctl.tar "$esc" "$nl")
    (cd "$TMP/ctl" && tar -cf ../png.tar "$png")
    "$PGNKIT" check --summary --summary-json "$TMP/ctl.json" "$TMP/ctl.tar" >"$TMP/out" 2>"$TMP/err"
    "$PGNKIT" summary "$TMP/ctl.json" 2>>"$TMP/err"
    "$PGNKIT" check "$TMP/png.tar" 2>>"$TMP/err"
    check "member names with controls: named on stderr" \
        [ "$(grep -c 'red\.pgn' "$TMP/err")" -ge 2 ] && grep -q 'is a PNG image' "$TMP/err"
    check "member names with controls: no ESC reaches stderr or stdout" \
        sh -c "! LC_ALL=C grep -q \"$(printf '\033')\" \"$TMP/err\" \"$TMP/out\""
    check "member names with controls: no forged line" \
        sh -c "! grep -q '^FORGED' \"$TMP/err\" \"$TMP/out\""
    check "member names with controls: U+FFFD in their place" \
        grep -q "$(printf 'b\357\277\275FORGED')" "$TMP/err"
else
    skip "member names with controls: no tar"
fi

# Many small members: each is read alone, its first bytes decoded on the reading thread,
# with no thread started for it (5,000 empty members of a .tar.zst started 5,000 decoding
# threads at -j1 and a pipeline each at -j2: 14,566 and 28,987 voluntary context switches,
# now 1: /usr/bin/time's %w), and an empty member keeps no counts of its own (40,000 of
# them took 31 MB, ~450 bytes each; now ~14 MB in all).
if have tar && have zstd && [ -x /usr/bin/time ]; then
    mkdir "$TMP/empty"
    (cd "$TMP/empty" && LC_ALL=C awk 'BEGIN { for (i = 0; i < 40000; i++) print "m" i ".pgn" }' |
        xargs touch && tar -cf - .) | zstd -q >"$TMP/empty.tar.zst"
    for j in 1 2; do
        /usr/bin/time -o "$TMP/time" -f '%w %M' "$PGNKIT" check --no-progress -j$j --summary \
            "$TMP/empty.tar.zst" >/dev/null 2>"$TMP/err"
        switches=$(tail -n 1 "$TMP/time" | cut -d' ' -f1)
        kb=$(tail -n 1 "$TMP/time" | cut -d' ' -f2)
        check "40,000 empty members, -j$j: read, each with its summary line" \
            [ "$(grep -c '\.pgn: 0 games' "$TMP/err")" = 40000 ]
        check "40,000 empty members, -j$j: no thread a member ($switches voluntary switches)" \
            [ "$switches" -lt 1000 ]
        case $PGNKIT in
        *asan* | *tsan* | *debug*) skip "40,000 empty members, -j$j: RSS bound (release builds only)" ;;
        *) check "40,000 empty members, -j$j: peak RSS $kb KB under 20 MB" [ "$kb" -lt 20480 ] ;;
        esac
    done
else
    skip "many small members: no tar, zstd or /usr/bin/time"
fi

finish
