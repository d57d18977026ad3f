#!/bin/sh
# anywhere.sh - selecting games by what happens anywhere on the mainline: --occurs,
# --material, --moves.  Hand-built games where every expected game is argued move by
# move below; then the testdata corpus against an independent computation (a Python
# script reading the moves and positions pgnkit fen --every --format json writes, with
# its own board reading: no chess library, none of pgnkit's selection code), and
# against pgn-extract (--underpromotion, -z material) where it defines the same thing.
. tests/cli/lib/common.sh
P=$PGNKIT
T=$TMP

{
    # ep: 3.exd6 takes the pawn that went d7-d5 en passant (ply 5): capture, en-passant.
    game ep '1. e4 a6 2. e5 d5 3. exd6 *'
    # under: hxg5 and gxh6 take pawns, 5.hxg8=N takes the knight and promotes to a knight.
    # At the end White has K Q R R B B N N N and 7 pawns, Black K Q R R B B N and 6 pawns.
    game under '1. h4 g5 2. hxg5 h6 3. gxh6 Nf6 4. h7 Ng8 5. hxg8=N *'
    # queen: KP v K, then e8=Q gives check along e8-a4: KQ v K.  No capture.
    game queen SetUp=1 FEN='8/4P3/8/8/k7/8/8/4K3 w - - 0 1' '1. e8=Q+ Ka3 *'
    # short: White castles king's side; no capture, no check.
    game short '1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O d6 *'
    # long: both castle queen's side.
    game long '1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O O-O-O *'
    # repmid: the start position at plies 0, 4 and 8 (a third time), then 5.e4 moves on:
    # threefold occurs, though the game does not end so.
    game repmid '1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 *'
    # rights: the boards after plies 2, 6 and 10 are the same, but after ply 2 both sides
    # may still castle king's side (their rooks have not moved yet): twice only.  Plies 4
    # and 8 (rooks on g1, g8), 6 and 10: twice each.  No threefold.
    game rights '1. Nf3 Nf6 2. Rg1 Rg8 3. Rh1 Rh8 4. Rg1 Rg8 5. Rh1 Rh8 *'
    # fifty: clock 98; Ra2 (99), Kg8 (100: fifty moves), then Ra3, h1=Q+ (a pawn move: 0,
    # and a check along the first rank).  The game does not end with the clock at 100.
    game fifty SetUp=1 FEN='7k/8/8/8/8/8/7p/R3K3 w - - 98 80' '80. Ra2 Kg8 81. Ra3 h1=Q+ *'
    # fifty99: one quiet move from 98: 99 only.
    game fifty99 SetUp=1 FEN='7k/8/8/8/8/8/7p/R3K3 w - - 98 80' '80. Ra2 *'
    # mate: Fool's mate: a check (the mate), no capture.
    game mate '1. f3 e5 2. g4 Qh4# 0-1'
    # spelled: the moves of "short"'s start in long algebraic with hyphens: the same moves.
    game spelled '1. e2-e4 e7-e5 2. Ng1-f3 *'
    # broken: ply 3 is illegal: the mainline played is 1.e4 e5.
    game broken '1. e4 e5 2. Ke3 *'
} >"$T/g.pgn"

sel() { "$P" uci -q -t Event "$@" "$T/g.pgn" 2>/dev/null | cut -f1 | tr '\n' ' ' | sed 's/ $//'; }
expect() { # WANT OPTIONS...
    want=$1
    shift
    got=$(sel "$@")
    if [ "$got" = "$want" ]; then ok "$* -> $want"; else not_ok "$* -> '$got', want '$want'"; fi
}

# ---- --occurs ----
expect 'ep under' --occurs capture
expect 'ep' --occurs en-passant
expect 'under' --occurs underpromotion
expect 'under queen fifty' --occurs promotion
expect 'short long' --occurs castling
expect 'short' --occurs castling-short
expect 'long' --occurs castling-long
expect 'queen fifty mate' --occurs check
expect 'repmid' --occurs threefold
expect 'fifty' --occurs fifty-moves
expect 'ep under repmid' --occurs en-passant,underpromotion,threefold
expect 'ep' --occurs en-passant --occurs en-passant
expect 'queen short long rights fifty fifty99 mate spelled broken' --occurs capture,threefold --invert
# Repeated: each of them (AND), as --where.
expect 'under' --occurs capture --occurs promotion --occurs underpromotion
expect 'ep under queen fifty' --occurs capture,promotion
expect '' --occurs capture --occurs check
expect 'queen fifty' --occurs check --occurs promotion,fifty-moves
expect 'fifty mate' --occurs check --plies 3:

# ---- --material ----
expect 'ep under short long repmid rights mate spelled broken' --material KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPPPP
# The letters in any order: the counts are what is compared.
expect 'ep under short long repmid rights mate spelled broken' --material PPPPPPPPNNBBRRQKvKQRRBBNNPPPPPPPP
# ep: 8 white pawns, 7 black after exd6; under's hxg5 does the same at ply 3.
expect 'ep under' --material KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPPP
expect 'under' --material KQRRBBNNNPPPPPPPvKQRRBBNPPPPPP
expect 'under' --material 'KNNN+vK+'
expect 'queen' --material KPvK
expect 'queen' --material KQvK
expect 'queen fifty' --material 'KQvK,KRvKQ'
# Repeated: each reached (AND), at plies of its own.
expect 'queen' --material KPvK --material KQvK
expect 'fifty' --material KRvKP --material KRvKQ
expect '' --material KPvK --material KRvKQ
expect 'queen' --material 'KQ+vK'
# fifty: K R v K P, then h1=Q: K R v K Q.
expect 'fifty fifty99' --material KRvKP
expect 'fifty' --material KRvKQ
expect '' --material KvK
# At least a queen each: every game but queen (no black queen) and fifty (none at start).
expect 'ep under short long repmid rights mate spelled broken' --material 'KQ+vKQ+'
expect 'queen fifty fifty99' --material 'KQ+vKQ+' --invert
for bad in KRK KvKvK 'KXvK' 'krvk' 'vK' 'Kv' '' 'K+vK++' '+KvK' 'KvK,'; do
    run "$P" uci --material "$bad" "$T/g.pgn"
    check "--material '$bad' is refused (exit 2, the reason)" \
        sh -c "[ $rc -eq 2 ] && grep -q 'material wants WHITEvBLACK' '$T/err'"
done

# ---- --moves ----
expect 'short spelled' --moves 'e4 e5 Nf3'
expect 'short spelled' --moves 'e2e4 e7e5 g1f3'
expect 'short spelled' --moves '1. e4 e5 2. Nf3'
expect 'short spelled' --moves 'e4 e5 Ng1f3'
expect 'short spelled broken' --moves 'e4 e5'
# Not a transposition: the order of the moves is compared.
expect '' --moves 'Nf3 e5 e4'
expect '' --moves 'e5'
expect 'short' --moves '... O-O'
expect 'short' --moves '... e1g1'
expect 'long' --moves '... O-O-O O-O-O'
expect 'long' --moves '... e1c1 e8c8'
expect 'under' --moves '... hxg8=N'
expect 'under' --moves '... h7g8n'
expect '' --moves '... hxg8=Q'
expect 'repmid' --moves '... Nf3 Nf6 Ng1 Ng8 e4'
expect 'queen' --moves 'e8=Q Ka3'
expect 'ep' --moves '... exd6'
# The position decides: "Ke2" from the start names no legal move.
expect '' --moves 'Ke2'
run "$P" uci --moves 'e4 xyz' "$T/g.pgn"
check "--moves with a token that is no move: exit 2" sh -c "[ $rc -eq 2 ] && grep -q \"'xyz' is no move\" '$T/err'"
run "$P" uci --moves '  ' "$T/g.pgn"
check "--moves without moves: exit 2" [ "$rc" -eq 2 ]
run "$P" uci --occurs promote "$T/g.pgn"
check "--occurs with an unknown fact: exit 2, the list" sh -c "[ $rc -eq 2 ] && grep -q 'underpromotion' '$T/err'"

# ---- --in-variations: --material (and --reaches: golden cases) off the mainline ----
P7=KQRRBBNNPPPPPPPvKQRRBBNNPPPPPPP  # 7 pawns each, all else on the board
P8v7=KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPPP
{
    # deep: no capture on the mainline (1.e4 e5).  Three variations deep, 1.d4 Nf6 2.c4
    # g6 3.Nc3 d5 4.cxd5 (White 8 pawns, Black 7) Nxd5 (7 each), the Gruenfeld: each
    # variation starts from the position before the move it replaces.
    game deep '1. e4 (1. d4 d5 (1... Nf6 2. c4 e6 (2... g6 3. Nc3 d5 4. cxd5 Nxd5))) 1... e5 *'
    # plain: no variation, no capture.
    game plain '1. e4 e5 2. Nf3 Nc6 *'
    # capmain: 2.exd5 (8 v 7) Qxd5 (7 each) on the mainline; the variation takes nothing.
    game capmain '1. e4 d5 2. exd5 Qxd5 (2... Nf6) *'
} >"$T/v.pgn"
vsel() { "$P" uci -q -t Event "$@" "$T/v.pgn" 2>/dev/null | cut -f1 | tr '\n' ' ' | sed 's/ $//'; }
vexpect() { # WANT OPTIONS...
    want=$1
    shift
    got=$(vsel "$@")
    if [ "$got" = "$want" ]; then ok "$* -> $want"; else not_ok "$* -> '$got', want '$want'"; fi
}
vexpect 'capmain' --material "$P7"
vexpect 'deep capmain' --in-variations --material "$P7"
vexpect 'deep capmain' --in-variations --material "$P7" -j2
vexpect 'plain' --in-variations --material "$P7" --invert
vexpect 'deep capmain' --in-variations --material "$P8v7" --material "$P7"
vexpect 'capmain' --material "$P8v7" --material "$P7"
# --occurs stays on the mainline: deep's captures are in variations only.
vexpect 'capmain' --in-variations --occurs capture --material "$P7"
# A game in parts (over 64 Ki tokens: 12000 times 1.Nf3 Nf6 2.Ng1 Ng8, 6 tokens each):
# near its end, a variation replaces Ng8 with d5, e4 Nc6, exd5: 8 pawns v 7 there only,
# in the second part.  The PGN written is the game's, whatever the selection walked.
awk 'BEGIN { printf "[Event \"big\"]\n\n"; n = 1
    for (k = 0; k < 12000; k++) {
        printf "%d. Nf3 Nf6 %d. Ng1 Ng8 ", n, n + 1
        if (k == 11990) printf "(%d... d5 %d. e4 Nc6 %d. exd5) ", n + 1, n + 2, n + 3
        n += 2
    }
    printf "*\n" }' >"$T/big.pgn"
bsel() { "$P" uci -q -t Event "$@" "$T/big.pgn" 2>/dev/null | cut -f1 | tr '\n' ' ' | sed 's/ $//'; }
check "a game in parts: its variation's material is not the mainline's" \
    [ -z "$(bsel --material "$P8v7")" ]
check "a game in parts: --in-variations finds it in the second part" \
    [ "$(bsel --in-variations --material "$P8v7")" = big ]
"$P" pgn -q "$T/big.pgn" >"$T/big.all" 2>/dev/null
"$P" pgn -q --in-variations --material "$P8v7" "$T/big.pgn" >"$T/big.sel" 2>/dev/null
check "a game in parts, selected: written as without a selection" cmp -s "$T/big.all" "$T/big.sel"
run "$P" uci --in-variations --occurs capture "$T/v.pgn"
check "--in-variations with --occurs alone: exit 2, the reason" \
    sh -c "[ $rc -eq 2 ] && grep -q 'give one of them' '$T/err'"

# ---- the corpus against an independent computation ----
ls "$TESTDATA"/*/*.pgn >"$T/files"
# shellcheck disable=SC2046
"$P" fen -q --every --ep legal --format json $(cat "$T/files") >"$T/all.json" 2>/dev/null
cat >"$T/oracle.py" <<'PY'
# For each standard game: its start (FEN tag or the standard position), the UCI moves and
# the FEN after each move (with the e.p. square only when a capture is legal), read as
# boards here.  Prints "file<TAB>game<TAB>fact" for every fact and material signature.
import json, sys
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
def board(fen):
    b = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                b["abcdefgh"[f] + str(8 - r)] = ch
                f += 1
    return b
def material(fen):
    b = board(fen).values()
    side = lambda up: "".join(p * sum(1 for x in b if x == (p if up else p.lower())) for p in "KQRBNP")
    return side(True) + "v" + side(False)
for line in open(sys.argv[1]):
    g = json.loads(line)
    tags = g["tags"]
    if tags.get("Variant", "Standard") not in ("Standard", "Chess960", "chess960") or g["status"] == "skipped":
        continue
    start = tags.get("FEN", START)
    fens = [start] + g["fens"]
    if len(fens) != len(g["uci"]) + 1:
        continue  # not set up
    key = "%s\t%d" % (g["file"], g["game"])
    facts = set("material " + material(f) for f in fens)
    seen = {}
    for f in fens:
        fields = f.split()
        if len(fields) > 4 and int(fields[4]) >= 100:
            facts.add("fifty-moves")
        p = " ".join(fields[:4])
        seen[p] = seen.get(p, 0) + 1
        if seen[p] >= 3:
            facts.add("threefold")
    for i, u in enumerate(g["uci"]):
        if u == "0000" or "@" in u:
            continue
        b = board(fens[i])
        frm, to, piece = u[:2], u[2:4], b.get(u[:2], "")
        target = b.get(to, "")
        if piece in "Kk" and (target in ("Rr"[piece == "k"],) or abs(ord(frm[0]) - ord(to[0])) == 2):
            facts.add("castling")
            facts.add("castling-short" if to[0] > frm[0] else "castling-long")
            continue
        if target:
            facts.add("capture")
        if piece in "Pp" and frm[0] != to[0] and not target:
            facts.update(("capture", "en-passant"))
        if len(u) == 5:
            facts.add("promotion")
            if u[4] in "rbn":
                facts.add("underpromotion")
        if g["san"][i][-1] in "+#":
            facts.add("check")
    for fact in sorted(facts):
        print("%s\t%s" % (key, fact))
PY
if ! python3 "$T/oracle.py" "$T/all.json" >"$T/facts"; then
    not_ok "the oracle script runs"
    finish
fi
ids() { # OPTIONS...: "file<TAB>game" of the standard games selected
    # shellcheck disable=SC2046
    "$P" uci -q --format json "$@" $(cat "$T/files") 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    g = json.loads(line)
    if g["tags"].get("Variant", "Standard") in ("Standard", "Chess960", "chess960"):
        print("%s\t%d" % (g["file"], g["game"]))' | sort
}
oracle() { grep -P "\t$1\$" "$T/facts" | cut -f1,2 | sort -u; }
cross() { # FACT-LINE OPTIONS...
    fact=$1
    shift
    oracle "$fact" >"$T/want"
    ids "$@" >"$T/got"
    ids -j2 "$@" >"$T/got2"
    if cmp -s "$T/want" "$T/got" && cmp -s "$T/got" "$T/got2"; then
        ok "$*: the oracle's $(lines "$T/want") games (--jobs 2 too)"
    else
        not_ok "$*: differs from the oracle (< oracle, > pgnkit):"
        diff "$T/want" "$T/got" | head -5
    fi
}
for f in capture check castling castling-short castling-long en-passant promotion \
    underpromotion fifty-moves threefold; do
    cross "$f" --occurs "$f"
done
# Material: the signatures of some final positions of the corpus, and common endings.
sigs=$(grep -P '\tmaterial ' "$T/facts" | cut -f3 | sed 's/^material //' | sort | uniq -c |
    sort -rn | awk '$1 >= 2 && $1 <= 40 {print $2}' | head -12)
for s in $sigs KRvKR KQvK KvK; do
    cross "material $s" --material "$s"
done
check "some signatures were tried ($(echo $sigs | wc -w))" [ "$(echo $sigs | wc -w)" -ge 8 ]

finish
