/* san.c - SAN syntax: the text of one move token to its parts (struct san), no board.
 *
 * Owns the token grammar (one anchored PCRE2 pattern, built from the letter set),
 * the per-matcher JIT/interpreter choice and the token cache.  It does not know the
 * position: which piece really moves, legality and the truth of x + # e.p. are
 * san_resolve's job.  See the comment above build_pattern() for the grammar.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "san/san.h"

#include <pcre2.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "san/san_internal.h"
#include "base/xalloc.h"

/* ---- letters ------------------------------------------------------------------------ */

enum { NO_TYPE = -1 };

/* What one byte means as a piece letter, and the lenient bits it costs. */
struct letter {
    int8_t type;     /* enum piece_type, or NO_TYPE */
    uint16_t lenient;
};

struct foreign_letter {
    char c;
    enum piece_type type;
};

/*
 * The other languages, as pgn-extract's is_piece() knows them.  Where a letter is also
 * an English one with another meaning, the selected language wins for that letter:
 * German B is Bauer (pawn), not bishop; French and Spanish R is roi/rey (king), not
 * rook; Dutch P is paard (knight), not an explicit pawn.  Every other English letter
 * stays accepted.
 */
static const struct foreign_letter german[] = {
    {'K', KING}, {'D', QUEEN}, {'T', ROOK}, {'L', BISHOP}, {'S', KNIGHT}, {'B', PAWN}, {0, 0}};
static const struct foreign_letter french[] = {
    {'R', KING}, {'D', QUEEN}, {'T', ROOK}, {'F', BISHOP}, {'C', KNIGHT}, {'P', PAWN}, {0, 0}};
static const struct foreign_letter spanish[] = {
    {'R', KING}, {'D', QUEEN}, {'T', ROOK}, {'A', BISHOP}, {'C', KNIGHT}, {'P', PAWN}, {0, 0}};
static const struct foreign_letter dutch[] = {
    {'K', KING}, {'D', QUEEN}, {'T', ROOK}, {'L', BISHOP}, {'P', KNIGHT}, {0, 0}};

static const char *const letters_names[] = {"english", "german", "french", "spanish", "dutch"};

int san_letters_from_name(const char *name)
{
    for (size_t i = 0; i < sizeof(letters_names) / sizeof(letters_names[0]); i++)
        if (strcasecmp(name, letters_names[i]) == 0)
            return (int)i;
    return -1;
}

static void letters_init(struct letter *tab, enum san_letters set)
{
    static const char english[] = "KQRBN";
    static const enum piece_type english_type[] = {KING, QUEEN, ROOK, BISHOP, KNIGHT};
    const struct foreign_letter *extra = NULL;

    for (int c = 0; c < 256; c++)
        tab[c] = (struct letter){NO_TYPE, 0};
    for (int i = 0; english[i]; i++) {
        tab[(unsigned char)english[i]] = (struct letter){(int8_t)english_type[i], 0};
        /* Lower case: n q r k b.  'b' is only ever a promotion letter in the pattern;
         * as a leading piece letter it goes through the b-rule in san_decode(). */
        tab[(unsigned char)english[i] + ('a' - 'A')] =
            (struct letter){(int8_t)english_type[i], SAN_LENIENT_LOWER_PIECE};
    }
    tab['P'] = (struct letter){PAWN, SAN_LENIENT_PAWN_LETTER};

    switch (set) {
    case SAN_LETTERS_GERMAN: extra = german; break;
    case SAN_LETTERS_FRENCH: extra = french; break;
    case SAN_LETTERS_SPANISH: extra = spanish; break;
    case SAN_LETTERS_DUTCH: extra = dutch; break;
    case SAN_LETTERS_ENGLISH: break;
    }
    for (; extra && extra->c; extra++) {
        struct letter *l = &tab[(unsigned char)extra->c];
        if (l->type == (int8_t)extra->type)
            continue; /* same meaning as in English (K, or French/Spanish P) */
        l->type = (int8_t)extra->type;
        l->lenient = SAN_LENIENT_FOREIGN | (extra->type == PAWN ? SAN_LENIENT_PAWN_LETTER : 0);
    }
}

/* ---- annotation glyphs ------------------------------------------------------------------ */

/* The glyphs real files write for NAGs (the PGN standard's numbering; ChessBase's symbols
 * where the standard gives none: N $146, Δ $140), UTF-8 spelt as bytes. */
static const struct glyph {
    const char *text;
    int nag;
} glyphs[] = {
    {"!", 1},   {"?", 2},   {"!!", 3},  {"??", 4},  {"!?", 5},  {"?!", 6},
    {"\xe2\x96\xa1", 7},   /* □ only move */
    {"=", 10},                /* drawish */
    {"\xe2\x88\x9e", 13},  /* ∞ unclear */
    {"+=", 14}, {"\xe2\xa9\xb2", 14}, /* ⩲ */
    {"=+", 15}, {"\xe2\xa9\xb1", 15}, /* ⩱ */
    {"\xc2\xb1", 16},       /* ± */
    {"\xe2\x88\x93", 17},  /* ∓ */
    {"+-", 18}, {"-+", 19},
    {"\xe2\xa8\x80", 22},  /* ⨀ zugzwang */
    {"\xce\x94", 140},      /* Δ with the idea */
    {"\xe2\x88\x86", 140}, /* ∆ (the increment sign, the same glyph in many fonts) */
    {"N", 146},               /* novelty */
};

int san_glyph_nag(const char *tok, size_t len)
{
    for (size_t i = 0; i < sizeof glyphs / sizeof *glyphs; i++)
        if (strlen(glyphs[i].text) == len && memcmp(glyphs[i].text, tok, len) == 0)
            return glyphs[i].nag;
    return 0;
}

bool san_is_ep_mark(const char *tok, size_t len, bool *nonstandard)
{
    int spelling = ep_mark_spelling(tok, len);
    if (spelling)
        *nonstandard = spelling == 2;
    return spelling != 0;
}

/* ---- the pattern ---------------------------------------------------------------------- */

struct sbuf {
    char *buf;
    size_t len, cap;
};

static void sb_add(struct sbuf *sb, const char *s)
{
    size_t n = strlen(s);
    xgrow((void **)&sb->buf, &sb->cap, sb->len + n + 1, 1);
    memcpy(sb->buf + sb->len, s, n + 1);
    sb->len += n;
}

/* Append a class "[...]" of the letters whose type is in [lo, hi]; nothing if none. */
static int sb_add_letter_class(struct sbuf *sb, const struct letter *tab, int lo, int hi,
                               int with_lower_b)
{
    char cls[64];
    size_t n = 0;
    cls[n++] = '[';
    for (int c = 'A'; c <= 'z'; c++) {
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')))
            continue;
        if (tab[c].type < lo || tab[c].type > hi || (c == 'b' && !with_lower_b))
            continue;
        cls[n++] = (char)c;
    }
    if (n == 1)
        return 0;
    cls[n++] = ']';
    cls[n] = '\0';
    sb_add(sb, cls);
    return 1;
}

/* The glyph alternatives for the pattern, every byte as \xNN (no escaping questions). */
static void sb_add_glyphs(struct sbuf *sb)
{
    for (size_t i = 0; i < sizeof glyphs / sizeof *glyphs; i++) {
        if (i)
            sb_add(sb, "|");
        for (const unsigned char *c = (const unsigned char *)glyphs[i].text; *c; c++) {
            char hex[8];
            snprintf(hex, sizeof hex, "\\x%02x", *c);
            sb_add(sb, hex);
        }
    }
}

/*
 * The grammar, compiled with PCRE2_EXTENDED (spaces are layout) in 8-bit non-UTF mode:
 * figurines (U+2654..U+265F, UTF-8 E2 99 94..9F) are matched as byte sequences, so
 * Latin-1 bytes in a token are simply no match, never a UTF error.
 *
 *   \A(?:
 *     (?<castle> O-O (?<oq>-O)? | (?<zero> 0-0 (?<zq>-0)? )            O-O  0-0-0
 *              | (?<lowo> [Oo]-[Oo] (?<lq>-[Oo])? ))                   o-o  O-o-o
 *   | (?<null> -- | Z0 )                                                null move
 *   | (?: (?<piece> PIECE ) | (?<pawn> PAWN ) )?                        N ♘ n S; P ♙
 *     (?<ff> (?(<piece>) [a-h] | PAWNFILE ) )?                          origin file
 *     (?<fr> (?(<piece>) | (?(<ff>)|(*FAIL)) ) [1-8] )?                 origin rank
 *     (?: (?<cap> (?(<ff>)|(?(<piece>)|(?(<pawn>)|(*FAIL)))) [x:] )     x or :
 *       | (?<dash> (?(<fr>) (?(<ff>)|(*FAIL)) | (*FAIL)) - ) )?         - (long only)
 *     (?<to> [a-h][1-8] )
 *     (?: (?(<piece>)(*FAIL)) (?<=[18])                                 pawns, last rank
 *         (?: (?<peq>=) | (?<pslash>/) | (?<popen>\() )?
 *         (?<promo> PROMO ) (?(<popen>)\) ) )?
 *   )
 *   (?<ep> (?(<to>)|(*FAIL)) e\.?p\.? )?
 *   (?: (?(<null>)(*FAIL)) (?: (?<check> \+\+? ) | (?<mate> \# ) ) )??
 *   (?<ep2> (?(<to>)|(*FAIL)) (?(<ep>)(*FAIL)) e\.?p\.? )?
 *   (?<suffix> GLYPH )?
 *   \z
 *
 * PIECE: the upper-case letters of KNIGHT..KING (English KQRBN plus the selected
 * language), lower-case n q r k, and the twelve figurines but the pawns.
 * PAWN: the explicit pawn letters (P, German B; Dutch has none) and ♙ ♟.
 * PROMO: the letters of KNIGHT..KING in either case (lower-case b included: after a
 * square it cannot mean a file; K for Antichess, where a pawn may become a king; the
 * board rejects it elsewhere), and the figurines ♕♖♗♘ ♛♜♝♞.  Never P.
 * PAWNFILE: a file that, for a pawn, is followed either by a rank (long algebraic,
 * e2e4) or by an adjacent file (exd5, ed5): a pawn's file hint on any board names a
 * neighbouring file, so "ee4" or "ac4" are no pawn move, and "bb5" / "bd3" can only be
 * the lower-case bishop (see san_decode()).
 *
 * Consequences, spelt out: a rank hint alone needs a piece letter (N1f3 yes, 2e4 no);
 * x without a piece letter needs the file hint (exd5 yes, xd5 no; Pxd5 yes); '-' only
 * between two full squares (Ng1-f3, e2-e4; N-f3 no); promotion only on a pawn move to
 * rank 1 or 8 (e8=Q, e8Q, e8(Q), e8/Q, e7e8q; e4=Q, Nf8=Q no); e.p. once, before or
 * after the check mark, never on castling or null moves; + ++ or #, not both; the
 * glyph last.  Nothing else is accepted.
 *
 * GLYPH: the annotation glyphs of san_glyph_nag() (! ? !! ?? !? ?! and the others).  The
 * check mark is lazy (??): "e4+=" and "Qh5+-" read as the glyphs += and +- (no check
 * claimed), "Qh5+!" as a check with the glyph !.  A promotion letter wins over the
 * glyph N: e8N is a knight promotion, Nf3N a knight move with the novelty glyph.
 * e.p. may be written without its dots (ep, e.p, ep.): SAN_LENIENT_EP_SPELLING.
 */
static char *build_pattern(const struct letter *tab)
{
    struct sbuf sb = {NULL, 0, 0};
    static const char figurine_pieces[] = "\\xe2\\x99[\\x94-\\x98\\x9a-\\x9e]";
    static const char figurine_pawns[] = "\\xe2\\x99[\\x99\\x9f]";
    static const char figurine_promo[] = "\\xe2\\x99[\\x95-\\x98\\x9b-\\x9e]";

    sb_add(&sb, "\\A(?:\n"
                " (?<castle> O-O (?<oq>-O)? | (?<zero> 0-0 (?<zq>-0)? )\n"
                "            | (?<lowo> [Oo]-[Oo] (?<lq>-[Oo])? ))\n"
                "| (?<null> -- | Z0 )\n"
                "| (?: (?<piece> ");
    if (sb_add_letter_class(&sb, tab, KNIGHT, KING, 0))
        sb_add(&sb, " | ");
    sb_add(&sb, figurine_pieces);
    sb_add(&sb, " ) | (?<pawn> ");
    if (sb_add_letter_class(&sb, tab, PAWN, PAWN, 0))
        sb_add(&sb, " | ");
    sb_add(&sb, figurine_pawns);
    sb_add(&sb, " ) )?\n  (?<ff> (?(<piece>) [a-h] | (?:");
    for (int f = 0; f < 8; f++) {
        char alt[48];
        char adj[3] = {0};
        int n = 0;
        if (f > 0)
            adj[n++] = (char)('a' + f - 1);
        if (f < 7)
            adj[n++] = (char)('a' + f + 1);
        snprintf(alt, sizeof(alt), "%s%c(?=[1-8]|[x:]?[%s])", f ? "|" : "", 'a' + f, adj);
        sb_add(&sb, alt);
    }
    sb_add(&sb, ") ) )?\n"
                "  (?<fr> (?(<piece>) | (?(<ff>)|(*FAIL)) ) [1-8] )?\n"
                "  (?: (?<cap> (?(<ff>)|(?(<piece>)|(?(<pawn>)|(*FAIL)))) [x:] )\n"
                "    | (?<dash> (?(<fr>) (?(<ff>)|(*FAIL)) | (*FAIL)) - ) )?\n"
                "  (?<to> [a-h][1-8] )\n"
                "  (?: (?(<piece>)(*FAIL)) (?<=[18])\n"
                "      (?: (?<peq>=) | (?<pslash>/) | (?<popen>\\() )?\n"
                "      (?<promo> ");
    if (sb_add_letter_class(&sb, tab, KNIGHT, KING, 1)) /* K: Antichess's e8=K */
        sb_add(&sb, " | ");
    sb_add(&sb, figurine_promo);
    sb_add(&sb, " ) (?(<popen>)\\) ) )?\n"
                ")\n"
                "(?<ep> (?(<to>)|(*FAIL)) e\\.?p\\.? )?\n"
                "(?: (?(<null>)(*FAIL)) (?: (?<check> \\+\\+? ) | (?<mate> \\# ) ) )??\n"
                "(?<ep2> (?(<to>)|(*FAIL)) (?(<ep>)(*FAIL)) e\\.?p\\.? )?\n"
                "(?<suffix> ");
    sb_add_glyphs(&sb);
    sb_add(&sb, " )?\n"
                "\\z\n");
    return sb.buf;
}

/* ---- the matcher ---------------------------------------------------------------------- */

enum group {
    G_CASTLE, G_OQ, G_ZERO, G_ZQ, G_LOWO, G_LQ, G_NULL, G_PIECE, G_PAWN, G_FF, G_FR, G_CAP, G_DASH, G_TO,
    G_PEQ, G_PSLASH, G_POPEN, G_PROMO, G_EP, G_CHECK, G_MATE, G_EP2, G_SUFFIX, G_COUNT
};

static const char *const group_names[G_COUNT] = {
    "castle", "oq", "zero",  "zq", "lowo", "lq", "null",  "piece", "pawn", "ff",  "fr",  "cap",   "dash",
    "to",     "peq", "pslash", "popen", "promo", "ep",   "check", "mate", "ep2", "suffix"};

/*
 * The compiled pattern of one letter set, shared by every matcher of that set in the
 * process: compiling it is most of what a matcher would cost (~0.3 M instructions, ~40
 * us, ~160 more for the JIT), and a library that replays one game at a time (a detached
 * game's tree, its PGN) would pay that per game.  It is the one state san.c keeps
 * outside a matcher: made and JIT-compiled under shared_lock by the first matcher of its
 * set that needs the regex (regex_ready), never changed after nor freed.  Every matcher
 * takes the lock before its first match, so none matches while the JIT writes the code;
 * PCRE2 matches one code from many threads, each with its own match data.  A matcher
 * that must not use the JIT (SAN_MATCHER_NO_JIT) compiles its own.
 */
struct san_pattern {
    char *text;
    pcre2_code *code;
    uint32_t group[G_COUNT];
    int jit; /* 1: JIT code, 0: the interpreter, -1: the JIT not tried yet */
};

static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static struct san_pattern *shared[SAN_LETTERS_DUTCH + 1];

/* Whether a matcher's regex is made (regex_ready): plain SAN never needs it, so a file
 * of plain SAN (most files) never compiles the pattern. */
enum regex_state { REGEX_NOT_YET, REGEX_READY, REGEX_FAILED };

struct san_matcher {
    enum san_letters set;
    unsigned flags;              /* enum san_matcher_flags */
    uint8_t regex;               /* enum regex_state */
    struct san_pattern *pattern; /* shared[set], or owned (SAN_MATCHER_NO_JIT); NULL until
                                  * the regex is first needed */
    bool owns_pattern;
    pcre2_match_data *md;
    int jit; /* 1: JIT code, 0: the interpreter (0 too before the regex is made) */
    size_t key_max; /* tokens of 1 to key_max bytes go through the cache: 0 without one */
    bool plain;     /* decode_plain before the regex (not with SAN_MATCHER_REGEX_ONLY) */
    const uint32_t *group; /* pattern->group */
    pcre2_code *code;      /* pattern->code */
    struct letter letters[256];
    uint64_t hits, misses;
    struct san_cache_slot *cache; /* CACHE_ROOM, or NULL with SAN_MATCHER_NO_CACHE */
    void *cache_block;            /* what cache lies in (cache_new) */
    struct diag error;            /* why the regex failed (REGEX_FAILED) */
};

static void pattern_free(struct san_pattern *p)
{
    if (!p)
        return;
    pcre2_code_free(p->code);
    free(p->text);
    free(p);
}

/* The letter set's pattern compiled, with its groups' numbers; NULL and *err when PCRE2
 * refuses it (a bug, or PCRE2 out of memory; never user input). */
static struct san_pattern *pattern_new(const struct letter *letters, struct diag *err)
{
    struct san_pattern *p = xcalloc(1, sizeof *p);
    int errcode;
    PCRE2_SIZE erroff;
    p->jit = -1;
    p->text = build_pattern(letters);
    p->code = pcre2_compile((PCRE2_SPTR)p->text, PCRE2_ZERO_TERMINATED,
                            PCRE2_ANCHORED | PCRE2_EXTENDED | PCRE2_NO_AUTO_CAPTURE |
                                PCRE2_NEVER_UTF | PCRE2_NEVER_UCP,
                            &errcode, &erroff, NULL);
    if (!p->code) {
        PCRE2_UCHAR msg[120];
        pcre2_get_error_message(errcode, msg, sizeof(msg));
        diag_set(err, DIAG_SYNTAX, 0, 0, "internal: the SAN pattern does not compile at %zu: %s",
                 (size_t)erroff, (const char *)msg);
        pattern_free(p);
        return NULL;
    }
    for (int g = 0; g < G_COUNT; g++) {
        int n = pcre2_substring_number_from_name(p->code, (PCRE2_SPTR)group_names[g]);
        if (n <= 0) {
            diag_set(err, DIAG_SYNTAX, 0, 0, "internal: the SAN pattern has no group %s",
                     group_names[g]);
            pattern_free(p);
            return NULL;
        }
        p->group[g] = (uint32_t)n;
    }
    return p;
}

/*
 * JIT as git's grep.c does it: any JIT failure (no JIT in this build, or executable
 * memory refused by SELinux/PaX) falls back to the interpreter, which matches the same
 * language; JITSIZE > 0 is the proof that machine code really exists.  Once per pattern,
 * under the lock for a shared one (san_pattern).
 */
static void jit_compile(struct san_pattern *p)
{
    if (p->jit >= 0)
        return;
    p->jit = 0;
    if (pcre2_jit_compile(p->code, PCRE2_JIT_COMPLETE) == 0) {
        size_t jitsize = 0;
        if (pcre2_pattern_info(p->code, PCRE2_INFO_JITSIZE, &jitsize) == 0 && jitsize > 0)
            p->jit = 1;
    }
}

/* The pattern this matcher matches with, JIT-compiled unless SAN_MATCHER_NO_JIT: the
 * set's shared one, made by the first matcher of the set that asks (see san_pattern). */
static struct san_pattern *pattern_for(struct san_matcher *m)
{
    bool jit = !(m->flags & SAN_MATCHER_NO_JIT);
    m->owns_pattern = !jit || (unsigned)m->set > SAN_LETTERS_DUTCH;
    if (m->owns_pattern) {
        struct san_pattern *p = pattern_new(m->letters, &m->error);
        if (p && jit)
            jit_compile(p);
        return p;
    }
    pthread_mutex_lock(&shared_lock);
    if (!shared[m->set])
        shared[m->set] = pattern_new(m->letters, &m->error);
    struct san_pattern *p = shared[m->set];
    if (p)
        jit_compile(p);
    pthread_mutex_unlock(&shared_lock);
    return p;
}

/*
 * The regex made at its first need, not with the matcher: most files are plain SAN
 * (decode_plain), and compiling it was ~30% of a start-up.  A pattern PCRE2 refuses
 * makes the matcher refuse every token that needs it, with the reason kept for
 * san_matcher_error() (it is tried once per matcher).
 */
static PGNKIT_COLD bool regex_make(struct san_matcher *m)
{
    m->pattern = pattern_for(m);
    if (!m->pattern) {
        m->regex = REGEX_FAILED;
        return false;
    }
    m->code = m->pattern->code;
    m->group = m->pattern->group;
    m->jit = m->pattern->jit > 0;
    m->md = pcre2_match_data_create_from_pattern(m->code, NULL);
    if (!m->md)
        xalloc_fail("PCRE2 match data", 0);
    m->regex = REGEX_READY;
    return true;
}

static bool regex_ready(struct san_matcher *m)
{
    return m->regex == REGEX_READY || (m->regex == REGEX_NOT_YET && regex_make(m));
}

/*
 * The cache's slots, zeroed, on a cache line's start: from malloc (16-byte aligned) one
 * 32-byte slot in two straddled two lines, its key in one and its san in the other, two
 * misses where one would do and half of it out of its prefetch's reach.  Taken from a
 * calloc'd block a line longer rather than aligned_alloc and a memset, which would make
 * every page resident at once (--jobs 32 keeps 32 caches within the memory bound).
 */
static struct san_cache_slot *cache_new(void **block)
{
    enum { LINE = 64 };
    _Static_assert(LINE % sizeof(struct san_cache_slot) == 0, "a slot within one line");
    *block = xcalloc(1, CACHE_ROOM * sizeof(struct san_cache_slot) + LINE - 1);
    uintptr_t at = ((uintptr_t)*block + LINE - 1) & ~(uintptr_t)(LINE - 1);
    return (struct san_cache_slot *)at;
}

struct san_matcher *san_matcher_new(enum san_letters letters, struct diag *err)
{
    return san_matcher_new_ex(letters, 0, err);
}

struct san_matcher *san_matcher_new_ex(enum san_letters letters, unsigned flags,
                                       struct diag *err)
{
    (void)err; /* nothing here can fail: the regex is made at first need (regex_make) */
    struct san_matcher *m = xcalloc(1, sizeof(*m));
    m->set = letters;
    m->flags = flags;
    letters_init(m->letters, letters);
    m->plain = !(flags & SAN_MATCHER_REGEX_ONLY);
    if (!(flags & SAN_MATCHER_NO_CACHE)) {
        m->cache = cache_new(&m->cache_block);
        m->key_max = CACHE_KEY_MAX;
    }
    return m;
}

void san_matcher_free(struct san_matcher *m)
{
    if (!m)
        return;
    pcre2_match_data_free(m->md);
    if (m->owns_pattern)
        pattern_free(m->pattern);
    free(m->cache_block);
    free(m);
}

const struct diag *san_matcher_error(const struct san_matcher *m)
{
    return m->regex == REGEX_FAILED ? &m->error : NULL;
}

int san_matcher_jit(const struct san_matcher *m)
{
    /* The answer needs the regex made: the matcher itself is not const (its owner's). */
    regex_ready((struct san_matcher *)(uintptr_t)m);
    return m->jit;
}

const char *san_matcher_pattern(const struct san_matcher *m)
{
    return regex_ready((struct san_matcher *)(uintptr_t)m) ? m->pattern->text : NULL;
}

void san_matcher_cache_stats(const struct san_matcher *m, uint64_t *hits, uint64_t *misses)
{
    *hits = m->hits;
    *misses = m->misses;
}

/* ---- decoding ------------------------------------------------------------------------- */

/* The type of a piece written as one letter or as a 3-byte figurine, with its cost. */
static int piece_of(const struct san_matcher *m, const unsigned char *p, size_t n,
                    uint16_t *lenient)
{
    if (n == 1) {
        *lenient |= m->letters[p[0]].lenient;
        return m->letters[p[0]].type;
    }
    /* E2 99 94..9F: ♔♕♖♗♘♙ then ♚♛♜♝♞♟ */
    static const enum piece_type figurine[6] = {KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN};
    *lenient |= SAN_LENIENT_FIGURINE;
    return figurine[(p[2] - 0x94) % 6];
}

/* Run the pattern on tok[0..len) and fill *out; -1 if it does not match. */
static int match_token(struct san_matcher *m, const char *tok, size_t len, struct san *out)
{
    if (!regex_ready(m))
        return -1; /* san_matcher_error() says why */
    int rc = m->jit ? pcre2_jit_match(m->code, (PCRE2_SPTR)tok, len, 0, 0, m->md, NULL)
                    : pcre2_match(m->code, (PCRE2_SPTR)tok, len, 0, 0, m->md, NULL);
    if (rc < 0)
        return -1;

    const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(m->md);
    const unsigned char *s = (const unsigned char *)tok;
#define SET(g) (ov[2 * m->group[g]] != PCRE2_UNSET)
#define AT(g) (s + ov[2 * m->group[g]])
#define LEN(g) (ov[2 * m->group[g] + 1] - ov[2 * m->group[g]])

    memset(out, 0, sizeof(*out));
    out->from_file = -1;
    out->from_rank = -1;
    out->to = SQ_NONE;

    if (SET(G_CASTLE)) {
        out->kind = (SET(G_OQ) || SET(G_ZQ) || SET(G_LQ)) ? SAN_CASTLE_QUEEN : SAN_CASTLE_KING;
        out->piece = KING;
        if (SET(G_ZERO))
            out->lenient |= SAN_LENIENT_ZERO_CASTLE;
        if (SET(G_LOWO))
            out->lenient |= SAN_LENIENT_LOWER_CASTLE;
    } else if (SET(G_NULL)) {
        out->kind = SAN_NULL;
        out->piece = NO_PIECE_TYPE;
        out->lenient |= SAN_LENIENT_NULL;
    } else {
        out->kind = SAN_MOVE;
        if (SET(G_PIECE))
            out->piece = (uint8_t)piece_of(m, AT(G_PIECE), LEN(G_PIECE), &out->lenient);
        else if (SET(G_PAWN))
            out->piece = (uint8_t)piece_of(m, AT(G_PAWN), LEN(G_PAWN), &out->lenient);
        else
            out->piece = PAWN;
        if (SET(G_PAWN))
            out->lenient |= SAN_LENIENT_PAWN_LETTER; /* also for the figurines ♙ ♟ */
        if (SET(G_FF))
            out->from_file = (int8_t)(AT(G_FF)[0] - 'a');
        if (SET(G_FR))
            out->from_rank = (int8_t)(AT(G_FR)[0] - '1');
        /* Long algebraic: a dash, or a full origin square on a pawn-shaped token; with
         * no letter at all (e2e4, g1f3) the board says which piece it is. */
        if (SET(G_DASH) || (out->piece == PAWN && SET(G_FR)))
            out->lenient |= SAN_LENIENT_LONG;
        if (!SET(G_PIECE) && !SET(G_PAWN) && SET(G_FR))
            out->piece_implicit = 1;
        if (SET(G_CAP)) {
            out->capture = 1;
            if (AT(G_CAP)[0] == ':')
                out->lenient |= SAN_LENIENT_COLON;
        }
        out->to = (uint8_t)square_make(AT(G_TO)[0] - 'a', AT(G_TO)[1] - '1');
        if (SET(G_PROMO)) {
            out->promo = (uint8_t)piece_of(m, AT(G_PROMO), LEN(G_PROMO), &out->lenient);
            if (SET(G_PSLASH))
                out->lenient |= SAN_LENIENT_PROMO_SLASH;
            else if (SET(G_POPEN))
                out->lenient |= SAN_LENIENT_PROMO_PAREN;
            else if (!SET(G_PEQ))
                out->lenient |= SAN_LENIENT_PROMO_NO_EQ;
        }
    }
    if (SET(G_EP) || SET(G_EP2)) {
        out->ep = 1;
        out->lenient |= SAN_LENIENT_EP_MARK;
        if ((SET(G_EP) ? LEN(G_EP) : LEN(G_EP2)) != 4)
            out->lenient |= SAN_LENIENT_EP_SPELLING;
    }
    if (SET(G_CHECK)) {
        out->checks = (uint8_t)LEN(G_CHECK);
        if (out->checks == 2)
            out->lenient |= SAN_LENIENT_DOUBLE_CHECK;
    }
    if (SET(G_MATE))
        out->mate = 1;
    if (SET(G_SUFFIX)) {
        out->suffix_len = (uint8_t)LEN(G_SUFFIX);
        if (san_glyph_nag((const char *)AT(G_SUFFIX), LEN(G_SUFFIX)) > 6)
            out->lenient |= SAN_LENIENT_GLYPH;
    }
#undef SET
#undef AT
#undef LEN
    return 0;
}

/*
 * The lower-case b rule (pgn-extract's: pawn first).  The pattern never reads a leading
 * 'b' as a piece letter, so the token is matched twice:
 *   pawn reading   = the token as written ('b' a file);
 *   bishop reading = the token with its 'b' replaced by ♗ (a bishop whatever the
 *                    language), so it must be a valid piece move (no promotion).
 * If the pawn reading matches, the token is that pawn move, with maybe_bishop = 1 when
 * the bishop reading matches too and the pawn reading is not long algebraic (b2b3 names
 * its origin square, so the board knows the piece).  E.g. bxc3, bc3, ba4: pawn, maybe
 * bishop; b4, b8=Q, bxa8=Q, b2b4: pawn only.  If only the bishop reading matches, it is a
 * bishop move with SAN_LENIENT_LOWER_PIECE: bb5, bd3, bxe5 (a pawn's file hint must be a
 * neighbouring file), bc1-g5, bdc4.  Neither matches: syntax error.
 */
static int decode_lower_b(struct san_matcher *m, const char *tok, size_t len, struct san *out)
{
    struct san bishop;
    char buf[64];
    int as_bishop = -1;

    if (len + 2 <= sizeof(buf)) {
        memcpy(buf, "\xe2\x99\x97", 3);
        memcpy(buf + 3, tok + 1, len - 1);
        as_bishop = match_token(m, buf, len + 2, &bishop);
        if (as_bishop == 0 && (bishop.kind != SAN_MOVE || bishop.piece != BISHOP))
            as_bishop = -1;
    }
    if (match_token(m, tok, len, out) == 0) {
        out->maybe_bishop = as_bishop == 0 && !(out->lenient & SAN_LENIENT_LONG);
        return 0;
    }
    if (as_bishop != 0)
        return -1;
    *out = bishop;
    out->lenient = (uint16_t)((out->lenient & ~SAN_LENIENT_FIGURINE) | SAN_LENIENT_LOWER_PIECE);
    return 0;
}

/* A Crazyhouse drop, outside the regex (no other move has '@'): [PNBRQ]?@square, then
 * + ++ or #, then ! ? annotations.  The board decides whether drops exist. */
static int decode_drop(const char *tok, size_t len, struct san *out)
{
    static const char letters[] = "PNBRQ";
    size_t i = 0;
    memset(out, 0, sizeof *out);
    out->kind = SAN_DROP;
    out->from_file = out->from_rank = -1;
    out->piece = PAWN;
    if (tok[0] != '@') {
        const char *p = memchr(letters, tok[0], 5);
        if (!p)
            return -1;
        out->piece = (uint8_t)(p - letters);
        i = 1;
    }
    if (i + 3 > len || tok[i] != '@' || tok[i + 1] < 'a' || tok[i + 1] > 'h' || tok[i + 2] < '1' ||
        tok[i + 2] > '8')
        return -1;
    out->to = (uint8_t)square_make(tok[i + 1] - 'a', tok[i + 2] - '1');
    i += 3;
    while (i < len && tok[i] == '+' && out->checks < 2)
        out->checks++, i++;
    if (out->checks == 2)
        out->lenient |= SAN_LENIENT_DOUBLE_CHECK;
    if (!out->checks && i < len && tok[i] == '#')
        out->mate = 1, i++;
    size_t suffix = i;
    while (i < len && (tok[i] == '!' || tok[i] == '?') && i - suffix < 2)
        i++;
    out->suffix_len = (uint8_t)(i - suffix);
    return i == len ? 0 : -1;
}

/* A piece letter with no lenient cost (K Q R B N, or a selected language's letter that
 * means in English what it means there): its type, or NO_TYPE. */
static int plain_piece(const struct san_matcher *m, unsigned char c)
{
    const struct letter *l = &m->letters[c];
    return l->lenient == 0 && l->type >= KNIGHT && l->type <= KING ? l->type : NO_TYPE;
}

static bool is_file(unsigned char c) { return c >= 'a' && c <= 'h'; }
static bool is_rank(unsigned char c) { return c >= '1' && c <= '8'; }

/*
 * The standard SAN spellings that make nearly all move tokens, decoded without the
 * regex: O-O, O-O-O; a piece letter, an optional file and/or rank hint, an optional x,
 * the square; a pawn's square, or its file, x and a neighbouring file's square, with
 * =letter on rank 1 or 8; then nothing, + or #; then nothing or one of ! ? !! ?? !? ?!.
 * Each gets exactly the parts the pattern gives it (tests/test_san.c checks every such
 * token against the regex).  Returns -1 for any other token, which the regex then
 * decides (it may well accept it): this is a shortcut for the cache's misses, not a
 * second grammar.  A token starting with 'b' is read as a pawn move (the b rule's first
 * reading); the caller adds maybe_bishop.
 */
static int decode_plain(const struct san_matcher *m, const unsigned char *t, size_t len,
                        struct san *out)
{
    uint8_t checks = 0, mate = 0, suffix = 0;
    size_t end = len;
    /* ! ? !! ?? !? ?! ($1-$6, no lenient cost): no other glyph has a ! or a ?, so the
     * check mark before them is one whatever the pattern's laziness. */
    if (t[end - 1] == '!' || t[end - 1] == '?') {
        suffix = end >= 2 && (t[end - 2] == '!' || t[end - 2] == '?') ? 2 : 1;
        end -= suffix;
    }
    if (end > 2 && (t[end - 1] == '+' || t[end - 1] == '#')) {
        checks = t[end - 1] == '+';
        mate = t[end - 1] == '#';
        end--;
    }
    if (end < 2 || t[end - 1] == '+' || t[end - 1] == '#')
        return -1;
    memset(out, 0, sizeof(*out));
    out->from_file = -1;
    out->from_rank = -1;
    out->to = SQ_NONE;
    out->checks = checks;
    out->mate = mate;
    out->suffix_len = suffix;
    if (t[0] == 'O') {
        if (end == 3 && memcmp(t, "O-O", 3) == 0)
            out->kind = SAN_CASTLE_KING;
        else if (end == 5 && memcmp(t, "O-O-O", 5) == 0)
            out->kind = SAN_CASTLE_QUEEN;
        else
            return -1;
        out->piece = KING;
        return 0;
    }
    int type = plain_piece(m, t[0]);
    size_t k = type == NO_TYPE ? 0 : 1;
    if (type == NO_TYPE) {
        if (!is_file(t[0]))
            return -1;
        type = PAWN;
        if (end >= 4 && t[end - 2] == '=') {
            int promo = plain_piece(m, t[end - 1]);
            if (promo == NO_TYPE || (t[end - 3] != '1' && t[end - 3] != '8'))
                return -1;
            out->promo = (uint8_t)promo;
            end -= 2;
        }
    }
    if (end < k + 2 || !is_file(t[end - 2]) || !is_rank(t[end - 1]))
        return -1;
    size_t to = end - 2;
    if (k < to && is_file(t[k]))
        out->from_file = (int8_t)(t[k++] - 'a');
    if (k < to && is_rank(t[k]))
        out->from_rank = (int8_t)(t[k++] - '1');
    if (k < to && t[k] == 'x') {
        out->capture = 1;
        k++;
    }
    if (k != to)
        return -1;
    if (type == PAWN) {
        /* exd5 (a neighbouring file) or e4: any other pawn shape is the regex's. */
        int step = out->from_file - (t[to] - 'a');
        if (out->from_rank != -1 || out->capture != (out->from_file != -1) ||
            (out->capture && step != 1 && step != -1))
            return -1;
    }
    out->kind = SAN_MOVE;
    out->piece = (uint8_t)type;
    out->to = (uint8_t)square_make(t[to] - 'a', t[to + 1] - '1');
    return 0;
}

static int decode_parts(struct san_matcher *m, const char *tok, size_t len, struct san *out)
{
    if (memchr(tok, '@', len))
        return decode_drop(tok, len, out);
    if (m->plain && decode_plain(m, (const unsigned char *)tok, len, out) == 0) {
        /* A plain b-pawn move (b4, bxc3, bxa8=Q): the bishop reading (see decode_lower_b)
         * exists exactly when it captures without promoting (Bxc3; B4 and Bxa8=Q are none). */
        if (tok[0] == 'b')
            out->maybe_bishop = out->capture && !out->promo;
        return 0;
    }
    if (tok[0] == 'b')
        return decode_lower_b(m, tok, len, out);
    return match_token(m, tok, len, out);
}

/* plain took a byte that was padding: a cache slot stays two keys and a san, 32 bytes. */
_Static_assert(sizeof(struct san) == 16, "struct san grew: the SAN cache slots with it");

static int decode_uncached(struct san_matcher *m, const char *tok, size_t len, struct san *out)
{
    int rc = decode_parts(m, tok, len, out);
    if (rc == 0)
        out->plain = out->kind == SAN_MOVE && !out->piece_implicit && !out->lenient &&
                     !out->promo &&
                     !(out->from_file >= 0 && out->from_rank >= 0 && out->piece != PAWN);
    return rc;
}

/* The miss path: decode with the regex and remember the answer (a syntax error too) in
 * slot, or, when the probe window is full, in one of its slots chosen by the miss
 * counter, a cheap stand-in for random replacement that keeps one hot token from being
 * evicted again and again. */
static int decode_and_store(struct san_matcher *m, const char *tok, size_t len,
                            const uint64_t key[2], size_t home, struct san_cache_slot *slot,
                            struct san *out)
{
    if (!slot)
        slot = &m->cache[home + (m->misses & (CACHE_PROBES - 1))];
    m->misses++;
    int rc = decode_uncached(m, tok, len, out);
    memcpy(slot->key, key, sizeof(slot->key));
    if (rc == 0) {
        slot->san = *out;
    } else {
        memset(&slot->san, 0, sizeof(slot->san));
        slot->san.kind = NEG_KIND;
    }
    return rc;
}

struct san_cache_ref san_matcher_cache_ref(const struct san_matcher *m)
{
    return (struct san_cache_ref){m->cache, m->key_max};
}

void san_prefetch(const struct san_matcher *m, const char *tok, size_t len)
{
    struct san_key key;
    san_key_prefetch(san_matcher_cache_ref(m), tok, len, &key);
}

const struct san_cache_slot san_no_slot = {{~(uint64_t)0, 0}, {0}};

void san_key_rare(struct san_cache_ref c, const char *tok, size_t len, struct san_key *key)
{
    /* len - 1 wraps for the empty token, which is no move and never cached. */
    if (len - 1 >= c.key_max) {
        key->word[0] = key->word[1] = 0;
        key->slot = &san_no_slot;
        return;
    }
    san_cache_key((const unsigned char *)tok, len, key->word);
    key->slot = &c.slots[san_cache_home(key->word)];
}

PGNKIT_NOINLINE const struct san *san_cache_probe(const struct san_key *key)
{
    const struct san_cache_slot *slot = key->slot;
    if (slot->key[1] == 0)
        return NULL; /* the home slot is empty (or san_no_slot: bypassed) */
    for (size_t i = 1; i < CACHE_PROBES; i++) {
        if (((slot[i].key[0] ^ key->word[0]) | (slot[i].key[1] ^ key->word[1])) == 0)
            return &slot[i].san;
        if (slot[i].key[1] == 0)
            return NULL;
    }
    return NULL;
}

int san_decode_keyed(struct san_matcher *m, const char *tok, size_t len,
                     const struct san_key *key, struct san *out)
{
    if (key->word[1] == 0)
        return len == 0 ? -1 : decode_uncached(m, tok, len, out);
    size_t home = (size_t)(key->slot - m->cache);
    for (size_t i = 0; i < CACHE_PROBES; i++) {
        struct san_cache_slot *slot = &m->cache[home + i];
        if (slot->key[1] == 0)
            return decode_and_store(m, tok, len, key->word, home, slot, out);
        if (((slot->key[0] ^ key->word[0]) | (slot->key[1] ^ key->word[1])) == 0) {
            m->hits++;
            if (slot->san.kind == NEG_KIND)
                return -1;
            *out = slot->san;
            return 0;
        }
    }
    return decode_and_store(m, tok, len, key->word, home, NULL, out);
}

int san_decode(struct san_matcher *m, const char *tok, size_t len, struct san *out)
{
    struct san_key key;
    san_key_of(san_matcher_cache_ref(m), tok, len, &key);
    return san_decode_keyed(m, tok, len, &key, out);
}
