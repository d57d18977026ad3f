/*
 * pgn_reader.c - the streaming PGN reader: input buffering, tokenizing, game splitting.
 *
 * Owns one growing input buffer (it holds the current game and is compacted between
 * games), the per-game token, tag, scratch and diagnostic arrays (reused, grown
 * geometrically), and the game-boundary rules of SPEC §2.  It does not know chess:
 * move tokens are passed on as text; san.c parses them.  No recursion anywhere.
 */
#include "pgnkit/pgn_reader.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#ifdef __SSSE3__
#include <tmmintrin.h>
#endif
#ifdef __AVX2__
#include <immintrin.h>
#endif

#include "inline_hints.h"
#include "pgnkit/ctrl.h"
#include "pgnkit/xalloc.h"

enum {
    READ_CHUNK = 1 << 20, /* bytes asked of the source per read, at least */
    /* and at most: a buffer grown for one large game is not filled (so made resident)
     * whole by every later read: memory stays the live game plus this. */
    READ_MAX = 4 << 20,
};

#define DEFAULT_MAX_GAME_BYTES ((size_t)64 << 20)
#define DEFAULT_MAX_TOKEN_BYTES ((size_t)255)
#define DEFAULT_MAX_COMMENT_BYTES ((size_t)32 << 20)
#define DEFAULT_MAX_DEPTH 1024u
#define DEFAULT_MAX_DIAGNOSTICS ((size_t)1000)
#define DEFAULT_MAX_GAME_TOKENS ((size_t)2 << 20)
#define NEED_MORE SIZE_MAX /* a scanner ran out of bytes before the end of its construct */
#define TAG_SKIP_LINE (SIZE_MAX - 1) /* a tag line over its bound: the caller skips the line */

/* Character classes: one table lookup decides what a byte starts. */
enum char_class {
    CC_OTHER = 0, /* letters, + # = - ! ? / : @, 8-bit bytes: part of a move token */
    CC_SPACE,     /* ' ' \t \v \f */
    CC_LF,
    CC_CR,
    CC_CTRL,      /* NUL and the other control bytes */
    CC_DIGIT,
    CC_LBRACE,
    CC_SEMI,
    CC_PERCENT,
    CC_LBRACKET,
    CC_LPAREN,
    CC_RPAREN,
    CC_DOLLAR,
    CC_STAR,
    CC_DOT,
    CC_BAD,       /* ] } " < > : start no token */
};

/* Classes that end a move/number/NAG token. */
#define DELIM_MASK                                                                              \
    ((1u << CC_SPACE) | (1u << CC_LF) | (1u << CC_CR) | (1u << CC_CTRL) | (1u << CC_LBRACE) |  \
     (1u << CC_SEMI) | (1u << CC_LBRACKET) | (1u << CC_LPAREN) | (1u << CC_RPAREN) |           \
     (1u << CC_DOLLAR) | (1u << CC_BAD))

#define CHAR_CLASS_ENTRIES \
    [0] = CC_CTRL,   [1] = CC_CTRL,    [2] = CC_CTRL,   [3] = CC_CTRL,   [4] = CC_CTRL, \
    [5] = CC_CTRL,   [6] = CC_CTRL,    [7] = CC_CTRL,   [8] = CC_CTRL,   ['\t'] = CC_SPACE, \
    ['\n'] = CC_LF,  ['\v'] = CC_SPACE, ['\f'] = CC_SPACE, ['\r'] = CC_CR, [14] = CC_CTRL, \
    [15] = CC_CTRL,  [16] = CC_CTRL,   [17] = CC_CTRL,  [18] = CC_CTRL,  [19] = CC_CTRL, \
    [20] = CC_CTRL,  [21] = CC_CTRL,   [22] = CC_CTRL,  [23] = CC_CTRL,  [24] = CC_CTRL, \
    [25] = CC_CTRL,  [26] = CC_CTRL,   [27] = CC_CTRL,  [28] = CC_CTRL,  [29] = CC_CTRL, \
    [30] = CC_CTRL,  [31] = CC_CTRL,   [127] = CC_CTRL, [' '] = CC_SPACE, \
    ['0'] = CC_DIGIT, ['1'] = CC_DIGIT, ['2'] = CC_DIGIT, ['3'] = CC_DIGIT, ['4'] = CC_DIGIT, \
    ['5'] = CC_DIGIT, ['6'] = CC_DIGIT, ['7'] = CC_DIGIT, ['8'] = CC_DIGIT, ['9'] = CC_DIGIT, \
    ['{'] = CC_LBRACE, [';'] = CC_SEMI, ['%'] = CC_PERCENT, ['['] = CC_LBRACKET, \
    ['('] = CC_LPAREN, [')'] = CC_RPAREN, ['$'] = CC_DOLLAR, ['*'] = CC_STAR, ['.'] = CC_DOT, \
    [']'] = CC_BAD,  ['}'] = CC_BAD,   ['"'] = CC_BAD,  ['<'] = CC_BAD,  ['>'] = CC_BAD

static const uint8_t char_class[256] = {CHAR_CLASS_ENTRIES};

/* scan_fast's classes: 0xc2 (a result's "½" begins with it) and 0xef (a byte-order mark's
 * first byte) are no move bytes there, so its move test needs no second compare; they
 * leave the fast path like any other stray byte, for scan_game. */
static const uint8_t fast_class[256] = {CHAR_CLASS_ENTRIES, [0xc2] = CC_BAD, [0xef] = CC_BAD};

/* 1 for the bytes that end a move, number or NAG token: the classes in DELIM_MASK. */
static const uint8_t delim_table[256] = {
    [0] = 1, [1] = 1, [2] = 1, [3] = 1, [4] = 1, [5] = 1, [6] = 1, [7] = 1, [8] = 1, [9] = 1,
    [10] = 1, [11] = 1, [12] = 1, [13] = 1, [14] = 1, [15] = 1, [16] = 1, [17] = 1, [18] = 1,
    [19] = 1, [20] = 1, [21] = 1, [22] = 1, [23] = 1, [24] = 1, [25] = 1, [26] = 1, [27] = 1,
    [28] = 1, [29] = 1, [30] = 1, [31] = 1, [32] = 1, ['"'] = 1, ['$'] = 1, ['('] = 1,
    [')'] = 1, [';'] = 1, ['<'] = 1, ['>'] = 1, ['['] = 1, [']'] = 1, ['{'] = 1, ['}'] = 1,
    [127] = 1,
};

static inline unsigned cls(char c) { return char_class[(unsigned char)c]; }
static inline bool is_delim(char c) { return delim_table[(unsigned char)c]; }
static inline bool is_hspace(char c) { return cls(c) == CC_SPACE; }
static inline bool is_eol(char c) { return c == '\n' || c == '\r'; }
static inline bool is_digit(char c) { return (unsigned char)(c - '0') < 10; }

/*
 * Index of the first delimiter (is_delim) in [j, n), or n; j <= n: where a move, number
 * or NAG token ends.  With SSSE3, 16 bytes at a time: a byte is a delimiter when the
 * table entries of its low and its high nibble share a bit (one bit per high nibble that
 * has delimiters: 0-1 all, 2 " $ ( ) space, 3 ; < >, 5 [ ], 7 { } DEL).  A move is 2 to 7
 * bytes: one such step replaces a loop of several tests per byte.
 */
#ifdef __SSE2__
/* Vector constants as memory operands: the hot loops then neither rebuild them per token
 * nor hold them in registers they need for their own state. */
static const uint8_t vec_const[][16] __attribute__((aligned(16))) = {
#define VC_LO_TAB 0
    {0x03, 0x01, 0x03, 0x01, 0x03, 0x01, 0x01, 0x01, 0x03, 0x03, 0x01, 0x1d, 0x05, 0x19, 0x05,
     0x11},
#define VC_HI_TAB 1
    {0x01, 0x01, 0x02, 0x04, 0x00, 0x08, 0x00, 0x10, 0, 0, 0, 0, 0, 0, 0, 0},
#define VC_NIBBLE 2
    {0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f,
     0x0f},
#define VC_SAT7F 3 /* + 0x7f saturating: any non-zero byte gets its top bit */
    {0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f,
     0x7f},
#define VC_ZERO_CH 4
    {'0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'},
#define VC_SAT76 5 /* + 0x76 saturating: bytes 10 and up get their top bit */
    {0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76, 0x76,
     0x76},
#define VC_DOT 6
    {'.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.'},
};

/*
 * The load is an asm: gcc otherwise sees the splats through the constant table and
 * rebuilds each one per use from a general register (movabs, vmovq, vpunpcklqdq or
 * vpbroadcast: three instructions and a general register, where a load is one).  Not
 * volatile, so gcc may still hoist it out of a loop.
 */
#ifdef __AVX__
#define VLOAD_ASM "vmovdqa %1, %0"
#else
#define VLOAD_ASM "movdqa %1, %0"
#endif
static inline __m128i vc(int k)
{
    __m128i v;
    __asm__(VLOAD_ASM : "=x"(v) : "m"(*(const __m128i *)(const void *)vec_const[k]));
    return v;
}
#endif

#ifdef __SSSE3__
/*
 * Bit k set when p[k] is a delimiter, for the 16 bytes at p (see run_end).  The low-nibble
 * lookup needs no mask: pshufb gives 0 for bytes 0x80 and up, which are no delimiters.
 */
static inline unsigned delim_bits(const char *p)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i lo = _mm_shuffle_epi8(vc(VC_LO_TAB), v);
    __m128i high_nibbles = _mm_and_si128(_mm_srli_epi16(v, 4), vc(VC_NIBBLE));
    __m128i hi = _mm_shuffle_epi8(vc(VC_HI_TAB), high_nibbles);
    return (unsigned)_mm_movemask_epi8(_mm_adds_epu8(_mm_and_si128(lo, hi), vc(VC_SAT7F)));
}
#endif

static inline size_t run_end(const char *d, size_t j, size_t n)
{
#ifdef __SSSE3__
    for (; n - j >= 16; j += 16) {
        unsigned bits = delim_bits(d + j);
        if (bits)
            return j + (size_t)__builtin_ctz(bits);
    }
#endif
    while (j < n && !is_delim(d[j]))
        j++;
    return j;
}

enum game_phase {
    PHASE_BEFORE = 0, /* nothing yet but whitespace, comments or junk */
    PHASE_TAGS,       /* in the tag section */
    PHASE_MOVETEXT,   /* a movetext token was seen */
};

enum game_end { END_EOF, END_RESULT, END_BOUNDARY };

/* File offsets [from, to) that hold no byte of some value. */
struct absent {
    uint64_t from, to;
};

/*
 * Index of the first c in d[p, e), or e, where d[0] is the file's byte at offset base.
 * With a (may be NULL), the stretch a says holds no c is not searched again, and a grows
 * by what this search found: over a run of calls each byte is searched about once.
 */
static size_t find_byte(const char *d, uint64_t base, size_t p, size_t e, char c,
                        struct absent *a)
{
    if (!a) {
        const char *h = p < e ? memchr(d + p, c, e - p) : NULL;
        return h ? (size_t)(h - d) : e;
    }
    uint64_t start = base + p;
    size_t q = p;
    if (start >= a->from && start < a->to) {
        q = a->to - base < e ? (size_t)(a->to - base) : e;
        start = a->from;
    } else if (start == a->to) {
        start = a->from; /* it goes on from there */
    }
    const char *h = q < e ? memchr(d + q, c, e - q) : NULL;
    size_t found = h ? (size_t)(h - d) : e;
    uint64_t to = base + found;
    if (start == a->from && a->to > to)
        to = a->to;
    a->from = start;
    a->to = to;
    return found;
}

struct pgn_reader {
    struct pgn_source src;
    const char *name;
    struct pgn_limits lim;

    char *buf;         /* owned buffer; NULL for memory readers */
    size_t cap;
    const char *data;  /* buf, or the caller's memory */
    size_t len;        /* valid bytes in data */
    size_t pos;        /* where scanning resumes; the restart point handed to fill() */
    size_t shift;      /* how far the last fill() moved the data to the left */
    uint64_t base_off; /* file offset of data[0] */
    ptrdiff_t ls;      /* index of the current line's first byte (negative once discarded) */
    uint64_t line;
    bool eof;
    bool memory;
    bool bom_done;
    bool failed;
    bool finished;
    int err_no;
    uint64_t games;
    bool games_unknown; /* game indexes are not known: each game gets index 0 */
    size_t stop_at;    /* games starting at this index or later are not read (restart) */
    /* Stretches of the file known to hold no '}' (no '{'): an unterminated comment
     * searched them, and the next one does not search them again (else each costs the
     * rest of the buffer, or the tag line rule's lookahead). */
    struct absent no_close, no_open;
    bool stop_crossed; /* stop_at was no clean place between games */

    /* The game being read. */
    bool started;
    bool skipping;     /* over max_game_bytes: scanned for its end, nothing kept */
    bool too_many_tokens; /* skipping since the game passed max_game_tokens */
    bool has_result;
    bool ctrl_reported;
    bool deep_reported;
    bool reserved_reported; /* a <...> reserved token was reported in this game */
    bool unbraced_reported; /* a [%...] comment without braces was reported in this game */
    bool bad_string;   /* an unterminated tag value: a tag line after a blank line starts anew */
    enum game_phase phase;
    size_t game_start; /* index in data of its first byte (only while !skipping) */
    uint64_t game_off;
    uint64_t game_line;
    uint64_t game_col;
    uint64_t depth;
    uint64_t open_line; /* where the outermost open '(' is */
    uint64_t open_col;

    struct pgn_token *toks;
    size_t ntok, tok_cap;
    size_t tok0;      /* the game's first token: 0, or after the kept games' (keep_tokens) */
    size_t kept;      /* tokens of the games returned since the restart, when keep_tokens */
    bool keep_tokens;
    /* The tags as handed out, built as they are read: names and unescaped values point
     * into data and move with it (make_room); an escaped value has a NULL pointer until
     * finish_game, as scratch may still move: those values lie in scratch in tag order. */
    struct pgn_tag *tags;
    size_t ntag, tag_cap;
    uint64_t eols;    /* line ends since the last byte that was not whitespace */
    uint64_t *name_set; /* hashes of this game's tag names (tag_is_dup): open addressing */
    size_t name_set_cap, name_set_count;
    size_t tags_in_set; /* tags[0, tags_in_set) are in name_set */
    char *scratch;
    size_t scratch_len, scratch_cap;
    struct diag_list diags;
};

/* ---- positions and diagnostics ---------------------------------------------------------- */

/* The 1-based column of index i on the line that starts at index ls. */
static inline uint64_t col_of(size_t i, ptrdiff_t ls) { return (uint64_t)((ptrdiff_t)i - ls + 1); }

static inline uint64_t col_at(const struct pgn_reader *r, size_t i) { return col_of(i, r->ls); }

static void add_diag(struct pgn_reader *r, enum diag_code code, uint64_t line, uint64_t col,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void add_diag(struct pgn_reader *r, enum diag_code code, uint64_t line, uint64_t col,
                     const char *fmt, ...)
{
    struct diag d;
    va_list ap;
    va_start(ap, fmt);
    diag_vset(&d, code, line, col, fmt, ap);
    va_end(ap);
    diag_list_push(&r->diags, &d);
}

/* ---- input buffer ----------------------------------------------------------------------- */

/*
 * The tag names of a game, for tag_is_dup(), as 64-bit FNV-1a hashes in a hash set.  The
 * names of the tags kept are hashed only when a duplicate check needs them (rarely: a tag
 * line after a blank line in a tag section); those seen while the game is skipped, when
 * the buffer does not keep them, at once.  A set, not a list: a tag section of n tags
 * each after a blank line costs n, not n * n (230,000 such tags took 4 minutes).
 */
static uint64_t name_hash(const char *p, size_t len)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t k = 0; k < len; k++)
        h = (h ^ (unsigned char)p[k]) * 0x100000001b3u;
    return h ? h : 1; /* 0 marks an empty slot */
}

static bool name_set_has(const struct pgn_reader *r, uint64_t h)
{
    if (!r->name_set_cap)
        return false;
    for (size_t k = (size_t)h & (r->name_set_cap - 1);; k = (k + 1) & (r->name_set_cap - 1)) {
        if (r->name_set[k] == h)
            return true;
        if (!r->name_set[k])
            return false;
    }
}

static void name_set_put(struct pgn_reader *r, uint64_t h);

PGNKIT_COLD void name_set_grow(struct pgn_reader *r)
{
    uint64_t *old = r->name_set;
    size_t old_cap = r->name_set_cap;
    r->name_set_cap = old_cap ? 2 * old_cap : 64;
    r->name_set = xcalloc(r->name_set_cap, sizeof *r->name_set);
    r->name_set_count = 0;
    for (size_t k = 0; k < old_cap; k++)
        if (old[k])
            name_set_put(r, old[k]);
    free(old);
}

static void name_set_put(struct pgn_reader *r, uint64_t h)
{
    if (2 * (r->name_set_count + 1) > r->name_set_cap)
        name_set_grow(r);
    size_t k = (size_t)h & (r->name_set_cap - 1);
    while (r->name_set[k] && r->name_set[k] != h)
        k = (k + 1) & (r->name_set_cap - 1);
    if (!r->name_set[k]) {
        r->name_set[k] = h;
        r->name_set_count++;
    }
}

/* Hash the names of the tags kept that are not in the set yet. */
static void name_set_catch_up(struct pgn_reader *r)
{
    for (; r->tags_in_set < r->ntag; r->tags_in_set++) {
        const struct pgn_tag *t = &r->tags[r->tags_in_set];
        name_set_put(r, name_hash(t->name.ptr, t->name.len));
    }
}

static void name_set_clear(struct pgn_reader *r)
{
    if (r->name_set_count)
        memset(r->name_set, 0, r->name_set_cap * sizeof *r->name_set);
    r->name_set_count = 0;
    r->tags_in_set = 0;
}

/* Called while the game's bytes are still in the buffer (before fill() moves them). */
static void start_skipping(struct pgn_reader *r)
{
    name_set_catch_up(r);
    r->tags_in_set = 0; /* the tags go; their names stay in the set */
    r->skipping = true;
    r->ntok = r->tok0;
    r->ntag = 0;
    r->scratch_len = 0;
}

/* Move the game's pointers into data along with the bytes: p becomes nb + (p - old). */
static void rebase_game(struct pgn_reader *r, const char *old, char *nb)
{
    for (size_t k = 0; k < r->ntok; k++)
        r->toks[k].text = nb + (r->toks[k].text - old);
    for (size_t k = 0; k < r->ntag; k++) {
        struct pgn_tag *t = &r->tags[k];
        t->name.ptr = nb + (t->name.ptr - old);
        if (t->value.ptr)
            t->value.ptr = nb + (t->value.ptr - old);
    }
}

/* Make room by moving [keep, len) to the front or into a larger buffer. */
static void make_room(struct pgn_reader *r, size_t keep)
{
    size_t live = r->len - keep;
    if (keep > 0 && r->cap - live >= READ_CHUNK) {
        memmove(r->buf, r->buf + keep, live);
        rebase_game(r, r->buf + keep, r->buf);
    } else {
        size_t ncap = r->cap ? r->cap : 2 * (size_t)READ_CHUNK;
        while (ncap - live < READ_CHUNK)
            ncap *= 2;
        char *nb = xmalloc(ncap);
        if (live)
            memcpy(nb, r->buf + keep, live);
        /* Tokens and tags point into the old buffer, which is still alive here (none
         * before the first fill, and r->buf + keep would be arithmetic on NULL). */
        if (r->buf)
            rebase_game(r, r->buf + keep, nb);
        free(r->buf);
        r->buf = nb;
        r->cap = ncap;
    }
    r->data = r->buf;
    r->len = live;
    r->shift = keep;
    r->pos -= keep;
    if (r->started && !r->skipping)
        r->game_start -= keep;
    r->ls -= (ptrdiff_t)keep;
    r->base_off += keep;
}

/*
 * Read more bytes.  Keeps the current game (or, when skipping, everything from r->pos);
 * the data may move: callers subtract r->shift from their indices.  mark: the bytes
 * before it surely belong to the current game (the size limit is checked on them).
 * Returns 1 when bytes were added, 0 at the end of input, -1 on an I/O error.
 */
static int fill(struct pgn_reader *r, size_t mark)
{
    r->shift = 0;
    if (r->eof)
        return 0;
    if (r->started && !r->skipping && mark - r->game_start > r->lim.max_game_bytes)
        start_skipping(r);
    size_t keep = (r->started && !r->skipping) ? r->game_start : r->pos;
    if (r->cap - r->len < READ_CHUNK)
        make_room(r, keep);
    size_t ask = r->cap - r->len < READ_MAX ? r->cap - r->len : READ_MAX;
    ssize_t got = r->src.read(r->src.ctx, r->buf + r->len, ask);
    if (got < 0) {
        r->err_no = errno;
        r->failed = true;
        r->eof = true;
        return -1;
    }
    if (got == 0) {
        r->eof = true;
        return 0;
    }
    r->len += (size_t)got > ask ? ask : (size_t)got;
    return 1;
}

/*
 * Index of the first of a, b, LF and CR in [p, n), or n; p <= n.  Comments and tag values
 * are short and on one line: one SSE2 pass finding the first byte that matters is
 * cheaper than a byte loop with several tests per byte, or a memchr per byte value.
 */
#ifdef __AVX2__
#define SPLAT32(c) {c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, \
                    c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c}
static const char splat_const[][32] __attribute__((aligned(32))) = {
    SPLAT32('"'), SPLAT32('\\'), SPLAT32('\n'), SPLAT32('\r'), SPLAT32('}'),
};

/* c in all 32 bytes, from memory for the usual stops (see vec_const); c is a constant. */
static inline __m256i splat32(char c)
{
    const char *k = c == '"' ? splat_const[0] : c == '\\' ? splat_const[1]
                  : c == '\n' ? splat_const[2] : c == '\r' ? splat_const[3]
                  : c == '}' ? splat_const[4] : NULL;
    if (!k)
        return _mm256_set1_epi8(c);
    __m256i v; /* a load, not a rebuilt splat (see vc) */
    __asm__("vmovdqa %1, %0" : "=x"(v) : "m"(*(const __m256i *)(const void *)k));
    return v;
}
#endif

static inline size_t find_stop(const char *d, size_t p, size_t n, char a, char b)
{
#ifdef __AVX2__
    /* 32 bytes a step: most tag values and clock comments take one. */
    for (; n - p >= 32; p += 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(d + p));
        __m256i hit = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(v, splat32(a)), _mm256_cmpeq_epi8(v, splat32(b))),
            _mm256_or_si256(_mm256_cmpeq_epi8(v, splat32('\n')),
                            _mm256_cmpeq_epi8(v, splat32('\r'))));
        unsigned bits = (unsigned)_mm256_movemask_epi8(hit);
        if (bits)
            return p + (size_t)__builtin_ctz(bits);
    }
#endif
#ifdef __SSE2__
    const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b);
    const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
    for (; n - p >= 16; p += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(d + p));
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)),
                                   _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
        unsigned bits = (unsigned)_mm_movemask_epi8(hit);
        if (bits)
            return p + (size_t)__builtin_ctz(bits);
    }
#endif
    for (; p < n; p++)
        if (d[p] == a || d[p] == b || is_eol(d[p]))
            return p;
    return n;
}

/* ---- tokens and tags -------------------------------------------------------------------- */

/* Out of line and cold: keeps emit() small enough to inline without register spills. */
PGNKIT_COLD void grow_tokens(struct pgn_reader *r)
{
    void *p = r->toks;
    xgrow(&p, &r->tok_cap, r->ntok + 1, sizeof *r->toks);
    r->toks = p;
}

/* Tokens are dropped while the game is skipped or inside variations nested too deep. */
static inline bool tokens_kept(const struct pgn_reader *r)
{
    return !r->skipping && r->depth <= r->lim.max_depth;
}

/* The game passed max_game_tokens: it is skipped from here on, as one over
 * max_game_bytes is (its tokens would cost ~40 bytes each, up to 40 times its bytes). */
PGNKIT_COLD void tokens_over_limit(struct pgn_reader *r)
{
    r->too_many_tokens = true;
    start_skipping(r);
}

static inline void emit(struct pgn_reader *r, const char *text, size_t len, uint64_t line,
                        uint64_t col, enum pgn_token_kind kind)
{
    if (!tokens_kept(r))
        return;
    if (r->ntok - r->tok0 >= r->lim.max_game_tokens) {
        tokens_over_limit(r);
        return;
    }
    if (r->ntok == r->tok_cap)
        grow_tokens(r);
    /* A token keeps its line's low 32 bits (pgn_token_line) and a clamped column. */
    r->toks[r->ntok++] = (struct pgn_token){.text = text, .len = (uint32_t)len,
                                            .line = (uint32_t)line,
                                            .col = col > UINT32_MAX ? UINT32_MAX : (uint32_t)col,
                                            .kind = (uint8_t)kind};
}

/* An en dash or an em dash (UTF-8 E2 80 93 / E2 80 94) at p. */
static bool is_dash(const char *p)
{
    return memcmp(p, "\xe2\x80", 2) == 0 && (p[2] == '\x93' || p[2] == '\x94');
}

/* A termination marker: the standard's, ½-½, or one written with an en or em dash (1–0,
 * 0—1, ½–½, 1/2–1/2); game.c reads the others as the standard one, with a warning. */
static bool is_result(const char *p, size_t len)
{
    switch (len) {
    case 3:
        return memcmp(p, "1-0", 3) == 0 || memcmp(p, "0-1", 3) == 0;
    case 5:
        return memcmp(p, "\xc2\xbd-\xc2\xbd", 5) == 0 || /* ½-½ */
               (((p[0] == '1' && p[4] == '0') || (p[0] == '0' && p[4] == '1')) &&
                is_dash(p + 1));
    case 7:
        return memcmp(p, "1/2-1/2", 7) == 0 ||
               (memcmp(p, "\xc2\xbd", 2) == 0 && is_dash(p + 2) && memcmp(p + 5, "\xc2\xbd", 2) == 0);
    case 9:
        return memcmp(p, "1/2", 3) == 0 && is_dash(p + 3) && memcmp(p + 6, "1/2", 3) == 0;
    default:
        return false;
    }
}

/*
 * e8(Q), bxa8(N)+: a promotion piece in parentheses (SPEC §3.6) looks like a one-letter
 * variation to the tokenizer.  At the '(' at index i: when the token just kept is a move
 * ending on rank 1 or 8 right before it, starting with a file letter (a pawn move), and
 * '(' letter ')' follows, returns the index after the rest of that move token (a check
 * mark or glyph may follow the ')'), which then joins the move; else 0 (a variation).
 * NEED_MORE when the bytes to decide are not read yet.
 */
static size_t promotion_paren_end(const struct pgn_reader *r, size_t i)
{
    const char *d = r->data;
    size_t n = r->len;
    if (r->ntok == r->tok0 || !tokens_kept(r))
        return 0;
    const struct pgn_token *last = &r->toks[r->ntok - 1];
    if (last->kind != PGN_TOK_MOVE || last->text + last->len != d + i ||
        (d[i - 1] != '1' && d[i - 1] != '8') || last->text[0] < 'a' || last->text[0] > 'h')
        return 0;
    if (n - i < 3)
        return r->eof ? 0 : NEED_MORE;
    if (!((d[i + 1] | 0x20) >= 'a' && (d[i + 1] | 0x20) <= 'z') || d[i + 2] != ')')
        return 0;
    size_t k = i + 3;
    while (k < n && !is_delim(d[k]) && k - i < 8)
        k++;
    if (k == n && !r->eof)
        return NEED_MORE;
    return k;
}

/* A tag pair as parsed, before the caller decides to keep it. */
struct tag_parse {
    size_t name, name_len, value, value_len; /* indices into data */
    bool has_tag;
    bool escaped;
    bool fixed;   /* the value held an unescaped '"' (tag_fix_string) */
    enum diag_code err;
    size_t err_pos;
    const char *err_msg;
};

static void tag_error(struct tag_parse *tp, enum diag_code code, size_t pos, const char *msg)
{
    if (tp->err != DIAG_OK)
        return;
    tp->err = code;
    tp->err_pos = pos;
    tp->err_msg = msg;
}

/*
 * The bytes of a tag line are scanned up to index e: the end of the data, or, when the
 * data runs further, the tag line's bound (capped).  Reaching e means NEED_MORE, the end
 * of input, or (capped) a tag line too long to keep: TAG_SKIP_LINE with a BAD_TAG error.
 */
struct tag_end {
    size_t e;
    bool capped;
};

static size_t tag_at_end(const struct pgn_reader *r, const struct tag_end *te,
                         struct tag_parse *tp)
{
    if (te->capped) {
        tp->has_tag = false;
        tp->err = DIAG_OK; /* this error replaces any earlier one */
        tag_error(tp, DIAG_BAD_TAG, te->e,
                  "a tag line over the limit (tag name: --max-token-bytes, tag value: "
                  "--max-comment-bytes); the rest of the line is skipped");
        return TAG_SKIP_LINE;
    }
    return r->eof ? te->e : NEED_MORE;
}

/* After a bad tag: skip to its ']' (consumed) or the end of its line (not consumed). */
static size_t tag_recover(const struct pgn_reader *r, const char *d, size_t j,
                          const struct tag_end *te, struct tag_parse *tp)
{
    while (j < te->e && d[j] != ']' && !is_eol(d[j]))
        j++;
    if (j == te->e)
        return tag_at_end(r, te, tp);
    return d[j] == ']' ? j + 1 : j;
}

/*
 * The usual tag pair, [Name "Value"] with one space, no escape and nothing wrong, all
 * within the data and the limits: returns the index after its ']' with *tp filled as
 * parse_tag() would fill it, or 0 for anything else, which parse_tag() then handles.
 * Two vector scans (name, value) instead of parse_tag's byte loops and bound bookkeeping.
 */
static inline size_t parse_tag_simple(const struct pgn_reader *r, const char *d, size_t i,
                                      size_t n, struct tag_parse *tp)
{
    size_t name = i + 1;
    size_t j = run_end(d, name, n);
    if (j == name || j - name > r->lim.max_token_bytes || n - j < 2 || d[j] != ' ' ||
        d[j + 1] != '"')
        return 0;
    size_t value = j + 2;
    size_t q = find_stop(d, value, n, '"', '\\');
    /* Within max_comment_bytes, the line is within parse_tag's bound too. */
    if (n - q < 2 || d[q] != '"' || d[q + 1] != ']' || q - value > r->lim.max_comment_bytes)
        return 0;
    *tp = (struct tag_parse){.name = name,
                             .name_len = j - name,
                             .value = value,
                             .value_len = q - value,
                             .has_tag = true};
    return q + 2;
}

/* Index of the first line end in [p, e), or e. */
static inline size_t next_eol(const char *d, size_t p, size_t e)
{
    if (p >= e)
        return e;
    const char *lf = memchr(d + p, '\n', e - p);
    size_t stop = lf ? (size_t)(lf - d) : e;
    const char *cr = stop > p ? memchr(d + p, '\r', stop - p) : NULL;
    return cr ? (size_t)(cr - d) : stop;
}

/*
 * A tag value with an unescaped '"' inside ([Event "5th "X" Intl"]) or a backslash before
 * its closing quote ([Event "Tournament \"]), read as pgn-extract's --fixtagstrings reads
 * it: when the line ends in '"' ']' (blanks allowed), the value is everything from the
 * opening quote to that last '"' (\" and \\ undone, a lone backslash kept).  Returns the
 * index after the ']' with *tp set (and tp->fixed, for a warning), or 0 when the line is
 * not of that shape (or its end is not read yet: the caller then waits or reports).
 */
static size_t tag_fix_string(const struct pgn_reader *r, const char *d, size_t value,
                             const struct tag_end *te, struct tag_parse *tp)
{
    size_t eol = next_eol(d, value, te->e);
    if (eol == te->e && (te->capped || !r->eof))
        return 0;
    size_t b = eol;
    while (b > value && is_hspace(d[b - 1]))
        b--;
    if (b == value || d[b - 1] != ']')
        return 0;
    size_t q = b - 1;
    while (q > value && is_hspace(d[q - 1]))
        q--;
    if (q == value || d[q - 1] != '"')
        return 0;
    q--;
    tp->value = value;
    tp->value_len = q - value;
    tp->escaped = memchr(d + value, '\\', q - value) != NULL;
    tp->fixed = true;
    return b;
}

/*
 * Parse the tag pair whose '[' is at d[i]; returns the index after it, NEED_MORE, or
 * TAG_SKIP_LINE.  A tag line is bounded (max_token_bytes for the name, max_comment_bytes
 * for the value, plus slack for blanks), so one endless line can neither grow the buffer
 * past the limits nor be rescanned forever.  A name over max_token_bytes is reported as
 * TOKEN_TOO_LONG and the tag dropped.
 */
static size_t parse_tag(const struct pgn_reader *r, const char *d, size_t i, size_t n,
                        struct tag_parse *tp)
{
    memset(tp, 0, sizeof *tp);
    size_t bound = r->lim.max_token_bytes + r->lim.max_comment_bytes + 256;
    struct tag_end te = {n, false};
    if (n - i > bound)
        te = (struct tag_end){i + bound, true};
    const size_t e = te.e;
    size_t j = i + 1;
    while (j < e && is_hspace(d[j]))
        j++;
    size_t name = j;
    /* At most max_token_bytes + 1 bytes: one more than the limit tells it was passed. */
    size_t name_e = e - name > r->lim.max_token_bytes ? name + r->lim.max_token_bytes + 1 : e;
    while (j < name_e && !is_delim(d[j]))
        j++;
    if (j - name > r->lim.max_token_bytes) {
        tag_error(tp, DIAG_TOKEN_TOO_LONG, name,
                  "a tag name over the limit (--max-token-bytes); the tag is dropped");
        return tag_recover(r, d, j, &te, tp);
    }
    if (j == e && (te.capped || !r->eof))
        return tag_at_end(r, &te, tp);
    if (j == name) {
        tag_error(tp, DIAG_BAD_TAG, j, "a tag name was expected after '['");
        return tag_recover(r, d, j, &te, tp);
    }
    tp->name = name;
    tp->name_len = j - name;
    while (j < e && is_hspace(d[j]))
        j++;
    if (j == e && (te.capped || !r->eof))
        return tag_at_end(r, &te, tp);
    if (j == e || d[j] != '"') {
        tag_error(tp, DIAG_BAD_TAG, j, "a quoted tag value was expected");
        return tag_recover(r, d, j, &te, tp);
    }
    size_t value = ++j;
    bool closed = false;
    while (j < e) {
        j = find_stop(d, j, e, '"', '\\');
        if (j == e)
            break;
        char c = d[j];
        if (c == '"') {
            closed = true;
            break;
        }
        if (c == '\\') {
            if (j + 1 == e && (te.capped || !r->eof))
                return tag_at_end(r, &te, tp);
            if (j + 1 < e && (d[j + 1] == '"' || d[j + 1] == '\\')) {
                tp->escaped = true;
                j += 2;
                continue;
            }
        }
        if (is_eol(c))
            break;
        j++;
    }
    if (j == e && (te.capped || !r->eof))
        return tag_at_end(r, &te, tp);
    tp->value = value;
    tp->value_len = j - value;
    tp->has_tag = true;
    if (!closed) {
        size_t fixed = tag_fix_string(r, d, value, &te, tp);
        if (fixed)
            return fixed;
        tag_error(tp, DIAG_UNTERMINATED_STRING, value - 1, "the tag value never closes");
        return j;
    }
    j++;
    while (j < e && is_hspace(d[j]))
        j++;
    if (j == e && (te.capped || !r->eof))
        return tag_at_end(r, &te, tp);
    if (j < e && d[j] == ']')
        return j + 1;
    size_t fixed = tag_fix_string(r, d, value, &te, tp);
    if (fixed)
        return fixed;
    tag_error(tp, DIAG_BAD_TAG, j, "']' was expected after the tag value");
    return tag_recover(r, d, j, &te, tp);
}

static bool tag_is_dup(struct pgn_reader *r, const char *d, const struct tag_parse *tp)
{
    name_set_catch_up(r);
    return name_set_has(r, name_hash(d + tp->name, tp->name_len));
}

PGNKIT_COLD void grow_tags(struct pgn_reader *r)
{
    void *p = r->tags;
    xgrow(&p, &r->tag_cap, r->ntag + 1, sizeof *r->tags);
    r->tags = p;
}

/* A new tag at the end of the game's tags, for the caller to fill. */
static inline struct pgn_tag *push_tag(struct pgn_reader *r)
{
    if (r->ntag == r->tag_cap)
        grow_tags(r);
    return &r->tags[r->ntag++];
}

/* Keep the tag pair parsed at d[i], on the line `line` whose first byte is at ls. */
static void commit_tag(struct pgn_reader *r, const char *d, size_t i, const struct tag_parse *tp,
                       uint64_t line, ptrdiff_t ls)
{
    if (tp->err != DIAG_OK)
        add_diag(r, tp->err, line, col_of(tp->err_pos, ls), "%s", tp->err_msg);
    else if (tp->fixed)
        add_diag(r, DIAG_NONSTANDARD, line, col_of(tp->value - 1, ls),
                 "non-standard notation accepted: a '\"' or '\\' in the tag value is not "
                 "escaped; the value is read up to the last '\"' before ']'");
    if (tp->err == DIAG_UNTERMINATED_STRING)
        r->bad_string = true;
    if (!tp->has_tag)
        return;
    if (r->skipping) {
        name_set_put(r, name_hash(d + tp->name, tp->name_len));
        return;
    }
    struct pgn_tag *t = push_tag(r);
    t->name = (struct slice){d + tp->name, tp->name_len};
    t->line = line;
    t->col = col_of(i, ls);
    if (!tp->escaped) {
        t->value = (struct slice){d + tp->value, tp->value_len};
        return;
    }
    /* Undo \" and \\ into the scratch area; other backslashes stay as written. */
    if (r->scratch_len + tp->value_len > r->scratch_cap) {
        void *p = r->scratch;
        xgrow(&p, &r->scratch_cap, r->scratch_len + tp->value_len, 1);
        r->scratch = p;
    }
    const char *s = d + tp->value;
    char *o = r->scratch + r->scratch_len;
    size_t out = 0;
    for (size_t k = 0; k < tp->value_len; k++) {
        if (s[k] == '\\' && k + 1 < tp->value_len && (s[k + 1] == '"' || s[k + 1] == '\\'))
            k++;
        o[out++] = s[k];
    }
    t->value = (struct slice){NULL, out}; /* finish_game points it into scratch */
    r->scratch_len += out;
}

/* ---- comments and lines ----------------------------------------------------------------- */


static inline bool all_hspace(const char *d, size_t p, size_t e)
{
    for (; p < e; p++)
        if (!is_hspace(d[p]))
            return false;
    return true;
}

/* State of the line walk through a {comment}. */
struct comment_walk {
    size_t scanned; /* lines are counted up to here */
    bool nonblank;  /* the current line has a non-blank byte before `scanned` */
    bool pending;   /* `scanned` starts a line and the line before it was blank */
};

static inline bool is_tag_name_byte(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '_';
}

/* Whether d[k] ('[') starts a tag pair, [Name "value"] (escapes allowed): 1 yes, 0 no,
 * -1 when d[.., n) ends before that is decided.  Bounded by PGN_COMMENT_LOOKAHEAD. */
static int tag_pair_at(const char *d, size_t n, size_t k)
{
    size_t e = n - k > PGN_COMMENT_LOOKAHEAD ? k + PGN_COMMENT_LOOKAHEAD : n;
    int more = e == n ? -1 : 0; /* the answer when the bytes run out */
    size_t j = k + 1;
    while (j < e && is_hspace(d[j]))
        j++;
    size_t name = j;
    while (j < e && is_tag_name_byte(d[j]))
        j++;
    if (j == name && j < e)
        return 0;
    while (j < e && is_hspace(d[j]))
        j++;
    if (j == e)
        return more;
    if (d[j] != '"')
        return 0;
    for (j++; j < e && d[j] != '"' && !is_eol(d[j]); j++)
        if (d[j] == '\\' && j + 1 < e && d[j + 1] != '\n' && d[j + 1] != '\r')
            j++;
    if (j >= e)
        return more;
    if (d[j] != '"')
        return 0;
    for (j++; j < e && is_hspace(d[j]);)
        j++;
    if (j == e)
        return more;
    return d[j] == ']';
}

/* pgn_tag_line_ends_comment, d[0] at file offset base, with the reader's stretches known
 * to hold no '}' and no '{' (or NULL). */
static int ends_comment(const char *d, size_t n, size_t k, bool at_end, uint64_t base,
                        struct absent *no_close, struct absent *no_open)
{
    int tag = tag_pair_at(d, n, k);
    if (tag <= 0)
        return tag < 0 && !at_end ? -1 : 0;
    size_t e = n - k > PGN_COMMENT_LOOKAHEAD ? k + PGN_COMMENT_LOOKAHEAD : n;
    size_t close = find_byte(d, base, k, e, '}', no_close);
    if (find_byte(d, base, k, close, '{', no_open) < close)
        return 1; /* the next '}' closes another comment */
    if (close < e)
        return 0;
    return e < n || at_end ? 1 : -1;
}

int pgn_tag_line_ends_comment(const char *d, size_t n, size_t k, bool at_end)
{
    return ends_comment(d, n, k, at_end, 0, NULL, NULL);
}

/*
 * The reader decided at the end of the data of a reader that stops before it
 * (pgn_reader_restart): with more bytes the answer might differ, so the piece must be
 * read again with more (pgn_reader_stop_crossed).
 */
static int decided_at_data_end(struct pgn_reader *r, int answer)
{
    if (r->stop_at < r->len)
        r->stop_crossed = true;
    return answer;
}

/* pgn_tag_line_ends_comment() for the tag line at k inside the comment being read: 1, 0,
 * or -1 when more bytes are needed.  closed: a '}' is read after k (the comment's). */
static int tag_line_ends_comment(struct pgn_reader *r, size_t k, bool closed)
{
    int ends = ends_comment(r->data, r->len, k, false, r->base_off, &r->no_close, &r->no_open);
    if (ends >= 0)
        return ends;
    if (closed)
        return 0; /* the data ends inside the tag line, after the '}' that closes it */
    if (!r->eof)
        return -1;
    return decided_at_data_end(
        r, ends_comment(r->data, r->len, k, true, r->base_off, &r->no_close, &r->no_open));
}

/*
 * Count the line ends in [w->scanned, e) and look for a tag pair line after a blank line
 * that ends an unterminated comment (tag_line_ends_comment: not when the comment closes
 * soon after it).  final: e is the end of the comment or of the input; closed: it is the
 * comment's '}'.  Returns the '[' index of such a tag line, or NEED_MORE when none was
 * found.
 */
static size_t comment_lines(struct pgn_reader *r, struct comment_walk *w, size_t e, bool final,
                            bool closed)
{
    const char *d = r->data;
    size_t n = r->len;
    size_t p = w->scanned;
    for (;;) {
        if (w->pending) {
            size_t k = p;
            while (k < e && is_hspace(d[k]))
                k++;
            if (k < e && d[k] == '[') {
                int ends = tag_line_ends_comment(r, k, closed);
                if (ends > 0)
                    return k;
                if (ends < 0) {
                    w->scanned = p;
                    return NEED_MORE;
                }
            }
            if (k == e && !final) {
                w->scanned = p;
                return NEED_MORE;
            }
            w->pending = false;
        }
        size_t x = next_eol(d, p, e);
        if (x == e) {
            w->nonblank = w->nonblank || !all_hspace(d, p, e);
            w->scanned = e;
            return NEED_MORE;
        }
        size_t y = x + 1;
        if (d[x] == '\r') {
            if (y < n) {
                if (d[y] == '\n')
                    y++;
            } else if (!r->eof) {
                /* A CR at the end of the data: wait to see whether LF follows. */
                w->nonblank = w->nonblank || !all_hspace(d, p, x);
                w->scanned = x;
                return NEED_MORE;
            }
        }
        bool blank = !w->nonblank && all_hspace(d, p, x);
        r->line++;
        r->ls = (ptrdiff_t)y;
        w->pending = blank;
        w->nonblank = false;
        p = y;
    }
}

static size_t trim_end(const char *d, size_t s, size_t e)
{
    while (e > s && (is_hspace(d[e - 1]) || is_eol(d[e - 1])))
        e--;
    return e;
}

PGNKIT_COLD void comment_too_long(struct pgn_reader *r, size_t len,
                                  uint64_t line, uint64_t col)
{
    add_diag(r, DIAG_COMMENT_TOO_LONG, line, col,
             "a comment of %zu bytes is over the limit of %zu; dropped", len,
             r->lim.max_comment_bytes);
}

static inline void emit_comment(struct pgn_reader *r, size_t s, size_t e, uint64_t line,
                                uint64_t col)
{
    if (e - s > r->lim.max_comment_bytes)
        comment_too_long(r, e - s, line, col);
    else
        emit(r, r->data + s, e - s, line, col, PGN_TOK_COMMENT);
}


/* The first '}' in data[from, len), or NULL (no stretch searched twice: find_byte). */
static const char *find_close(struct pgn_reader *r, size_t from)
{
    size_t at = find_byte(r->data, r->base_off, from, r->len, '}', &r->no_close);
    return at < r->len ? r->data + at : NULL;
}

/*
 * Scan the {comment} whose '{' is at index i.  Returns the index after it.  When it never
 * closes and a tag line after a blank line ends it, returns that '[' index and sets
 * *boundary.  Returns SIZE_MAX on an I/O error.
 */
static size_t scan_comment(struct pgn_reader *r, size_t i, bool *boundary)
{
    uint64_t line = r->line, col = col_at(r, i);
    size_t open = i, start = i + 1, searched = start;
    *boundary = false;
    /* The common case: the '}' comes before any line end, so there are no lines to count
     * and no tag line to look for (what the walk below would find, at a higher cost). */
    size_t stop = find_stop(r->data, start, r->len, '}', '}');
    if (stop < r->len && r->data[stop] == '}') {
        if (!r->skipping)
            emit_comment(r, start, stop, line, col);
        return stop + 1;
    }
    struct comment_walk w = {.scanned = start, .nonblank = true, .pending = false};
    for (;;) {
        const char *d = r->data;
        size_t n = r->len;
        const char *hit = find_close(r, searched);
        size_t e = hit ? (size_t)(hit - d) : n;
        bool final = hit != NULL || r->eof;
        size_t tag = comment_lines(r, &w, e, final, hit != NULL);
        if (tag != NEED_MORE) {
            add_diag(r, DIAG_UNTERMINATED_COMMENT, line, col,
                     "the comment never closes; it ends at the tag pair on line %llu",
                     (unsigned long long)r->line);
            if (!r->skipping)
                emit_comment(r, start, trim_end(d, start, tag), line, col);
            *boundary = true;
            return tag;
        }
        if (hit) {
            if (!r->skipping)
                emit_comment(r, start, e, line, col);
            return e + 1;
        }
        if (r->eof) {
            add_diag(r, DIAG_UNTERMINATED_COMMENT, line, col,
                     "the comment never closes before the end of the input");
            if (!r->skipping)
                emit_comment(r, start, trim_end(d, start, n), line, col);
            return n;
        }
        searched = n;
        r->pos = r->skipping ? w.scanned : open;
        if (fill(r, w.scanned) < 0)
            return SIZE_MAX;
        /* When skipping, open and start may wrap; they are not used then. */
        open -= r->shift;
        start -= r->shift;
        searched -= r->shift;
        w.scanned -= r->shift;
    }
}

/* Skip to the end of the line (not consumed), keeping nothing.  SIZE_MAX on I/O error. */
static size_t skip_line(struct pgn_reader *r, size_t i)
{
    for (;;) {
        size_t e = next_eol(r->data, i, r->len);
        if (e < r->len || r->eof)
            return e;
        r->pos = e;
        if (fill(r, r->pos) < 0)
            return SIZE_MAX;
        i = r->pos;
    }
}

/* Skip the rest of a token run, keeping nothing.  SIZE_MAX on I/O error. */
static size_t skip_run(struct pgn_reader *r, size_t i)
{
    for (;;) {
        const char *d = r->data;
        size_t n = r->len;
        while (i < n && !is_delim(d[i]))
            i++;
        if (i < n || r->eof)
            return i;
        r->pos = i;
        if (fill(r, r->pos) < 0)
            return SIZE_MAX;
        i = r->pos;
    }
}

/* ---- games ------------------------------------------------------------------------------ */

/* Whether only blanks stand before d[i] on its line (a UTF-8 BOM counts as blank: one
 * between concatenated files starts the next file's first line). */
static bool first_on_line(const struct pgn_reader *r, const char *d, size_t i)
{
    for (ptrdiff_t k = (ptrdiff_t)i - 1; k >= r->ls; k--) {
        if (k - 2 >= r->ls && memcmp(d + k - 2, "\xef\xbb\xbf", 3) == 0)
            k -= 2;
        else if (!is_hspace(d[k]))
            return false;
    }
    return true;
}

/*
 * A '[' in movetext at d[i].  When it begins its line and a tag pair follows ('[', a name,
 * a '"'), the next game's tag section starts here: returns 0.  Any other '[' is this
 * game's: "[%...]" up to a ']' on the same line (at most max_token_bytes; a broken
 * export's [%clk 0:00:10] without braces) is a comment token, with one NONSTANDARD
 * warning per game; the rest is an UNEXPECTED_CHAR error.  Returns the index after what
 * was read, or NEED_MORE.
 */
static size_t movetext_bracket(struct pgn_reader *r, const char *d, size_t i, size_t n,
                               uint64_t line, uint64_t col)
{
    size_t max_tok = r->lim.max_token_bytes;
    if (first_on_line(r, d, i)) {
        size_t j = i + 1;
        while (j < n && is_hspace(d[j]) && j - i < max_tok)
            j++;
        size_t name = j;
        while (j < n && !is_delim(d[j]) && j - name <= max_tok)
            j++;
        size_t name_end = j;
        while (j < n && is_hspace(d[j]) && j - i < 2 * max_tok)
            j++;
        if (j == n && !r->eof)
            return NEED_MORE;
        if (name_end > name && d[name] != '%' && j < n && d[j] == '"')
            return 0;
    }
    if (i + 1 < n && d[i + 1] == '%') {
        size_t j = i + 2;
        while (j < n && d[j] != ']' && !is_eol(d[j]) && j - i < max_tok)
            j++;
        if (j == n && !r->eof)
            return NEED_MORE;
        if (j < n && d[j] == ']') {
            if (!r->unbraced_reported) {
                r->unbraced_reported = true;
                add_diag(r, DIAG_NONSTANDARD, line, col,
                         "'%.*s' outside braces read as a comment (the first in this game)",
                         (int)(j + 1 - i > 40 ? 40 : j + 1 - i), d + i);
            }
            emit(r, d + i, j + 1 - i, line, col, PGN_TOK_COMMENT);
            return j + 1;
        }
    }
    if (i + 1 == n && !r->eof)
        return NEED_MORE;
    add_diag(r, DIAG_UNEXPECTED_CHAR, line, col,
             "'[' in the moves starts no tag pair (a tag pair begins its line)");
    return i + 1;
}

static void begin_game(struct pgn_reader *r, size_t i)
{
    r->started = true;
    r->game_start = i;
    r->game_off = r->base_off + i;
    r->game_line = r->line;
    r->game_col = col_at(r, i);
}

static void reset_game(struct pgn_reader *r)
{
    r->started = false;
    r->skipping = false;
    r->too_many_tokens = false;
    r->has_result = false;
    r->ctrl_reported = false;
    r->deep_reported = false;
    r->reserved_reported = false;
    r->unbraced_reported = false;
    r->bad_string = false;
    r->phase = PHASE_BEFORE;
    r->depth = 0;
    r->ntok = r->tok0 = r->kept;
    r->ntag = 0;
    name_set_clear(r);
    r->scratch_len = 0;
    diag_list_clear(&r->diags);
}

static void skip_bom(struct pgn_reader *r)
{
    r->bom_done = true;
    while (r->len < 3 && !r->eof) {
        r->pos = 0;
        if (fill(r, r->pos) < 0)
            return;
    }
    if (r->len >= 3 && memcmp(r->data, "\xef\xbb\xbf", 3) == 0) {
        r->pos = 3;
        r->ls = 3;
    }
}

/* A move, number or NAG token longer than the limit: report and skip it. */
static size_t token_too_long(struct pgn_reader *r, size_t i)
{
    add_diag(r, DIAG_TOKEN_TOO_LONG, r->line, col_at(r, i),
             "a token longer than %zu bytes; skipped", r->lim.max_token_bytes);
    /* From i + 1: a NAG's '$' is a delimiter itself, and progress must be made. */
    return skip_run(r, i + 1);
}

/*
 * Windows.  Far enough from the end of the data (WINDOW_SLACK bytes), the bytes after a
 * token's first byte are classified with one vector step and no bounds checks: a move
 * ends within 16 bytes, a move number's digits and dots are counted from two masks, a
 * comment's '}' is found among the next 32 (16 without AVX2).  A token found that way is
 * complete (it ends before the end of the data) and shorter than the limits, which
 * window_end() checks once: each such token skips scan_fast's general checks.  Anything
 * not found within its window takes the general path, which decides as before.
 */
#define WINDOW_SLACK 64

/* Index below which scan_fast may use windows: 0 (never) when the limits are below a
 * window's reach, so that a token found in a window is surely within them. */
static inline size_t window_end(const struct pgn_reader *r, size_t n)
{
#ifdef __SSSE3__
    if (n > WINDOW_SLACK && r->lim.max_token_bytes >= 16 && r->lim.max_comment_bytes >= 32)
        return n - WINDOW_SLACK;
#else
    (void)r;
    (void)n;
#endif
    return 0;
}

#ifdef __SSSE3__
/*
 * The length of the move number (digits then dots) at p, whose first byte is a digit: 16
 * when the 16 bytes at p hold no such number ending within them (a result, a bare
 * number, a longer one), which the general path then decides.  No dot after the digits
 * makes the first non-dot the first non-digit: e == k.
 */
static inline size_t number_window(const char *p)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    /* A byte minus '0' (wrapping) is 10 or more for anything but a digit. */
    __m128i nondigit = _mm_adds_epu8(_mm_sub_epi8(v, vc(VC_ZERO_CH)), vc(VC_SAT76));
    unsigned nd = (unsigned)_mm_movemask_epi8(nondigit) | 0x10000u;
    unsigned dots = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, vc(VC_DOT)));
    unsigned k = (unsigned)__builtin_ctz(nd); /* the first non-digit: a dot, or no number */
    unsigned e = (unsigned)__builtin_ctz(~(dots | ((1u << k) - 1))); /* the first non-dot */
    return e > k ? e : 16;
}
#endif

/*
 * Index, from p, of the first '}' or byte up to CR in the window at p; the window's size if
 * none.  Bytes up to CR are LF and CR, and the control bytes below them: one unsigned min
 * and compare instead of two compares; the caller's d[close] == '}' test sends a comment
 * stopped at one of those (a tab, say) to the general path, which finds the real stop.
 */
static inline size_t comment_window(const char *p)
{
#if defined(__AVX2__)
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i low = _mm256_cmpeq_epi8(_mm256_min_epu8(v, splat32('\r')), v);
    __m256i hit = _mm256_or_si256(_mm256_cmpeq_epi8(v, splat32('}')), low);
    uint64_t bits = (uint32_t)_mm256_movemask_epi8(hit) | ((uint64_t)1 << 32);
    return (size_t)__builtin_ctzll(bits);
#elif defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('}')),
                               _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                            _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
    return (size_t)__builtin_ctz((unsigned)_mm_movemask_epi8(hit) | 0x10000u);
#else
    (void)p;
    return 0; /* never used: window_end() is 0 without SSSE3 */
#endif
}

#if defined(__AVX2__)
#define VALUE_WINDOW 32
#else
#define VALUE_WINDOW 16
#endif

/* Index, from p, of the first '"', '\\' or byte up to CR (see comment_window) in the window
 * at p (a tag value's find_stop in one step); VALUE_WINDOW if none. */
static inline size_t value_window(const char *p)
{
#if defined(__AVX2__)
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i low = _mm256_cmpeq_epi8(_mm256_min_epu8(v, splat32('\r')), v);
    __m256i hit = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(v, splat32('"')), _mm256_cmpeq_epi8(v, splat32('\\'))),
        low);
    uint64_t bits = (uint32_t)_mm256_movemask_epi8(hit) | ((uint64_t)1 << 32);
    return (size_t)__builtin_ctzll(bits);
#elif defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i quote = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                 _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    __m128i hit = _mm_or_si128(quote, _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                                   _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
    return (size_t)__builtin_ctz((unsigned)_mm_movemask_epi8(hit) | 0x10000u);
#else
    (void)p;
    return VALUE_WINDOW; /* never used: window_end() is 0 without SSSE3 */
#endif
}

/*
 * The usual tag pair at d[i] (parse_tag_simple's), its name in a window: returns the index
 * after its ']' or 0.  Only below window_end(), so the name is within the limit, and a
 * value closed within its window (value_window) is within the data and max_comment_bytes
 * (the name ends within 16 bytes of i, the value window within 18 + 32 < WINDOW_SLACK).
 * A name of 16 bytes has no delimiter in the name window: j is then name + 16, which
 * d[j] == ' ' confirms as run_end would.
 */
static inline size_t tag_window(const struct pgn_reader *r, const char *d, size_t i, size_t n,
                                struct tag_parse *tp)
{
#ifdef __SSSE3__
    size_t name = i + 1;
    size_t j = name + (size_t)__builtin_ctz(delim_bits(d + name) | 0x10000u);
    if (j == name || d[j] != ' ' || d[j + 1] != '"')
        return 0;
    size_t value = j + 2;
    size_t q = value + value_window(d + value);
    if (q == value + VALUE_WINDOW) {
        q = find_stop(d, q, n, '"', '\\');
        if (n - q < 2 || q - value > r->lim.max_comment_bytes)
            return 0;
    }
    if (d[q] != '"' || d[q + 1] != ']')
        return 0;
    tp->name = name;
    tp->name_len = j - name;
    tp->value = value;
    tp->value_len = q - value;
    return q + 2;
#else
    (void)r, (void)d, (void)i, (void)n, (void)tp;
    return 0;
#endif
}

/*
 * scan_fast's game phase, derived only where it is needed (a tag, the exit) rather than
 * stored per token: movetext once a move or number token is read (a comment changes
 * nothing), else the phase at the mark (the entry, or the last tag pair: PHASE_TAGS).
 * Only comments lie between a mark and a tag pair, so each token is looked at once.
 */
struct fast_mark {
    const struct pgn_token *tok; /* the first token after the mark */
    enum game_phase phase;
};

static inline enum game_phase fast_phase(const struct pgn_token *tok, struct fast_mark m)
{
    if (m.phase == PHASE_MOVETEXT)
        return PHASE_MOVETEXT;
    for (const struct pgn_token *t = m.tok; t < tok; t++)
        if (t->kind != PGN_TOK_COMMENT)
            return PHASE_MOVETEXT;
    return m.phase;
}

/*
 * The fast path: move tokens, move numbers with their dots, comments closed on their own
 * line, usual tag pairs, blanks and line ends, which are nearly all the bytes of a game.  Its
 * state (index, line, line start, line-end count, token count) lives in registers for the
 * whole run, the phase is derived when needed (fast_mark); scan_game's loop, which must
 * also handle tags, limits and refills and calls out for them, keeps its state in the
 * reader.  Each token is handled exactly as scan_game would; anything else (a result, a
 * token at the end of the data or over a limit, any other byte) is left to scan_game: the
 * returned index is where it stopped.
 * Only for a started game whose tokens are kept (the caller checks), so nothing here
 * drops tokens, fills or reports.  Writes its state back to r.
 *
 * Token room: every token takes at least one byte, so a stretch of data no longer than
 * the free token slots cannot overflow them; the loop runs to the end of such a stretch
 * (`stop`) and checks the room only there, not for each token.
 */
PGNKIT_NOINLINE size_t scan_fast(struct pgn_reader *r, size_t i)
{
    const char *d = r->data;
    const size_t n = r->len, max_tok = r->lim.max_token_bytes;
    /* A token ending at `short_at` or later may go on in bytes not read yet. */
    const size_t short_at = r->eof ? SIZE_MAX : n;
    const size_t win_end = window_end(r, n);
    uint64_t line = r->line, run = r->eols;
    /* The index before the line's first byte: a column is then one subtraction. */
    ptrdiff_t ls1 = r->ls - 1;
    /* Columns then fit 32 bits without col_of()'s clamp (ls1 only grows below). */
    if ((ptrdiff_t)n - ls1 > (ptrdiff_t)UINT32_MAX)
        return i;
    /* A fresh reader has no token array yet, and NULL + 0 is undefined (UBSan). */
    if (!r->toks)
        grow_tokens(r);
    struct pgn_token *tok = r->toks + r->ntok;
    struct fast_mark mark = {tok, r->phase};
    while (i < n) {
        /* Near max_game_tokens the slow path goes on: emit() enforces it. */
        size_t held = (size_t)(tok - r->toks) - r->tok0;
        if (held + 64 > r->lim.max_game_tokens)
            goto out;
        if (r->tok_cap - (size_t)(tok - r->toks) < 64) {
            size_t marked = (size_t)(mark.tok - r->toks);
            r->ntok = (size_t)(tok - r->toks);
            grow_tokens(r);
            tok = r->toks + r->ntok;
            mark.tok = r->toks + marked;
        }
        size_t room = r->tok_cap - (size_t)(tok - r->toks);
        if (room > r->lim.max_game_tokens - held)
            room = r->lim.max_game_tokens - held;
        const size_t stop = n - i > room ? i + room : n;
        while (i < stop) {
            unsigned char c = (unsigned char)d[i];
            size_t s = i, e, next; /* the token's text is [s, e); scanning resumes at next */
            enum pgn_token_kind kind;
            /* Tests on the byte itself, in the order of frequency: a chain of two-instruction
             * tests, where one on the class became a jump table. */
            if (fast_class[c] == CC_OTHER) {
#ifdef __SSSE3__
                unsigned bits;
                if (i < win_end && (bits = delim_bits(d + i + 1)) != 0) {
                    e = i + 1 + (size_t)__builtin_ctz(bits);
                    next = e + (d[e] == ' ');
                } else
#endif
                {
                    e = run_end(d, i + 1, n);
                    if (e - i > max_tok || e >= short_at)
                        goto out;
                    next = e + (e < n && d[e] == ' ');
                }
                kind = PGN_TOK_MOVE;
            } else if (is_digit((char)c)) {
#ifdef __SSSE3__
                size_t len;
                if (i < win_end && (len = number_window(d + i)) < 16) {
                    e = i + len;
                    next = e + (d[e] == ' ');
                } else
#endif
                {
                    size_t k = i + 1;
                    while (k < n && is_digit(d[k]))
                        k++;
                    if (k == n || d[k] != '.')
                        goto out; /* a result or a bare number */
                    while (k < n && d[k] == '.')
                        k++;
                    if (k - i > max_tok || k >= short_at)
                        goto out;
                    e = k;
                    next = e + (e < n && d[e] == ' ');
                }
                kind = PGN_TOK_MOVE_NUMBER;
            } else if (c == '{') {
                size_t close;
                if (i < win_end && d[close = i + 1 + comment_window(d + i + 1)] == '}') {
                    next = close + 1 + (d[close + 1] == ' ');
                } else {
                    close = find_stop(d, i + 1, n, '}', '}');
                    if (close == n || d[close] != '}' ||
                        close - i - 1 > r->lim.max_comment_bytes)
                        goto out; /* over lines, unterminated, or too long: scan_comment's */
                    next = close + 1 + (close + 1 < n && d[close + 1] == ' ');
                }
                s = i + 1;
                e = close;
                kind = PGN_TOK_COMMENT; /* which leaves the phase as it is */
            } else if (c == '\n') {
                i++;
                run++;
                line++;
                ls1 = (ptrdiff_t)i - 1;
                continue;
            } else if (c == ' ' || fast_class[c] == CC_SPACE) {
                i++;
                continue;
            } else if (c == '[') {
                /* A tag pair inside a tag section.  The end of a game (a tag after movetext)
                 * and a tag after a blank line (perhaps a new game) are scan_game's. */
                enum game_phase phase = fast_phase(tok, mark);
                if (phase == PHASE_MOVETEXT || (phase == PHASE_TAGS && run >= 2))
                    goto out;
                struct tag_parse tp;
                size_t j = i < win_end ? tag_window(r, d, i, n, &tp) : 0;
                if (j == 0 && (j = parse_tag_simple(r, d, i, n, &tp)) == 0)
                    goto out;
                /* A usual tag pair: commit_tag's case without an error or an escape. */
                *push_tag(r) = (struct pgn_tag){{d + tp.name, tp.name_len},
                                                {d + tp.value, tp.value_len},
                                                line,
                                                (uint32_t)((ptrdiff_t)i - ls1)};
                mark = (struct fast_mark){tok, PHASE_TAGS};
                run = 0;
                i = j;
                continue;
            } else {
                goto out;
            }
            tok->text = d + s;
            tok->len = (uint32_t)(e - s);
            tok->line = (uint32_t)line;
            tok->col = (uint32_t)((ptrdiff_t)i - ls1);
            tok->kind = (uint8_t)kind;
            tok++;
            run = 0;
            i = next;
        }
    }
out:
    r->line = line;
    r->ls = ls1 + 1;
    r->eols = run;
    r->phase = fast_phase(tok, mark);
    r->ntok = (size_t)(tok - r->toks);
    return i;
}

/*
 * Tokenize one game from r->pos.  Returns 1 when a game ended (end kind in *end), 0 when
 * the input ended before any game, -1 on an I/O error.
 *
 * Longer than the house limit on purpose: this is the per-byte loop, one switch over the
 * character class, and its locals (data pointer, length, index) must stay in registers;
 * the rare cases (comments, tags, limits, refills) are calls out of it.
 */
static int scan_game(struct pgn_reader *r, enum game_end *end)
{
    const char *d = r->data;
    size_t i = r->pos, n = r->len;
    const size_t max_tok = r->lim.max_token_bytes;
    uint64_t eols = 0; /* r->eols as it was before the token at i */
    for (;;) {
        if (i >= n) {
            if (r->eof) {
                *end = END_EOF;
                break;
            }
            eols = 0;
        refill:
            /* The token at i is scanned again: give back its line-end count. */
            r->eols += eols;
            eols = 0;
            /* Read until the bytes of the construct at i at least double: rescanning it
             * after every short read (64 KiB from a pipe) would be quadratic. */
            size_t pending = n - i;
            int st;
            do {
                r->pos = i;
                st = fill(r, i);
                d = r->data;
                n = r->len;
                i = r->pos;
            } while (st > 0 && n - i < 2 * pending);
            if (st < 0)
                return -1;
            continue;
        }
        unsigned cl = cls(d[i]);
        if (r->started &&
            (cl == CC_OTHER || cl == CC_DIGIT || cl == CC_LBRACE || cl == CC_LBRACKET) &&
            tokens_kept(r)) {
            /* Most of a game's bytes; what scan_fast() leaves is handled below. */
            i = scan_fast(r, i);
            if (i >= n)
                continue;
            cl = cls(d[i]);
        }
        if (cl == CC_OTHER && (unsigned char)d[i] == 0xef) {
            /* A byte-order mark where a token would start (two BOM files concatenated):
             * whitespace, so a game boundary stays one. */
            if (n - i < 3 && !r->eof) {
                eols = 0;
                goto refill;
            }
            if (n - i >= 3 && memcmp(d + i, "\xef\xbb\xbf", 3) == 0) {
                i += 3;
                continue;
            }
        }
        if (cl == CC_OTHER && r->started) {
            eols = r->eols;
            r->eols = 0;
            goto move_token; /* the common case first */
        }
        /* Whitespace and control bytes (CC_SPACE .. CC_CTRL): one range test keeps them
         * off the path of the tokens. */
        if (cl - CC_SPACE <= CC_CTRL - CC_SPACE) {
            if (cl == CC_SPACE) {
                i++;
                continue;
            }
            if (cl == CC_LF) {
                i++;
                r->eols++;
                r->line++;
                r->ls = (ptrdiff_t)i;
                continue;
            }
            if (cl == CC_CR) {
                if (i + 1 >= n && !r->eof) {
                    eols = 0; /* no token is pending */
                    goto refill;
                }
                i += (i + 1 < n && d[i + 1] == '\n') ? 2 : 1;
                r->eols++;
                r->line++;
                r->ls = (ptrdiff_t)i;
                continue;
            }
            if (cl == CC_CTRL) {
                if (!r->ctrl_reported) {
                    r->ctrl_reported = true;
                    add_diag(r, DIAG_CONTROL_BYTE, r->line, col_at(r, i),
                             "control byte 0x%02x; read as a space", (unsigned char)d[i]);
                }
                i++;
                continue;
            }
        }
        /* Line ends since the last thing that was not whitespace: 2 = a blank line. */
        eols = r->eols;
        r->eols = 0;
        if (cl == CC_PERCENT && (ptrdiff_t)i == r->ls) {
            /* An escape line (PGN standard 6): ignored whole. */
            r->pos = i;
            i = skip_line(r, i);
            if (i == SIZE_MAX)
                return -1;
            d = r->data;
            n = r->len;
            continue;
        }
        if (!r->started) {
            if (i >= r->stop_at) {
                /* The next piece's first game (pgn_reader_restart): this piece ends.  A
                 * diagnostic waiting here (a control byte between games) belongs to that
                 * game, which the next piece's reader will not see. */
                if (r->diags.count)
                    r->stop_crossed = true;
                *end = END_EOF;
                break;
            }
            begin_game(r, i);
        }
        if (cl == CC_OTHER) {
        move_token:;
            size_t j = i + 1;
            while (j < n && !is_delim(d[j]))
                j++;
            if (j - i > max_tok)
                goto too_long;
            if (j == n && !r->eof)
                goto refill;
            r->phase = PHASE_MOVETEXT;
            if ((unsigned char)d[i] == 0xc2 && is_result(d + i, j - i)) {
                emit(r, d + i, j - i, r->line, col_at(r, i), PGN_TOK_RESULT);
                if (r->depth == 0) {
                    r->has_result = true;
                    i = j;
                    *end = END_RESULT;
                    goto done;
                }
            } else {
                emit(r, d + i, j - i, r->line, col_at(r, i), PGN_TOK_MOVE);
            }
            i = j;
            if (i < n && d[i] == ' ')
                i++;
            continue;
        }
        uint64_t line = r->line, col = col_at(r, i);
        switch (cl) {
        case CC_DIGIT: {
            size_t k = i + 1;
            while (k < n && cls(d[k]) == CC_DIGIT)
                k++;
            if (k < n && d[k] == '.') {
                while (k < n && d[k] == '.')
                    k++;
                if (k - i > max_tok)
                    goto too_long;
                if (k == n && !r->eof)
                    goto refill;
                emit(r, d + i, k - i, line, col, PGN_TOK_MOVE_NUMBER);
                r->phase = PHASE_MOVETEXT;
                i = k;
                if (i < n && d[i] == ' ')
                    i++;
                continue;
            }
            size_t j = k;
            while (j < n && !is_delim(d[j]))
                j++;
            if (j - i > max_tok)
                goto too_long;
            if (j == n && !r->eof)
                goto refill;
            r->phase = PHASE_MOVETEXT;
            if (j == k) {
                emit(r, d + i, k - i, line, col, PGN_TOK_MOVE_NUMBER);
            } else if (is_result(d + i, j - i)) {
                emit(r, d + i, j - i, line, col, PGN_TOK_RESULT);
                if (r->depth == 0) {
                    r->has_result = true;
                    i = j;
                    *end = END_RESULT;
                    goto done;
                }
            } else {
                emit(r, d + i, j - i, line, col, PGN_TOK_MOVE);
            }
            i = j;
            continue;
        }
        case CC_PERCENT:
            goto move_token;
        case CC_DOT:
            i++; /* dots between tokens are move-number decoration */
            continue;
        case CC_STAR:
            r->phase = PHASE_MOVETEXT;
            emit(r, d + i, 1, line, col, PGN_TOK_RESULT);
            i++;
            if (r->depth == 0) {
                r->has_result = true;
                *end = END_RESULT;
                goto done;
            }
            continue;
        case CC_DOLLAR: {
            size_t k = i + 1;
            while (k < n && cls(d[k]) == CC_DIGIT)
                k++;
            if (k - i > max_tok)
                goto too_long;
            if (k == n && !r->eof)
                goto refill;
            if (k == i + 1) {
                add_diag(r, DIAG_UNEXPECTED_CHAR, line, col, "'$' without a number");
                i++;
                continue;
            }
            r->phase = PHASE_MOVETEXT;
            emit(r, d + i, k - i, line, col, PGN_TOK_NAG);
            i = k;
            continue;
        }
        case CC_LPAREN: {
            size_t k = promotion_paren_end(r, i);
            if (k == NEED_MORE)
                goto refill;
            if (k) {
                r->toks[r->ntok - 1].len = (uint32_t)(d + k - r->toks[r->ntok - 1].text);
                i = k;
                continue;
            }
            r->phase = PHASE_MOVETEXT;
            if (++r->depth == 1) {
                r->open_line = line;
                r->open_col = col;
            }
            if (r->depth > r->lim.max_depth && !r->deep_reported) {
                r->deep_reported = true;
                add_diag(r, DIAG_NESTING_TOO_DEEP, line, col,
                         "variations nested deeper than %u; the deeper ones are not kept",
                         r->lim.max_depth);
            }
            emit(r, d + i, 1, line, col, PGN_TOK_VARIATION_START);
            i++;
            continue;
        }
        case CC_RPAREN:
            r->phase = PHASE_MOVETEXT;
            if (r->depth == 0) {
                add_diag(r, DIAG_UNBALANCED_VARIATION, line, col, "')' with no open '('");
            } else {
                emit(r, d + i, 1, line, col, PGN_TOK_VARIATION_END);
                r->depth--;
            }
            i++;
            continue;
        case CC_LBRACE: {
            bool boundary;
            r->pos = i;
            i = scan_comment(r, i, &boundary);
            if (i == SIZE_MAX)
                return -1;
            d = r->data;
            n = r->len;
            if (boundary) {
                *end = END_BOUNDARY;
                goto done;
            }
            if (i < n && d[i] == ' ')
                i++; /* as for moves: the usual single space costs no round of the loop */
            continue;
        }
        case CC_SEMI: {
            size_t e = next_eol(d, i + 1, n);
            if (e - i > r->lim.max_comment_bytes) {
                add_diag(r, DIAG_COMMENT_TOO_LONG, line, col,
                         "a ';' comment over the limit of %zu bytes; dropped",
                         r->lim.max_comment_bytes);
                r->pos = i;
                i = skip_line(r, i);
                if (i == SIZE_MAX)
                    return -1;
                d = r->data;
                n = r->len;
                continue;
            }
            if (e == n && !r->eof)
                goto refill;
            emit(r, d + i + 1, e - i - 1, line, col, PGN_TOK_LINE_COMMENT);
            i = e;
            continue;
        }
        case CC_LBRACKET: {
            if (r->phase == PHASE_MOVETEXT) {
                size_t j = movetext_bracket(r, d, i, n, line, col);
                if (j == NEED_MORE)
                    goto refill;
                if (j == 0) {
                    /* A tag section starts: the game before it has ended. */
                    *end = END_BOUNDARY;
                    goto done;
                }
                i = j;
                continue;
            }
            struct tag_parse tp;
            size_t j = parse_tag_simple(r, d, i, n, &tp);
            if (j == 0)
                j = parse_tag(r, d, i, n, &tp);
            if (j == NEED_MORE)
                goto refill;
            if (j == TAG_SKIP_LINE) {
                /* Too long to keep: report, then skip the rest of the line streaming. */
                commit_tag(r, d, i, &tp, r->line, r->ls);
                r->phase = PHASE_TAGS;
                r->pos = i;
                i = skip_line(r, i);
                if (i == SIZE_MAX)
                    return -1;
                d = r->data;
                n = r->len;
                continue;
            }
            if (r->phase == PHASE_TAGS && tp.has_tag && eols >= 2 &&
                (r->bad_string || tag_is_dup(r, d, &tp))) {
                /* A new tag section after a blank line: a game with no movetext ended. */
                *end = END_BOUNDARY;
                goto done;
            }
            commit_tag(r, d, i, &tp, r->line, r->ls);
            r->phase = PHASE_TAGS;
            i = j;
            continue;
        }
        case CC_BAD:
        default:
            if (d[i] == '<') {
                /* A reserved token (pgn_reader.h): '<' to the next '>' on the same line,
                 * at most max_token_bytes, skipped whole with the phase unchanged. */
                size_t j = i + 1;
                while (j < n && d[j] != '>' && !is_eol(d[j]) && j - i < max_tok)
                    j++;
                if (j == n && !r->eof)
                    goto refill;
                if (j < n && d[j] == '>') {
                    if (!r->reserved_reported) {
                        r->reserved_reported = true;
                        add_diag(r, DIAG_UNEXPECTED_CHAR, line, col,
                                 "reserved token '%.*s' skipped (the first in this game)",
                                 (int)(j + 1 - i > 40 ? 40 : j + 1 - i), d + i);
                    }
                    i = j + 1;
                    continue;
                }
            }
            add_diag(r, DIAG_UNEXPECTED_CHAR, line, col, "unexpected '%c'", d[i]);
            i++;
            continue;
        }
    too_long:
        r->pos = i;
        i = token_too_long(r, i);
        if (i == SIZE_MAX)
            return -1;
        d = r->data;
        n = r->len;
        r->phase = PHASE_MOVETEXT;
        continue;
    }
done:
    r->pos = i;
    return r->started ? 1 : 0;
}

/* Point the escaped tag values (NULL so far) at their unescaped text, in scratch in order. */
static void place_escaped(struct pgn_reader *r)
{
    const char *s = r->scratch;
    for (size_t k = 0; k < r->ntag; k++) {
        if (!r->tags[k].value.ptr) {
            r->tags[k].value.ptr = s;
            s += r->tags[k].value.len;
        }
    }
}

/*
 * One CONTROL_BYTE per game, at its first control byte wherever it stands (a tag value,
 * a comment, an escape line): the scan reports only those it reads as blanks between
 * tokens, so one pass over the game's text finds the others and the first of all.
 */
static void report_control_byte(struct pgn_reader *r, const char *text, size_t n)
{
    size_t k = ctrl_find(text, n);
    if (k == n)
        return;
    uint64_t line = r->game_line, col = r->game_col;
    for (size_t j = 0; j < k; j++) {
        bool eol = text[j] == '\n' || (text[j] == '\r' && text[j + 1] != '\n');
        line += eol;
        col = eol ? 1 : col + 1;
    }
    const char *what = ctrl_len(text, k, n) == 2 ? "control character U+%04X (the first of "
                                                   "the game); escaped in text output"
                                                 : "control byte 0x%02x (the first of the "
                                                   "game); escaped in text output";
    unsigned code = ctrl_code(text, k);
    for (size_t d = 0; d < r->diags.count; d++) {
        struct diag *old = &r->diags.items[d];
        if (old->code != DIAG_CONTROL_BYTE)
            continue;
        if (old->line > line || (old->line == line && old->col > col))
            diag_set(old, DIAG_CONTROL_BYTE, line, col, what, code);
        return;
    }
    add_diag(r, DIAG_CONTROL_BYTE, line, col, what, code);
}

/* Close the game just scanned: end-of-game diagnostics, the size check, the public view. */
static bool finish_game(struct pgn_reader *r, enum game_end end, struct pgn_game *game)
{
    size_t i = r->pos;
    uint64_t bytes = r->base_off + i - r->game_off;
    if (!r->skipping && bytes > r->lim.max_game_bytes)
        start_skipping(r);
    /* Only comments or whitespace since the last game: not a game of its own (unless too
     * large to look at, or broken). */
    if (r->phase == PHASE_BEFORE && !r->has_result && !r->skipping &&
        diag_list_errors(&r->diags) == 0)
        return false;
    uint64_t line = r->line, col = col_at(r, i);
    if (r->ntok > r->tok0) {
        line = pgn_line_from32(r->game_line, r->toks[r->ntok - 1].line);
        col = r->toks[r->ntok - 1].col;
    }
    if (r->depth > 0)
        add_diag(r, DIAG_UNTERMINATED_VARIATION, r->open_line, r->open_col,
                 "the variation never closes (%llu still open where the game ends)",
                 (unsigned long long)r->depth);
    if (r->phase == PHASE_TAGS && !r->has_result)
        add_diag(r, DIAG_NO_MOVETEXT, r->game_line, r->game_col,
                 "a tag section with no movetext and no result");
    else if (r->phase == PHASE_MOVETEXT && !r->has_result)
        add_diag(r, DIAG_NO_RESULT, line, col,
                 end == END_EOF ? "the game has no result before the end of the input"
                                : "the game has no result before the next tag section");
    if (r->skipping) {
        /* Its contents were not all looked at: the one diagnostic says so, whatever the
         * buffer size at which the skipping began. */
        diag_list_clear(&r->diags);
        if (r->too_many_tokens && bytes <= r->lim.max_game_bytes)
            add_diag(r, DIAG_GAME_TOO_LARGE, r->game_line, r->game_col,
                     "the game has more than %zu tokens (moves, numbers, comments, "
                     "parentheses: --max-game-tokens); skipped",
                     r->lim.max_game_tokens);
        else
            add_diag(r, DIAG_GAME_TOO_LARGE, r->game_line, r->game_col,
                     "the game is over the limit of %zu bytes (%llu); skipped",
                     r->lim.max_game_bytes, (unsigned long long)bytes);
    }

    if (!r->skipping)
        report_control_byte(r, r->data + r->game_start, (size_t)bytes);
    if (r->scratch_len)
        place_escaped(r);
    r->games++;
    game->index = r->games_unknown ? 0 : r->games;
    game->file = r->name;
    game->line = r->game_line;
    game->offset = r->game_off;
    game->bytes = bytes;
    game->text = r->data + r->game_start;
    game->tags = r->ntag ? r->tags : NULL;
    game->tag_count = r->ntag;
    game->tokens = r->ntok > r->tok0 ? r->toks + r->tok0 : NULL;
    game->token_count = r->ntok - r->tok0;
    if (r->keep_tokens)
        r->kept = r->ntok;
    game->diags = r->diags;
    game->skipped = r->skipping;
    return true;
}

int pgn_reader_next(struct pgn_reader *r, struct pgn_game *game, struct diag *err)
{
    memset(game, 0, sizeof *game);
    if (r->finished)
        return 0;
    if (!r->bom_done)
        skip_bom(r);
    for (;;) {
        enum game_end end = END_EOF;
        int st = -1;
        if (!r->failed) {
            reset_game(r);
            st = scan_game(r, &end);
            /* A game, or comments that made none, from before the stop to past it. */
            if (r->started && r->game_off < r->base_off + r->stop_at &&
                r->base_off + r->pos > r->base_off + r->stop_at)
                r->stop_crossed = true;
        }
        if (st < 0) {
            r->finished = true;
            if (err)
                diag_set(err, DIAG_IO, r->line, 0, "%s: read error: %s",
                         r->name ? r->name : "input", strerror(r->err_no));
            return -1;
        }
        if (st == 0 || !finish_game(r, end, game)) {
            if (end == END_EOF) {
                r->finished = true;
                return 0;
            }
            continue;
        }
        return 1;
    }
}

/* ---- construction ----------------------------------------------------------------------- */

static void init_limits(struct pgn_reader *r, const struct pgn_limits *limits)
{
    if (limits)
        r->lim = *limits;
    if (!r->lim.max_game_bytes)
        r->lim.max_game_bytes = DEFAULT_MAX_GAME_BYTES;
    if (!r->lim.max_token_bytes)
        r->lim.max_token_bytes = DEFAULT_MAX_TOKEN_BYTES;
    if (!r->lim.max_comment_bytes)
        r->lim.max_comment_bytes = DEFAULT_MAX_COMMENT_BYTES;
    /* Token lengths are 32-bit. */
    if (r->lim.max_comment_bytes > UINT32_MAX)
        r->lim.max_comment_bytes = UINT32_MAX;
    if (r->lim.max_token_bytes > UINT32_MAX)
        r->lim.max_token_bytes = UINT32_MAX;
    if (!r->lim.max_depth)
        r->lim.max_depth = DEFAULT_MAX_DEPTH;
    if (!r->lim.max_diagnostics)
        r->lim.max_diagnostics = DEFAULT_MAX_DIAGNOSTICS;
    if (!r->lim.max_game_tokens)
        r->lim.max_game_tokens = DEFAULT_MAX_GAME_TOKENS;
}

static struct pgn_reader *reader_alloc(const char *name, const struct pgn_limits *limits)
{
    struct pgn_reader *r = xcalloc(1, sizeof *r);
    r->name = name;
    r->line = 1;
    r->stop_at = SIZE_MAX;
    init_limits(r, limits);
    diag_list_init_capped(&r->diags, r->lim.max_diagnostics);
    return r;
}

struct pgn_reader *pgn_reader_new(struct pgn_source src, const char *name,
                                  const struct pgn_limits *limits)
{
    struct pgn_reader *r = reader_alloc(name, limits);
    r->src = src;
    r->data = "";
    return r;
}

/* Start reading at `at`: a line start between two games (0: the file's start). */
static void resume_at(struct pgn_reader *r, const struct pgn_resume *at)
{
    r->base_off = at->offset;
    r->line = at->line ? at->line : 1;
    r->games = at->games;
    r->games_unknown = at->games_unknown;
    r->bom_done = at->offset != 0; /* a BOM is looked for at the file's start only */
    r->no_close = r->no_open = (struct absent){0, 0};
}

struct pgn_reader *pgn_reader_new_at(struct pgn_source src, const char *name,
                                     const struct pgn_limits *limits,
                                     const struct pgn_resume *at)
{
    struct pgn_reader *r = pgn_reader_new(src, name, limits);
    resume_at(r, at);
    return r;
}

void pgn_reader_restart(struct pgn_reader *r, const char *data, size_t len, size_t stop,
                        const struct pgn_resume *at)
{
    r->data = data ? data : "";
    r->len = data ? len : 0;
    r->pos = 0;
    r->shift = 0;
    r->ls = 0;
    r->eols = 0;
    r->eof = true;
    r->failed = false;
    r->finished = false;
    r->err_no = 0;
    r->stop_at = stop;
    r->stop_crossed = false;
    r->kept = 0;
    resume_at(r, at);
}

struct pgn_reader *pgn_reader_from_memory(const char *data, size_t len, const char *name,
                                          const struct pgn_limits *limits)
{
    struct pgn_reader *r = reader_alloc(name, limits);
    r->memory = true;
    r->data = data ? data : "";
    r->len = data ? len : 0;
    r->eof = true;
    return r;
}

void pgn_reader_free(struct pgn_reader *r)
{
    if (!r)
        return;
    free(r->buf);
    free(r->toks);
    free(r->tags);
    free(r->name_set);
    free(r->scratch);
    diag_list_release(&r->diags);
    free(r);
}

uint64_t pgn_reader_bytes(const struct pgn_reader *r) { return r->base_off + r->pos; }

bool pgn_reader_stop_crossed(const struct pgn_reader *r) { return r->stop_crossed; }

void pgn_reader_keep_tokens(struct pgn_reader *r, bool keep)
{
    r->keep_tokens = keep && r->memory;
}

const struct pgn_token *pgn_reader_kept_tokens(const struct pgn_reader *r) { return r->toks; }

static ssize_t fd_read(void *ctx, char *buf, size_t cap)
{
    int fd = *(const int *)ctx;
    for (;;) {
        ssize_t got = read(fd, buf, cap);
        if (got >= 0 || errno != EINTR)
            return got;
    }
}

struct pgn_source pgn_source_fd(int *fd) { return (struct pgn_source){fd_read, fd}; }
