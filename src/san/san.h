/**
 * san.h - SAN syntax: one token's text to its parts, with no board.
 *
 * The grammar is one PCRE2 pattern with named groups, compiled and JIT-compiled
 * (interpreter fallback where JIT is unavailable) once per process and letter set when a
 * token first needs it (shared, immutable once made: matchers are cheap to create).  A small cache from token bytes to decoded parts sits in front of the
 * regex, because real games repeat a few thousand distinct tokens, and the plain SAN
 * spellings that miss it are decoded without the regex, to the parts it gives them
 * (tests check the two agree); the regex stays the only definition of the grammar.
 * Resolving the parts to a move on a board is san_resolve.h's job.
 *
 * A matcher is not thread-safe (match data and cache are per matcher): give each
 * thread its own.  Matchers on different threads may be made, used and freed at once
 * (the shared pattern is made and JIT-compiled under a lock).
 */
#ifndef PGNKIT_SAN_H
#define PGNKIT_SAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/diag.h"
#include "board/types.h"

enum san_kind {
    SAN_MOVE = 0,       /* piece or pawn move: piece, hints, to, promo */
    SAN_CASTLE_KING,    /* O-O */
    SAN_CASTLE_QUEEN,   /* O-O-O */
    SAN_NULL,           /* -- or Z0 */
    SAN_DROP,           /* Crazyhouse drop: N@f3, P@e4, @e4 (piece, to) */
};

/* Which non-standard spellings a token used (each one is a DIAG_NONSTANDARD warning). */
enum san_lenient {
    SAN_LENIENT_ZERO_CASTLE = 1 << 0,   /* 0-0, 0-0-0 */
    SAN_LENIENT_PROMO_NO_EQ = 1 << 1,   /* e8Q */
    SAN_LENIENT_PROMO_PAREN = 1 << 2,   /* e8(Q) */
    SAN_LENIENT_PROMO_SLASH = 1 << 3,   /* e8/Q */
    SAN_LENIENT_COLON = 1 << 4,         /* : for capture */
    SAN_LENIENT_LONG = 1 << 5,          /* e2e4, e2-e4, Ng1-f3, Ng1xf3 */
    SAN_LENIENT_NULL = 1 << 6,          /* -- or Z0 */
    SAN_LENIENT_FIGURINE = 1 << 7,      /* ♘f3 */
    SAN_LENIENT_LOWER_PIECE = 1 << 8,   /* nf3, lower-case promotion piece */
    SAN_LENIENT_FOREIGN = 1 << 9,       /* piece letters of another language */
    SAN_LENIENT_EP_MARK = 1 << 10,      /* e.p. written (standard SAN has none) */
    SAN_LENIENT_DOUBLE_CHECK = 1 << 11, /* ++ */
    SAN_LENIENT_PAWN_LETTER = 1 << 12,  /* Pe4, Pxd5: an explicit pawn letter */
    SAN_LENIENT_GLYPH = 1 << 13,        /* e4+-, Nf3N: a glyph other than ! ? after the move */
    SAN_LENIENT_LOWER_CASTLE = 1 << 14, /* o-o, O-o, o-o-o: castling with a lower-case o */
    SAN_LENIENT_EP_SPELLING = 1 << 15,  /* exf6ep, exf6e.p: e.p. without its dots */
};

/* The marks that are the seeds' own notation (SPEC §3.1): clean when true, flagged as
 * outside the PGN export format only under --strict (san_resolve). */
#define SAN_LENIENT_STRICT_ONLY (SAN_LENIENT_EP_MARK | SAN_LENIENT_DOUBLE_CHECK)

/** The parts of one move token.  -1 in a hint means "not written". */
struct san {
    uint8_t kind;          /* enum san_kind */
    uint8_t piece;         /* enum piece_type; PAWN for pawn moves */
    uint8_t piece_implicit;/* long algebraic without a letter (e2e4): the board decides */
    uint8_t maybe_bishop;  /* lower-case 'b' start: pawn first, bishop if no pawn fits */
    int8_t from_file;      /* 0..7 or -1 */
    int8_t from_rank;      /* 0..7 or -1 */
    uint8_t to;            /* destination square (SAN_MOVE) */
    uint8_t promo;         /* KNIGHT..QUEEN, or 0 */
    uint8_t capture;       /* x or : written */
    uint8_t checks;        /* number of + written (0, 1, 2) */
    uint8_t mate;          /* # written */
    uint8_t ep;            /* e.p. written */
    uint8_t suffix_len;    /* bytes of a trailing annotation glyph (san_glyph_nag()) */
    /* Set by the decoder: a plain piece or pawn move (SAN_MOVE, its piece named or a
     * pawn, nothing lenient, no promotion, no full origin square of a piece), the per-ply
     * path's one test of the token (san_quick_move) rather than four. */
    uint8_t plain;
    uint16_t lenient;      /* enum san_lenient bits */
};

/** Piece letter sets for --piece-letters. */
enum san_letters {
    SAN_LETTERS_ENGLISH = 0, /* KQRBN(P) */
    SAN_LETTERS_GERMAN,      /* KDTLS(B) */
    SAN_LETTERS_FRENCH,      /* RDTFC(P) */
    SAN_LETTERS_SPANISH,     /* RDTAC(P) */
    SAN_LETTERS_DUTCH,       /* KDTLP (P = paard, the knight); pawns have no letter */
};

/* Options of san_matcher_new_ex(); san_matcher_new() uses none. */
enum san_matcher_flags {
    SAN_MATCHER_NO_JIT = 1 << 0,   /* always use the PCRE2 interpreter */
    SAN_MATCHER_NO_CACHE = 1 << 1, /* no cache: every token is decoded anew */
    SAN_MATCHER_REGEX_ONLY = 1 << 2, /* every token decoded goes to the regex: no shortcut
                                      * for the plain SAN spellings (tests compare them) */
};

struct san_matcher;

/**
 * A matcher for the given extra letter set (English letters are always accepted).  It
 * cannot fail (err is kept for callers written when it could): the pattern is compiled
 * when a token first needs it, and should PCRE2 refuse it then (a bug, or PCRE2 out of
 * memory; never user input) such tokens are refused and san_matcher_error() says why.
 * Free with san_matcher_free().
 */
struct san_matcher *san_matcher_new(enum san_letters letters, struct diag *err);
/** san_matcher_new() with enum san_matcher_flags (tests and benchmarks). */
struct san_matcher *san_matcher_new_ex(enum san_letters letters, unsigned flags,
                                       struct diag *err);
/** Free a matcher; NULL is a no-op. */
void san_matcher_free(struct san_matcher *m);

/** Parse a san_letters name ("english", "german", "french", "spanish", "dutch"); -1 if unknown. */
int san_letters_from_name(const char *name);

/**
 * Decode tok[0..len) into *out.  Returns 0, or -1 when the token is no move in any
 * accepted notation (the caller reports DIAG_SYNTAX naming the token).  The token is
 * borrowed; *out is fully written on success (castling: piece KING, to SQ_NONE; null
 * move: piece NO_PIECE_TYPE, to SQ_NONE).  The exact grammar is the comment above
 * build_pattern() in src/san/san.c; the decisions that matter to callers:
 *
 *  - Lower-case b is a pawn first: a token starting with 'b' that reads as a pawn move
 *    is one (b4, bxc3, bc3, b2b4, bxa8=Q), with maybe_bishop = 1 when it also reads as
 *    a bishop move and is not long algebraic (bxc3, bc3).  Only when no pawn reading
 *    exists is it a bishop move with SAN_LENIENT_LOWER_PIECE: bb5, bd3, bxe5, bc1-g5
 *    (a pawn's file hint must name a neighbouring file, so bb5 is no pawn move).
 *  - Other lower-case piece letters (n q r k) are accepted with SAN_LENIENT_LOWER_PIECE,
 *    as are lower-case promotion letters (e7e8q).
 *  - An explicit pawn letter (Pe4, Pexd5, ♙e4) is accepted with SAN_LENIENT_PAWN_LETTER,
 *    as python-chess and pgn-extract accept it.
 *  - Foreign letters: the selected language wins for its letters (German B = pawn,
 *    French/Spanish R = king, Dutch P = knight); all other English letters stay valid.
 *    SAN_LENIENT_FOREIGN is set when a letter took a meaning English does not give it.
 *  - SAN_LENIENT_LONG is set for a '-' between squares (Ng1-f3, e2-e4) and for a full
 *    origin square without a piece letter (e2e4, g1f3, e4xd5: piece_implicit = 1,
 *    piece = PAWN, the board names the piece).  Ng1xf3 and Qh4e1 are SAN with both
 *    hints, so they get no LONG bit: whether the hints were needed is the board's
 *    question (DIAG_OVER_DISAMBIGUATED).
 *  - Promotion is only written on a pawn move to rank 1 or 8 (e4=Q, Nf8=Q: -1).
 */
int san_decode(struct san_matcher *m, const char *tok, size_t len, struct san *out);

/**
 * A hint that tok will be decoded soon: starts loading its cache slot, so that the
 * load overlaps other work (the cache is larger than L1).  No effect on results.
 */
void san_prefetch(const struct san_matcher *m, const char *tok, size_t len);

/**
 * The NAG an annotation glyph stands for, or 0 when tok[0..len) is none: ! ? !! ?? !? ?!
 * ($1..$6), = ($10), ∞ ($13), += ⩲ ($14), =+ ⩱ ($15), ± ($16), ∓ ($17), +- ($18),
 * -+ ($19), □ ($7), ⨀ ($22), Δ ∆ ($140), N ($146).  A glyph written as its own word
 * is an annotation (game.c), and after a move it is the move's suffix (san.c's grammar
 * knows the same list).
 */
int san_glyph_nag(const char *tok, size_t len);

/**
 * Whether tok[0..len) is an en passant mark written as its own word after a move
 * ("exd6 e.p."): e.p. itself, or with *nonstandard set, ep / e.p / ep.
 */
bool san_is_ep_mark(const char *tok, size_t len, bool *nonstandard);

/** Whether the JIT is in use (for diagnostics of the tool itself).  The pattern is
 * compiled when a token first needs the regex; asked before that, this compiles it. */
int san_matcher_jit(const struct san_matcher *m);

/**
 * The PCRE2 pattern this matcher compiled (NUL-terminated, owned by the matcher, valid
 * until san_matcher_free()), compiling it if no token needed it yet; NULL if PCRE2
 * refused it (san_matcher_error()).  For --version style diagnostics and the docs.
 */
const char *san_matcher_pattern(const struct san_matcher *m);

/**
 * Why the matcher's pattern did not compile when a token first needed it (a bug, or
 * PCRE2 out of memory: every token needing the regex is then refused, -1, as if it were
 * no move), or NULL: not needed yet, or compiled.  A caller that must tell a broken
 * matcher from bad input asks this after a refusal.
 */
const struct diag *san_matcher_error(const struct san_matcher *m);

/** Cache counters since san_matcher_new(): lookups answered by the cache, and not. */
void san_matcher_cache_stats(const struct san_matcher *m, uint64_t *hits, uint64_t *misses);

/*
 * Whether tok[0, len) is an en passant mark written as its own word after a move ("exd6
 * e.p."): 1 for the standard e.p., 2 for ep, e.p and ep. (non-standard), 0 for anything
 * else.  The reader ends no part between a move and such a mark (pgn_reader.h), so it
 * asks this too; san_is_ep_mark() is this test.  Inline: the replay asks it per move.
 */
static inline int ep_mark_spelling(const char *tok, size_t len)
{
    /* Every spelling is 2 to 4 bytes from an 'e': one test turns nearly every move away
     * (the replay asks this after each move followed by a move). */
    if (len - 2 > 2 || tok[0] != 'e')
        return 0;
    switch (len) {
    case 2:
        return memcmp(tok, "ep", 2) == 0 ? 2 : 0;
    case 3:
        return memcmp(tok, "e.p", 3) == 0 || memcmp(tok, "ep.", 3) == 0 ? 2 : 0;
    case 4:
        return memcmp(tok, "e.p.", 4) == 0;
    default:
        return 0;
    }
}

#endif
