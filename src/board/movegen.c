/*
 * movegen.c - standard chess's legal move generation from check and pin masks, the
 * targeted generator SAN resolution uses (movegen_legal_to), castling with reasons,
 * legality of a given move, and perft with bulk counting.  Also defines
 * position_has_legal_move and position_ep_legal (declared in position.h) because they
 * are generator questions.  Standard chess only (one king per side): rules.c sends a
 * variant position to variant.c, which builds on these functions.  Never allocates; never prints.
 */
#include "board/movegen.h"

#include "base/inline_hints.h"
#include "board/movegen_internal.h"
#include "board/position_internal.h"

/* What the generators share: computed once per position. */
struct gen_state {
    int us, them, ksq;
    bitboard occ, own, enemy;
    bitboard checkers;
    bitboard pinned;
    bitboard target; /* where a non-king move may land: blocks/captures the checker */
};

static bitboard pinned_of(const struct position *pos, int us, int ksq, bitboard occ)
{
    bitboard enemy = pos->by_color[us ^ 1];
    bitboard straight = pos->by_type[ROOK] | pos->by_type[QUEEN];
    bitboard diagonal = pos->by_type[BISHOP] | pos->by_type[QUEEN];
    bitboard snipers =
        enemy & ((att_rook(ksq, enemy) & straight) | (att_bishop(ksq, enemy) & diagonal));
    bitboard pinned = 0;
    while (snipers) {
        bitboard between = att_between(ksq, bb_pop(&snipers)) & occ;
        if (between && !bb_many(between))
            pinned |= between;
    }
    return pinned & pos->by_color[us];
}

bitboard position_pinned(const struct position *pos)
{
    int us = pos->side_to_move;
    return pinned_of(pos, us, pos->king_square[us], position_occupied(pos));
}

/* Is `from` (ours) pinned to our king by an enemy slider on the line `line` through
 * both?  The slow half of pinned_away() (movegen_internal.h). */
bool movegen_pinned_on_line(const struct position *pos, int ksq, int from, bitboard occ,
                            bitboard enemy, bitboard line)
{
    if (att_between(ksq, from) & occ)
        return false;
    occ ^= bb_square(from);
    bool straight = square_file(from) == square_file(ksq) || square_rank(from) == square_rank(ksq);
    bitboard sliders = straight ? att_rook(ksq, occ) & (pos->by_type[ROOK] | pos->by_type[QUEEN])
                                : att_bishop(ksq, occ) &
                                      (pos->by_type[BISHOP] | pos->by_type[QUEEN]);
    sliders &= enemy & line;
    while (sliders)
        if (bb_has(att_between(ksq, bb_pop(&sliders)), from))
            return true;
    return false;
}

/* The state without the pinned set (see pinned_away). */
static inline PGNKIT_HOT void state_init_light(struct gen_state *st, const struct position *pos)
{
    st->us = pos->side_to_move;
    st->them = st->us ^ 1;
    st->ksq = pos->king_square[st->us];
    st->own = pos->by_color[st->us];
    st->enemy = pos->by_color[st->them];
    st->occ = st->own | st->enemy;
    st->checkers = pos->checkers;
    st->pinned = 0;
    if (!st->checkers)
        st->target = ~st->own;
    else if (!bb_many(st->checkers))
        st->target = st->checkers | att_between(st->ksq, bb_lsb(st->checkers));
    else
        st->target = 0;
}

static inline PGNKIT_HOT void state_init(struct gen_state *st, const struct position *pos)
{
    state_init_light(st, pos);
    st->pinned = pinned_of(pos, st->us, st->ksq, st->occ);
}

/* Is sq attacked by the enemy once our king is lifted off the board? */
static inline PGNKIT_HOT bool king_square_attacked(const struct position *pos, const struct gen_state *st,
                                     int sq)
{
    bitboard occ = st->occ ^ bb_square(st->ksq);
    return pos_attackers(pos, sq, st->them, occ) != 0;
}

/*
 * En passant by the pawn on `from`.  Done by replaying the occupancy change because
 * two pawns leave one rank at once: that can uncover a rook or queen along the rank,
 * which no pin mask sees.  Also covers resolving a check by the double-pushed pawn.
 */
static bool ep_capture_legal(const struct position *pos, const struct gen_state *st, int from)
{
    int ep = pos->ep_square;
    int victim = ep + (st->us == WHITE ? -8 : 8);
    bitboard occ = (st->occ ^ bb_square(from) ^ bb_square(victim)) | bb_square(ep);
    bitboard attackers = pos_attackers(pos, st->ksq, st->them, occ) & ~bb_square(victim);
    return attackers == 0;
}

/* The pawns of the side to move that could capture en passant (pseudo-legal). */
static bitboard ep_candidates(const struct position *pos, int us)
{
    int ep = pos->ep_square;
    if (ep == SQ_NONE)
        return 0;
    int victim = ep + (us == WHITE ? -8 : 8);
    if (pos->board[victim] != piece_make((enum color)(us ^ 1), PAWN) ||
        pos->board[ep] != PIECE_NONE)
        return 0;
    return att_pawn(us ^ 1, ep) & position_pieces(pos, (enum color)us, PAWN);
}

struct castle_squares {
    int k, r, kdst, rdst;
};

static const char *castle_check(const struct position *pos, const struct gen_state *st, int side,
                                struct castle_squares *cs)
{
    int r = pos->castle_rook[st->us][side];
    if (r == SQ_NONE)
        return "no castling right";
    int k = st->ksq, rank = square_rank(k);
    int kdst = square_make(side == CASTLE_KING_SIDE ? 6 : 2, rank);
    int rdst = square_make(side == CASTLE_KING_SIDE ? 5 : 3, rank);
    if (st->checkers)
        return "king is in check";
    bitboard kr = bb_square(k) | bb_square(r);
    bitboard must_be_empty = (att_between(k, kdst) | bb_square(kdst) | att_between(r, rdst) |
                              bb_square(rdst)) &
                             ~kr;
    if (must_be_empty & st->occ)
        return "path is blocked";
    /* Lift the rook: in Chess960 it may shield the king's path from a rook behind it.
     * The king stays: a ray through its start square would already be a check. */
    bitboard occ = st->occ ^ bb_square(r);
    bitboard path = att_between(k, kdst);
    while (path) {
        if (pos_attackers(pos, bb_pop(&path), st->them, occ))
            return "king passes through an attacked square";
    }
    if (pos_attackers(pos, kdst, st->them, occ ^ bb_square(k)))
        return "king would be in check";
    cs->k = k;
    cs->r = r;
    cs->kdst = kdst;
    cs->rdst = rdst;
    return NULL;
}

/* ---- the generator: one body, specialised for "write moves" and "count only" ---- */

static inline PGNKIT_HOT int emit_set(struct move *out, int n, int from, bitboard to_set, bitboard enemy,
                        bool count)
{
    if (count)
        return n + bb_count(to_set);
    while (to_set) {
        int to = bb_pop(&to_set);
        out[n++] = (struct move){(uint8_t)from, (uint8_t)to, 0,
                                 (uint8_t)(bb_has(enemy, to) ? MOVE_CAPTURE : 0)};
    }
    return n;
}

static inline PGNKIT_HOT int emit_pawn(struct move *out, int n, int from, int to, uint8_t flags, bool promo,
                         bool count)
{
    if (count)
        return n + (promo ? 4 : 1);
    if (!promo) {
        out[n++] = (struct move){(uint8_t)from, (uint8_t)to, 0, flags};
        return n;
    }
    for (int p = QUEEN; p >= KNIGHT; p--)
        out[n++] = (struct move){(uint8_t)from, (uint8_t)to, (uint8_t)p, flags};
    return n;
}

/* Pawns moved together by a shift: dsts holds destinations, from = to - delta. */
static inline PGNKIT_HOT int emit_pawn_set(struct move *out, int n, bitboard dsts, int delta, uint8_t flags,
                             bitboard promo_rank, bool count)
{
    if (count)
        return n + bb_count(dsts & ~promo_rank) + 4 * bb_count(dsts & promo_rank);
    while (dsts) {
        int to = bb_pop(&dsts);
        n = emit_pawn(out, n, to - delta, to, flags, bb_has(promo_rank, to), false);
    }
    return n;
}

static inline PGNKIT_HOT int gen_pawns(const struct position *pos, const struct gen_state *st, struct move *out,
                         int n, bool count)
{
    bool white = st->us == WHITE;
    int up = white ? 8 : -8;
    bitboard pawns = position_pieces(pos, (enum color)st->us, PAWN);
    bitboard empty = ~st->occ;
    bitboard promo_rank = bb_rank(white ? 7 : 0);
    bitboard third = bb_rank(white ? 2 : 5);
    bitboard free_pawns = pawns & ~st->pinned;

    /* Unpinned pawns, all at once by shifts. */
    bitboard one = (white ? free_pawns << 8 : free_pawns >> 8) & empty;
    bitboard two = (white ? (one & third) << 8 : (one & third) >> 8) & empty & st->target;
    one &= st->target;
    n = emit_pawn_set(out, n, one, up, 0, promo_rank, count);
    n = emit_pawn_set(out, n, two, 2 * up, MOVE_DOUBLE_PUSH, 0, count);
    bitboard not_a = ~bb_file(0), not_h = ~bb_file(7);
    bitboard west = white ? (free_pawns & not_a) << 7 : (free_pawns & not_a) >> 9;
    bitboard east = white ? (free_pawns & not_h) << 9 : (free_pawns & not_h) >> 7;
    bitboard victims = st->enemy & st->target;
    n = emit_pawn_set(out, n, west & victims, white ? 7 : -9, MOVE_CAPTURE, promo_rank, count);
    n = emit_pawn_set(out, n, east & victims, white ? 9 : -7, MOVE_CAPTURE, promo_rank, count);

    /* Pinned pawns, one by one: they may only move along the pin line. */
    bitboard pinned = pawns & st->pinned;
    while (pinned) {
        int from = bb_pop(&pinned);
        bitboard line = att_line(st->ksq, from) & st->target;
        bitboard caps = att_pawn(st->us, from) & st->enemy & line;
        while (caps) {
            int to = bb_pop(&caps);
            n = emit_pawn(out, n, from, to, MOVE_CAPTURE, bb_has(promo_rank, to), count);
        }
        int to = from + up;
        if (bb_has(empty, to)) {
            if (bb_has(line, to))
                n = emit_pawn(out, n, from, to, 0, bb_has(promo_rank, to), count);
            int to2 = to + up;
            if (bb_has(third, to) && bb_has(empty & line, to2))
                n = emit_pawn(out, n, from, to2, MOVE_DOUBLE_PUSH, false, count);
        }
    }

    bitboard eps = ep_candidates(pos, st->us);
    while (eps) {
        int from = bb_pop(&eps);
        if (ep_capture_legal(pos, st, from))
            n = emit_pawn(out, n, from, pos->ep_square, MOVE_CAPTURE | MOVE_EN_PASSANT, false,
                          count);
    }
    return n;
}

static inline PGNKIT_HOT int gen_all(const struct position *pos, struct move *out, bool count)
{
    struct gen_state st;
    state_init(&st, pos);
    int n = 0;

    /* King steps: each destination is tested with the king lifted (x-ray checks). */
    bitboard steps = att_king(st.ksq) & ~st.own;
    bitboard safe = 0;
    while (steps) {
        int to = bb_pop(&steps);
        if (!king_square_attacked(pos, &st, to))
            safe |= bb_square(to);
    }
    n = emit_set(out, n, st.ksq, safe, st.enemy, count);
    if (bb_many(st.checkers))
        return n; /* double check: only the king may move */

    n = gen_pawns(pos, &st, out, n, count);

    bitboard knights = position_pieces(pos, (enum color)st.us, KNIGHT) & ~st.pinned;
    while (knights) {
        int from = bb_pop(&knights);
        n = emit_set(out, n, from, att_knight(from) & st.target, st.enemy, count);
    }
    bitboard queens = pos->by_type[QUEEN];
    bitboard diag = st.own & (pos->by_type[BISHOP] | queens);
    while (diag) {
        int from = bb_pop(&diag);
        bitboard to = att_bishop(from, st.occ) & st.target;
        if (bb_has(st.pinned, from))
            to &= att_line(st.ksq, from);
        n = emit_set(out, n, from, to, st.enemy, count);
    }
    bitboard orth = st.own & (pos->by_type[ROOK] | queens);
    while (orth) {
        int from = bb_pop(&orth);
        bitboard to = att_rook(from, st.occ) & st.target;
        if (bb_has(st.pinned, from))
            to &= att_line(st.ksq, from);
        n = emit_set(out, n, from, to, st.enemy, count);
    }

    if (!st.checkers) {
        for (int side = 0; side < 2; side++) {
            struct castle_squares cs;
            if (pos->castle_rook[st.us][side] != SQ_NONE && !castle_check(pos, &st, side, &cs)) {
                if (!count)
                    out[n] = (struct move){(uint8_t)cs.k, (uint8_t)cs.r, 0, MOVE_CASTLE};
                n++;
            }
        }
    }
    return n;
}

int movegen_legal(const struct position *pos, struct move *out)
{
    return gen_all(pos, out, false);
}

/** Number of legal moves of the side to move (no list written). */
static int movegen_count(const struct position *pos) { return gen_all(pos, NULL, true); }

/* Any piece (not king) of the side to move with a legal landing square?  Pawns are
 * asked of the full generator only when no other piece can move (rare). */
static bool piece_can_move(const struct position *pos, const struct gen_state *st)
{
    bitboard knights = position_pieces(pos, (enum color)st->us, KNIGHT) & ~st->pinned;
    while (knights)
        if (att_knight(bb_pop(&knights)) & st->target)
            return true;
    bitboard queens = pos->by_type[QUEEN];
    bitboard sliders = st->own & (pos->by_type[BISHOP] | pos->by_type[ROOK] | queens);
    while (sliders) {
        int from = bb_pop(&sliders);
        enum piece_type t = piece_type_of(pos->board[from]);
        bitboard to = 0;
        if (t != ROOK)
            to |= att_bishop(from, st->occ);
        if (t != BISHOP)
            to |= att_rook(from, st->occ);
        to &= st->target;
        if (bb_has(st->pinned, from))
            to &= att_line(st->ksq, from);
        if (to)
            return true;
    }
    return false;
}

/*
 * Out of check, a piece on no line through its king is pinned by nothing, so each of
 * its pseudo-legal moves is legal: a pawn of those with the square ahead empty, or a
 * knight, bishop, rook or queen of those reaching a square not held by its side, is a
 * legal move.  That settles most positions a stalemate test is asked of (every game's
 * last, game_end_of) in a few instructions, where the king steps take a
 * pos_attackers() each.  False says nothing either way.
 */
static inline bool free_move_found(const struct position *pos)
{
    int us = pos->side_to_move;
    bitboard own = pos->by_color[us], occ = own | pos->by_color[us ^ 1];
    bitboard free = own & ~att_reach(QUEEN, pos->king_square[us]);
    bitboard pawns = free & pos->by_type[PAWN];
    if ((us == WHITE ? bb_north(pawns) : bb_south(pawns)) & ~occ)
        return true;
    bitboard knights = free & pos->by_type[KNIGHT];
    while (knights)
        if (att_knight(bb_pop(&knights)) & ~own)
            return true;
    bitboard queens = pos->by_type[QUEEN];
    bitboard diag = free & (pos->by_type[BISHOP] | queens);
    while (diag)
        if (att_bishop(bb_pop(&diag), occ) & ~own)
            return true;
    bitboard orth = free & (pos->by_type[ROOK] | queens);
    while (orth)
        if (att_rook(bb_pop(&orth), occ) & ~own)
            return true;
    return false;
}

/* Mate and stalemate tests ask this after many moves: stop at the first legal move.
 * King steps come first and need no pinned set: they usually settle it (after a check
 * as well), so the pinned set is found only for the other pieces.  Out of line: its
 * frame is set up only when free_move_found() did not settle it. */
static PGNKIT_NOINLINE bool legal_move_found(const struct position *pos)
{
    struct gen_state st;
    state_init_light(&st, pos);
    bitboard steps = att_king(st.ksq) & ~st.own;
    while (steps)
        if (!king_square_attacked(pos, &st, bb_pop(&steps)))
            return true;
    if (bb_many(st.checkers))
        return false;
    st.pinned = pinned_of(pos, st.us, st.ksq, st.occ);
    if (piece_can_move(pos, &st))
        return true;
    struct move scratch[MAX_MOVES];
    return gen_pawns(pos, &st, scratch, 0, true) > 0;
}

bool position_has_legal_move(const struct position *pos)
{
    if (!pos->checkers && free_move_found(pos))
        return true;
    return legal_move_found(pos);
}

bool position_ep_legal(const struct position *pos)
{
    bitboard eps = ep_candidates(pos, pos->side_to_move);
    if (!eps)
        return false;
    struct gen_state st;
    state_init(&st, pos);
    if (bb_many(st.checkers))
        return false;
    while (eps)
        if (ep_capture_legal(pos, &st, bb_pop(&eps)))
            return true;
    return false;
}

/* ---- targeted generation for SAN ---- */

/* A pawn push or ordinary capture (not en passant) to `to`, which must be in target.
 * Needs no gen_state, so the common case out of check reads the position directly. */
static inline PGNKIT_HOT int legal_to_pawn_plain(const struct position *pos, int to, bitboard from_mask,
                                   bitboard target, struct move *out)
{
    int us = pos->side_to_move, ksq = pos->king_square[us];
    bitboard own = pos->by_color[us], enemy = pos->by_color[us ^ 1], occ = own | enemy;
    bitboard enemy_sliders = sliders_of(pos, enemy);
    int up = us == WHITE ? 8 : -8;
    bitboard pawns = own & pos->by_type[PAWN] & from_mask;
    bool promo = square_rank(to) == (us == WHITE ? 7 : 0);
    int n = 0;

    /* No pawn moves to its own first rank (SAN "g1" for White): the push origin to - up
     * would be off the board (found by fuzz_san). */
    if (square_rank(to) == (us == WHITE ? 0 : 7) || !bb_has(target, to))
        return 0;
    bitboard froms = 0;
    uint8_t flags = 0;
    if (bb_has(enemy, to)) {
        froms = att_pawn(us ^ 1, to) & pawns;
        flags = MOVE_CAPTURE;
    } else if (!bb_has(occ, to)) {
        int from = to - up;
        if (bb_has(pawns, from)) {
            froms = bb_square(from);
        } else if (!bb_has(occ, from) && square_rank(to) == (us == WHITE ? 3 : 4) &&
                   bb_has(pawns, from - up)) {
            froms = bb_square(from - up);
            flags = MOVE_DOUBLE_PUSH;
        }
    }
    while (froms) {
        int from = bb_pop(&froms);
        if (pinned_away(pos, ksq, from, to, occ, enemy, enemy_sliders))
            continue;
        n = emit_pawn(out, n, from, to, flags, promo, false);
    }
    return n;
}

static int legal_to_pawn(const struct position *pos, const struct gen_state *st, int to,
                         bitboard from_mask, struct move *out)
{
    if (to != pos->ep_square)
        return legal_to_pawn_plain(pos, to, from_mask, st->target, out);
    bitboard eps = ep_candidates(pos, st->us) & from_mask;
    int n = 0;
    while (eps) {
        int from = bb_pop(&eps);
        if (ep_capture_legal(pos, st, from))
            n = emit_pawn(out, n, from, to, MOVE_CAPTURE | MOVE_EN_PASSANT, false, false);
    }
    return n;
}

/* A knight, bishop, rook or queen to `to`, our king not in check: the common SAN move,
 * which needs no check mask. */
static inline PGNKIT_HOT int legal_to_piece(const struct position *pos, enum piece_type t, int to,
                              bitboard from_mask, struct move *out)
{
    int us = pos->side_to_move, ksq = pos->king_square[us];
    bitboard own = pos->by_color[us], enemy = pos->by_color[us ^ 1], occ = own | enemy;
    bitboard enemy_sliders = sliders_of(pos, enemy);
    uint8_t flags = bb_has(enemy, to) ? MOVE_CAPTURE : 0;
    /* Pieces that attack `to` are the pieces `to` attacks, by symmetry. */
    bitboard froms = att_piece(t, to, occ) & own & pos->by_type[t] & from_mask;
    int n = 0;
    while (froms) {
        int from = bb_pop(&froms);
        if (pinned_away(pos, ksq, from, to, occ, enemy, enemy_sliders))
            continue;
        out[n++] = (struct move){(uint8_t)from, (uint8_t)to, 0, flags};
    }
    return n;
}

/* A king step to `to` (not onto our own piece): legal when `to` is not attacked with
 * the king lifted off the board (x-ray checks).  Needs no check or pin mask, so it
 * reads the position directly. */
static inline PGNKIT_HOT int legal_to_king(const struct position *pos, int to, bitboard from_mask,
                             struct move *out)
{
    int us = pos->side_to_move, ksq = pos->king_square[us];
    if (!bb_has(from_mask, ksq) || !bb_has(att_king(ksq), to))
        return 0;
    bitboard enemy = pos->by_color[us ^ 1];
    bitboard occ = (pos->by_color[us] | enemy) ^ bb_square(ksq);
    if (pos_attackers(pos, to, us ^ 1, occ))
        return 0;
    out[0] = (struct move){(uint8_t)ksq, (uint8_t)to, 0, bb_has(enemy, to) ? MOVE_CAPTURE : 0};
    return 1;
}

/* Pawns, the king, and any move while in check.  Out of line so that the common case
 * in movegen_legal_to() keeps a small frame. */
static PGNKIT_NOINLINE int legal_to_general(const struct position *pos, enum piece_type t, int to,
                                     bitboard from_mask, struct move *out)
{
    if (t == KING)
        return legal_to_king(pos, to, from_mask, out);
    struct gen_state st;
    state_init_light(&st, pos);

    if (bb_many(st.checkers))
        return 0;
    if (t == PAWN)
        return legal_to_pawn(pos, &st, to, from_mask, out);
    if (!bb_has(st.target, to))
        return 0;
    return legal_to_piece(pos, t, to, from_mask, out);
}

/* Left to LTO and the profile to inline or split: forcing it inline into play_run saved
 * 1% of instructions (callgrind) but timed 2-4% slower in the PGO build. */
int movegen_legal_to(const struct position *pos, enum piece_type t, int to, bitboard from_mask,
                     struct move *out)
{
    if (to < 0 || to >= SQUARE_COUNT || (unsigned)t >= PIECE_TYPE_COUNT)
        return 0;
    if (bb_has(pos->by_color[pos->side_to_move], to))
        return 0;
    /* Out of check, any landing square not our own is a target. */
    if (!pos->checkers && t != KING) {
        if (t != PAWN)
            return legal_to_piece(pos, t, to, from_mask, out);
        if (to != pos->ep_square)
            return legal_to_pawn_plain(pos, to, from_mask, ~(bitboard)0, out);
    }
    return legal_to_general(pos, t, to, from_mask, out);
}

/* Whether an enemy slider of `sliders` (those on a line through sq) attacks sq through
 * occ: the lines walked one by one (few stand on one) rather than looked up. */
static inline PGNKIT_HOT bool slider_reaches(int sq, bitboard sliders, bitboard occ)
{
    while (sliders)
        if (!(att_between(sq, bb_pop(&sliders)) & occ))
            return true;
    return false;
}

/*
 * castle_check() for the usual squares, the king on its e-file square and the rook in
 * its corner (standard chess; a Chess960 start that has them castles the same way):
 * the same tests on the same occupancies, with the squares known (the ones between king
 * and rook must be empty; the king crosses one, where the rook lands, and stops on the
 * next), both squares' pawn, knight and king attackers asked at once, and no reasons.
 * False when the squares are others or castling is not legal: castle_check() then
 * decides, and says why.
 */
static inline PGNKIT_HOT bool castle_usual(const struct position *pos, int side, struct move *m)
{
    int us = pos->side_to_move, home = us == WHITE ? 0 : 56;
    int k = pos->king_square[us], r = pos->castle_rook[us][side];
    int step = side == CASTLE_KING_SIDE ? 1 : -1, cross = k + step, land = k + 2 * step;
    if (k != home + 4 || r != (side == CASTLE_KING_SIDE ? home + 7 : home) || pos->checkers)
        return false;
    bitboard occ = pos->by_color[WHITE] | pos->by_color[BLACK];
    if (att_between(k, r) & occ)
        return false;
    bitboard enemy = pos->by_color[us ^ 1];
    bitboard near = ((att_pawn(us, cross) | att_pawn(us, land)) & pos->by_type[PAWN]) |
                    ((att_knight(cross) | att_knight(land)) & pos->by_type[KNIGHT]) |
                    ((att_king(cross) | att_king(land)) & pos->by_type[KING]);
    if (near & enemy)
        return false;
    bitboard rq = enemy & (pos->by_type[ROOK] | pos->by_type[QUEEN]);
    bitboard bq = enemy & (pos->by_type[BISHOP] | pos->by_type[QUEEN]);
    /* As castle_check(): the rook lifted, and the king too where it lands. */
    occ ^= bb_square(r);
    if (slider_reaches(cross, (att_reach(ROOK, cross) & rq) | (att_reach(BISHOP, cross) & bq), occ) ||
        slider_reaches(land, (att_reach(ROOK, land) & rq) | (att_reach(BISHOP, land) & bq),
                       occ ^ bb_square(k)))
        return false;
    *m = (struct move){(uint8_t)k, (uint8_t)r, 0, MOVE_CASTLE};
    return true;
}

bool movegen_castle(const struct position *pos, enum castle_side side, struct move *m,
                    const char **why)
{
    if (castle_usual(pos, (int)side & 1, m))
        return true;
    struct gen_state st;
    struct castle_squares cs;
    state_init_light(&st, pos); /* castle_check needs no pinned set */
    const char *reason = castle_check(pos, &st, (int)side & 1, &cs);
    if (reason) {
        if (why)
            *why = reason;
        return false;
    }
    *m = (struct move){(uint8_t)cs.k, (uint8_t)cs.r, 0, MOVE_CASTLE};
    return true;
}

bool movegen_is_legal(const struct position *pos, struct move m)
{
    if (m.flags & MOVE_NULL)
        return !position_in_check(pos);
    if (m.from >= SQUARE_COUNT || m.to >= SQUARE_COUNT)
        return false;
    int us = pos->side_to_move;
    uint8_t piece = pos->board[m.from], victim = pos->board[m.to];
    if (piece == PIECE_NONE || (int)piece_color_of(piece) != us)
        return false;
    enum piece_type pt = piece_type_of(piece);
    if (pt == KING && victim == piece_make((enum color)us, ROOK)) {
        int side = m.to > m.from ? CASTLE_KING_SIDE : CASTLE_QUEEN_SIDE;
        struct move c;
        return pos->castle_rook[us][side] == m.to && m.promo == 0 &&
               movegen_castle(pos, (enum castle_side)side, &c, NULL);
    }
    if (m.flags & MOVE_CASTLE)
        return false;
    struct move list[MAX_MOVES];
    int n = movegen_legal_to(pos, pt, m.to, bb_square(m.from), list);
    for (int i = 0; i < n; i++)
        if (list[i].promo == m.promo)
            return true;
    return false;
}

/* ---- perft ---- */

static uint64_t perft_rec(const struct position *pos, int depth)
{
    if (depth == 1)
        return (uint64_t)movegen_count(pos); /* bulk counting: no moves made at the leaves */
    struct move moves[MAX_MOVES];
    int n = movegen_legal(pos, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        struct position next = *pos;
        pos_do_move(&next, moves[i]);
        total += perft_rec(&next, depth - 1);
    }
    return total;
}

uint64_t movegen_perft(const struct position *pos, int depth)
{
    if (depth <= 0)
        return 1;
    return perft_rec(pos, depth);
}
