/*
 * variant.c - the lichess variants' rules: their move generation (standard generation
 * plus drops or filters where the variant keeps chess's king safety; a pseudo-legal
 * generator checked by copy-make where it does not), making their moves, and when their
 * games end.  Standard chess never comes here (rules.c dispatches on position.variant
 * once per call).  Builds on standard chess's movegen.c and position.c, never the
 * reverse.  Never allocates; never prints.
 */
#include "board/variant.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "board/movegen.h"
#include "board/position_internal.h"

static const char *const names[VARIANT_COUNT] = {
    "Standard", "Crazyhouse", "Atomic", "Antichess", "King of the Hill", "Three-check",
    "Racing Kings", "Horde"};

const char *variant_name(enum variant v)
{
    return (unsigned)v < VARIANT_COUNT ? names[v] : "?";
}

int variant_from_name(const char *name, size_t len)
{
    static const struct {
        const char *name;
        enum variant v;
    } aliases[] = {
        {"standard", VARIANT_STANDARD},       {"chess", VARIANT_STANDARD},
        {"from position", VARIANT_STANDARD},  {"normal", VARIANT_STANDARD},
        {"crazyhouse", VARIANT_CRAZYHOUSE},   {"crazy house", VARIANT_CRAZYHOUSE},
        {"house", VARIANT_CRAZYHOUSE},        {"zh", VARIANT_CRAZYHOUSE},
        {"atomic", VARIANT_ATOMIC},           {"atom", VARIANT_ATOMIC},
        {"atomic chess", VARIANT_ATOMIC},     {"antichess", VARIANT_ANTICHESS},
        {"anti chess", VARIANT_ANTICHESS},    {"anti", VARIANT_ANTICHESS},
        {"king of the hill", VARIANT_KING_OF_THE_HILL},
        {"koth", VARIANT_KING_OF_THE_HILL},   {"kingofthehill", VARIANT_KING_OF_THE_HILL},
        {"three-check", VARIANT_THREE_CHECK}, {"three check", VARIANT_THREE_CHECK},
        {"threecheck", VARIANT_THREE_CHECK},  {"three check chess", VARIANT_THREE_CHECK},
        {"3-check", VARIANT_THREE_CHECK},     {"3 check", VARIANT_THREE_CHECK},
        {"3check", VARIANT_THREE_CHECK},      {"racing kings", VARIANT_RACING_KINGS},
        {"racing", VARIANT_RACING_KINGS},     {"race", VARIANT_RACING_KINGS},
        {"racingkings", VARIANT_RACING_KINGS}, {"horde", VARIANT_HORDE},
        {"horde chess", VARIANT_HORDE},
    };
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
        if (strlen(aliases[i].name) == len && strncasecmp(aliases[i].name, name, len) == 0)
            return (int)aliases[i].v;
    return -1;
}

/* Pieces on one rank, a-file first, as FEN letters ('.' for empty): the two start
 * arrays that are not standard chess's. */
static void put_rank(struct position *pos, int rank, const char *pieces)
{
    static const char letters[] = "PNBRQK";
    for (int f = 0; f < 8; f++) {
        if (pieces[f] == '.')
            continue;
        enum color c = pieces[f] >= 'a' ? BLACK : WHITE;
        int t = (int)(strchr(letters, pieces[f] & ~0x20) - letters);
        pos_put(pos, square_make(f, rank), piece_make(c, (enum piece_type)t));
    }
}

static void clear_ranks(struct position *pos, int from, int to)
{
    for (int sq = square_make(0, from); sq <= square_make(7, to); sq++)
        if (pos->board[sq] != PIECE_NONE)
            pos_remove(pos, sq);
}

/* Built from standard chess's start, not parsed from FEN text: fen.c sits above the rules
 * (it asks them for checkers and en passant legality), so the rules never ask fen.c. */
void variant_set_start(struct position *pos, enum variant v)
{
    position_set_start(pos);
    if ((unsigned)v >= VARIANT_COUNT || v == VARIANT_STANDARD)
        return;
    pos->variant = (uint8_t)v;
    switch (v) {
    case VARIANT_ANTICHESS:
        memset(pos->castle_rook, SQ_NONE, sizeof pos->castle_rook);
        break;
    case VARIANT_THREE_CHECK:
        pos->checks_left[WHITE] = pos->checks_left[BLACK] = 3;
        break;
    case VARIANT_RACING_KINGS: /* 8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - */
        clear_ranks(pos, 0, 7);
        put_rank(pos, 0, "qrbnNBRQ");
        put_rank(pos, 1, "krbnNBRK");
        memset(pos->castle_rook, SQ_NONE, sizeof pos->castle_rook);
        break;
    case VARIANT_HORDE: /* rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP (4 ranks) w kq - */
        clear_ranks(pos, 0, 1);
        for (int rank = 0; rank < 4; rank++)
            put_rank(pos, rank, "PPPPPPPP");
        put_rank(pos, 4, ".PP..PP.");
        pos->castle_rook[WHITE][CASTLE_KING_SIDE] = SQ_NONE;
        pos->castle_rook[WHITE][CASTLE_QUEEN_SIDE] = SQ_NONE;
        break;
    default: /* Crazyhouse (empty pockets), Atomic, King of the Hill: the standard array */
        break;
    }
    variant_update_checkers(pos);
}

/* ---- the board after a move ---- */

static const bitboard hill = (1ULL << 27) | (1ULL << 28) | (1ULL << 35) | (1ULL << 36);
static const bitboard rank8 = 0xffULL << 56;
#define DARK_SQUARES 0xAA55AA55AA55AA55ULL /* a1 is dark */

/* A side's single king, or SQ_NONE (none, or several in Antichess). */
static int lone_king(const struct position *pos, int c)
{
    bitboard k = position_pieces(pos, (enum color)c, KING);
    return k && !bb_many(k) ? bb_lsb(k) : SQ_NONE;
}

static bool kings_touch(const struct position *pos)
{
    int w = pos->king_square[WHITE], b = pos->king_square[BLACK];
    return w != SQ_NONE && b != SQ_NONE && bb_has(att_king(w), b);
}

/* Atomic: a king is in check only while both kings stand and do not touch. */
static bitboard atomic_attackers(const struct position *pos, int c, bitboard occ)
{
    int k = pos->king_square[c];
    if (k == SQ_NONE || pos->king_square[c ^ 1] == SQ_NONE || kings_touch(pos))
        return 0;
    return pos_attackers(pos, k, c ^ 1, occ) & ~pos->by_type[KING];
}

void variant_update_checkers(struct position *pos)
{
    for (int c = 0; c < COLOR_COUNT; c++)
        pos->king_square[c] = (uint8_t)lone_king(pos, c);
    int us = pos->side_to_move, k = pos->king_square[us];
    if (pos->variant == VARIANT_ANTICHESS || k == SQ_NONE)
        pos->checkers = 0;
    else if (pos->variant == VARIANT_ATOMIC)
        pos->checkers = atomic_attackers(pos, us, position_occupied(pos));
    else
        pos->checkers = pos_attackers(pos, k, us ^ 1, position_occupied(pos));
}

/* Atomic: the capturer and every piece but pawns next to the target square are gone. */
static void explode(struct position *pos, int to)
{
    bitboard blast = (att_king(to) & position_occupied(pos) & ~pos->by_type[PAWN]) | bb_square(to);
    while (blast) {
        int sq = bb_pop(&blast);
        if (pos->board[sq] != PIECE_NONE)
            pos_remove(pos, sq);
        for (int c = 0; c < COLOR_COUNT; c++)
            for (int side = 0; side < 2; side++)
                if (pos->castle_rook[c][side] == sq)
                    pos->castle_rook[c][side] = SQ_NONE;
    }
    for (int c = 0; c < COLOR_COUNT; c++)
        if (!position_pieces(pos, (enum color)c, KING))
            pos->castle_rook[c][0] = pos->castle_rook[c][1] = SQ_NONE;
}

static void drop(struct position *pos, struct move m)
{
    int us = pos->side_to_move;
    pos_put(pos, m.to, piece_make((enum color)us, (enum piece_type)m.promo));
    position_set_pocket(pos, us, m.promo, position_pocket(pos, us, m.promo) - 1);
    /* lichess: a pawn drop resets the clock, a piece drop counts as a move. */
    pos->halfmove_clock = m.promo == PAWN ? 0 : pos->halfmove_clock + 1;
    pos->ep_square = SQ_NONE;
    pos->fullmove_number += (uint32_t)us;
    pos->side_to_move = (uint8_t)(us ^ 1);
}

static bool is_castle(const struct position *pos, struct move m)
{
    uint8_t v = pos->board[m.to];
    return v != PIECE_NONE && piece_color_of(v) == piece_color_of(pos->board[m.from]);
}

void variant_do_move(struct position *pos, struct move m)
{
    int us = pos->side_to_move;
    if (m.flags & MOVE_DROP) {
        drop(pos, m);
        variant_update_checkers(pos);
        return;
    }
    if (m.flags & MOVE_NULL) {
        pos_move_pieces(pos, m);
        variant_update_checkers(pos);
        return;
    }
    uint8_t piece = pos->board[m.from];
    bool castle = is_castle(pos, m);
    bool ep = piece_type_of(piece) == PAWN && m.to == pos->ep_square &&
              pos->board[m.to] == PIECE_NONE;
    uint8_t victim = castle ? PIECE_NONE : pos->board[m.to];
    bool capture = victim != PIECE_NONE || ep;
    bool victim_promoted = victim != PIECE_NONE && (victim & PIECE_PROMOTED);

    pos_move_pieces(pos, m);

    if (pos->variant == VARIANT_HORDE && piece_type_of(piece) == PAWN &&
        square_rank(m.from) == (us == WHITE ? 0 : 7))
        pos->ep_square = SQ_NONE; /* a double step from the 1st rank: no en passant */
    if (pos->variant == VARIANT_CRAZYHOUSE) {
        if (capture) {
            int t = ep || victim_promoted ? PAWN : piece_type_of(victim);
            position_set_pocket(pos, us, t, position_pocket(pos, us, t) + 1);
        }
        if (m.promo) /* the mark moves with the piece (types.h); a new queen gets it */
            pos->board[m.to] |= PIECE_PROMOTED;
    }
    if (pos->variant == VARIANT_ATOMIC && capture)
        explode(pos, m.to);
    variant_update_checkers(pos);
    if (pos->variant == VARIANT_THREE_CHECK && pos->checkers && pos->checks_left[us])
        pos->checks_left[us]--;
}

/* ---- when the game is over ---- */

/* Racing Kings: a king on the 8th rank ends the race, except that after White's king gets
 * there Black has one move to reach it too (python-chess's test: a free, unattacked
 * square of the 8th rank next to Black's king). */
static bool race_over(const struct position *pos)
{
    if (!(pos->by_type[KING] & rank8))
        return false;
    bitboard black_king = position_pieces(pos, BLACK, KING);
    if (pos->side_to_move == WHITE || (black_king & rank8) || !black_king)
        return true;
    bitboard targets = att_king(bb_lsb(black_king)) & rank8 & ~pos->by_color[BLACK];
    while (targets)
        if (!pos_attackers(pos, bb_pop(&targets), WHITE, position_occupied(pos)))
            return false;
    return true;
}

/* chessops's setup validation per variant (python-chess's status() agrees). */
const char *variant_setup_error(const struct position *pos)
{
    switch (pos->variant) {
    case VARIANT_ANTICHESS:
        return position_occupied(pos) ? NULL : "Antichess: the board is empty";
    case VARIANT_RACING_KINGS:
        if (pos->by_type[PAWN])
            return "Racing Kings: the variant has no pawns";
        for (int c = 0; c < COLOR_COUNT; c++) {
            bitboard k = position_pieces(pos, (enum color)c, KING);
            if (k && pos_attackers(pos, bb_lsb(k), c ^ 1, position_occupied(pos)))
                return c == WHITE ? "Racing Kings: the white king is in check, and no move "
                                    "may give check"
                                  : "Racing Kings: the black king is in check, and no move "
                                    "may give check";
        }
        return NULL;
    case VARIANT_HORDE:
        if (bb_count(pos->by_type[KING]) == 1)
            return NULL;
        return pos->by_type[KING] ? "Horde: both sides have a king; the horde has none"
                                  : "Horde: neither side has a king; one side must have one";
    default:
        return NULL;
    }
}

/* The variant's own end (not mate or stalemate), before any move generation. */
static bool variant_over(const struct position *pos)
{
    switch (pos->variant) {
    case VARIANT_ATOMIC:
        return !position_pieces(pos, WHITE, KING) || !position_pieces(pos, BLACK, KING);
    case VARIANT_ANTICHESS:
    case VARIANT_HORDE:
        return !pos->by_color[WHITE] || !pos->by_color[BLACK];
    case VARIANT_KING_OF_THE_HILL:
        return (pos->by_type[KING] & hill) != 0;
    case VARIANT_THREE_CHECK:
        return !pos->checks_left[WHITE] || !pos->checks_left[BLACK];
    case VARIANT_RACING_KINGS:
        return race_over(pos);
    default:
        return false;
    }
}

static bool insufficient_atomic(const struct position *pos, int c)
{
    bitboard own = pos->by_color[c], their = pos->by_color[c ^ 1], kings = pos->by_type[KING];
    bitboard occ = own | their, bishops = pos->by_type[BISHOP];
    if (!(their & kings))
        return false;
    if (!(own & ~kings))
        return true;
    if (their & ~kings) {
        if (occ == (bishops | kings)) {
            bitboard dark_sq = DARK_SQUARES, light_sq = ~dark_sq;
            if (!(bishops & pos->by_color[WHITE] & dark_sq))
                return !(bishops & pos->by_color[BLACK] & light_sq);
            if (!(bishops & pos->by_color[WHITE] & light_sq))
                return !(bishops & pos->by_color[BLACK] & dark_sq);
        }
        return false;
    }
    if (pos->by_type[QUEEN] || pos->by_type[PAWN])
        return false;
    if (bb_count(pos->by_type[KNIGHT] | bishops | pos->by_type[ROOK]) == 1)
        return true;
    if (occ == (pos->by_type[KNIGHT] | kings))
        return bb_count(pos->by_type[KNIGHT]) <= 2;
    return false;
}

/* python-chess's Antichess draw: only bishops that can never meet, or two knights that
 * can never meet. */
static bool insufficient_antichess(const struct position *pos, int c)
{
    bitboard own = pos->by_color[c], their = pos->by_color[c ^ 1], occ = own | their;
    bitboard dark_sq = DARK_SQUARES, light_sq = ~dark_sq;
    if (!own)
        return false;
    if (!their)
        return true;
    if (occ == pos->by_type[BISHOP]) {
        bool some_light = own & light_sq, some_dark = own & dark_sq;
        bool all_dark = !(their & light_sq), all_light = !(their & dark_sq);
        return (some_light && all_dark) || (some_dark && all_light);
    }
    if (occ == pos->by_type[KNIGHT] && bb_count(occ) == 2)
        return (pos->side_to_move == c) ^ ((pos->by_color[WHITE] & light_sq) != 0) ^
               ((pos->by_color[BLACK] & dark_sq) != 0);
    return false;
}

/* chessops's and python-chess's Crazyhouse draw: no material leaves the game, so only
 * three pieces in all, board and pockets, none a pawn, rook, queen or promoted piece
 * (K v K, K+N v K, K+B v K, the minor piece possibly in a pocket). */
static bool insufficient_crazyhouse(const struct position *pos)
{
    if (pos->by_type[PAWN] | pos->by_type[ROOK] | pos->by_type[QUEEN])
        return false;
    int total = bb_count(position_occupied(pos));
    for (int c = 0; c < COLOR_COUNT; c++) {
        if (position_pocket(pos, c, PAWN) || position_pocket(pos, c, ROOK) ||
            position_pocket(pos, c, QUEEN))
            return false;
        total += position_pocket(pos, c, KNIGHT) + position_pocket(pos, c, BISHOP);
    }
    if (total > 3)
        return false;
    bitboard occ = position_occupied(pos);
    while (occ)
        if (pos->board[bb_pop(&occ)] & PIECE_PROMOTED)
            return false;
    return true;
}

/* Draws by material, the rule each variant has (chessops, python-chess): King of the
 * Hill, Racing Kings and Horde have none (a bare king still walks to its goal; Horde's
 * is not declared by either library on any position of testdata/variants). */
static bool insufficient(const struct position *pos)
{
    switch (pos->variant) {
    case VARIANT_CRAZYHOUSE:
        return insufficient_crazyhouse(pos);
    case VARIANT_THREE_CHECK: /* any piece but a king can give check */
        return position_occupied(pos) == pos->by_type[KING];
    case VARIANT_ATOMIC:
    case VARIANT_ANTICHESS:
        for (int c = 0; c < COLOR_COUNT; c++)
            if (pos->variant == VARIANT_ATOMIC ? !insufficient_atomic(pos, c)
                                               : !insufficient_antichess(pos, c))
                return false;
        return true;
    default:
        return false;
    }
}

const char *ending_name(enum ending e)
{
    static const char *const ending_names[ENDING_COUNT] = {
        "none", "checkmate", "stalemate", "king-exploded", "king-of-the-hill", "three-checks",
        "racing-kings", "horde-wiped-out", "antichess", "insufficient"};
    return (unsigned)e < ENDING_COUNT ? ending_names[e] : NULL;
}

static struct variant_end ended(int winner, const char *why, enum ending e)
{
    return (struct variant_end){true, winner, why, e};
}

static struct variant_end own_end(const struct position *pos)
{
    int us = pos->side_to_move, them = us ^ 1;
    switch (pos->variant) {
    case VARIANT_ATOMIC:
        return ended(position_pieces(pos, WHITE, KING) ? WHITE : BLACK, "king-exploded",
                     ENDING_KING_EXPLODED);
    case VARIANT_ANTICHESS:
        return ended(pos->by_color[us] ? them : us, "no-pieces", ENDING_ANTICHESS);
    case VARIANT_HORDE:
        return ended(pos->by_color[WHITE] ? WHITE : BLACK, "horde-destroyed", ENDING_HORDE_WIPED_OUT);
    case VARIANT_KING_OF_THE_HILL:
        return ended(pos->by_type[KING] & hill & pos->by_color[WHITE] ? WHITE : BLACK,
                     "king-in-centre", ENDING_KING_OF_THE_HILL);
    case VARIANT_THREE_CHECK:
        return ended(pos->checks_left[WHITE] ? BLACK : WHITE, "third-check", ENDING_THREE_CHECKS);
    default: {
        bitboard goal = pos->by_type[KING] & rank8;
        if ((goal & pos->by_color[WHITE]) && (goal & pos->by_color[BLACK]))
            return ended(-1, "goal-draw", ENDING_RACING_KINGS);
        return ended(goal & pos->by_color[WHITE] ? WHITE : BLACK, "goal-reached",
                     ENDING_RACING_KINGS);
    }
    }
}

struct variant_end variant_end_of(const struct position *pos)
{
    if (variant_over(pos))
        return own_end(pos);
    struct move moves[MAX_MOVES];
    bool any = variant_legal_moves(pos, moves) > 0;
    if (pos->variant == VARIANT_ANTICHESS && !any)
        return ended(pos->side_to_move, "stalemate", ENDING_ANTICHESS);
    if (!any && pos->checkers)
        return ended(pos->side_to_move ^ 1, "checkmate", ENDING_CHECKMATE);
    if (insufficient(pos))
        return ended(-1, "insufficient-material", ENDING_INSUFFICIENT);
    if (!any)
        return ended(-1, "stalemate", ENDING_STALEMATE);
    return (struct variant_end){false, -1, NULL, ENDING_NONE};
}

/* ---- move generation ---- */

static int add(struct move *out, int n, int from, int to, int promo, uint8_t flags)
{
    if (n < MAX_MOVES)
        out[n++] = (struct move){(uint8_t)from, (uint8_t)to, (uint8_t)promo, flags};
    return n;
}

static int add_pawn(const struct position *pos, struct move *out, int n, int from, int to,
                    uint8_t flags)
{
    if (square_rank(to) != 0 && square_rank(to) != 7)
        return add(out, n, from, to, 0, flags);
    int last = pos->variant == VARIANT_ANTICHESS ? KING : QUEEN;
    for (int p = KNIGHT; p <= last; p++)
        n = add(out, n, from, to, p, flags);
    return n;
}

/* Every pseudo-legal move (no king safety) of the side to move, castling excepted. */
static int gen_pseudo(const struct position *pos, struct move *out)
{
    int us = pos->side_to_move, n = 0;
    bitboard own = pos->by_color[us], enemy = pos->by_color[us ^ 1], occ = own | enemy;
    int up = us == WHITE ? 8 : -8;
    bitboard pawns = own & pos->by_type[PAWN];
    while (pawns) {
        int from = bb_pop(&pawns), rank = square_rank(from);
        bitboard caps = att_pawn(us, from) & enemy;
        while (caps)
            n = add_pawn(pos, out, n, from, bb_pop(&caps), MOVE_CAPTURE);
        if (pos->ep_square != SQ_NONE && bb_has(att_pawn(us, from), pos->ep_square) &&
            pos->board[pos->ep_square] == PIECE_NONE)
            n = add(out, n, from, pos->ep_square, 0, MOVE_CAPTURE | MOVE_EN_PASSANT);
        int to = from + up;
        if (to < 0 || to >= 64 || bb_has(occ, to))
            continue;
        n = add_pawn(pos, out, n, from, to, 0);
        bool start = rank == (us == WHITE ? 1 : 6) ||
                     (pos->variant == VARIANT_HORDE && rank == (us == WHITE ? 0 : 7));
        if (start && !bb_has(occ, to + up))
            n = add(out, n, from, to + up, 0, MOVE_DOUBLE_PUSH);
    }
    bitboard pieces = own & ~pos->by_type[PAWN];
    while (pieces) {
        int from = bb_pop(&pieces);
        enum piece_type t = piece_type_of(pos->board[from]);
        bitboard to = att_piece(t, from, occ) & ~own;
        if (t == KING && pos->variant == VARIANT_ATOMIC)
            to &= ~enemy; /* kings never capture */
        while (to) {
            int sq = bb_pop(&to);
            n = add(out, n, from, sq, 0, bb_has(enemy, sq) ? MOVE_CAPTURE : 0);
        }
    }
    return n;
}

/* Atomic castling: squares next to the enemy king count as safe (kings that touch give
 * no check); the end square is checked by playing the move. */
static int gen_atomic_castles(const struct position *pos, struct move *out, int n)
{
    int us = pos->side_to_move, k = pos->king_square[us];
    if (k == SQ_NONE || pos->checkers)
        return n;
    int them_k = pos->king_square[us ^ 1];
    bitboard near_enemy = them_k == SQ_NONE ? 0 : att_king(them_k);
    bitboard occ = position_occupied(pos);
    for (int side = 0; side < 2; side++) {
        int r = pos->castle_rook[us][side];
        if (r == SQ_NONE)
            continue;
        int rank = square_rank(k);
        int kto = square_make(side == CASTLE_KING_SIDE ? 6 : 2, rank);
        int rto = square_make(side == CASTLE_KING_SIDE ? 5 : 3, rank);
        bitboard kpath = att_between(k, kto) | bb_square(kto);
        bitboard rpath = att_between(r, rto) | bb_square(rto);
        bitboard others = occ ^ bb_square(k) ^ bb_square(r);
        if (others & (kpath | rpath))
            continue;
        bitboard test = (att_between(k, kto) | bb_square(k)) & ~near_enemy;
        bool attacked = false;
        while (test && !attacked)
            attacked = pos_attackers(pos, bb_pop(&test), us ^ 1, occ ^ bb_square(k)) != 0;
        if (!attacked)
            n = add(out, n, k, r, 0, MOVE_CASTLE);
    }
    return n;
}

/* Atomic: our king survives and, unless the enemy king is gone, is not left in check. */
static bool atomic_legal(const struct position *pos, struct move m)
{
    struct position next = *pos;
    variant_do_move(&next, m);
    int us = pos->side_to_move;
    if (!position_pieces(&next, (enum color)us, KING))
        return false;
    return atomic_attackers(&next, us, position_occupied(&next)) == 0;
}

static bool gives_check(const struct position *pos, struct move m)
{
    struct position next = *pos;
    variant_do_move(&next, m);
    return next.checkers != 0;
}

static int keep_captures(struct move *moves, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (moves[i].flags & MOVE_CAPTURE)
            moves[k++] = moves[i];
    return k ? k : n;
}

/* Crazyhouse drops: out of check anywhere free, in single check only between. */
static int gen_drops(const struct position *pos, struct move *out, int n)
{
    int us = pos->side_to_move;
    bitboard squares = ~position_occupied(pos);
    if (pos->checkers) {
        if (bb_many(pos->checkers))
            return n;
        squares &= att_between(pos->king_square[us], bb_lsb(pos->checkers));
    }
    for (int t = PAWN; t <= QUEEN; t++) {
        if (!position_pocket(pos, us, t))
            continue;
        bitboard to = t == PAWN ? squares & ~(bb_rank(0) | bb_rank(7)) : squares;
        while (to) {
            int sq = bb_pop(&to);
            n = add(out, n, sq, sq, t, MOVE_DROP);
        }
    }
    return n;
}

int variant_legal_moves(const struct position *pos, struct move *out)
{
    if (variant_over(pos))
        return 0;
    int n = 0;
    switch (pos->variant) {
    case VARIANT_ANTICHESS:
        return keep_captures(out, gen_pseudo(pos, out));
    case VARIANT_ATOMIC: {
        struct move pseudo[MAX_MOVES];
        int m = gen_atomic_castles(pos, pseudo, gen_pseudo(pos, pseudo));
        for (int i = 0; i < m; i++)
            if (atomic_legal(pos, pseudo[i]))
                out[n++] = pseudo[i];
        return n;
    }
    case VARIANT_HORDE:
        if (pos->king_square[pos->side_to_move] == SQ_NONE)
            return gen_pseudo(pos, out); /* the horde: no king to keep safe */
        return movegen_legal(pos, out);
    case VARIANT_RACING_KINGS: {
        int m = movegen_legal(pos, out);
        for (int i = 0; i < m; i++)
            if (!gives_check(pos, out[i]))
                out[n++] = out[i];
        return n;
    }
    case VARIANT_CRAZYHOUSE:
        return gen_drops(pos, out, movegen_legal(pos, out));
    default:
        return movegen_legal(pos, out);
    }
}

int variant_legal_to(const struct position *pos, enum piece_type t, int to, bitboard from_mask,
                     struct move *out)
{
    struct move all[MAX_MOVES];
    int n = variant_legal_moves(pos, all), k = 0;
    for (int i = 0; i < n; i++) {
        struct move m = all[i];
        if (!(m.flags & (MOVE_DROP | MOVE_CASTLE)) && m.to == to && bb_has(from_mask, m.from) &&
            piece_type_of(pos->board[m.from]) == t)
            out[k++] = m;
    }
    return k;
}

int variant_pseudo_to(const struct position *pos, enum piece_type t, int to, bitboard from_mask,
                      struct move *out)
{
    struct move all[MAX_MOVES];
    int n = gen_pseudo(pos, all), k = 0;
    int ksq = pos->king_square[pos->side_to_move];
    if (pos->variant == VARIANT_ATOMIC && t == KING && ksq != SQ_NONE &&
        bb_has(att_king(ksq) & pos->by_color[pos->side_to_move ^ 1], to))
        all[n++] = (struct move){(uint8_t)ksq, (uint8_t)to, 0, MOVE_CAPTURE}; /* never legal */
    for (int i = 0; i < n; i++) {
        struct move m = all[i];
        if (m.to == to && bb_has(from_mask, m.from) && piece_type_of(pos->board[m.from]) == t)
            out[k++] = m;
    }
    return k;
}

bool variant_castle(const struct position *pos, enum castle_side side, struct move *m,
                    const char **why)
{
    const char *reason = "not legal here";
    if (pos->variant == VARIANT_ANTICHESS || pos->variant == VARIANT_RACING_KINGS) {
        reason = "the variant has no castling";
    } else if (pos->castle_rook[pos->side_to_move][side] == SQ_NONE) {
        reason = "no castling right";
    } else {
        struct move all[MAX_MOVES];
        int n = variant_legal_moves(pos, all);
        int rook = pos->castle_rook[pos->side_to_move][side];
        for (int i = 0; i < n; i++) {
            if ((all[i].flags & MOVE_CASTLE) && all[i].to == rook) {
                *m = all[i];
                return true;
            }
        }
        if (pos->variant != VARIANT_ATOMIC && pos->variant != VARIANT_HORDE &&
            !movegen_castle(pos, side, m, &reason))
            ; /* the standard reason (check, path, attacked square) */
        else if (variant_over(pos))
            reason = "the game is over";
    }
    if (why)
        *why = reason;
    return false;
}

bool variant_has_legal_move(const struct position *pos)
{
    struct move moves[MAX_MOVES];
    return variant_legal_moves(pos, moves) > 0;
}

bool variant_ep_legal(const struct position *pos)
{
    if (pos->ep_square == SQ_NONE)
        return false;
    struct move moves[MAX_MOVES];
    int n = variant_legal_moves(pos, moves);
    for (int i = 0; i < n; i++)
        if (moves[i].flags & MOVE_EN_PASSANT)
            return true;
    return false;
}

bool variant_is_legal(const struct position *pos, struct move m)
{
    struct move all[MAX_MOVES];
    int n = variant_legal_moves(pos, all);
    for (int i = 0; i < n; i++) {
        bool drop = all[i].flags & MOVE_DROP;
        if (all[i].from == m.from && all[i].to == m.to && all[i].promo == m.promo &&
            drop == ((m.flags & MOVE_DROP) != 0))
            return true;
    }
    return false;
}

static uint64_t perft_rec(const struct position *pos, int depth)
{
    struct move moves[MAX_MOVES];
    int n = variant_legal_moves(pos, moves);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        struct position next = *pos;
        variant_do_move(&next, moves[i]);
        total += perft_rec(&next, depth - 1);
    }
    return total;
}

uint64_t variant_perft(const struct position *pos, int depth)
{
    return depth <= 0 ? 1 : perft_rec(pos, depth);
}

/* ---- why a move is illegal ---- */

void variant_explain_illegal(const struct position *pos, struct move m, char *buf, size_t cap)
{
    const char *name = variant_name((enum variant)pos->variant);
    int us = pos->side_to_move;
    struct position next = *pos;
    switch (pos->variant) {
    case VARIANT_ANTICHESS:
        snprintf(buf, cap, "%s: a capture is compulsory, and %s can capture", name,
                 us == WHITE ? "White" : "Black");
        return;
    case VARIANT_ATOMIC:
        if ((m.flags & MOVE_CAPTURE) && piece_type_of(pos->board[m.from]) == KING) {
            snprintf(buf, cap, "%s: a king cannot capture", name);
            return;
        }
        variant_do_move(&next, m);
        if (!position_pieces(&next, (enum color)us, KING))
            snprintf(buf, cap, "%s: the capture would explode %s's own king", name,
                     us == WHITE ? "White" : "Black");
        else
            snprintf(buf, cap, "%s: the move leaves %s's king in check", name,
                     us == WHITE ? "White" : "Black");
        return;
    case VARIANT_RACING_KINGS:
        variant_do_move(&next, m);
        if (next.checkers)
            snprintf(buf, cap, "%s: no move may give check", name);
        else
            snprintf(buf, cap, "%s: the move leaves %s's king in check", name,
                     us == WHITE ? "White" : "Black");
        return;
    default:
        variant_do_move(&next, m);
        snprintf(buf, cap, "the move leaves %s's king in check",
                 us == WHITE ? "White" : "Black");
        return;
    }
}
