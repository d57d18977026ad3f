/*
 * fen.c - FEN text to a validated position and back.  Accepts the standard KQkq
 * castling field, X-FEN (file letters when the castling rook is not the outermost)
 * and Shredder-FEN (file letters always), and switches a standard game to Chess960
 * rules when its castling field only makes sense there.  Every rejection names the
 * field and the 1-based column.  Reads the variants' FEN forms too (pockets, '~' marks,
 * check counters) and asks rules.h for what only the rules know: a parsed position's
 * checkers and, when writing, whether an en passant capture is legal.  Does not play
 * moves; does not print.
 */
#include "board/fen.h"

#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "board/fen_internal.h"
#include "board/fen_rank_table.h"
#include "board/position_internal.h"
#include "board/rules.h"

#if defined(__SSSE3__)
#include <tmmintrin.h>
#endif

struct fen_cursor {
    const char *s;
    size_t len;
    size_t i;
};

static uint32_t col_of(size_t i) { return (uint32_t)(i + 1); }

/* Field separators.  Line ends count too, so a line read with fgets parses as is. */
static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* A byte for a message: itself when printable, else its hex code. */
static const char *show_byte(char c, char buf[8])
{
    unsigned char u = (unsigned char)c;
    if (u > 0x20 && u < 0x7f)
        snprintf(buf, 8, "'%c'", c);
    else
        snprintf(buf, 8, "0x%02x", u);
    return buf;
}

static void skip_blanks(struct fen_cursor *c)
{
    while (c->i < c->len && is_blank(c->s[c->i]))
        c->i++;
}

/* The next field: [*start, *start + *n).  Returns false at the end of input. */
static bool next_field(struct fen_cursor *c, size_t *start, size_t *n)
{
    skip_blanks(c);
    *start = c->i;
    while (c->i < c->len && !is_blank(c->s[c->i]))
        c->i++;
    *n = c->i - *start;
    return *n > 0;
}

static int piece_from_char(char ch)
{
    static const char letters[] = "pnbrqk";
    const char *p = strchr(letters, ch | 0x20);
    if (!p || ch == 0)
        return -1;
    int type = (int)(p - letters);
    return piece_make(ch >= 'a' ? BLACK : WHITE, (enum piece_type)type);
}

/* How many kings a side may have in a variant: Antichess any, Atomic none after an
 * explosion, Horde none on the horde's side (variant_setup_error() counts both sides). */
static bool variant_kings_ok(int variant, int kings)
{
    switch (variant) {
    case VARIANT_ANTICHESS: return true;
    case VARIANT_ATOMIC: return kings <= 1;
    case VARIANT_HORDE: return kings <= 1;
    default: return kings == 1;
    }
}

static int parse_board(struct position *pos, const char *s, size_t start, size_t n,
                       struct diag *err)
{
    int rank = 7, file = 0;
    bool prev_digit = false;
    for (size_t i = start; i < start + n; i++) {
        char ch = s[i];
        uint32_t col = col_of(i);
        if (ch == '/') {
            if (file != 8) {
                diag_set(err, DIAG_BAD_FEN, 0, col, "board: rank %d has %d squares, not 8",
                         rank + 1, file);
                return -1;
            }
            if (rank == 0) {
                diag_set(err, DIAG_BAD_FEN, 0, col, "board: more than 8 ranks");
                return -1;
            }
            rank--;
            file = 0;
            prev_digit = false;
        } else if (ch >= '1' && ch <= '8') {
            if (prev_digit) {
                diag_set(err, DIAG_BAD_FEN, 0, col, "board: two digits in a row");
                return -1;
            }
            file += ch - '0';
            prev_digit = true;
            if (file > 8) {
                diag_set(err, DIAG_BAD_FEN, 0, col, "board: rank %d has more than 8 squares",
                         rank + 1);
                return -1;
            }
        } else if (ch == '~' && pos->variant == VARIANT_CRAZYHOUSE && file > 0 && !prev_digit &&
                   pos->board[square_make(file - 1, rank)] != PIECE_NONE) {
            uint8_t *piece = &pos->board[square_make(file - 1, rank)];
            if (piece_type_of(*piece) == PAWN || piece_type_of(*piece) == KING) {
                diag_set(err, DIAG_BAD_FEN, 0, col, "board: '~' marks a promoted piece, not a %s",
                         piece_type_of(*piece) == PAWN ? "pawn" : "king");
                return -1;
            }
            *piece |= PIECE_PROMOTED;
        } else {
            int piece = piece_from_char(ch);
            if (piece < 0) {
                char shown[8];
                diag_set(err, DIAG_BAD_FEN, 0, col, "board: %s is not a piece letter",
                         show_byte(ch, shown));
                return -1;
            }
            if (file >= 8) {
                diag_set(err, DIAG_BAD_FEN, 0, col, "board: rank %d has more than 8 squares",
                         rank + 1);
                return -1;
            }
            bool horde_pawn = pos->variant == VARIANT_HORDE && rank == 0 &&
                              piece == piece_make(WHITE, PAWN);
            if (piece_type_of((uint8_t)piece) == PAWN && (rank == 0 || rank == 7) && !horde_pawn) {
                diag_set(err, DIAG_BAD_FEN, 0, col, "board: a pawn on rank %d", rank + 1);
                return -1;
            }
            pos_put(pos, square_make(file, rank), (uint8_t)piece);
            file++;
            prev_digit = false;
        }
    }
    if (rank != 0 || file != 8) {
        diag_set(err, DIAG_BAD_FEN, 0, col_of(start + n),
                 rank != 0 ? "board: %d ranks, not 8" : "board: rank 1 has %d squares, not 8",
                 rank != 0 ? 8 - rank : file);
        return -1;
    }
    for (int c = 0; c < COLOR_COUNT; c++) {
        bitboard kings = position_pieces(pos, (enum color)c, KING);
        if (pos->variant && variant_kings_ok(pos->variant, bb_count(kings))) {
            pos->king_square[c] = bb_count(kings) == 1 ? (uint8_t)bb_lsb(kings) : SQ_NONE;
            continue;
        }
        if (bb_count(kings) != 1) {
            diag_set(err, DIAG_BAD_FEN, 0, col_of(start), "board: %d %s kings, not 1",
                     bb_count(kings), c == WHITE ? "white" : "black");
            return -1;
        }
        pos->king_square[c] = (uint8_t)bb_lsb(kings);
    }
    return 0;
}

/* Outermost rook of colour c on the given side of its king on the back rank. */
static int outermost_rook(const struct position *pos, int c, int side)
{
    int rank = c == WHITE ? 0 : 7, kf = square_file(pos->king_square[c]);
    uint8_t rook = piece_make((enum color)c, ROOK);
    if (side == CASTLE_KING_SIDE) {
        for (int f = 7; f > kf; f--)
            if (pos->board[square_make(f, rank)] == rook)
                return square_make(f, rank);
    } else {
        for (int f = 0; f < kf; f++)
            if (pos->board[square_make(f, rank)] == rook)
                return square_make(f, rank);
    }
    return SQ_NONE;
}

/* A castling letter whose king or rook is not where it needs to be: an error, or with
 * FEN_DROP_BAD_CASTLING the right is left out and the first such reason kept in *dropped
 * (python-chess and pgn-extract play such a game on without the right). */
struct castling_ctx {
    unsigned flags;
    struct diag *dropped;
};

static int bad_castling_right(const struct castling_ctx *ctx, struct diag *err, uint32_t col,
                              const char *why)
{
    if (!(ctx->flags & FEN_DROP_BAD_CASTLING)) {
        diag_set(err, DIAG_BAD_FEN, 0, col, "castling: %s", why);
        return -1;
    }
    if (ctx->dropped && ctx->dropped->code == DIAG_OK)
        diag_set(ctx->dropped, DIAG_CASTLING_DROPPED, 0, col, "castling: %s; the right is dropped",
                 why);
    return 0;
}

static int parse_castling_char(struct position *pos, char ch, uint32_t col,
                               const struct castling_ctx *ctx, struct diag *err)
{
    char why[80];
    int c = (ch >= 'a') ? BLACK : WHITE;
    char up = (char)(ch & ~0x20);
    const char *name = c == WHITE ? "white" : "black";
    int rank = c == WHITE ? 0 : 7, k = pos->king_square[c];
    int side, rook;

    if (up != 'K' && up != 'Q' && (up < 'A' || up > 'H')) {
        char shown[8];
        diag_set(err, DIAG_BAD_FEN, 0, col, "castling: %s is not a castling letter",
                 show_byte(ch, shown));
        return -1;
    }
    if (square_rank(k) != rank) {
        snprintf(why, sizeof why, "'%c' but the %s king is not on rank %d", ch, name, rank + 1);
        return bad_castling_right(ctx, err, col, why);
    }
    if (up == 'K' || up == 'Q') {
        side = up == 'K' ? CASTLE_KING_SIDE : CASTLE_QUEEN_SIDE;
        rook = outermost_rook(pos, c, side);
        if (rook == SQ_NONE) {
            snprintf(why, sizeof why, "'%c' but no %s rook on the %s side", ch, name,
                     side == CASTLE_KING_SIDE ? "king" : "queen");
            return bad_castling_right(ctx, err, col, why);
        }
    } else {
        rook = square_make(up - 'A', rank);
        if (pos->board[rook] != piece_make((enum color)c, ROOK)) {
            snprintf(why, sizeof why, "'%c' but no %s rook on %c%d", ch, name, ch | 0x20,
                     rank + 1);
            return bad_castling_right(ctx, err, col, why);
        }
        side = rook > k ? CASTLE_KING_SIDE : CASTLE_QUEEN_SIDE;
    }
    if (pos->castle_rook[c][side] != SQ_NONE) {
        diag_set(err, DIAG_BAD_FEN, 0, col, "castling: two %s rights on the %s side", name,
                 side == CASTLE_KING_SIDE ? "king" : "queen");
        return -1;
    }
    pos->castle_rook[c][side] = (uint8_t)rook;
    return 0;
}

static int parse_castling(struct position *pos, const char *s, size_t start, size_t n,
                          bool chess960, const struct castling_ctx *ctx, struct diag *err)
{
    if (n == 1 && s[start] == '-')
        return 0;
    if (n > 4) {
        diag_set(err, DIAG_BAD_FEN, 0, col_of(start), "castling: more than 4 letters");
        return -1;
    }
    for (size_t i = start; i < start + n; i++)
        if (parse_castling_char(pos, s[i], col_of(i), ctx, err) < 0)
            return -1;
    /* Castling is played the same whatever the rooks' squares (castle_rook); the flag is
     * the notation.  A king on e1/e8 writes standard castling unambiguously (e1c1, a
     * king's step never goes two files) even with a rook off its corner; a king
     * elsewhere needs Chess960's (d1c1 would be a step). */
    pos->chess960 = chess960;
    for (int c = 0; c < COLOR_COUNT; c++)
        for (int side = 0; side < 2; side++)
            if (pos->castle_rook[c][side] != SQ_NONE && square_file(pos->king_square[c]) != 4)
                pos->chess960 = true;
    return 0;
}

static int parse_ep(struct position *pos, const char *s, size_t start, size_t n, struct diag *err)
{
    uint32_t col = col_of(start);
    if (n == 1 && s[start] == '-')
        return 0;
    if (n != 2 || s[start] < 'a' || s[start] > 'h' || s[start + 1] < '1' || s[start + 1] > '8') {
        diag_set(err, DIAG_BAD_FEN, 0, col, "en passant: '%.*s' is not a square or '-'",
                 (int)(n > 8 ? 8 : n), s + start);
        return -1;
    }
    int us = pos->side_to_move;
    int ep = square_make(s[start] - 'a', s[start + 1] - '1');
    int want_rank = us == WHITE ? 5 : 2;
    if (square_rank(ep) != want_rank) {
        diag_set(err, DIAG_BAD_FEN, 0, col, "en passant: %.2s is not on rank %d with %s to move",
                 s + start, want_rank + 1, us == WHITE ? "white" : "black");
        return -1;
    }
    int dir = us == WHITE ? 8 : -8; /* toward the double-pushing side's start */
    if (pos->board[ep - dir] != piece_make((enum color)(us ^ 1), PAWN)) {
        diag_set(err, DIAG_BAD_FEN, 0, col, "en passant: no %s pawn in front of %.2s",
                 us == WHITE ? "black" : "white", s + start);
        return -1;
    }
    if (pos->board[ep] != PIECE_NONE || pos->board[ep + dir] != PIECE_NONE) {
        diag_set(err, DIAG_BAD_FEN, 0, col,
                 "en passant: %.2s or the square behind it is occupied", s + start);
        return -1;
    }
    pos->ep_square = (uint8_t)ep;
    return 0;
}

static int parse_number(const char *s, size_t start, size_t n, unsigned long max,
                        const char *field, unsigned long *out, struct diag *err)
{
    unsigned long v = 0;
    for (size_t i = start; i < start + n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            diag_set(err, DIAG_BAD_FEN, 0, col_of(i), "%s: '%.*s' is not a number", field,
                     (int)(n > 12 ? 12 : n), s + start);
            return -1;
        }
        v = v * 10 + (unsigned long)(s[i] - '0');
        if (v > max) {
            diag_set(err, DIAG_BAD_FEN, 0, col_of(start), "%s: larger than %lu", field, max);
            return -1;
        }
    }
    *out = v;
    return 0;
}

/* Crazyhouse: the pockets after the board, "[QNPqp]" or lichess's 9th rank "/QNPqp".
 * Shortens the board field to the board itself. */
static int split_pocket(struct position *pos, const char *s, size_t start, size_t *n,
                        struct diag *err)
{
    size_t end = start + *n, from = end;
    int slashes = 0;
    for (size_t i = start; i < end && from == end; i++) {
        if (s[i] == '[')
            from = i;
        else if (s[i] == '/' && ++slashes == 8)
            from = i;
    }
    if (from == end)
        return 0; /* no pocket written: both empty */
    size_t stop = end;
    if (s[from] == '[') {
        if (s[end - 1] != ']') {
            diag_set(err, DIAG_BAD_FEN, 0, col_of(from), "pocket: '[' without ']'");
            return -1;
        }
        stop = end - 1;
    }
    for (size_t i = from + 1; i < stop; i++) {
        int piece = piece_from_char(s[i]);
        if (piece < 0 || piece_type_of((uint8_t)piece) == KING) {
            char shown[8];
            diag_set(err, DIAG_BAD_FEN, 0, col_of(i), "pocket: %s is not a pocket piece",
                     show_byte(s[i], shown));
            return -1;
        }
        int c = piece_color_of((uint8_t)piece), t = piece_type_of((uint8_t)piece);
        int count = position_pocket(pos, c, t);
        if (count >= (t == PAWN ? POCKET_MAX_PAWNS : POCKET_MAX_PIECES)) {
            diag_set(err, DIAG_BAD_FEN, 0, col_of(i), "pocket: too many pieces");
            return -1;
        }
        position_set_pocket(pos, c, t, count + 1);
    }
    *n = from - start;
    return 0;
}

/* Crazyhouse: a capture moves a piece into a pocket (a promoted one as a pawn) and a drop
 * moves it back, so the game's material by type never grows: when it fits the pocket
 * fields (position.h) here, no count can overflow in play. */
static bool pockets_fit(const struct position *pos)
{
    bitboard promoted = 0;
    for (int sq = 0; sq < SQUARE_COUNT; sq++)
        if (pos->board[sq] != PIECE_NONE && (pos->board[sq] & PIECE_PROMOTED))
            promoted |= bb_square(sq);
    for (int t = PAWN; t <= QUEEN; t++) {
        int total = bb_count(pos->by_type[t] & (t == PAWN ? ~0ULL : ~promoted)) +
                    position_pocket(pos, WHITE, t) + position_pocket(pos, BLACK, t);
        if (t == PAWN && total + bb_count(promoted) > POCKET_MAX_PAWNS)
            return false;
        if (t != PAWN && total > POCKET_MAX_PIECES)
            return false;
    }
    return true;
}

static bool parse_check_pair(const char *s, size_t n, int *a, int *b)
{
    if (n != 3 || s[1] != '+' || s[0] < '0' || s[0] > '3' || s[2] < '0' || s[2] > '3')
        return false;
    *a = s[0] - '0';
    *b = s[2] - '0';
    return true;
}

/* Three-check: the checks each side may still give as the 5th field ("3+3"), or
 * lichess's checks given so far after the counters ("+0+0"); the field is taken out.
 * A field of either form with counts out of 0..3 is an error naming it (no clock or
 * move number holds a '+'). */
static int take_checks(struct position *pos, const char *s, size_t *start, size_t *n, int *count,
                       struct diag *err)
{
    int w = 3, b = 3, at = -1;
    if (*count >= 5 && memchr(s + start[4], '+', n[4])) {
        if (!parse_check_pair(s + start[4], n[4], &w, &b)) {
            diag_set(err, DIAG_BAD_FEN, 0, col_of(start[4]),
                     "checks left: '%.*s' is not W+B with 0 to 3 checks each",
                     (int)(n[4] > 8 ? 8 : n[4]), s + start[4]);
            return -1;
        }
        at = 4;
    } else if (*count >= 5 && s[start[*count - 1]] == '+') {
        size_t last = start[*count - 1], len = n[*count - 1];
        if (!parse_check_pair(s + last + 1, len - 1, &w, &b)) {
            diag_set(err, DIAG_BAD_FEN, 0, col_of(last),
                     "checks given: '%.*s' is not +W+B with 0 to 3 checks each",
                     (int)(len > 8 ? 8 : len), s + last);
            return -1;
        }
        at = *count - 1;
        w = 3 - w;
        b = 3 - b;
    }
    pos->checks_left[WHITE] = (uint8_t)w;
    pos->checks_left[BLACK] = (uint8_t)b;
    if (at < 0)
        return 0;
    for (int i = at; i + 1 < *count; i++) {
        start[i] = start[i + 1];
        n[i] = n[i + 1];
    }
    (*count)--;
    return 0;
}

/* May the side not to move stand "in check" (the position could not have arisen)? */
static bool variant_allows_opposite_check(const struct position *pos, int them)
{
    if (pos->king_square[them] == SQ_NONE || pos->variant == VARIANT_ANTICHESS)
        return true;
    if (pos->variant == VARIANT_ATOMIC) {
        int k = pos->king_square[them ^ 1];
        return k == SQ_NONE || bb_has(att_king(k), pos->king_square[them]);
    }
    return false;
}

static int parse_fields(struct position *pos, struct fen_cursor *cur, bool chess960,
                        const struct castling_ctx *ctx,
                        struct diag *err)
{
    size_t start[8], n[8];
    int count = 0;
    while (count < 8 && next_field(cur, &start[count], &n[count]))
        count++;
    skip_blanks(cur);
    if (pos->variant == VARIANT_THREE_CHECK && take_checks(pos, cur->s, start, n, &count, err) < 0)
        return -1;
    if (cur->i < cur->len || count > 6) {
        diag_set(err, DIAG_BAD_FEN, 0, col_of(count > 6 ? start[6] : cur->i),
                 "fullmove number: text after it");
        return -1;
    }
    static const char *const missing[4] = {"board", "side to move", "castling", "en passant"};
    if (count < 4) {
        diag_set(err, DIAG_BAD_FEN, 0, col_of(cur->len), "%s: missing", missing[count]);
        return -1;
    }
    if (pos->variant == VARIANT_CRAZYHOUSE && split_pocket(pos, cur->s, start[0], &n[0], err) < 0)
        return -1;
    if (parse_board(pos, cur->s, start[0], n[0], err) < 0)
        return -1;
    if (pos->variant == VARIANT_CRAZYHOUSE && !pockets_fit(pos)) {
        diag_set(err, DIAG_BAD_FEN, 0, col_of(start[0]),
                 "board: more than %d pawns (promoted pieces included) or %d of a piece, in "
                 "pockets and on the board", POCKET_MAX_PAWNS, POCKET_MAX_PIECES);
        return -1;
    }
    char stm = cur->s[start[1]];
    if (n[1] != 1 || (stm != 'w' && stm != 'b')) {
        diag_set(err, DIAG_BAD_FEN, 0, col_of(start[1]), "side to move: '%.*s' is not w or b",
                 (int)(n[1] > 8 ? 8 : n[1]), cur->s + start[1]);
        return -1;
    }
    pos->side_to_move = stm == 'w' ? WHITE : BLACK;
    if (parse_castling(pos, cur->s, start[2], n[2], chess960, ctx, err) < 0 ||
        parse_ep(pos, cur->s, start[3], n[3], err) < 0)
        return -1;
    unsigned long half = 0, full = 1;
    if (count > 4 && parse_number(cur->s, start[4], n[4], 65535, "halfmove clock", &half, err) < 0)
        return -1;
    if (count > 5 && parse_number(cur->s, start[5], n[5], 1000000, "fullmove number", &full,
                                  err) < 0)
        return -1;
    pos->halfmove_clock = (uint32_t)half;
    pos->fullmove_number = full == 0 ? 1 : (uint32_t)full; /* 0 is common in the wild */
    int them = pos->side_to_move ^ 1;
    if (!(pos->variant && variant_allows_opposite_check(pos, them)) &&
        pos_attackers(pos, pos->king_square[them], pos->side_to_move, position_occupied(pos))) {
        diag_set(err, DIAG_BAD_FEN, 0, col_of(start[1]),
                 "side to move: %s is in check but %s is to move",
                 them == WHITE ? "white" : "black", them == WHITE ? "black" : "white");
        return -1;
    }
    const char *impossible = pos->variant ? variant_setup_error(pos) : NULL;
    if (impossible) {
        diag_set(err, DIAG_BAD_FEN, 0, col_of(start[0]), "board: %s", impossible);
        return -1;
    }
    return 0;
}

int fen_parse(struct position *pos, const char *s, size_t len, bool chess960, struct diag *err)
{
    return fen_parse_ex(pos, s, len, chess960, 0, err, NULL);
}

int fen_parse_ex(struct position *pos, const char *s, size_t len, bool chess960, unsigned flags,
                 struct diag *err, struct diag *dropped)
{
    return fen_parse_variant_ex(pos, s, len, chess960, VARIANT_STANDARD, flags, err, dropped);
}

int fen_parse_variant(struct position *pos, const char *s, size_t len, bool chess960,
                      enum variant variant, struct diag *err)
{
    return fen_parse_variant_ex(pos, s, len, chess960, variant, 0, err, NULL);
}

int fen_parse_variant_ex(struct position *pos, const char *s, size_t len, bool chess960,
                         enum variant variant, unsigned flags, struct diag *err,
                         struct diag *dropped)
{
    struct castling_ctx ctx = {flags, dropped};
    if (dropped)
        dropped->code = DIAG_OK;
    struct position p;
    attacks_init();
    memset(&p, 0, sizeof p);
    memset(p.board, PIECE_NONE, sizeof p.board);
    memset(p.castle_rook, SQ_NONE, sizeof p.castle_rook);
    p.ep_square = SQ_NONE;
    p.chess960 = chess960;
    p.fullmove_number = 1;
    p.variant = (uint8_t)variant;

    struct fen_cursor cur = {s, len, 0};
    if (parse_fields(&p, &cur, chess960, &ctx, err) < 0)
        return -1;
    if (variant == VARIANT_ANTICHESS)
        memset(p.castle_rook, SQ_NONE, sizeof p.castle_rook); /* no castling in Antichess */
    rules_update_checkers(&p); /* a variant's kings and checkers are its rules' */
    *pos = p;
    return 0;
}

static char castle_letter(const struct position *pos, int c, int side, unsigned flags)
{
    int r = pos->castle_rook[c][side];
    /* A rook in its corner is the outermost one: K Q k q without the scan (nearly every
     * game; outermost_rook() decides the rest). */
    int corner = square_make(side == CASTLE_KING_SIDE ? 7 : 0, c == WHITE ? 0 : 7);
    if (!(flags & FEN_SHREDDER) && r == corner && pos->board[r] == piece_make((enum color)c, ROOK))
        return "KQkq"[2 * c + side];
    char ch;
    if (!(flags & FEN_SHREDDER) && outermost_rook(pos, c, side) == r)
        ch = side == CASTLE_KING_SIDE ? 'K' : 'Q';
    else
        ch = (char)('A' + square_file(r));
    return c == WHITE ? ch : (char)(ch | 0x20);
}

/* The letter of each piece byte's low 5 bits (colour, type, Crazyhouse's promoted mark). */
static const char piece_char[32] = {
    'P', 'N', 'B', 'R', 'Q', 'K', '?', '?', 'p', 'n', 'b', 'r', 'q', 'k', '?', '?',
    'P', 'N', 'B', 'R', 'Q', 'K', '?', '?', 'p', 'n', 'b', 'r', 'q', 'k', '?', '?',
};

/* By the occupied squares of the rank, not square by square (most squares are empty):
 * the portable way, and Crazyhouse's ('~' marks).  From the board alone, not the
 * bitboards: fen --every's replay keeps only the board (pos_move_board). */
static size_t rank_text_scalar(const struct position *pos, int rank, char *dst)
{
    const uint8_t *row = pos->board + 8 * rank;
    unsigned occ = 0;
    for (int file = 0; file < 8; file++)
        occ |= (unsigned)(row[file] != PIECE_NONE) << file;
    size_t n = 0;
    int next = 0; /* the file after the last piece written */
    while (occ) {
        int file = __builtin_ctz(occ);
        occ &= occ - 1;
        if (file > next)
            dst[n++] = (char)('0' + file - next);
        uint8_t p = row[file];
        dst[n++] = piece_char[p & 0x1f];
        if (p & PIECE_PROMOTED)
            dst[n++] = '~'; /* Crazyhouse: a promoted piece */
        next = file + 1;
    }
    if (next < 8)
        dst[n++] = (char)('0' + 8 - next);
    return n;
}

#if defined(__SSSE3__)
/*
 * A FEN per ply (fen --every, --comments) writes two ranks a move: without a loop, by
 * two byte shuffles.  The rank's 8 piece bytes become letters (an empty square's 0xff
 * becomes 0), then fen_rank_table[empty squares] places them and the digits of the
 * empty runs (callgrind: ~70 instructions a rank by the loop, ~12 this way).  The empty
 * squares are the bytes' high bits (PIECE_NONE is 0xff, a piece below 0x80).
 */
size_t fen_rank_slash(const struct position *pos, int rank, char dst[16])
{
    __m128i row = _mm_loadl_epi64((const __m128i *)(const void *)(pos->board + 8 * rank));
    unsigned empty = (unsigned)_mm_movemask_epi8(row);
    const __m128i letters = _mm_setr_epi8('P', 'N', 'B', 'R', 'Q', 'K', '?', '?', 'p', 'n', 'b',
                                          'r', 'q', 'k', '?', '?');
    __m128i chars = _mm_shuffle_epi8(letters, row);
    __m128i ctl = _mm_load_si128((const __m128i *)(const void *)fen_rank_table[empty]);
    __m128i placed = _mm_shuffle_epi8(chars, ctl);
    /* The bytes with the high bit set carry a character in their low 7 bits; the
     * letters' bytes (0 to 7) saturate to 0. */
    __m128i literal = _mm_subs_epu8(ctl, _mm_set1_epi8((char)0x80));
    _mm_storeu_si128((__m128i *)(void *)dst, _mm_or_si128(placed, literal));
    return (size_t)fen_rank_table[empty][15];
}
#else
size_t fen_rank_slash(const struct position *pos, int rank, char dst[16])
{
    size_t n = rank_text_scalar(pos, rank, dst);
    dst[n] = '/';
    return n + 1;
}
#endif

size_t fen_write_rank(const struct position *pos, int rank, char *dst)
{
    if (pos->variant == VARIANT_CRAZYHOUSE)
        return rank_text_scalar(pos, rank, dst);
    char text[16];
    size_t n = fen_rank_slash(pos, rank, text) - 1;
    memcpy(dst, text, n);
    return n;
}

/* Crazyhouse pockets: White's then Black's, each P N B R Q (lichess's order). */
static size_t write_pockets(const struct position *pos, char *dst)
{
    static const char letters[] = "PNBRQ";
    size_t n = 0;
    dst[n++] = '[';
    for (int c = 0; c < COLOR_COUNT; c++)
        for (int t = PAWN; t <= QUEEN; t++)
            for (int k = 0; k < position_pocket(pos, c, t); k++)
                dst[n++] = c == WHITE ? letters[t] : (char)(letters[t] | 0x20);
    dst[n++] = ']';
    return n;
}

size_t fen_write_castling(const struct position *pos, char *dst, unsigned flags)
{
    size_t n = 0;
    uint32_t rights;
    memcpy(&rights, pos->castle_rook, sizeof rights);
    /* Most of a game has no castling right left: one test for the four. */
    for (int c = 0; rights != SQ_NONE * 0x01010101u && c < COLOR_COUNT; c++)
        for (int side = 0; side < 2; side++)
            if (pos->castle_rook[c][side] != SQ_NONE)
                dst[n++] = castle_letter(pos, c, side, flags);
    if (n == 0)
        dst[n++] = '-';
    return n;
}

/* castle_letter() reads the board only for a rook off its corner without FEN_SHREDDER. */
bool fen_castling_fixed(const struct position *pos, unsigned flags)
{
    if (flags & FEN_SHREDDER)
        return true;
    for (int c = 0; c < COLOR_COUNT; c++)
        for (int side = 0; side < 2; side++) {
            int r = pos->castle_rook[c][side];
            int corner = square_make(side == CASTLE_KING_SIDE ? 7 : 0, c == WHITE ? 0 : 7);
            if (r != SQ_NONE && r != corner)
                return false;
        }
    return true;
}

size_t fen_write_fields(const struct position *pos, char *dst, unsigned flags)
{
    char castling[4];
    size_t castling_len = fen_write_castling(pos, castling, flags);
    if (!pos->variant)
        return fen_fields_standard(pos, castling, castling_len, dst, flags);
    size_t n = 0;
    if (pos->variant == VARIANT_CRAZYHOUSE)
        n += write_pockets(pos, dst);
    dst[n++] = ' ';
    dst[n++] = pos->side_to_move == WHITE ? 'w' : 'b';
    dst[n++] = ' ';
    memcpy(dst + n, castling, castling_len);
    n += castling_len;
    dst[n++] = ' ';
    int ep = pos->ep_square;
    if (ep != SQ_NONE && (!(flags & FEN_EP_LEGAL) || rules_ep_legal(pos))) {
        dst[n++] = (char)('a' + square_file(ep));
        dst[n++] = (char)('1' + square_rank(ep));
    } else {
        dst[n++] = '-';
    }
    if (pos->variant == VARIANT_THREE_CHECK) {
        dst[n++] = ' ';
        dst[n++] = (char)('0' + pos->checks_left[WHITE]);
        dst[n++] = '+';
        dst[n++] = (char)('0' + pos->checks_left[BLACK]);
    }
    dst[n++] = ' ';
    n += fen_put_clock(dst + n, pos->halfmove_clock);
    n += fen_put_clock(dst + n, pos->fullmove_number);
    return n - 1; /* not the blank after the fullmove number */
}

size_t fen_write(const struct position *pos, char *dst, size_t cap, unsigned flags)
{
    char buf[FEN_MAX + 16]; /* fen_rank_slash writes 16 bytes */
    size_t n = 0;
    if (pos->variant == VARIANT_CRAZYHOUSE) {
        for (int rank = 7; rank >= 0; rank--) {
            n += fen_write_rank(pos, rank, buf + n);
            buf[n++] = '/';
        }
    } else {
        for (int rank = 7; rank >= 0; rank--)
            n += fen_rank_slash(pos, rank, buf + n);
    }
    n--; /* no '/' after rank 1 */
    n += fen_write_fields(pos, buf + n, flags);
    if (cap) {
        size_t k = n < cap ? n : cap - 1;
        memcpy(dst, buf, k);
        dst[k] = '\0';
    }
    return n;
}
