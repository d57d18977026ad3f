/*
 * game_tree.c - the move tree of a replayed game (game_tree.h): one walk over its tokens
 * with a stack of open lines, comments and NAGs copied as they come (a move's one-line
 * comment kept as its place in the game's bytes).
 */
#include "game/game_tree.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "pgn/comment.h"

/* A line being walked: the mainline, or a variation open at the token. */
struct line {
    uint32_t last;        /* the last node played in it, 0 before its first */
    uint32_t replaces;    /* a variation: the node its first move is an alternative to */
    uint32_t last_alt;    /* a variation: the node it hangs after in replaces' chain */
    uint32_t starting_at, starting_len; /* comments before its first move */
    bool skip;            /* not in the tree: opened before any move of its line */
};

struct builder {
    struct game_tree *t;
    const struct game_record *rec;
    const char *source;   /* the game's bytes a one-line comment may be kept a place in */
    size_t source_len;    /* 0: every comment copied */
    struct line *lines;
    size_t depth, lines_cap;
    uint32_t mainline_seen;
};

/* ' ', '\t', '\n' or '\r': one test of a bit mask of them. */
static bool is_blank(char c)
{
    unsigned char u = (unsigned char)c;
    return u <= ' ' && (((uint64_t)1 << ' ' | 1 << '\t' | 1 << '\n' | 1 << '\r') >> u & 1);
}

/* Append the normalized text of s[0, len) at the end of t->text (no NUL); returns the
 * bytes written, 0 when it is all blank. */
static size_t append_normalized(struct game_tree *t, const char *s, size_t len)
{
    xgrow((void **)&t->text, &t->text_cap, t->text_len + len + 2, 1);
    char *out = t->text + t->text_len;
    size_t n = 0;
    size_t i = 0;
    while (i < len && is_blank(s[i]))
        i++;
    if (!memchr(s + i, '\n', len - i) && !memchr(s + i, '\r', len - i)) {
        /* One line (a [%clk] comment): nothing to normalize but its end. */
        memcpy(out, s + i, len - i);
        n = len - i;
        i = len;
    }
    for (; i < len; i++) {
        char c = s[i];
        if (c == '\r') {
            if (i + 1 < len && s[i + 1] == '\n')
                continue;
            c = '\n';
        }
        if (c == '\n')
            while (n > 0 && (out[n - 1] == ' ' || out[n - 1] == '\t'))
                n--;
        out[n++] = c;
    }
    while (n > 0 && is_blank(out[n - 1]))
        n--;
    return n;
}

static const char *comment_ptr(const struct game_tree *t, const struct game_tree_node *n)
{
    return (n->comment_ref ? t->source : t->text) + n->comment_at;
}

static uint64_t load8(const char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

/* Whether any of the 8 bytes of w is below 14 ('\t', '\n', '\r' and the other control
 * bytes below them): the zero-byte test, exact for a bound up to 128. */
static uint64_t low_bytes(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101u;
    return (w - ones * 14) & ~w & (ones << 7);
}

static bool word_has_low(uint64_t w) { return low_bytes(w) != 0; }

/* Whether s[0, len) has a line end: 8 bytes at a time, a word with no byte below 14 has
 * none (a [%clk] comment is two words, where two memchr calls cost more than the rest
 * of its node). */
static bool has_line_end(const char *s, size_t len)
{
    for (size_t i = 0; len >= 8; i += 8) {
        uint64_t w;
        memcpy(&w, s + (i + 8 <= len ? i : len - 8), sizeof w); /* the last overlaps */
        if (word_has_low(w))
            break;
        if (i + 8 >= len)
            return false;
    }
    return memchr(s, '\n', len) || memchr(s, '\r', len);
}

/* Whether s[0, len) lies inside the game's bytes (none kept: never). */
static bool in_source(const struct builder *b, const char *s, size_t len)
{
    uintptr_t off = (uintptr_t)s - (uintptr_t)b->source; /* huge when before it */
    return b->source_len && off <= b->source_len && len <= b->source_len - off;
}

/* Comment tok's text trimmed of its blanks into *s, *len, when that is one line
 * (nothing to normalize but its ends) inside the game's bytes: a place there can stand
 * for it.  False when it must be copied. */
static bool one_line_in_source(const struct builder *b, const struct pgn_token *tok,
                               const char **s, size_t *len)
{
    const char *p = tok->text;
    size_t n = tok->len;
    if (!in_source(b, p, n))
        return false;
    while (n && is_blank(*p))
        p++, n--;
    while (n && is_blank(p[n - 1]))
        n--;
    if (!n || has_line_end(p, n))
        return false;
    *s = p;
    *len = n;
    return true;
}

/* A move's first comment as a place in the game's bytes (one_line_in_source).  Returns
 * false when it must be copied. */
static bool refer_comment(struct builder *b, struct game_tree_node *n,
                          const struct pgn_token *tok)
{
    const char *s;
    size_t len;
    if (!one_line_in_source(b, tok, &s, &len))
        return false;
    n->comment_at = (uint32_t)(s - b->source);
    n->comment_len = (uint32_t)len;
    n->comment_ref = true;
    b->t->ref_count++;
    return true;
}

/* A move's comment kept in the game's bytes, copied to the text before a second one is
 * joined to it. */
static void unrefer_comment(struct game_tree *t, struct game_tree_node *n)
{
    xgrow((void **)&t->text, &t->text_cap, t->text_len + n->comment_len + 1, 1);
    memcpy(t->text + t->text_len, t->source + n->comment_at, n->comment_len);
    n->comment_at = (uint32_t)t->text_len;
    t->text_len += n->comment_len;
    t->text[t->text_len++] = '\0';
    n->comment_ref = false;
    t->ref_count--;
}

/* Add the comment tok to the text at (*at, *len): joined by a space, kept NUL-terminated
 * and whole at the end of t->text (moved there when something came after it). */
static void add_comment(struct game_tree *t, uint32_t *at, uint32_t *len,
                        const struct pgn_token *tok)
{
    if (*len && (size_t)*at + *len + 1 != t->text_len) {
        xgrow((void **)&t->text, &t->text_cap, t->text_len + *len + 1, 1);
        memcpy(t->text + t->text_len, t->text + *at, *len + 1);
        *at = (uint32_t)t->text_len;
        t->text_len += *len + 1;
    }
    size_t start = t->text_len;
    if (*len)
        t->text_len--; /* over the NUL, with a space in its place */
    size_t sep = *len ? 1 : 0;
    t->text_len += sep;
    size_t n = append_normalized(t, tok->text, tok->len);
    if (!n) {
        t->text_len = start;
        return;
    }
    if (sep)
        t->text[t->text_len - 1] = ' ';
    else
        *at = (uint32_t)t->text_len;
    t->text_len += n;
    t->text[t->text_len++] = '\0';
    *len += (uint32_t)(sep + n);
}

static void add_nag(struct game_tree *t, struct game_tree_node *n, int nag)
{
    for (size_t k = 0; k < n->nag_count; k++)
        if (t->nags[n->nag_at + k] == nag)
            return;
    if (n->nag_count && (size_t)n->nag_at + n->nag_count != t->nag_len) {
        xgrow((void **)&t->nags, &t->nag_cap, t->nag_len + n->nag_count + 1, sizeof *t->nags);
        memcpy(t->nags + t->nag_len, t->nags + n->nag_at, n->nag_count * sizeof *t->nags);
        n->nag_at = (uint32_t)t->nag_len;
        t->nag_len += n->nag_count;
    }
    xgrow((void **)&t->nags, &t->nag_cap, t->nag_len + 1, sizeof *t->nags);
    if (!n->nag_count)
        n->nag_at = (uint32_t)t->nag_len;
    t->nags[t->nag_len++] = nag;
    n->nag_count++;
}

static int parse_nag(const struct pgn_token *tok)
{
    int v = 0;
    for (size_t k = 1; k < tok->len && tok->text[k] >= '0' && tok->text[k] <= '9'; k++)
        v = v < 100000 ? v * 10 + (tok->text[k] - '0') : v;
    return v;
}

/* The node for a move played in line l: mainline plies keep their numbers. */
static uint32_t new_node(struct builder *b, const struct game_token_move *m)
{
    struct game_tree *t = b->t;
    struct line *l = &b->lines[b->depth];
    uint32_t id;
    if (b->depth == 0) {
        if (b->mainline_seen >= b->rec->mainline_count)
            return 0; /* cannot happen: the depth-0 moves played are the mainline */
        id = ++b->mainline_seen;
    } else {
        xgrow((void **)&t->nodes, &t->cap, t->count + 2, sizeof *t->nodes);
        id = (uint32_t)++t->count;
    }
    struct game_tree_node *n = &t->nodes[id];
    *n = (struct game_tree_node){.move = m->move, .ply = m->ply, .check_mark = m->check_mark};
    if (l->last) {
        n->parent = l->last;
        t->nodes[l->last].next = id;
    } else {
        n->parent = l->replaces ? t->nodes[l->replaces].parent : 0;
        if (l->last_alt)
            t->nodes[l->last_alt].next_variation = id;
        else if (l->replaces)
            t->nodes[l->replaces].variation = id;
        n->starting_at = l->starting_at;
        n->starting_len = l->starting_len;
    }
    l->last = id;
    return id;
}

static void open_line(struct builder *b)
{
    xgrow((void **)&b->lines, &b->lines_cap, b->depth + 2, sizeof *b->lines);
    const struct line *parent = &b->lines[b->depth];
    struct line *l = &b->lines[++b->depth];
    *l = (struct line){.replaces = parent->last, .skip = parent->skip || !parent->last};
    if (!l->skip) {
        uint32_t alt = b->t->nodes[l->replaces].variation;
        while (alt && b->t->nodes[alt].next_variation)
            alt = b->t->nodes[alt].next_variation;
        l->last_alt = alt;
    }
}

static void take_token(struct builder *b, const struct pgn_token *tok,
                       const struct game_token_move *m)
{
    struct game_tree *t = b->t;
    switch (tok->kind) { /* the others (move numbers, the result) first out */
    case PGN_TOK_VARIATION_START:
        open_line(b);
        return;
    case PGN_TOK_VARIATION_END:
        b->depth -= b->depth > 0;
        return;
    case PGN_TOK_MOVE:
    case PGN_TOK_NAG:
    case PGN_TOK_COMMENT:
    case PGN_TOK_LINE_COMMENT:
        break;
    default:
        return;
    }
    struct line *l = &b->lines[b->depth];
    if (l->skip)
        return;
    struct game_tree_node *last = l->last ? &t->nodes[l->last] : NULL;
    switch (tok->kind) {
    case PGN_TOK_MOVE:
        if (m->played) {
            uint32_t id = new_node(b, m);
            int nag = m->suffix_len ? san_glyph_nag(tok->text + tok->len - m->suffix_len,
                                                    m->suffix_len)
                                    : 0;
            if (id && nag)
                add_nag(t, &t->nodes[id], nag);
        } else if (last) {
            int nag = san_glyph_nag(tok->text, tok->len);
            if (nag)
                add_nag(t, last, nag);
        }
        break;
    case PGN_TOK_NAG:
        if (last)
            add_nag(t, last, parse_nag(tok));
        break;
    case PGN_TOK_COMMENT:
    case PGN_TOK_LINE_COMMENT:
        if (last) {
            /* The clock and eval wait for a question (game_tree_notes) while the node
             * has one comment: its text gives what the token does.  A second one needs
             * the first's commands taken first (the first of each wins, comment by
             * comment), so they are taken now. */
            if (!last->comment_len && refer_comment(b, last, tok))
                break;
            if (!last->notes_known && last->comment_len) {
                comment_notes_take(&last->notes, comment_ptr(t, last), last->comment_len);
                last->notes_known = true;
            }
            if (last->comment_ref)
                unrefer_comment(t, last);
            add_comment(t, &last->comment_at, &last->comment_len, tok);
            if (last->notes_known)
                comment_notes_take(&last->notes, tok->text, tok->len);
        } else if (b->depth == 0) {
            add_comment(t, &t->comment_at, &t->comment_len, tok);
        } else {
            add_comment(t, &l->starting_at, &l->starting_len, tok);
        }
        break;
    default:
        break;
    }
}

/* ---- light trees (game_tree.h) ---- */

/* t->nodes for t->count nodes, node 0 zeroed (new storage, a detached game's, sized to
 * fit); the walk writes each mainline node whole as it plays it (new_node), so only the
 * ones it does not reach are zeroed after it. */
static void nodes_ready(struct game_tree *t)
{
    if (!t->cap) {
        t->cap = t->count + 1;
        t->nodes = xmalloc(t->cap * sizeof *t->nodes);
    }
    xgrow((void **)&t->nodes, &t->cap, t->count + 1, sizeof *t->nodes);
    t->nodes[0] = (struct game_tree_node){0};
}

/* The nodes 1 .. seen of a light tree as the general walk makes them, from its entries
 * and rec's mainline; node seen's next is left for the walk (0). */
static void light_nodes(struct game_tree *t, const struct game_record *rec, size_t seen)
{
    for (size_t id = 1; id <= seen; id++) {
        uint64_t e = t->light[id];
        uint32_t len = game_tree_light_len(e);
        t->nodes[id] = (struct game_tree_node){
            .move = rec->mainline[id - 1],
            .ply = (uint32_t)id,
            .parent = (uint32_t)(id - 1),
            .next = id < seen ? (uint32_t)(id + 1) : 0,
            .comment_at = len ? (uint32_t)e : 0,
            .comment_len = len,
            .comment_ref = len != 0,
            .check_mark = (char)(e >> 56),
        };
        t->ref_count += len != 0;
    }
}

/* A light entry's comment part (game_tree.h): s[0, len) in the game's bytes. */
static uint64_t light_entry(const struct builder *b, const char *s, size_t len)
{
    return (uint64_t)(s - b->source) | (uint64_t)len << 32;
}

/* A move's comment in a light tree: one line, inside the game's bytes, trimmed; 0 when
 * it does not fit one (the general walk takes it). */
static uint64_t light_comment(const struct builder *b, const struct pgn_token *tok)
{
    const char *s = tok->text;
    size_t len = tok->len;
    /* Most often a [%clk] comment, { [%clk 0:03:00] }: 8 to 16 bytes, no byte below 14
     * (so no line end, and its blanks are spaces), one space on each side: four byte
     * tests instead of one_line_in_source's trimming loops and line-end search. */
    if (len >= 8 && len <= 16 && in_source(b, s, len) &&
        !(low_bytes(load8(s)) | low_bytes(load8(s + len - 8))) && s[0] == ' ' &&
        s[len - 1] == ' ' && s[1] != ' ' && s[len - 2] != ' ')
        return light_entry(b, s + 1, len - 2);
    if (!one_line_in_source(b, tok, &s, &len) || len > GAME_TREE_LIGHT_LEN)
        return 0;
    return light_entry(b, s, len);
}

/* Walk the game as a light tree from *part's first token on; true when all of it fits
 * one.  Else *part and *at are the first token that does not, and the nodes up to it
 * are made, b's state that of the general walk there. */
static bool walk_light(struct builder *b, struct game_part *part, bool *more, size_t *at)
{
    struct game_tree *t = b->t;
    const struct game_record *rec = b->rec;
    uint64_t *light = t->light; /* locals: a store to it may alias any size_t */
    const struct move *played = rec->mainline;
    size_t seen = 0, mainline = rec->mainline_count;
    for (; *more; *more = game_part_next(rec, part), *at = 0) {
        const struct pgn_token *tok = part->tokens;
        const struct game_token_move *mv = part->moves;
        size_t i = *at, count = part->count;
        for (; i < count; i++) {
            unsigned kind = tok[i].kind;
            if (kind == PGN_TOK_MOVE_NUMBER || kind == PGN_TOK_RESULT)
                continue;
            if (kind == PGN_TOK_MOVE) {
                const struct game_token_move *m = &mv[i];
                /* Played without a glyph, and the mainline's next move (as it must be:
                 * the depth-0 moves played are the mainline; checked, not assumed). */
                if (!m->played || m->suffix_len || seen >= mainline ||
                    memcmp(&m->move, &played[seen], sizeof m->move) != 0)
                    break;
                light[++seen] = (uint64_t)(unsigned char)m->check_mark << 56;
                continue;
            }
            if ((kind != PGN_TOK_COMMENT && kind != PGN_TOK_LINE_COMMENT) || !seen ||
                light[seen] << 8) /* a second comment, or no move before it */
                break;
            uint64_t c = light_comment(b, &tok[i]);
            if (!c)
                break;
            light[seen] |= c;
        }
        if (i < count) {
            *at = i;
            nodes_ready(t);
            light_nodes(t, rec, seen);
            b->mainline_seen = (uint32_t)seen;
            b->lines[0].last = (uint32_t)seen;
            return false;
        }
    }
    if (seen < mainline) { /* the walk zeroes the nodes past it, as a general one's */
        nodes_ready(t);
        light_nodes(t, rec, seen);
        b->mainline_seen = (uint32_t)seen;
        return false;
    }
    return true;
}

void game_tree_expand(struct game_tree *t, const struct game_record *rec)
{
    if (!t->is_light)
        return;
    nodes_ready(t);
    t->ref_count = 0;
    light_nodes(t, rec, t->count < rec->mainline_count ? t->count : rec->mainline_count);
    t->is_light = false;
}

void game_tree_build(struct game_tree *t, const struct game_record *rec, bool refs)
{
    size_t mainline = rec->mainline_count;
    t->count = mainline;
    t->text_len = 0;
    t->nag_len = 0;
    t->comment_at = t->comment_len = 0;
    free(t->source_copy);
    t->source_copy = NULL;
    t->ref_count = 0;
    const struct pgn_game *pg = rec->game;
    bool in_bytes = refs && pg && pg->text && !pg->skipped && pg->bytes <= UINT32_MAX;
    t->source = in_bytes ? pg->text : NULL;
    struct builder b = {.t = t, .rec = rec, .source = t->source,
                        .source_len = in_bytes ? (size_t)pg->bytes : 0};
    xgrow((void **)&b.lines, &b.lines_cap, 1, sizeof *b.lines);
    b.lines[0] = (struct line){0};
    t->is_light = false;
    struct game_part part;
    bool more = rec->started && game_part_first(rec, &part);
    size_t at = 0;
    if (in_bytes && more && part.moves) {
        if (!t->light_cap) { /* new storage: sized to fit */
            t->light_cap = mainline + 1;
            t->light = xmalloc(t->light_cap * sizeof *t->light);
        }
        xgrow((void **)&t->light, &t->light_cap, mainline + 1, sizeof *t->light);
        if (walk_light(&b, &part, &more, &at)) {
            t->is_light = true;
            free(b.lines);
            return;
        }
    }
    nodes_ready(t);
    for (; more; more = game_part_next(rec, &part), at = 0)
        for (size_t i = at; i < part.count; i++)
            take_token(&b, &part.tokens[i], &part.moves[i]);
    for (size_t id = b.mainline_seen + 1; id <= mainline; id++)
        t->nodes[id] = (struct game_tree_node){0};
    free(b.lines);
}

const struct comment_notes *game_tree_notes(struct game_tree *t, size_t id)
{
    struct game_tree_node *n = &t->nodes[id];
    if (!n->notes_known) {
        n->notes = (struct comment_notes){0};
        if (n->comment_len)
            comment_notes_take(&n->notes, comment_ptr(t, n), n->comment_len);
        n->notes_known = true;
    }
    return &n->notes;
}

void game_tree_nul_terminate(struct game_tree *t)
{
    if (!t->ref_count || t->source_copy)
        return;
    size_t size = 0;
    for (size_t i = 1; i <= t->count; i++)
        if (t->nodes[i].comment_ref)
            size += t->nodes[i].comment_len + 1;
    char *copy = xmalloc(size);
    size_t at = 0;
    for (size_t i = 1; i <= t->count; i++) {
        struct game_tree_node *n = &t->nodes[i];
        if (!n->comment_ref)
            continue;
        memcpy(copy + at, t->source + n->comment_at, n->comment_len);
        copy[at + n->comment_len] = '\0';
        n->comment_at = (uint32_t)at;
        at += n->comment_len + 1;
    }
    t->source_copy = copy;
    t->source = copy;
}

void game_tree_copy(struct game_tree *dst, const struct game_tree *src, const char *source)
{
    *dst = *src;
    dst->source = source;
    dst->source_copy = NULL;
    if (src->source_copy) { /* NUL-terminated copies, which the copy needs its own of */
        size_t size = 0;
        for (size_t i = 1; i <= src->count; i++)
            if (src->nodes[i].comment_ref)
                size += src->nodes[i].comment_len + 1;
        dst->source = dst->source_copy = xmalloc(size ? size : 1);
        if (size)
            memcpy(dst->source_copy, src->source_copy, size);
    }
    dst->light = NULL;
    dst->light_cap = 0;
    if (src->is_light) { /* its entries, not its nodes (stale storage) */
        dst->cap = 0;
        dst->nodes = NULL;
        dst->light_cap = src->count + 1;
        dst->light = xmalloc(dst->light_cap * sizeof *dst->light);
        memcpy(dst->light, src->light, dst->light_cap * sizeof *dst->light);
    } else {
        dst->cap = src->count + 1;
        dst->nodes = xmalloc(dst->cap * sizeof *dst->nodes);
        /* A tree of a game with no comments or NAGs has no text or NAG array: memcpy
         * must not be given their NULL, even for no bytes (C11 7.24.1). */
        if (src->nodes)
            memcpy(dst->nodes, src->nodes, dst->cap * sizeof *dst->nodes);
        else
            memset(dst->nodes, 0, dst->cap * sizeof *dst->nodes);
    }
    dst->text_cap = src->text_len + 1;
    dst->text = xmalloc(dst->text_cap);
    if (src->text_len)
        memcpy(dst->text, src->text, src->text_len);
    dst->text[src->text_len] = '\0';
    dst->nag_cap = src->nag_len + 1;
    dst->nags = xmalloc(dst->nag_cap * sizeof *dst->nags);
    if (src->nag_len)
        memcpy(dst->nags, src->nags, src->nag_len * sizeof *dst->nags);
}

void game_tree_release(struct game_tree *t)
{
    free(t->nodes);
    free(t->text);
    free(t->nags);
    free(t->source_copy);
    free(t->light);
    *t = (struct game_tree){0};
}
