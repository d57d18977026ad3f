/*
 * san_resolve.c - SAN parts to a legal move (SPEC §3 steps 2-7), and canonical SAN out.
 *
 * Owns: candidate collection, the claim filter for several candidates, claim checks
 * on the chosen move, and the reasons given when no move fits.  Does not own: the
 * token grammar (san.c), move generation (movegen.c for standard chess, asked directly
 * on the hot path; rules.h or variant.c for a variant position), positions in the file
 * (callers).
 */
#include "san/san_resolve.h"

#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "board/attacks.h"
#include "board/movegen.h"
#include "board/rules.h"
#include "board/variant.h"
#include "base/inline_hints.h"
#include "board/movegen_internal.h"
#include "board/position_internal.h"
#include "san/san_resolve_internal.h"

static const char *const piece_names[PIECE_TYPE_COUNT] = {"pawn",  "knight", "bishop",
                                                          "rook",  "queen",  "king"};
static const char piece_letters[PIECE_TYPE_COUNT] = {'P', 'N', 'B', 'R', 'Q', 'K'};
static const char *const color_names[COLOR_COUNT] = {"White", "Black"};

static void add_problem(struct san_outcome *out, enum diag_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void add_problem(struct san_outcome *out, enum diag_code code, const char *fmt, ...)
{
    if (out->problem_count >= SAN_MAX_PROBLEMS)
        return;
    struct san_problem *p = &out->problems[out->problem_count++];
    p->code = code;
    p->severity = diag_code_severity(code);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->message, sizeof p->message, fmt, ap);
    va_end(ap);
}

static void square_name(int sq, char name[3])
{
    name[0] = (char)('a' + square_file(sq));
    name[1] = (char)('1' + square_rank(sq));
    name[2] = '\0';
}

/* ---- outcome of playing a move: what the claims are checked against ---- */

struct played {
    int checkers;
    bool mate;        /* the game has a winner after the move: checkmate or a variant win */
    bool variant_win; /* ... by the variant's own rule (king exploded, third check, ...) */
};

/* A variant's move: its checks, and `#` for every move after which the game has a winner
 * (lichess's rule: the third check, the king on the hill, the loser's move in Antichess). */
static PGNKIT_NOINLINE struct played play_variant(struct move m, struct position *after)
{
    variant_do_move(after, m);
    struct variant_end e = variant_end_of(after);
    struct played p;
    p.checkers = __builtin_popcountll(position_checkers(after));
    p.mate = e.over && e.winner >= 0;
    p.variant_win = p.mate && strcmp(e.termination, "checkmate") != 0;
    return p;
}

/* Copy-make m into *after and see what it does to the other side. */
static inline PGNKIT_HOT struct played play(const struct position *pos, struct move m, struct position *after)
{
    *after = *pos;
    /* Castling is most of what the replay's quick path leaves to this one (1,499 of
     * 2,113 moves over the lichess sample): position_do_castle() plays the usual one
     * without pos_do_move()'s general walk. */
    if (m.flags & MOVE_CASTLE)
        position_do_castle(after, m);
    else
        pos_do_move(after, m); /* inline: this runs once per ply */
    struct played p;
    p.variant_win = false;
    p.checkers = __builtin_popcountll(position_checkers(after));
    /* Mate needs a legal-move search, but only when the move gives check. */
    p.mate = p.checkers && !position_has_legal_move(after);
    return p;
}

/* play() by the position's rules: `variant` is a constant where this is inlined, so
 * standard chess's copy of the resolver has no variant test. */
static inline PGNKIT_HOT struct played play_rules(const struct position *pos, struct move m,
                                    struct position *after, bool variant)
{
    if (variant) {
        *after = *pos;
        return play_variant(m, after);
    }
    return play(pos, m, after);
}

/* The seed's filter: a written claim must hold; an absent mark claims nothing. */
static bool claims_hold(const struct san *san, struct move m, const struct played *p)
{
    if (san->capture && !(m.flags & MOVE_CAPTURE))
        return false;
    if (san->ep && !(m.flags & MOVE_EN_PASSANT))
        return false;
    if (san->checks > p->checkers)
        return false;
    if (san->mate && !p->mate)
        return false;
    return true;
}

/* ---- candidates ---- */

static bitboard hint_mask(const struct san *san)
{
    bitboard mask = ~(bitboard)0;
    if (san->from_file >= 0)
        mask &= 0x0101010101010101ULL << san->from_file;
    if (san->from_rank >= 0)
        mask &= 0xffULL << (8 * san->from_rank);
    return mask;
}

static bool is_last_rank(int sq) { return square_rank(sq) == 0 || square_rank(sq) == 7; }

/* Legal moves matching piece, hints, destination and promotion piece. */
static inline PGNKIT_HOT int collect(const struct position *pos, enum piece_type piece, const struct san *san,
                       struct move *cands, bool variant)
{
    int n = variant ? variant_legal_to(pos, piece, san->to, hint_mask(san), cands)
                    : movegen_legal_to(pos, piece, san->to, hint_mask(san), cands);
    /* Only a pawn move to the last rank promotes; the grammar writes a promotion piece
     * only on rank 1 or 8, so elsewhere every candidate already matches. */
    if (!san->promo && !is_last_rank(san->to))
        return n;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (cands[i].promo == san->promo)
            cands[k++] = cands[i];
    return k;
}

/* Long algebraic with no letter (e2e4, g1f3, e1g1): the piece on the origin decides. */
static enum piece_type implicit_piece(const struct position *pos, const struct san *san)
{
    if (san->from_file < 0 || san->from_rank < 0)
        return PAWN;
    uint8_t p = pos->board[square_make(san->from_file, san->from_rank)];
    if (p == PIECE_NONE || piece_color_of(p) != pos->side_to_move)
        return PAWN;
    return piece_type_of(p);
}

/* A king move written as e1g1 / Ke1c1 / e1h1 that is really castling. */
static bool king_move_as_castle(const struct position *pos, const struct san *san,
                                struct move *m)
{
    int us = pos->side_to_move;
    int king = pos->king_square[us];
    if (san->from_file >= 0 && san->from_file != square_file(king))
        return false;
    if (san->from_rank >= 0 && san->from_rank != square_rank(king))
        return false;
    if (square_rank(san->to) != square_rank(king))
        return false;
    for (int side = 0; side < 2; side++) {
        int rook = pos->castle_rook[us][side];
        if (rook == SQ_NONE)
            continue;
        int king_to = square_make(side == CASTLE_KING_SIDE ? 6 : 2, square_rank(king));
        bool named = san->to == rook || (!pos->chess960 && san->to == king_to);
        if (named && rules_castle(pos, (enum castle_side)side, m, NULL))
            return true;
    }
    return false;
}

/* ---- reasons for ILLEGAL ---- */

static void describe_target(const struct san *san, char *buf, size_t cap)
{
    char to[3];
    square_name(san->to, to);
    if (san->from_file >= 0 && san->from_rank >= 0)
        snprintf(buf, cap, "from %c%c to %s", 'a' + san->from_file, '1' + san->from_rank, to);
    else if (san->from_file >= 0)
        snprintf(buf, cap, "from the %c-file to %s", 'a' + san->from_file, to);
    else if (san->from_rank >= 0)
        snprintf(buf, cap, "from rank %c to %s", '1' + san->from_rank, to);
    else
        snprintf(buf, cap, "to %s", to);
}

/* Own pieces of that kind that could reach the square if pins and checks did not matter. */
static bitboard pseudo_origins(const struct position *pos, enum piece_type piece, int to,
                               enum color us)
{
    bitboard occ = position_occupied(pos);
    bitboard own = position_pieces(pos, us, piece);
    if (piece != PAWN)
        return attacks_piece(piece, to, occ) & own;
    bitboard from = 0;
    bool enemy_there = pos->board[to] != PIECE_NONE || to == pos->ep_square;
    if (enemy_there)
        from |= attacks_pawn((enum color)!us, to) & own;
    int back = us == WHITE ? -8 : 8;
    int one = to + back;
    if (one >= 0 && one < 64) {
        if (pos->board[to] == PIECE_NONE && (own & (1ULL << one)))
            from |= 1ULL << one;
        int two = one + back;
        int start_rank = us == WHITE ? 1 : 6;
        if (pos->board[to] == PIECE_NONE && pos->board[one] == PIECE_NONE && two >= 0 &&
            two < 64 && square_rank(two) == start_rank && (own & (1ULL << two)))
            from |= 1ULL << two;
    }
    return from;
}

/* The game is over by the variant's rule: which rule. */
static bool explain_variant_end(const struct position *pos, struct san_outcome *out)
{
    if (rules_has_legal_move(pos))
        return false; /* an insufficient-material draw still has moves */
    struct variant_end e = variant_end_of(pos);
    if (!e.over)
        return false;
    add_problem(out, DIAG_MOVE_AFTER_END, "the game is already over (%s: %s%s%s)",
                variant_name((enum variant)pos->variant), e.termination,
                e.winner < 0 ? ", a draw" : ", ", e.winner < 0 ? "" : e.winner == WHITE
                                                                     ? "White wins"
                                                                     : "Black wins");
    return true;
}

/* Reasons only a variant has: its end, its own rule breaking an otherwise possible move
 * (Antichess's compulsory capture, Atomic's explosions, Racing Kings's checks), a side
 * without a king.  False: the standard reasons below apply. */
static PGNKIT_COLD bool explain_variant(const struct position *pos, const struct san *san,
                                 enum piece_type piece, struct san_outcome *out)
{
    if (explain_variant_end(pos, out))
        return true;
    struct move cands[MAX_MOVES];
    int n = variant_pseudo_to(pos, piece, san->to, hint_mask(san), cands);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (cands[i].promo == san->promo)
            cands[k++] = cands[i];
    enum variant v = (enum variant)pos->variant;
    bool own_rules = v == VARIANT_ANTICHESS || v == VARIANT_ATOMIC || v == VARIANT_RACING_KINGS;
    if (k > 0 && own_rules) {
        char msg[DIAG_MESSAGE_MAX];
        variant_explain_illegal(pos, cands[0], msg, sizeof msg);
        add_problem(out, DIAG_ILLEGAL, "%s", msg);
        return true;
    }
    if (v == VARIANT_HORDE && san->piece == PAWN && san->capture && pos->board[san->to] == PIECE_NONE &&
        pos->ep_square == SQ_NONE) {
        add_problem(out, DIAG_ILLEGAL, "Horde: nothing to take on %c%c (a double step from the "
                    "1st rank allows no en passant)", 'a' + square_file(san->to),
                    '1' + square_rank(san->to));
        return true;
    }
    if (pos->king_square[pos->side_to_move] == SQ_NONE && k > 0) {
        add_problem(out, DIAG_ILLEGAL, "%s: the move is not legal here", variant_name(v));
        return true;
    }
    return false;
}

static PGNKIT_COLD void explain_illegal(const struct position *pos, const struct san *san,
                                 enum piece_type piece, struct san_outcome *out)
{
    enum color us = (enum color)pos->side_to_move;
    const char *who = color_names[us];
    const char *name = piece_names[piece];
    char target[48], to[3];
    describe_target(san, target, sizeof target);
    square_name(san->to, to);

    if (pos->variant && explain_variant(pos, san, piece, out))
        return;
    if (!rules_has_legal_move(pos)) {
        add_problem(out, DIAG_MOVE_AFTER_END, "the game is already over: %s is %s", who,
                    position_in_check(pos) ? "checkmated" : "stalemated");
        return;
    }
    uint8_t there = pos->board[san->to];
    if (there != PIECE_NONE && piece_color_of(there) == us) {
        add_problem(out, DIAG_ILLEGAL, "%s is occupied by a %s %s", to, who,
                    piece_names[piece_type_of(there)]);
        return;
    }
    if (piece == PAWN && is_last_rank(san->to) && !san->promo) {
        add_problem(out, DIAG_ILLEGAL, "a pawn reaching %s must promote (write %s=Q)", to, to);
        return;
    }
    if (san->promo == KING && pos->variant != VARIANT_ANTICHESS) {
        add_problem(out, DIAG_ILLEGAL, "a pawn promotes to a king only in Antichess");
        return;
    }
    if (san->promo && (piece != PAWN || !is_last_rank(san->to))) {
        add_problem(out, DIAG_ILLEGAL, "only a pawn reaching the last rank can promote");
        return;
    }
    bitboard own_of_kind = position_pieces(pos, us, piece);
    if (!own_of_kind) {
        bool theirs = position_pieces(pos, (enum color)!us, piece) != 0;
        add_problem(out, DIAG_ILLEGAL, "%s has no %s%s", who, name,
                    theirs ? " (it is not the other side's move)" : "");
        return;
    }
    bitboard origins = pseudo_origins(pos, piece, san->to, us) & hint_mask(san);
    if (!origins) {
        /* A transposed or skipped move often shows as the other side's move. */
        bool theirs = pseudo_origins(pos, piece, san->to, (enum color)!us) & hint_mask(san);
        add_problem(out, DIAG_ILLEGAL, "no %s %s can move %s%s%s%s", who, name, target,
                    theirs ? " (a " : "", theirs ? color_names[!us] : "",
                    theirs ? " one could: it is not its move)" : "");
        return;
    }
    int from = __builtin_ctzll(origins);
    char from_name[3];
    square_name(from, from_name);
    if (position_in_check(pos))
        add_problem(out, DIAG_ILLEGAL, "%s is in check, and the %s from %s to %s does not end it",
                    who, name, from_name, to);
    else if (piece == KING)
        add_problem(out, DIAG_ILLEGAL, "the king would be in check on %s", to);
    else if (pos->king_square[us] != SQ_NONE && (position_pinned(pos) & (1ULL << from)))
        add_problem(out, DIAG_ILLEGAL, "the %s on %s is pinned to its king", name, from_name);
    else if (piece == PAWN && san->to == pos->ep_square && pos->board[san->to] == PIECE_NONE)
        add_problem(out, DIAG_ILLEGAL,
                    "the pawn on %s cannot take en passant on %s: that would leave the %s "
                    "king in check",
                    from_name, to, who);
    else
        add_problem(out, DIAG_ILLEGAL, "the %s on %s cannot legally move to %s", name, from_name,
                    to);
}

/* ---- claims on the chosen move (SPEC §3.3) ---- */

static PGNKIT_COLD void check_claims(const struct san *san, struct move m, const struct played *p,
                              struct san_outcome *out)
{
    bool captures = (m.flags & MOVE_CAPTURE) != 0;
    if (san->capture && !captures)
        add_problem(out, DIAG_CAPTURE_SPURIOUS, "x written but the move captures nothing");
    if (!san->capture && captures && !san->piece_implicit) {
        if (san->piece == PAWN && san->from_file < 0)
            add_problem(out, DIAG_CAPTURE_MISSING,
                        "a pawn capture written without its origin file and x (%cx%c%c)",
                        'a' + square_file(m.from), 'a' + square_file(m.to),
                        '1' + square_rank(m.to));
        else
            add_problem(out, DIAG_CAPTURE_MISSING, "the move captures but no x is written");
    }
    if (san->ep && !(m.flags & MOVE_EN_PASSANT))
        add_problem(out, DIAG_EP_SPURIOUS, "e.p. written but the move is not en passant");
    if (p->mate) {
        if (!san->mate)
            add_problem(out, DIAG_MATE_MISSING, "the move %s but no # is written",
                        p->variant_win ? "wins the game by the variant's rule" : "checkmates");
        return;
    }
    if (san->mate) {
        add_problem(out, DIAG_MATE_SPURIOUS, "# written but the move %s",
                    p->checkers ? "only gives check" : "does not even give check");
        return;
    }
    if (p->checkers && !san->checks && !san->piece_implicit)
        add_problem(out, DIAG_CHECK_MISSING, "the move gives check but no + is written");
    else if (!p->checkers && san->checks)
        add_problem(out, DIAG_CHECK_SPURIOUS, "+ written but the move gives no check");
    else if (san->checks == 2 && p->checkers != 2)
        add_problem(out, DIAG_DOUBLE_CHECK_WRONG, "++ written but the move is a single check");
}

/* Every mark written is exactly what the move does (the usual token): check_claims()
 * would find nothing, so the per-ply path asks this first. */
_Static_assert(offsetof(struct san, from_rank) == offsetof(struct san, from_file) + 1,
               "quick_origin reads the two origin hints as two bytes in a row");
_Static_assert(offsetof(struct san, checks) == offsetof(struct san, capture) + 1 &&
                   offsetof(struct san, mate) == offsetof(struct san, capture) + 2 &&
                   offsetof(struct san, ep) == offsetof(struct san, capture) + 3,
               "claims_exact reads the marks x, +, #, e.p. as four bytes in a row");

static inline PGNKIT_HOT bool claims_exact(const struct san *san, struct move m, const struct played *p)
{
    bool captures = (m.flags & MOVE_CAPTURE) != 0;
    if (p->mate)
        return san->capture == captures && !san->ep && san->mate;
    /* The usual case's four marks compared at once. */
    const uint8_t want[4] = {captures, p->checkers != 0, 0, 0};
    return memcmp(&san->capture, want, sizeof want) == 0;
}

static PGNKIT_COLD void describe_lenient(unsigned lenient, struct san_outcome *out)
{
    static const char *const forms[] = {
        "0-0 castling with zeros", "promotion without =",    "promotion in parentheses",
        "promotion after /",       ": for capture",          "long algebraic notation",
        "a null move",             "a figurine piece",       "a lower-case piece letter",
        "a foreign piece letter",  "e.p. (outside the PGN export format)",
        "++ for double check (outside the PGN export format)",
        "an explicit pawn letter", "an annotation glyph after the move (kept as its NAG)",
        "castling with a lower-case o", "e.p. without its dots",
    };
    /* One text per enum san_lenient bit (the pawn letter's was missing: a token like Pe4
     * printed an uninitialised buffer; found by valgrind over the fuzz corpus). */
    _Static_assert(sizeof forms / sizeof *forms == 16, "a text for every san_lenient bit");
    char buf[160];
    buf[0] = '\0';
    size_t len = 0;
    for (unsigned i = 0; i < sizeof forms / sizeof *forms; i++) {
        if (!(lenient & (1u << i)))
            continue;
        int n = snprintf(buf + len, sizeof buf - len, "%s%s", len ? ", " : "", forms[i]);
        if (n < 0 || (size_t)n >= sizeof buf - len)
            break;
        len += (size_t)n;
    }
    add_problem(out, DIAG_NONSTANDARD, "non-standard notation accepted: %s", buf);
}

/* e.p. and ++ are the seeds' own notation: only --strict flags them (SPEC §3.1). */
static inline PGNKIT_HOT void note_lenient(const struct san *san, const struct san_options *opts,
                             struct san_outcome *out)
{
    unsigned lenient = opts->strict ? san->lenient
                                    : (unsigned)(san->lenient & ~SAN_LENIENT_STRICT_ONLY);
    if (lenient)
        describe_lenient(lenient, out);
}

/* ---- the resolution itself ---- */

static inline PGNKIT_HOT size_t write_disambiguation(const struct position *pos, struct move m,
                                       enum piece_type piece, char *dst);

/* --strict: more origin hints written than canonical SAN needs (Ngf3 for Nf3). */
static PGNKIT_COLD void check_over_disambiguation(const struct position *pos, const struct san *san,
                                           struct move m, struct san_outcome *out)
{
    int written = (san->from_file >= 0) + (san->from_rank >= 0);
    if (san->piece == PAWN && san->capture && san->from_file >= 0)
        written--; /* exd5: the file is part of every pawn capture */
    char needed[4];
    if (written > 0 &&
        (size_t)written > write_disambiguation(pos, m, (enum piece_type)san->piece, needed))
        add_problem(out, DIAG_OVER_DISAMBIGUATED, "the origin hint is not needed");
}

/* Ng1xf3, Qh4e1: a full origin square reads as long algebraic (SPEC §3.6) unless the
 * position needs both coordinates to tell the pieces apart. */
static PGNKIT_COLD void check_full_origin(const struct position *pos, const struct san *san, struct move m,
                                   struct san_outcome *out)
{
    char needed[4];
    if (write_disambiguation(pos, m, (enum piece_type)san->piece, needed) < 2)
        add_problem(out, DIAG_NONSTANDARD,
                    "non-standard notation accepted: long algebraic notation (the full origin "
                    "square is not needed)");
}

static void list_candidates(const struct position *pos, const struct move *cands, int n,
                            char *list, size_t cap)
{
    size_t len = 0;
    list[0] = '\0';
    for (int i = 0; i < n; i++) {
        char s[16];
        san_write(pos, cands[i], s);
        int w = snprintf(list + len, cap - len, "%s%s", i ? ", " : "", s);
        if (w < 0 || (size_t)w >= cap - len)
            break;
        len += (size_t)w;
    }
}

/* Several legal moves: keep those whose written claims hold, never skipping one.
 * Returns the index of the chosen candidate, or -1 (AMBIGUOUS reported). */
static PGNKIT_COLD int filter_by_claims(const struct position *pos, const struct san *san,
                                 const struct move *cands, int n, const struct san_options *opts,
                                 struct san_outcome *out)
{
    int kept = 0, first = -1;
    for (int i = 0; i < n; i++) {
        struct position after;
        struct played p = play_rules(pos, cands[i], &after, pos->variant != 0);
        if (claims_hold(san, cands[i], &p)) {
            kept++;
            if (first < 0)
                first = i;
        }
    }
    if (kept == 1) {
        add_problem(out, DIAG_UNDER_DISAMBIGUATED,
                    "%d legal moves fit; only the written x/+/#/e.p. decided", n);
        return first;
    }
    size_t shown = 0;
    for (; shown < (size_t)n && shown < SAN_MAX_CANDIDATES; shown++)
        out->candidates[shown] = cands[shown];
    out->candidate_count = (uint8_t)shown;
    char list[120];
    list_candidates(pos, cands, (int)shown, list, sizeof list);
    add_problem(out, DIAG_AMBIGUOUS, "ambiguous: %d legal moves fit (%s)%s", n, list,
                opts->lenient ? "; --lenient took the first" : "");
    if (!opts->lenient)
        return -1;
    /* Taken anyway: the same code, but a warning, so the game goes on. */
    out->problems[out->problem_count - 1].severity = DIAG_WARNING;
    return first >= 0 ? first : 0;
}

/* The chosen move m taken: played into out->after, the outcome filled, and the
 * written claims checked against it, and for a piece or pawn move written with its
 * letter (`lettered`) its origin hints too.  One body for choose_inline() and
 * resolve_quick(); inlined into both (`variant` is a constant in each copy, and
 * `lettered` in resolve_quick's, which takes only such moves). */
static inline PGNKIT_HOT void take_move(const struct position *pos, const struct san *san, struct move m,
                          const struct san_options *opts, struct san_outcome *out,
                          bool variant, bool lettered)
{
    struct played p = play_rules(pos, m, out->after, variant);
    out->move = m;
    out->ok = true;
    out->gives_check = p.checkers != 0;
    out->gives_mate = p.mate;
    if (!claims_exact(san, m, &p))
        check_claims(san, m, &p, out);
    if (!lettered)
        return;
    if (opts->strict)
        check_over_disambiguation(pos, san, m, out);
    else if (san->from_file >= 0 && san->from_rank >= 0 && san->piece != PAWN &&
             !(san->lenient & SAN_LENIENT_LONG))
        check_full_origin(pos, san, m, out);
}

static inline PGNKIT_HOT void choose_inline(const struct position *pos, const struct san *san,
                              const struct move *cands, int n, const struct san_options *opts,
                              struct san_outcome *out, bool variant)
{
    int pick = n == 1 ? 0 : filter_by_claims(pos, san, cands, n, opts, out);
    if (pick >= 0)
        take_move(pos, san, cands[pick], opts, out, variant,
                  san->kind == SAN_MOVE && !san->piece_implicit);
}

/* The rare callers (castling): one copy of the body out of line. */
static void choose(const struct position *pos, const struct san *san, const struct move *cands,
                   int n, const struct san_options *opts, struct san_outcome *out)
{
    choose_inline(pos, san, cands, n, opts, out, pos->variant != 0);
}

static void resolve_castle(const struct position *pos, const struct san *san,
                           const struct san_options *opts, struct san_outcome *out)
{
    enum castle_side side = san->kind == SAN_CASTLE_KING ? CASTLE_KING_SIDE : CASTLE_QUEEN_SIDE;
    struct move m;
    const char *why = NULL;
    if (!rules_castle(pos, side, &m, &why)) {
        if (!rules_has_legal_move(pos)) {
            add_problem(out, DIAG_MOVE_AFTER_END, "the game is already over: %s is %s",
                        color_names[pos->side_to_move],
                        position_in_check(pos) ? "checkmated" : "stalemated");
            return;
        }
        add_problem(out, DIAG_ILLEGAL, "%s cannot castle %s: %s", color_names[pos->side_to_move],
                    side == CASTLE_KING_SIDE ? "king-side" : "queen-side",
                    why ? why : "not legal");
        return;
    }
    choose(pos, san, &m, 1, opts, out);
}

/* Crazyhouse: N@f3, P@e4, @e4.  Legal when the piece is in the pocket, the square free
 * (pawns not on the 1st or 8th rank) and, in check, the drop blocks the single checker. */
static void resolve_drop(const struct position *pos, const struct san *san,
                         const struct san_options *opts, struct san_outcome *out)
{
    int us = pos->side_to_move;
    char to[3];
    square_name(san->to, to);
    if (pos->variant != VARIANT_CRAZYHOUSE) {
        add_problem(out, DIAG_ILLEGAL, "a drop (%c@%s) exists only in Crazyhouse",
                    piece_letters[san->piece], to);
        return;
    }
    struct move m = {san->to, san->to, san->piece, MOVE_DROP};
    if (variant_is_legal(pos, m)) {
        choose(pos, san, &m, 1, opts, out);
        return;
    }
    if (explain_variant_end(pos, out))
        return;
    if (!position_pocket(pos, us, san->piece))
        add_problem(out, DIAG_ILLEGAL, "Crazyhouse: %s has no %s in the pocket", color_names[us],
                    piece_names[san->piece]);
    else if (pos->board[san->to] != PIECE_NONE)
        add_problem(out, DIAG_ILLEGAL, "Crazyhouse: a drop needs an empty square, and %s is "
                    "occupied", to);
    else if (san->piece == PAWN && is_last_rank(san->to))
        add_problem(out, DIAG_ILLEGAL, "Crazyhouse: no pawn drop on the 1st or 8th rank");
    else
        add_problem(out, DIAG_ILLEGAL, "Crazyhouse: %s is in check, and a drop on %s does not "
                    "block it", color_names[us], to);
}

static void resolve_null(const struct position *pos, struct san_outcome *out)
{
    if (position_in_check(pos)) {
        add_problem(out, DIAG_ILLEGAL, "a null move is not possible while in check");
        return;
    }
    struct move m = {0, 0, 0, MOVE_NULL};
    out->move = m;
    *out->after = *pos;
    rules_do_move(out->after, m);
    out->ok = true;
    out->gives_check = position_in_check(out->after);
    out->gives_mate = false;
}

/*
 * A king move that is castling written as a king move: two squares (Kg1, Kc1), or onto
 * its own rook (Kh1, Kxh1, and Chess960's king-takes-rook).  Some programs write it; it
 * is castling, never silently: a NONSTANDARD warning, and under --strict an error.  Long
 * algebraic without a letter (e1g1, e1h1: UCI's own spelling) has its LONG warning.
 */
static PGNKIT_COLD void resolve_king_castle(const struct position *pos, const struct san *san,
                                     struct move castle, const struct san_options *opts,
                                     struct san_outcome *out)
{
    if (!san->piece_implicit) {
        const char *side = castle.to > castle.from ? "O-O" : "O-O-O";
        if (opts->strict) {
            add_problem(out, DIAG_ILLEGAL,
                        "a king cannot move %s: castling is written %s (--strict)",
                        /* castle.to is the rook's square (moves are king-takes-rook) */
                        san->to == castle.to ? "onto its own rook" : "two squares",
                        side);
            return;
        }
        add_problem(out, DIAG_NONSTANDARD,
                    "non-standard notation accepted: castling written as a king move, read as %s",
                    side);
    }
    choose(pos, san, &castle, 1, opts, out);
}

/* Whether any of the side's pieces of that kind could reach the square, pins aside. */
static bool could_reach(const struct position *pos, enum piece_type piece, const struct san *san)
{
    return pseudo_origins(pos, piece, san->to, (enum color)pos->side_to_move) & hint_mask(san);
}

/*
 * A lower-case b whose pawn reading has no legal move (san.h's b rule): the bishop
 * reading, which has no hint (the b is its letter).  If that fails too, the reason given
 * is the pawn's (pinned, en passant exposing the king, must promote, ...), and the
 * bishop's is added only when a bishop could have reached the square at all.
 */
static PGNKIT_COLD void resolve_lower_b_as_bishop(const struct position *pos, const struct san *san,
                                           const struct san_options *opts,
                                           struct san_outcome *out)
{
    struct san bishop = *san;
    bishop.piece = BISHOP;
    bishop.from_file = -1;
    bishop.from_rank = -1;
    struct move cands[MAX_MOVES];
    int n = collect(pos, BISHOP, &bishop, cands, pos->variant != 0);
    if (n > 0) {
        choose(pos, &bishop, cands, n, opts, out);
        return;
    }
    explain_illegal(pos, san, PAWN, out);
    if (!could_reach(pos, BISHOP, &bishop) || out->problem_count == 0)
        return;
    struct san_outcome as_bishop;
    as_bishop.problem_count = 0;
    explain_illegal(pos, &bishop, BISHOP, &as_bishop);
    struct san_problem *p = &out->problems[out->problem_count - 1];
    size_t len = strlen(p->message);
    if (as_bishop.problem_count)
        snprintf(p->message + len, sizeof p->message - len, "; read as a bishop move: %s",
                 as_bishop.problems[0].message);
}

/* The resolution, once per rule set: `variant` is a constant in each copy. */
static inline PGNKIT_HOT void resolve(const struct position *pos, const struct san *san,
                        const struct san_options *opts, struct san_outcome *out, bool variant)
{
    out->ok = false;
    out->problem_count = 0;
    out->candidate_count = 0;
    note_lenient(san, opts, out);
    if (san->kind == SAN_NULL) {
        resolve_null(pos, out);
        return;
    }
    if (san->kind != SAN_MOVE) {
        if (san->kind == SAN_DROP)
            resolve_drop(pos, san, opts, out);
        else
            resolve_castle(pos, san, opts, out);
        return;
    }
    enum piece_type piece = san->piece_implicit ? implicit_piece(pos, san)
                                                : (enum piece_type)san->piece;
    struct move cands[MAX_MOVES];
    if (piece == KING) {
        struct move castle;
        if (king_move_as_castle(pos, san, &castle)) {
            resolve_king_castle(pos, san, castle, opts, out);
            return;
        }
    }
    int n = collect(pos, piece, san, cands, variant);
    if (n == 0 && san->maybe_bishop) {
        resolve_lower_b_as_bishop(pos, san, opts, out);
        return;
    }
    if (n == 0) {
        explain_illegal(pos, san, piece, out);
        return;
    }
    if (piece == san->piece) {
        choose_inline(pos, san, cands, n, opts, out, variant);
        return;
    }
    struct san resolved = *san; /* the board named the piece (e2e4, or b meaning a bishop) */
    resolved.piece = (uint8_t)piece;
    choose(pos, &resolved, cands, n, opts, out);
}

static PGNKIT_NOINLINE void resolve_variant(const struct position *pos, const struct san *san,
                                     const struct san_options *opts, struct san_outcome *out)
{
    resolve(pos, san, opts, out, true);
}

/* ---- the usual move, decided without a candidate list ---- */

/*
 * The origin of a piece or pawn move in standard chess when it alone fits and nothing
 * can make it illegal short of a pin: its own side not in double check (kings aside: a
 * king step is tested on its square), no en passant, no castling named, and no promotion
 * written (the callers' test: san.plain already says so for the per-ply path).
 * Returns the origin, or -1 when the general resolution must decide (no piece, several,
 * a pin, a special move): it then finds the same single candidate or says why not.
 */
static inline PGNKIT_HOT int quick_origin(const struct position *pos, const struct san *san, uint8_t *flags)
{
    int us = pos->side_to_move, to = san->to;
    bitboard own = pos->by_color[us], enemy = pos->by_color[us ^ 1], occ = own | enemy;
    enum piece_type t = (enum piece_type)san->piece;
    if (bb_has(own, to))
        return -1;
    *flags = bb_has(enemy, to) ? MOVE_CAPTURE : 0;
    bitboard mine = own & pos->by_type[t];
    /* Most tokens have no origin hint: both hint bytes -1, tested at once. */
    uint16_t hints;
    memcpy(&hints, &san->from_file, sizeof hints);
    if (hints != 0xffff)
        mine &= hint_mask(san);
    if (t == KING) {
        /* king_move_as_castle() reads a king move as castling only with a right left,
         * and only onto the right's rook (an own piece: refused above) or, in standard
         * chess, onto the c- or g-file: those go to the general path, other king moves
         * (whose rights pos_do_plain clears) stay here. */
        bool rights = (pos->castle_rook[us][0] & pos->castle_rook[us][1]) != SQ_NONE;
        if ((rights && (square_file(to) | 4) == 6) || !(att_king(to) & mine))
            return -1;
        int ksq = pos->king_square[us];
        if (pos_attackers(pos, to, us ^ 1, occ ^ bb_square(ksq)))
            return -1;
        return ksq;
    }
    /* In check (from one piece): a move other than the king's is legal exactly when it
     * would be out of check and lands on the checker or between it and the king.  An
     * evasion is one ply in thirteen of lichess games; double check is the general path's. */
    if (pos->checkers &&
        (bb_many(pos->checkers) ||
         !bb_has(pos->checkers | att_between(pos->king_square[us], bb_lsb(pos->checkers)), to)))
        return -1;
    bitboard froms;
    if (t != PAWN) {
        /* The pieces of the kind that reach the square on an empty board (a knight's
         * jumps exactly): one alone reaches it when nothing stands between, which spares
         * the slider lookup and its jump on the piece type.  Several: the lookup tells
         * which are blocked. */
        froms = att_reach(t, to) & mine;
        if (!froms)
            return -1;
        if (bb_many(froms))
            froms = att_piece(t, to, occ) & mine;
        else if (att_between(bb_lsb(froms), to) & occ)
            return -1;
    } else {
        int up = us == WHITE ? 8 : -8;
        if (is_last_rank(to) || to == pos->ep_square)
            return -1;
        if (*flags) {
            froms = att_pawn(us ^ 1, to) & mine;
        } else if (bb_has(mine, to - up)) {
            froms = bb_square(to - up);
        } else if (!bb_has(occ, to - up) && square_rank(to) == (us == WHITE ? 3 : 4) &&
                   bb_has(mine, to - 2 * up)) {
            froms = bb_square(to - 2 * up);
            *flags = MOVE_DOUBLE_PUSH;
        } else {
            return -1;
        }
    }
    if (!froms || bb_many(froms))
        return -1;
    int from = bb_lsb(froms);
    if (pinned_away(pos, pos->king_square[us], from, to, occ, enemy, sliders_of(pos, enemy)))
        return -1;
    return from;
}

/* Standard chess's plain SAN move with one legal candidate, or its legal castling:
 * choose_inline()'s work for that candidate, without collecting it.  False: nothing
 * written but out->after's scratch, and resolve() decides. */
static inline PGNKIT_HOT bool resolve_quick(const struct position *pos, const struct san *san,
                              const struct san_options *opts, struct san_outcome *out)
{
    unsigned lenient = opts->strict ? san->lenient
                                    : (unsigned)(san->lenient & ~SAN_LENIENT_STRICT_ONLY);
    if (lenient)
        return false;
    if (san->kind == SAN_CASTLE_KING || san->kind == SAN_CASTLE_QUEEN) {
        /* resolve_castle()'s work when castling is legal; resolve() says why not. */
        struct move m;
        enum castle_side side = san->kind == SAN_CASTLE_KING ? CASTLE_KING_SIDE
                                                              : CASTLE_QUEEN_SIDE;
        if (!movegen_castle(pos, side, &m, NULL))
            return false;
        out->problem_count = 0;
        out->candidate_count = 0;
        take_move(pos, san, m, opts, out, false, false);
        return true;
    }
    if (san->kind != SAN_MOVE || san->piece_implicit || san->promo)
        return false;
    uint8_t flags;
    int from = quick_origin(pos, san, &flags);
    if (from < 0)
        return false;
    struct move m = {(uint8_t)from, san->to, 0, flags};
    out->problem_count = 0;
    out->candidate_count = 0;
    take_move(pos, san, m, opts, out, false, true);
    return true;
}

/* One test per move picks the copy: standard chess's never asks about variants again. */
void san_resolve(const struct position *pos, const struct san *san,
                 const struct san_options *opts, struct san_outcome *out)
{
    if (pos->variant)
        resolve_variant(pos, san, opts, out);
    else if (!resolve_quick(pos, san, opts, out))
        resolve(pos, san, opts, out, false);
}

/* ---- the usual move, played in place ---- */

/*
 * resolve_quick()'s piece or pawn move, for the replay's per-ply path, which plays it
 * without play()'s copy of the position (160 bytes a ply) and without the tests
 * san_resolve() makes on the way there.  The same move and the same outcome: only the
 * cases where take_move() would check no origin hint (not --strict, the caller's test;
 * no full origin square) and the capture mark is right are taken here, so the only
 * problems left are the check and mate marks' (san_quick_outcome).
 */
bool san_quick_move(const struct position *pos, const struct san *san, struct move *m)
{
    if (!san->plain)
        return false;
    uint8_t flags;
    int from = quick_origin(pos, san, &flags);
    if (from < 0 || san->capture != (flags & MOVE_CAPTURE))
        return false;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* One word: the caller keeps the move in one register and stores it whole (the undo,
     * the mainline), not a byte pair and the flags apart. */
    uint32_t word = (uint32_t)from | (uint32_t)san->to << 8 | (uint32_t)flags << 24;
    memcpy(m, &word, sizeof *m);
#else
    *m = (struct move){(uint8_t)from, san->to, 0, flags};
#endif
    return true;
}

/* The undo's state block: from checkers through the king squares, short of the full
 * move number (which san_unplay_quick() counts back itself). */
_Static_assert(offsetof(struct position, king_square) + sizeof(((struct position *)0)->king_square) <=
                   offsetof(struct position, checkers) + QUICK_UNDO_STATE &&
               offsetof(struct position, checkers) + QUICK_UNDO_STATE <=
                   offsetof(struct position, fullmove_number),
               "quick_undo.state covers checkers to king_square, not fullmove_number");

struct quick_played san_play_in_place_lazy(struct position *pos, struct move m,
                                           struct quick_undo *undo)
{
    memcpy(undo->state, &pos->checkers, QUICK_UNDO_STATE);
    undo->move = m;
    undo->victim = pos->board[m.to];
    pos_do_plain(pos, m); /* san_quick_move's move: plain, a double step flagged */
    struct quick_played p;
    p.checkers = __builtin_popcountll(pos->checkers);
    p.mate = false;
    return p;
}

bool san_quick_mated(const struct position *pos)
{
    return pos->checkers && !position_has_legal_move(pos);
}

struct quick_played san_play_in_place(struct position *pos, struct move m,
                                      struct quick_undo *undo)
{
    struct quick_played p = san_play_in_place_lazy(pos, m, undo);
    p.mate = san_quick_mated(pos);
    return p;
}

bool san_quick_claims_exact(const struct san *san, struct move m, struct quick_played q)
{
    struct played p = {q.checkers, q.mate, false};
    if (q.mate)
        return claims_exact(san, m, &p);
    /* san_quick_move() found the capture mark right: the marks + # e.p. are left, to be
     * {gives check, 0, 0}, the three bytes after x (claims_exact's four) at once. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t marks;
    memcpy(&marks, &san->capture, sizeof marks);
    return marks >> 8 == (uint32_t)(q.checkers != 0);
#else
    return san->checks == (q.checkers != 0) && !san->mate && !san->ep;
#endif
}

/* take_move()'s outcome for it: the claims checked (check_claims). */
__attribute__((cold)) void san_quick_outcome(const struct san *san, struct move m,
                                             struct quick_played q, struct san_outcome *out)
{
    struct played p = {q.checkers, q.mate, false};
    out->move = m;
    out->ok = true;
    out->gives_check = p.checkers != 0;
    out->gives_mate = p.mate;
    out->problem_count = 0;
    out->candidate_count = 0;
    if (!claims_exact(san, m, &p))
        check_claims(san, m, &p, out);
}

/* pos_move_pieces() backwards for a plain move: the mover back on move.from, the
 * victim (if any) back on move.to, and the fields the move overwrote. */
__attribute__((cold)) void san_unplay_quick(struct position *before, const struct position *after,
                      const struct quick_undo *undo)
{
    struct move m = undo->move;
    int us = after->side_to_move ^ 1;
    uint8_t piece = after->board[m.to], victim = undo->victim;
    bitboard ft = bb_square(m.from) | bb_square(m.to);
    *before = *after;
    before->board[m.from] = piece;
    before->board[m.to] = victim;
    before->by_type[piece_type_of(piece)] ^= ft;
    before->by_color[us] ^= ft;
    if (victim != PIECE_NONE) {
        before->by_type[piece_type_of(victim)] |= bb_square(m.to);
        before->by_color[us ^ 1] |= bb_square(m.to);
    }
    before->fullmove_number -= (uint32_t)us;
    /* The checkers, clocks, side to move, e.p. square, castling rooks, king squares. */
    memcpy(&before->checkers, undo->state, QUICK_UNDO_STATE);
}

/* ---- canonical SAN ---- */

/* Which of the rivals (other pieces of the kind attacking m.to) could legally move
 * there: out of check in standard chess, those not pinned away from the line (a piece
 * move has no promotion and no en passant); else the generator's list. */
static PGNKIT_NOINLINE bitboard legal_rivals(const struct position *pos, struct move m,
                                      enum piece_type piece, bitboard rivals)
{
    if (!pos->variant && !pos->checkers) {
        int us = pos->side_to_move, ksq = pos->king_square[us];
        bitboard enemy = pos->by_color[us ^ 1], occ = position_occupied(pos);
        bitboard sliders = sliders_of(pos, enemy), legal = 0;
        while (rivals) {
            int from = bb_pop(&rivals);
            if (!pinned_away(pos, ksq, from, m.to, occ, enemy, sliders))
                legal |= bb_square(from);
        }
        return legal;
    }
    struct move others[MAX_MOVES];
    int n = rules_legal_to(pos, piece, m.to, ~(bitboard)0, others);
    bitboard legal = 0;
    for (int i = 0; i < n; i++)
        if (others[i].from != m.from && others[i].promo == m.promo)
            legal |= bb_square(others[i].from);
    return legal;
}

static inline PGNKIT_HOT size_t write_disambiguation(const struct position *pos, struct move m,
                                       enum piece_type piece, char *dst)
{
    /* A rival must at least attack the square: usually none does, and then no legal
     * move list is needed (in every variant too: a legal move is such an attack). */
    bitboard rivals = att_piece(piece, m.to, position_occupied(pos)) &
                      position_pieces(pos, (enum color)pos->side_to_move, piece) &
                      ~(1ULL << m.from);
    if (!rivals || !(rivals = legal_rivals(pos, m, piece, rivals)))
        return 0;
    bool same_file = rivals & bb_file(square_file(m.from));
    bool same_rank = rivals & bb_rank(square_rank(m.from));
    size_t len = 0;
    if (!same_file)
        dst[len++] = (char)('a' + square_file(m.from));
    else if (!same_rank)
        dst[len++] = (char)('1' + square_rank(m.from));
    else {
        dst[len++] = (char)('a' + square_file(m.from));
        dst[len++] = (char)('1' + square_rank(m.from));
    }
    return len;
}

/* The SAN of m without its check mark; returns its length. */
static size_t write_unmarked(const struct position *pos, struct move m, char *dst)
{
    size_t len = 0;
    if (m.flags & MOVE_DROP) {
        dst[len++] = piece_letters[m.promo % PIECE_TYPE_COUNT]; /* lichess writes P@e4 */
        dst[len++] = '@';
        dst[len++] = (char)('a' + square_file(m.to));
        dst[len++] = (char)('1' + square_rank(m.to));
    } else if (m.flags & MOVE_CASTLE) {
        const char *s = m.to > m.from ? "O-O" : "O-O-O";
        len = strlen(s);
        memcpy(dst, s, len);
    } else {
        enum piece_type piece = piece_type_of(pos->board[m.from]);
        if (piece == PAWN) {
            if (m.flags & MOVE_CAPTURE) {
                dst[len++] = (char)('a' + square_file(m.from));
                dst[len++] = 'x';
            }
        } else {
            dst[len++] = piece_letters[piece];
            len += write_disambiguation(pos, m, piece, dst + len);
            if (m.flags & MOVE_CAPTURE)
                dst[len++] = 'x';
        }
        dst[len++] = (char)('a' + square_file(m.to));
        dst[len++] = (char)('1' + square_rank(m.to));
        if (m.promo) {
            dst[len++] = '=';
            dst[len++] = piece_letters[m.promo];
        }
    }
    return len;
}

size_t san_write(const struct position *pos, struct move m, char *dst)
{
    if (m.flags & MOVE_NULL) {
        memcpy(dst, "--", 3);
        return 2;
    }
    size_t len = write_unmarked(pos, m, dst);
    struct position after = *pos;
    if (pos->variant) {
        struct played p = play_variant(m, &after);
        if (p.mate || p.checkers)
            dst[len++] = p.mate ? '#' : '+';
        dst[len] = '\0';
        return len;
    }
    position_do_move(&after, m);
    if (position_in_check(&after))
        dst[len++] = position_has_legal_move(&after) ? '+' : '#';
    dst[len] = '\0';
    return len;
}

size_t san_write_marked(const struct position *pos, struct move m, char mark, char *dst)
{
    if (m.flags & MOVE_NULL) {
        memcpy(dst, "--", 3);
        return 2;
    }
    size_t len = write_unmarked(pos, m, dst);
    if (mark)
        dst[len++] = mark;
    dst[len] = '\0';
    return len;
}
