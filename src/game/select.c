/* select.c - which games to keep: tag criteria before the replay, game facts after
 * (select.h says what it promises). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "game/select.h"

#include <ctype.h>
#include <math.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/bitboard.h"
#include "board/fen.h"
#include "board/poskey.h"
#include "board/variant.h"
#include "board/rules.h"
#include "base/inline_hints.h"
#include "base/xalloc.h"
#include "game/game_variations.h"
#include "san/san.h"
#include "san/san_resolve.h"

enum op { OP_EQ, OP_NE, OP_MATCH, OP_NOMATCH, OP_LT, OP_LE, OP_GT, OP_GE };
/* Longest first, so that "<=" is not read as "<" then "=VALUE". */
static const struct {
    const char *text;
    enum op op;
} op_table[] = {{"!=", OP_NE}, {"!~", OP_NOMATCH}, {"<=", OP_LE}, {">=", OP_GE},
                {"=", OP_EQ},  {"~", OP_MATCH},    {"<", OP_LT},  {">", OP_GT}};
enum { OP_TABLE_COUNT = sizeof op_table / sizeof *op_table };

enum cmp_kind { CMP_BYTES, CMP_NUMBER, CMP_DATE };

/* A PGN date: year, month, day; -1 for a part given as ?? (or not given). */
struct date {
    int part[3];
    int count; /* parts written: 1 (YYYY), 2 (YYYY.MM) or 3 */
};

struct criterion {
    const char *names[2]; /* the tag, or White and Black (--player): any may match */
    enum op op;
    char *value;          /* NUL-terminated, quotes removed */
    size_t value_len;
    pcre2_code *re;       /* ~ and !~ */
    enum cmp_kind kind;   /* < <= > >= */
    double number;
    struct date date;
    char *owned_name;     /* the tag name's storage */
    bool computed;        /* ECO or Opening with select_use_openings: after the replay */
};

enum ending_bit {
    END_CHECKMATE = 1 << 0,
    END_STALEMATE = 1 << 1,
    END_INSUFFICIENT = 1 << 2,
    END_FIFTY = 1 << 3,
    END_THREEFOLD = 1 << 4,
    END_NONE = 1 << 5,
    END_VARIANT_RULE = 1 << 6, /* ENDING_KING_EXPLODED and the next ones: one bit each */
};
/* The variant rules' names are ending_name()'s (board/variant.h), in its order. */
static const char *const ending_names[] = {
    "checkmate",     "stalemate",        "insufficient", "fifty-moves",
    "threefold",     "none",             "king-exploded", "king-of-the-hill",
    "three-checks",  "racing-kings",     "horde-wiped-out", "antichess"};
enum { ENDING_NAME_COUNT = sizeof ending_names / sizeof *ending_names };
_Static_assert(ENDING_NAME_COUNT == 6 + ENDING_ANTICHESS - ENDING_KING_EXPLODED + 1,
               "one --ending name per variant rule");

static const char *const result_names[] = {"1-0", "0-1", "1/2-1/2", "*"};
enum { RESULT_COUNT = sizeof result_names / sizeof *result_names };

/* What --reaches and threefold compare: the position without its clocks.  Zeroed before
 * it is filled, so memcmp compares it. */
struct pos_sig {
    bitboard by_color[COLOR_COUNT];
    bitboard by_type[PIECE_TYPE_COUNT];
    bitboard promoted;  /* Crazyhouse: a promoted piece is not the piece it looks like */
    uint8_t side, ep;
    uint8_t castle[COLOR_COUNT][2];
    uint8_t variant_state[6]; /* pockets or checks left: part of a repetition */
};

struct keyed_sig {
    uint64_t key;
    struct pos_sig sig;
};

/* --occurs: what happens somewhere on the mainline (occur_names). */
enum occur_bit {
    OCC_CAPTURE = 1 << 0,
    OCC_CHECK = 1 << 1,
    OCC_CASTLING = 1 << 2,
    OCC_CASTLING_SHORT = 1 << 3,
    OCC_CASTLING_LONG = 1 << 4,
    OCC_EN_PASSANT = 1 << 5,
    OCC_PROMOTION = 1 << 6,
    OCC_UNDERPROMOTION = 1 << 7,
    OCC_FIFTY = 1 << 8,
    OCC_THREEFOLD = 1 << 9,
};
static const char *const occur_names[] = {
    "capture",   "check",     "castling",       "castling-short", "castling-long",
    "en-passant", "promotion", "underpromotion", "fifty-moves",    "threefold"};
enum { OCCUR_COUNT = sizeof occur_names / sizeof *occur_names };

/* --material: the pieces of each side; at_least: a side written with '+'. */
struct material_sig {
    uint8_t count[COLOR_COUNT][PIECE_TYPE_COUNT];
    bool at_least[COLOR_COUNT];
};

struct select {
    struct criterion *crit;
    size_t count, cap;
    unsigned results;      /* bit per result_names entry; 0: no --result */
    unsigned endings;      /* enum ending_bit; 0: no --ending */
    bool plies_set;
    uint32_t plies_min, plies_max;
    bool has_set;
    uint64_t has[(DIAG_CODE_COUNT + 63) / 64];
    bool reaches_set;
    struct keyed_sig target;
    bool invert;
    bool computed; /* some criterion is computed: the tags alone cannot decide */
    unsigned *occurs;                /* per --occurs, its enum occur_bits (OR); all (AND) */
    size_t occurs_count;
    unsigned occurs_any;             /* the bits of them all: what a walk looks for */
    struct material_sig *materials;  /* per --material signature (OR within one option) */
    uint32_t *material_groups;       /* which --material each came from: all (AND) */
    size_t material_count, material_group_count;
    struct san *moves;               /* --moves, decoded once */
    size_t move_count;
    bool moves_anywhere;             /* a leading "...": from any ply, not the start */
    bool in_variations;              /* --reaches, --material: the variations' positions too */
};

struct select_scratch {
    pcre2_match_data *md;
    struct keyed_sig *seen; /* every mainline position, for threefold */
    size_t seen_cap;
    struct keyed_sig *occ_seen; /* --occurs threefold's positions */
    size_t occ_cap;
    bool *reached;              /* per --material: reached on this game */
    size_t reached_cap;
    struct variation_walk lines; /* --in-variations */
};

/* ---- building ---- */

struct select *select_new(void) { return xcalloc(1, sizeof(struct select)); }

void select_free(struct select *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->count; i++) {
        pcre2_code_free(s->crit[i].re);
        free(s->crit[i].value);
        free(s->crit[i].owned_name);
    }
    free(s->crit);
    free(s->occurs);
    free(s->materials);
    free(s->material_groups);
    free(s->moves);
    free(s);
}

void select_set_invert(struct select *s, bool invert) { s->invert = invert; }

void select_set_in_variations(struct select *s, bool on) { s->in_variations = on; }

bool select_reads_variations(const struct select *s)
{
    return s->in_variations && (s->reaches_set || s->material_count);
}

static bool is_opening_tag(const char *name)
{
    return name && (strcmp(name, "ECO") == 0 || strcmp(name, "Opening") == 0);
}

void select_use_openings(struct select *s)
{
    for (size_t i = 0; i < s->count; i++) {
        struct criterion *c = &s->crit[i];
        c->computed = is_opening_tag(c->names[0]) && !c->names[1];
        s->computed |= c->computed;
    }
}

bool select_has_criteria(const struct select *s)
{
    return s->count || s->results || s->endings || s->plies_set || s->has_set ||
           s->reaches_set || s->occurs_count || s->material_count || s->move_count;
}

static struct criterion *new_criterion(struct select *s)
{
    xgrow((void **)&s->crit, &s->cap, s->count + 1, sizeof *s->crit);
    struct criterion *c = &s->crit[s->count++];
    memset(c, 0, sizeof *c);
    return c;
}

/* Compile a regex for ~ and !~: UTF-8 (a value that is not valid UTF-8 still matches
 * where it can), JIT when the platform allows it (else the interpreter: same language). */
static pcre2_code *compile_regex(const char *re, const char *what, char *why, size_t cap)
{
    int code;
    PCRE2_SIZE off;
    pcre2_code *p = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
                                  PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &code, &off, NULL);
    if (!p) {
        PCRE2_UCHAR msg[160];
        pcre2_get_error_message(code, msg, sizeof msg);
        snprintf(why, cap, "%s: the regex '%s' does not compile: %s at offset %zu", what, re,
                 (const char *)msg, (size_t)off);
        return NULL;
    }
    pcre2_jit_compile(p, PCRE2_JIT_COMPLETE);
    return p;
}

/* optional sign, digits, optional .digits: no hex, no exponent, no "inf". */
static bool parse_number(const char *p, size_t len, double *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return false;
    size_t i = (p[0] == '-' || p[0] == '+') ? 1 : 0, digits = 0, dots = 0;
    for (; i < len; i++) {
        if (isdigit((unsigned char)p[i]))
            digits++;
        else if (p[i] == '.' && !dots)
            dots++;
        else
            return false;
    }
    if (!digits)
        return false;
    memcpy(buf, p, len);
    buf[len] = '\0';
    *out = strtod(buf, NULL);
    return true;
}

/* YYYY[.MM[.DD]], each part digits or all '?'. */
static bool parse_date(const char *p, size_t len, struct date *d)
{
    static const size_t width[3] = {4, 2, 2};
    size_t at = 0;
    d->count = 0;
    for (int k = 0; k < 3 && at < len; k++) {
        if (k > 0 && p[at++] != '.')
            return false;
        if (at + width[k] > len)
            return false;
        int value = 0, unknown = 0;
        for (size_t i = 0; i < width[k]; i++) {
            char ch = p[at + i];
            if (ch == '?')
                unknown++;
            else if (isdigit((unsigned char)ch))
                value = value * 10 + (ch - '0');
            else
                return false;
        }
        if (unknown && unknown != (int)width[k])
            return false;
        d->part[k] = unknown ? -1 : value;
        d->count++;
        at += width[k];
    }
    for (int k = d->count; k < 3; k++)
        d->part[k] = -1;
    return d->count > 0 && at == len;
}

static bool is_date_tag(const char *name)
{
    return strcmp(name, "Date") == 0 || strcmp(name, "EventDate") == 0 ||
           strcmp(name, "UTCDate") == 0;
}

/* How < <= > >= compare against c's value (select.h). */
static void choose_kind(struct criterion *c)
{
    if (parse_date(c->value, c->value_len, &c->date) &&
        (c->date.count == 3 || is_date_tag(c->names[0])))
        c->kind = CMP_DATE;
    else if (parse_number(c->value, c->value_len, &c->number))
        c->kind = CMP_NUMBER;
    else
        c->kind = CMP_BYTES;
}

static bool tag_name_char(char ch) { return isalnum((unsigned char)ch) || ch == '_'; }

static int parse_op(const char *p, enum op *op, size_t *len)
{
    for (int i = 0; i < OP_TABLE_COUNT; i++) {
        size_t n = strlen(op_table[i].text);
        if (strncmp(p, op_table[i].text, n) == 0) {
            *op = op_table[i].op;
            *len = n;
            return 0;
        }
    }
    return -1;
}

int select_add_where(struct select *s, const char *expr, char *why, size_t cap)
{
    const char *p = expr;
    while (isspace((unsigned char)*p))
        p++;
    const char *name = p;
    while (tag_name_char(*p))
        p++;
    size_t name_len = (size_t)(p - name);
    while (isspace((unsigned char)*p))
        p++;
    enum op op;
    size_t op_len;
    if (parse_op(p, &op, &op_len) != 0) {
        if (!*p)
            snprintf(why, cap, "--where '%s': no operator (TAG OP VALUE, OP one of "
                               "= != ~ !~ < <= > >=)", expr);
        else
            snprintf(why, cap, "--where '%s': '%c' is neither part of a tag name (letters, "
                               "digits, _) nor an operator (= != ~ !~ < <= > >=)", expr, *p);
        return -1;
    }
    if (!name_len) {
        snprintf(why, cap, "--where '%s': no tag name before the operator", expr);
        return -1;
    }
    const char *v = p + op_len;
    while (isspace((unsigned char)*v))
        v++;
    size_t vlen = strlen(v);
    while (vlen && isspace((unsigned char)v[vlen - 1]))
        vlen--;
    if (vlen >= 2 && v[0] == '"' && v[vlen - 1] == '"')
        v++, vlen -= 2;
    /* The regex is compiled before the criterion is added: a selection that refused an
     * expression is left as it was, usable (the library goes on after a refusal). */
    char *value = xstrndup(v, vlen);
    pcre2_code *re = NULL;
    if (op == OP_MATCH || op == OP_NOMATCH) {
        char what[64];
        snprintf(what, sizeof what, "--where '%.40s'", expr);
        re = compile_regex(value, what, why, cap);
        if (!re) {
            free(value);
            return -1;
        }
    }
    struct criterion *c = new_criterion(s);
    c->owned_name = xstrndup(name, name_len);
    c->names[0] = c->owned_name;
    c->op = op;
    c->value = value;
    c->value_len = vlen;
    c->re = re;
    choose_kind(c);
    return 0;
}

int select_add_player(struct select *s, const char *regex, char *why, size_t cap)
{
    pcre2_code *re = compile_regex(regex, "--player", why, cap);
    if (!re)
        return -1;
    struct criterion *c = new_criterion(s);
    c->names[0] = "White";
    c->names[1] = "Black";
    c->op = OP_MATCH;
    c->re = re;
    c->value = xstrndup(regex, strlen(regex));
    c->value_len = strlen(regex);
    return 0;
}

/* A comma list of names[] to a bit mask; -1 naming the unknown one. */
static int parse_names(const char *list, const char *const *names, int count, unsigned *mask,
                       const char *option, char *why, size_t cap)
{
    const char *p = list;
    do {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        int k = 0;
        while (k < count && !(strlen(names[k]) == len && strncmp(p, names[k], len) == 0))
            k++;
        if (k == count) {
            size_t n = (size_t)snprintf(why, cap, "%s knows ", option);
            for (int i = 0; i < count && n < cap; i++)
                n += (size_t)snprintf(why + n, cap - n, "%s%s", i ? ", " : "", names[i]);
            if (n < cap)
                snprintf(why + n, cap - n, "; not '%.*s'", (int)len, p);
            return -1;
        }
        *mask |= 1u << k;
        p = end ? end + 1 : NULL;
    } while (p);
    return 0;
}

/* Each select_add_* changes s only when the whole argument is valid: after a refusal
 * the selection is as it was (the library goes on using it). */
int select_add_result(struct select *s, const char *list, char *why, size_t cap)
{
    unsigned mask = 0;
    if (parse_names(list, result_names, RESULT_COUNT, &mask, "--result", why, cap) != 0)
        return -1;
    s->results |= mask;
    return 0;
}

int select_add_ending(struct select *s, const char *list, char *why, size_t cap)
{
    unsigned mask = 0;
    if (parse_names(list, ending_names, ENDING_NAME_COUNT, &mask, "--ending", why, cap) != 0)
        return -1;
    s->endings |= mask;
    return 0;
}

static bool parse_bound(const char *p, size_t len, uint32_t *out)
{
    if (!len || len > 10)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)p[i]))
            return false;
        v = v * 10 + (uint64_t)(p[i] - '0');
    }
    if (v > UINT32_MAX)
        return false;
    *out = (uint32_t)v;
    return true;
}

int select_add_plies(struct select *s, const char *range, char *why, size_t cap)
{
    const char *colon = strchr(range, ':');
    size_t lo_len = colon ? (size_t)(colon - range) : strlen(range);
    const char *hi = colon ? colon + 1 : range;
    size_t hi_len = strlen(hi);
    uint32_t lo = 0, up = UINT32_MAX;
    bool ok = (colon || lo_len) && (!lo_len || parse_bound(range, lo_len, &lo)) &&
              (!hi_len || parse_bound(hi, hi_len, &up));
    if (!ok || lo > up) {
        snprintf(why, cap, "--plies wants MIN:MAX (either may be empty, MIN <= MAX), "
                           "not '%s'", range);
        return -1;
    }
    s->plies_set = true;
    s->plies_min = lo;
    s->plies_max = up;
    return 0;
}

/* Codes a game's record can hold (not OK, IO, nor the CLI's own PLY_PAST_END). */
static bool code_selectable(int c)
{
    return c != DIAG_OK && c != DIAG_IO && c != DIAG_PLY_PAST_END;
}

int select_add_has(struct select *s, const char *list, char *why, size_t cap)
{
    uint64_t has[sizeof s->has / sizeof s->has[0]] = {0};
    const char *p = list;
    do {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        int code = 0;
        while (code < DIAG_CODE_COUNT &&
               !(code_selectable(code) && strlen(diag_code_name((enum diag_code)code)) == len &&
                 strncmp(p, diag_code_name((enum diag_code)code), len) == 0))
            code++;
        if (code == DIAG_CODE_COUNT) {
            size_t n = (size_t)snprintf(why, cap, "--has: unknown code '%.*s' (codes:", (int)len,
                                        p);
            for (int c = 0; c < DIAG_CODE_COUNT && n < cap; c++)
                if (code_selectable(c))
                    n += (size_t)snprintf(why + n, cap - n, " %s",
                                          diag_code_name((enum diag_code)c));
            if (n < cap)
                snprintf(why + n, cap - n, ")");
            return -1;
        }
        has[code / 64] |= UINT64_C(1) << (code % 64);
        p = end ? end + 1 : NULL;
    } while (p);
    for (size_t k = 0; k < sizeof has / sizeof has[0]; k++)
        s->has[k] |= has[k];
    s->has_set = true;
    return 0;
}

/* ---- position keys ---- */

static void sig_of(const struct position *pos, struct pos_sig *sig)
{
    memset(sig, 0, sizeof *sig);
    memcpy(sig->by_color, pos->by_color, sizeof sig->by_color);
    memcpy(sig->by_type, pos->by_type, sizeof sig->by_type);
    sig->side = pos->side_to_move;
    /* The e.p. square matters only when the capture can be made (as FEN/X-FEN/Zobrist
     * implementations have it): after 1.e4 there is none, and the position equals the
     * one reached by a transposition without the double push. */
    sig->ep = pos->ep_square != SQ_NONE && rules_ep_legal(pos) ? pos->ep_square : SQ_NONE;
    memcpy(sig->castle, pos->castle_rook, sizeof sig->castle);
    if (pos->variant == VARIANT_CRAZYHOUSE || pos->variant == VARIANT_THREE_CHECK)
        memcpy(sig->variant_state, pos->pockets, sizeof sig->variant_state);
    if (pos->variant == VARIANT_CRAZYHOUSE)
        for (int sq = 0; sq < SQUARE_COUNT; sq++)
            if (pos->board[sq] != PIECE_NONE && (pos->board[sq] & PIECE_PROMOTED))
                sig->promoted |= bb_square(sq);
}

/* The key is poskey's (the same rules as sig_of); key is poskey_of(pos). */
static void keyed_of(const struct position *pos, uint64_t key, struct keyed_sig *ks)
{
    sig_of(pos, &ks->sig);
    ks->key = key;
}

static bool same_position(const struct keyed_sig *a, const struct keyed_sig *b)
{
    return a->key == b->key && memcmp(&a->sig, &b->sig, sizeof a->sig) == 0;
}

/* --reaches names a board by a FEN: a variant's pockets, checks left and promoted marks
 * (which threefold compares) do not count.  Inlined into walk_mainline's per-ply loop
 * (with a second caller, variations_reach, GCC made it a call: 2% of check --reaches). */
static inline PGNKIT_HOT bool reaches(const struct keyed_sig *ks, const struct position *pos,
                    const struct keyed_sig *target)
{
    struct keyed_sig board = *ks;
    if (pos->variant == VARIANT_CRAZYHOUSE || pos->variant == VARIANT_THREE_CHECK) {
        board.key ^= poskey_variant(pos);
        memset(board.sig.variant_state, 0, sizeof board.sig.variant_state);
        board.sig.promoted = 0;
    }
    return same_position(&board, target);
}

int select_add_reaches(struct select *s, const char *fen, char *why, size_t cap)
{
    struct position pos;
    struct diag err;
    if (fen_parse(&pos, fen, strlen(fen), false, &err) != 0) {
        snprintf(why, cap, "--reaches '%s' is no FEN: %s", fen, err.message);
        return -1;
    }
    keyed_of(&pos, poskey_of(&pos), &s->target);
    s->reaches_set = true;
    return 0;
}

/* ---- per thread ---- */

struct select_scratch *select_scratch_new(const struct select *s)
{
    (void)s;
    struct select_scratch *x = xcalloc(1, sizeof *x);
    variation_walk_init(&x->lines);
    /* One pair is enough: criteria ask whether a regex matches, never where. */
    x->md = pcre2_match_data_create(1, NULL);
    if (!x->md) {
        xalloc_fail("PCRE2 match data", 0);
    }
    return x;
}

void select_scratch_free(struct select_scratch *x)
{
    if (!x)
        return;
    pcre2_match_data_free(x->md);
    free(x->seen);
    free(x->occ_seen);
    free(x->reached);
    variation_walk_release(&x->lines);
    free(x);
}

/* ---- tags ---- */

const struct slice *select_tag_value(const struct pgn_game *g, const char *name)
{
    /* The place for computed tags (ECO, Opening) once a classification provides them. */
    return g->skipped ? NULL : game_tag(g, name);
}

static bool regex_matches(const struct criterion *c, struct select_scratch *x,
                          const struct slice *v)
{
    PCRE2_SPTR subject = (PCRE2_SPTR)(v->ptr ? v->ptr : "");
    /* >= 0: a match (0 only says the one-pair vector was too small to hold the groups). */
    return pcre2_match(c->re, subject, v->len, 0, 0, x->md, NULL) >= 0;
}

/* <0, 0, >0 like strcmp; false when the comparison cannot be made (select.h). */
static bool compare(const struct criterion *c, const struct slice *v, int *cmp)
{
    if (c->kind == CMP_DATE) {
        struct date d;
        if (!parse_date(v->ptr, v->len, &d))
            return false;
        for (int k = 0; k < c->date.count; k++) {
            int a = d.part[k], b = c->date.part[k];
            if (a < 0 || b < 0)
                return false;
            if (a != b) {
                *cmp = a < b ? -1 : 1;
                return true;
            }
        }
        *cmp = 0;
        return true;
    }
    if (c->kind == CMP_NUMBER) {
        double n;
        if (!parse_number(v->ptr, v->len, &n))
            return false;
        *cmp = n < c->number ? -1 : n > c->number ? 1 : 0;
        return true;
    }
    size_t n = v->len < c->value_len ? v->len : c->value_len;
    int r = n ? memcmp(v->ptr, c->value, n) : 0;
    *cmp = r ? r : v->len < c->value_len ? -1 : v->len > c->value_len ? 1 : 0;
    return true;
}

static bool value_holds(const struct criterion *c, struct select_scratch *x,
                        const struct slice *v)
{
    if (!v)
        return c->op == OP_NE || c->op == OP_NOMATCH;
    bool equal = v->len == c->value_len && (!v->len || memcmp(v->ptr, c->value, v->len) == 0);
    int cmp = 0;
    switch (c->op) {
    case OP_EQ:
        return equal;
    case OP_NE:
        return !equal;
    case OP_MATCH:
        return regex_matches(c, x, v);
    case OP_NOMATCH:
        return !regex_matches(c, x, v);
    case OP_LT:
        return compare(c, v, &cmp) && cmp < 0;
    case OP_LE:
        return compare(c, v, &cmp) && cmp <= 0;
    case OP_GT:
        return compare(c, v, &cmp) && cmp > 0;
    case OP_GE:
        return compare(c, v, &cmp) && cmp >= 0;
    }
    return false;
}

static bool criterion_holds(const struct criterion *c, struct select_scratch *x,
                            const struct pgn_game *g)
{
    for (int i = 0; i < 2 && c->names[i]; i++)
        if (value_holds(c, x, select_tag_value(g, c->names[i])))
            return true;
    return false;
}

/* A computed criterion (ECO or Opening) on the game's classification; a game the book
 * does not name keeps its own tag, as pgn --add-tags writes it (pgn-extract -e alike). */
static bool computed_holds(const struct criterion *c, struct select_scratch *x,
                           const struct game_record *rec)
{
    const struct opening *o = rec->opening;
    if (!o)
        return value_holds(c, x, select_tag_value(rec->game, c->names[0]));
    const char *v = strcmp(c->names[0], "ECO") == 0 ? o->eco : o->name;
    struct slice value = {v, strlen(v)};
    return value_holds(c, x, &value);
}

/* The game's result: its Result tag, else its termination marker (the last result
 * token of the movetext), as pgn-extract -Tr reads it. */
static bool game_result(const struct pgn_game *g, struct slice *out)
{
    const struct slice *v = select_tag_value(g, "Result");
    if (v) {
        *out = *v;
        return true;
    }
    if (g->skipped || !g->last_result.ptr)
        return false;
    *out = g->last_result;
    return true;
}

static bool result_holds(const struct select *s, const struct pgn_game *g)
{
    struct slice r;
    const struct slice *v = game_result(g, &r) ? &r : NULL;
    for (int k = 0; v && k < RESULT_COUNT; k++)
        if ((s->results & (1u << k)) && v->len == strlen(result_names[k]) &&
            memcmp(v->ptr, result_names[k], v->len) == 0)
            return true;
    return false;
}

static bool has_facts(const struct select *s)
{
    return s->endings || s->plies_set || s->has_set || s->reaches_set || s->occurs_count ||
           s->material_count || s->move_count;
}

enum select_verdict select_by_tags(const struct select *s, struct select_scratch *x,
                                   const struct pgn_game *g)
{
    bool match = !s->results || result_holds(s, g);
    for (size_t i = 0; match && i < s->count; i++)
        match = s->crit[i].computed || criterion_holds(&s->crit[i], x, g);
    if (match && (has_facts(s) || s->computed))
        return SELECT_REPLAY;
    return match != s->invert ? SELECT_KEEP : SELECT_DROP;
}

/* ---- facts ---- */

static bool has_code(const struct select *s, const struct game_record *rec)
{
    for (size_t i = 0; i < rec->diags.count; i++) {
        unsigned c = rec->diags.items[i].code;
        if (s->has[c / 64] & (UINT64_C(1) << (c % 64)))
            return true;
    }
    return false;
}

/* Standard chess: no pawn, rook or queen, and at most one minor piece, or bishops only,
 * all on squares of one colour (no mate is possible by any sequence of moves). */
static bool insufficient_standard(const struct position *p)
{
    const bitboard dark = UINT64_C(0xAA55AA55AA55AA55);
    if (p->by_type[PAWN] | p->by_type[ROOK] | p->by_type[QUEEN])
        return false;
    bitboard minors = p->by_type[KNIGHT] | p->by_type[BISHOP];
    if (bb_count(minors) <= 1)
        return true;
    if (p->by_type[KNIGHT])
        return false;
    return !(p->by_type[BISHOP] & dark) || !(p->by_type[BISHOP] & ~dark);
}

/* Walk the mainline positions (the start included) once: whether target is reached, and
 * with keep, every position into x->seen (for threefold).  Returns the positions seen. */
static size_t walk_mainline(const struct select *s, struct select_scratch *x,
                            const struct game_record *rec, bool keep, bool *reached)
{
    struct position pos = rec->start;
    size_t n = rec->mainline_count + 1;
    if (keep)
        xgrow((void **)&x->seen, &x->seen_cap, n, sizeof *x->seen);
    *reached = false;
    struct poskey_carry carry;
    poskey_carry_init(&carry, &pos);
    uint64_t key = poskey_of(&pos);
    for (size_t ply = 0; ply < n; ply++) {
        if (ply) {
            struct position before = pos;
            rules_do_move(&pos, rec->mainline[ply - 1]);
            key = poskey_carry_move(&carry, &before, &pos);
        }
        struct keyed_sig ks;
        keyed_of(&pos, key, &ks);
        if (s->reaches_set && !*reached && reaches(&ks, &pos, &s->target))
            *reached = true;
        if (keep)
            x->seen[ply] = ks;
    }
    return n;
}

/* The final position (the last of n seen) stands there for the third time or more. */
static bool threefold(const struct select_scratch *x, size_t n)
{
    const struct keyed_sig *last = &x->seen[n - 1];
    int times = 0;
    for (size_t i = 0; i < n; i++)
        times += same_position(&x->seen[i], last);
    return times >= 3;
}

/* The enum ending_bit of a variant's own ending (0 for the others). */
static unsigned variant_rule_bit(enum ending end)
{
    if (end < ENDING_KING_EXPLODED || end > ENDING_ANTICHESS)
        return 0;
    return (unsigned)END_VARIANT_RULE << (end - ENDING_KING_EXPLODED);
}

/* The enum ending_bit of a game played to its end; 0 for one that was not (errors). */
static unsigned ending_of(const struct game_record *rec, bool repeated)
{
    if (rec->status >= GAME_ERRORS || !rec->started)
        return 0;
    const struct position *p = &rec->final;
    unsigned e = rec->end == ENDING_CHECKMATE ? END_CHECKMATE
                 : rec->end == ENDING_STALEMATE ? END_STALEMATE : variant_rule_bit(rec->end);
    bool insufficient = p->variant ? rec->end == ENDING_INSUFFICIENT : insufficient_standard(p);
    /* A mate or a variant's own ending ends the game whatever else holds. */
    if (!(e & ~(unsigned)END_STALEMATE)) {
        e |= insufficient ? END_INSUFFICIENT : 0;
        e |= p->halfmove_clock >= 100 ? END_FIFTY : 0;
        e |= repeated ? END_THREEFOLD : 0;
    }
    if (!e && rec->end == ENDING_NONE)
        e = END_NONE;
    return e;
}

/* ---- --occurs, --material, --moves: facts anywhere on the mainline ---- */

int select_add_occurs(struct select *s, const char *list, char *why, size_t cap)
{
    unsigned mask = 0;
    if (parse_names(list, occur_names, OCCUR_COUNT, &mask, "--occurs", why, cap) != 0)
        return -1;
    s->occurs = xrealloc(s->occurs, (s->occurs_count + 1) * sizeof *s->occurs);
    s->occurs[s->occurs_count++] = mask;
    s->occurs_any |= mask;
    return 0;
}

/* One side of a signature: piece letters, then an optional '+' (at least). */
static bool parse_material_side(const char *p, size_t len, struct material_sig *m, int side)
{
    static const char letters[] = "PNBRQK"; /* in enum piece_type order */
    if (len && p[len - 1] == '+') {
        m->at_least[side] = true;
        len--;
    }
    if (!len)
        return false;
    for (size_t i = 0; i < len; i++) {
        const char *at = p[i] ? strchr(letters, p[i]) : NULL;
        if (!at || m->count[side][at - letters] == UINT8_MAX)
            return false;
        m->count[side][at - letters]++;
    }
    return true;
}

int select_add_material(struct select *s, const char *list, char *why, size_t cap)
{
    size_t count = 0;
    struct material_sig *sigs = NULL;
    const char *p = list;
    do {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *v = memchr(p, 'v', len);
        struct material_sig m = {0};
        if (!v || memchr(v + 1, 'v', len - (size_t)(v - p) - 1) ||
            !parse_material_side(p, (size_t)(v - p), &m, WHITE) ||
            !parse_material_side(v + 1, len - (size_t)(v - p) - 1, &m, BLACK)) {
            snprintf(why, cap, "--material wants WHITEvBLACK in piece letters K Q R B N P, "
                               "each side optionally ending in + (at least), as KRPvKR or "
                               "KQ+vK+; not '%.*s'", (int)len, p);
            free(sigs);
            return -1;
        }
        sigs = xrealloc(sigs, (count + 1) * sizeof *sigs);
        sigs[count++] = m;
        p = end ? end + 1 : NULL;
    } while (p);
    size_t total = s->material_count + count;
    s->materials = xrealloc(s->materials, total * sizeof *sigs);
    s->material_groups = xrealloc(s->material_groups, total * sizeof *s->material_groups);
    memcpy(s->materials + s->material_count, sigs, count * sizeof *sigs);
    for (size_t i = s->material_count; i < total; i++)
        s->material_groups[i] = (uint32_t)s->material_group_count;
    s->material_count = total;
    s->material_group_count++;
    free(sigs);
    return 0;
}

/* A move number (12. or 12...) in a --moves list: skipped, as in movetext. */
static bool is_move_number(const char *p, size_t len)
{
    size_t i = 0;
    while (i < len && isdigit((unsigned char)p[i]))
        i++;
    if (!i || i == len)
        return false;
    while (i < len && p[i] == '.')
        i++;
    return i == len;
}

int select_add_moves(struct select *s, const char *list, char *why, size_t cap)
{
    if (s->move_count) {
        snprintf(why, cap, "--moves is given once (one sequence)");
        return -1;
    }
    struct diag err;
    struct san_matcher *matcher = san_matcher_new(SAN_LETTERS_ENGLISH, &err);
    if (!matcher) {
        snprintf(why, cap, "--moves: %s", err.message);
        return -1;
    }
    struct san *moves = NULL;
    size_t count = 0;
    bool anywhere = false;
    const char *p = list;
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        size_t len = 0;
        while (p[len] && !isspace((unsigned char)p[len]))
            len++;
        struct san san;
        if (!count && !anywhere && len == 3 && memcmp(p, "...", 3) == 0) {
            anywhere = true;
        } else if (!is_move_number(p, len)) {
            if (san_decode(matcher, p, len, &san) != 0) {
                snprintf(why, cap, "--moves: '%.*s' is no move (SAN as Nf3, O-O, e8=Q, or "
                                   "UCI as g1f3)", (int)len, p);
                free(moves);
                san_matcher_free(matcher);
                return -1;
            }
            moves = xrealloc(moves, (count + 1) * sizeof *moves);
            moves[count++] = san;
        }
        p += len;
    }
    san_matcher_free(matcher);
    if (!count) {
        snprintf(why, cap, "--moves wants moves, as 'e4 e5 Nf3' (or '... Nf3 Nc6': anywhere)");
        return -1;
    }
    s->moves = moves;
    s->move_count = count;
    s->moves_anywhere = anywhere;
    return 0;
}

/* Piece counts of pos match m exactly, or at least on a side written with '+'. */
static bool material_matches(const struct position *pos, const struct material_sig *m)
{
    for (int c = 0; c < COLOR_COUNT; c++)
        for (int t = 0; t < PIECE_TYPE_COUNT; t++) {
            int n = bb_count(pos->by_color[c] & pos->by_type[t]);
            if (m->at_least[c] ? n < m->count[c][t] : n != m->count[c][t])
                return false;
        }
    return true;
}

/* Mark in reached[] (one flag per --material) those a signature of pos satisfies;
 * returns how many were newly marked. */
static size_t material_marks(const struct select *s, const struct position *pos,
                             bool *reached)
{
    size_t marked = 0;
    for (size_t i = 0; i < s->material_count; i++) {
        uint32_t g = s->material_groups[i];
        if (!reached[g] && material_matches(pos, &s->materials[i])) {
            reached[g] = true;
            marked++;
        }
    }
    return marked;
}

/* Each --occurs has one of its facts in found. */
static bool occurs_hold(const struct select *s, unsigned found)
{
    for (size_t i = 0; i < s->occurs_count; i++)
        if (!(found & s->occurs[i]))
            return false;
    return true;
}

/* --moves from ply `from` (pos the position before it): each token names, in the
 * position it is played from, the move the mainline plays there. */
static bool moves_from(const struct select *s, const struct game_record *rec, size_t from,
                       const struct position *start)
{
    if (rec->mainline_count - from < s->move_count)
        return false;
    static const struct san_options opts = {false, false};
    struct position pos = *start, after;
    struct san_outcome out;
    for (size_t i = 0; i < s->move_count; i++) {
        struct move m = rec->mainline[from + i];
        out.after = &after;
        san_resolve(&pos, &s->moves[i], &opts, &out);
        if (!out.ok || out.move.from != m.from || out.move.to != m.to ||
            out.move.promo != m.promo ||
            (out.move.flags & (MOVE_NULL | MOVE_DROP)) != (m.flags & (MOVE_NULL | MOVE_DROP)))
            return false;
        rules_do_move(&pos, m);
    }
    return true;
}

/* What move m of pos does (enum occur_bit). */
static unsigned move_occurs(const struct position *pos, struct move m)
{
    unsigned o = 0;
    if (m.flags & MOVE_CAPTURE)
        o |= OCC_CAPTURE;
    if (m.flags & MOVE_EN_PASSANT)
        o |= OCC_EN_PASSANT;
    if (m.flags & MOVE_CASTLE) /* king takes rook: the rook's side says which */
        o |= OCC_CASTLING | (m.to > m.from ? OCC_CASTLING_SHORT : OCC_CASTLING_LONG);
    if (m.promo && !(m.flags & MOVE_DROP) && piece_type_of(pos->board[m.from]) == PAWN)
        o |= OCC_PROMOTION | (m.promo >= KNIGHT && m.promo <= ROOK ? OCC_UNDERPROMOTION : 0);
    return o;
}

/* The position of ply i (in x->occ_seen[0..i]) stands there for the third time or more,
 * by threefold's rules.  In standard chess a capture or pawn move (the clock's reset)
 * makes every earlier position unreachable; a Crazyhouse drop puts captured men back. */
static bool third_time(const struct select_scratch *x, size_t i, const struct position *pos)
{
    size_t back = pos->variant == VARIANT_STANDARD && pos->halfmove_clock < i
                      ? pos->halfmove_clock : i;
    int times = 1;
    for (size_t j = i - back; j < i && times < 3; j++)
        times += same_position(&x->occ_seen[j], &x->occ_seen[i]);
    return times >= 3;
}

/* --in-variations: walk the variations' positions until what the mainline did not
 * reach is found: the --reaches target (with want_target) and the --material groups not
 * yet marked in x->reached (materials_left of them). */
static PGNKIT_NOINLINE bool variations_reach(const struct select *s, struct select_scratch *x,
                             const struct game_record *rec, bool want_target,
                             size_t materials_left)
{
    variation_walk_start(&x->lines, rec);
    const struct position *pos;
    while ((want_target || materials_left) && (pos = variation_walk_next(&x->lines))) {
        if (want_target) {
            struct keyed_sig ks;
            keyed_of(pos, poskey_of(pos), &ks);
            want_target = !reaches(&ks, pos, &s->target);
        }
        if (materials_left)
            materials_left -= material_marks(s, pos, x->reached);
    }
    return !want_target && !materials_left;
}

/* --occurs, --material and --moves on the mainline played (up to an error), in one
 * walk over its positions, the start included. */
static bool anywhere_holds(const struct select *s, struct select_scratch *x,
                           const struct game_record *rec)
{
    if (!rec->started)
        return false;
    size_t n = rec->mainline_count;
    bool keyed = s->occurs_any & OCC_THREEFOLD;
    if (keyed)
        xgrow((void **)&x->occ_seen, &x->occ_cap, n + 1, sizeof *x->occ_seen);
    xgrow((void **)&x->reached, &x->reached_cap, s->material_group_count + 1,
          sizeof *x->reached);
    memset(x->reached, 0, s->material_group_count * sizeof *x->reached);
    size_t materials_left = s->material_group_count;
    bool moves = !s->move_count;
    unsigned found = 0;
    struct position pos = rec->start;
    struct poskey_carry carry;
    uint64_t key = 0;
    if (keyed) {
        poskey_carry_init(&carry, &pos);
        key = poskey_of(&pos);
    }
    for (size_t ply = 0;; ply++) {
        if (materials_left)
            materials_left -= material_marks(s, &pos, x->reached);
        if (!moves && (ply == 0 || s->moves_anywhere))
            moves = moves_from(s, rec, ply, &pos);
        if (!moves && !s->moves_anywhere)
            return false; /* the start did not play them */
        found |= pos.halfmove_clock >= 100 ? OCC_FIFTY : 0;
        if (ply && pos.checkers)
            found |= OCC_CHECK;
        if (keyed) {
            keyed_of(&pos, key, &x->occ_seen[ply]);
            found |= third_time(x, ply, &pos) ? OCC_THREEFOLD : 0;
        }
        bool done = !materials_left && moves && occurs_hold(s, found);
        if (done)
            return true;
        if (ply == n) /* only --material may still be met, off the mainline */
            return s->in_variations && moves && occurs_hold(s, found) &&
                   variations_reach(s, x, rec, false, materials_left);
        struct move m = rec->mainline[ply];
        found |= move_occurs(&pos, m);
        struct position before = pos;
        rules_do_move(&pos, m);
        if (keyed)
            key = poskey_carry_move(&carry, &before, &pos);
    }
}

bool select_by_facts(const struct select *s, struct select_scratch *x,
                     const struct game_record *rec)
{
    bool match = true;
    for (size_t i = 0; match && i < s->count; i++)
        if (s->crit[i].computed)
            match = computed_holds(&s->crit[i], x, rec);
    if (match && s->plies_set)
        match = rec->mainline_count >= s->plies_min && rec->mainline_count <= s->plies_max;
    if (match && s->has_set)
        match = has_code(s, rec);
    /* Threefold is needed to tell "threefold" and also "none" (no ending at all). */
    bool keep = (s->endings & (END_THREEFOLD | END_NONE)) && rec->started &&
                rec->status < GAME_ERRORS;
    if (match && rec->started && (s->reaches_set || keep)) {
        bool reached;
        size_t n = walk_mainline(s, x, rec, keep, &reached);
        if (s->reaches_set)
            match = reached || (s->in_variations && variations_reach(s, x, rec, true, 0));
        if (match && s->endings)
            match = (ending_of(rec, keep && threefold(x, n)) & s->endings) != 0;
    } else if (match) {
        if (s->reaches_set)
            match = false; /* not set up: no position is reached */
        else if (s->endings)
            match = (ending_of(rec, false) & s->endings) != 0;
    }
    if (match && (s->occurs_count || s->material_count || s->move_count))
        match = anywhere_holds(s, x, rec);
    return match != s->invert;
}
