# opening_oracle.awk - the expected opening of each game, from FENs alone (no pgnkit).
#
#   awk -f opening_oracle.awk BOOK_FENS GAME_FENS
#
# Both files are pgn-extract's output with --fencomments --nofauxep (a FEN after every
# move, an en passant square only where a capture is possible).  BOOK_FENS holds the book,
# one game per row with its ECO and Opening tags: the FEN after its last move is the
# row's position (a later row with the same position wins).  For each game of GAME_FENS,
# in order, prints "ECO<TAB>Opening" of the last FEN (board, side, castling, en passant:
# the first four fields) that is a book position, or "-" when none is, or when the game
# is not standard chess from the standard start (a FEN tag with another position, a
# Variant tag that is not standard chess).  With -v with_fen=1 a third column holds that
# position (its four fields).
function fen4(f,    p) { split(f, p, " "); return p[1] " " p[2] " " p[3] " " p[4] }
function tag_value(line) { sub(/^\[[A-Za-z0-9_]+ "/, "", line); sub(/"\]$/, "", line); return line }
function end_game() {
    if (!in_game)
        return
    if (game_in_book) {
        if (last != "")
            book[fen4(last)] = eco "\t" name (with_fen ? "\t" fen4(last) : "")
    } else {
        print (standard && found != "" ? found : with_fen ? "-\t-\t-" : "-")
    }
    in_game = 0
}
BEGIN { start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -" }
FNR == 1 { end_game() }
/^\[Event / { end_game(); in_game = 1; game_in_book = FILENAME == ARGV[1]; last = ""; found = ""; standard = 1; eco = ""; name = "" }
/^\[ECO / { eco = tag_value($0) }
/^\[Opening / { name = tag_value($0) }
/^\[FEN / { if (fen4(tag_value($0)) != start) standard = 0 }
/^\[Variant / {
    v = tolower(tag_value($0))
    if (v != "standard" && v != "chess" && v != "from position" && v != "normal") standard = 0
}
/^[^[]/ {
    s = $0
    while (match(s, /\{ [^}]* \}/)) {
        f = substr(s, RSTART + 2, RLENGTH - 4)
        s = substr(s, RSTART + RLENGTH)
        if (f !~ /^[1-8pnbrqkPNBRQK\/]+ [wb] /)
            continue
        last = f
        if (!game_in_book && (fen4(f) in book))
            found = book[fen4(f)]
    }
}
END { end_game() }
