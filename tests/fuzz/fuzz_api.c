/*
 * fuzz_api.c - the public API (pgnkit.h) as the Python module drives it, over any bytes.
 *
 * The first byte chooses the reader's options (flags, and a small max_game_bytes), the
 * rest is read with pgnkit_open_memory.  Every game is asked everything the module asks:
 * tags, UCI, SAN, FENs in both e.p. conventions, clocks, evals, diagnostics, the game's
 * comment and the whole move tree (each node once, walked by its links, as moves.c does),
 * and pgnkit_game_pgn.  The oracles: a detached copy, and that copy saved and loaded
 * again, answer every one of those calls as the reader's game did (the same bytes for
 * pgnkit_game_pgn, which the copies get by replaying their kept input), and saving the
 * loaded copy gives the same bytes as saving the detached one.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "base/buf.h"
#include "pgnkit/pgnkit.h"

static void fa_str(struct buf *out, pgnkit_str s)
{
    if (!s.ptr) {
        buf_puts(out, "<none>");
        return;
    }
    buf_append(out, s.ptr, s.len);
    buf_putc(out, '|');
}

static void fa_tags(struct buf *out, pgnkit_game *g)
{
    size_t n = pgnkit_game_tag_count(g);
    for (size_t i = 0; i < n; i++) {
        pgnkit_str name, value;
        FUZZ_ASSERT(pgnkit_game_tag(g, i, &name, &value) == 0);
        fa_str(out, name);
        fa_str(out, value);
        char key[64];
        if (name.len < sizeof key) { /* the value by name: the first tag of that name */
            memcpy(key, name.ptr, name.len);
            key[name.len] = '\0';
            fa_str(out, pgnkit_game_tag_value(g, key));
        }
    }
    pgnkit_str name, value;
    FUZZ_ASSERT(pgnkit_game_tag(g, n, &name, &value) == -1);
}

static void fa_eval(struct buf *out, int has, const pgnkit_eval *e)
{
    if (has)
        buf_printf(out, "eval %d %.17g %d;", e->is_mate, e->is_mate ? 0.0 : e->pawns,
                   e->is_mate ? e->mate_in : 0);
}

/* The mainline: every ply's UCI, SAN, both FENs, clock and eval. */
static void fa_mainline(struct buf *out, pgnkit_game *g)
{
    size_t plies = pgnkit_game_ply_count(g);
    char text[PGNKIT_FEN_MAX];
    for (size_t ply = 0; ply <= plies + 1; ply++) {
        size_t n = pgnkit_game_uci(g, ply, text);
        FUZZ_ASSERT(n < PGNKIT_UCI_MAX && (n > 0) == (ply >= 1 && ply <= plies));
        buf_append(out, text, n);
        n = pgnkit_game_san(g, ply, text);
        FUZZ_ASSERT(n < PGNKIT_SAN_MAX);
        buf_append(out, text, n);
        for (int ep = 0; ep < 2; ep++) {
            n = pgnkit_game_fen_ep(g, ply, text, ep);
            FUZZ_ASSERT(n < PGNKIT_FEN_MAX);
            buf_append(out, text, n);
        }
        n = pgnkit_game_fen(g, ply, text);
        buf_append(out, text, n);
        double seconds = 0;
        if (pgnkit_game_clock(g, ply, &seconds))
            buf_printf(out, "clk %.17g;", seconds);
        pgnkit_eval e;
        fa_eval(out, pgnkit_game_eval(g, ply, &e), &e);
        buf_putc(out, '\n');
    }
    /* Backwards, as a second look at a position does: the cursor starts over. */
    for (size_t ply = plies + 1; ply-- > 0;) {
        size_t n = pgnkit_game_fen(g, ply, text);
        buf_append(out, text, n);
    }
}

static void fa_diagnostics(struct buf *out, const pgnkit_game *g)
{
    size_t n = pgnkit_game_diagnostic_count(g);
    for (size_t i = 0; i < n; i++) {
        pgnkit_diagnostic d;
        FUZZ_ASSERT(pgnkit_game_diagnostic(g, i, &d) == 0);
        buf_printf(out, "%s %d %llu:%llu %u %s|%s|%s|%s\n", d.code, d.is_error,
                   (unsigned long long)d.line, (unsigned long long)d.col, d.ply, d.message,
                   d.san, d.fen, d.candidates);
    }
    pgnkit_diagnostic d;
    FUZZ_ASSERT(pgnkit_game_diagnostic(g, n, &d) == -1);
}

static void fa_node(struct buf *out, pgnkit_game *g, size_t i, const pgnkit_node *n)
{
    char text[PGNKIT_FEN_MAX];
    buf_printf(out, "%zu: %zu %zu %zu %zu %zu ", i, n->ply, n->parent, n->next, n->variation,
               n->next_variation);
    fa_str(out, n->comment);
    fa_str(out, n->starting_comment);
    for (size_t k = 0; k < n->nag_count; k++)
        buf_printf(out, "$%d", n->nags[k]);
    buf_printf(out, " %d%d%d%c", n->is_check, n->is_checkmate, n->is_capture,
               n->promotion ? n->promotion : '-');
    if (n->has_clock)
        buf_printf(out, "clk %.17g;", n->clock);
    fa_eval(out, n->has_eval, &n->eval);
    FUZZ_ASSERT(n->comment.ptr == NULL || n->comment.ptr[n->comment.len] == '\0');
    pgnkit_str c = pgnkit_game_node_comment(g, i);
    FUZZ_ASSERT(c.ptr == n->comment.ptr && c.len == n->comment.len);
    buf_append(out, text, pgnkit_game_node_uci(g, i, text));
    buf_append(out, text, pgnkit_game_node_san(g, i, text));
    buf_append(out, text, pgnkit_game_node_fen(g, i, text));
    buf_putc(out, '\n');
}

/*
 * The tree as moves.c walks it: each line by next, each move's variations by variation
 * then next_variation; every node is reached once, from its parent or a sibling line.
 */
static void fa_tree(struct buf *out, pgnkit_game *g)
{
    fa_str(out, pgnkit_game_comment(g));
    size_t count = pgnkit_game_node_count(g), plies = pgnkit_game_ply_count(g);
    FUZZ_ASSERT(count >= plies);
    pgnkit_node n;
    /* The comments in a batch first, while the tree may keep them as places in the game's
     * bytes: the same bytes as the NUL-terminated ones asked for after, and still valid. */
    pgnkit_str *batch = malloc((count + 1) * sizeof *batch);
    FUZZ_ASSERT(pgnkit_game_node_comments(g, 1, count + 1, batch) == count);
    FUZZ_ASSERT(pgnkit_game_node_comments(g, 0, 1, batch) == 0);
    FUZZ_ASSERT(pgnkit_game_node_comments(g, count + 1, 1, batch) == 0);
    if (count) /* again, from the last node: what is left of the line */
        FUZZ_ASSERT(pgnkit_game_node_comments(g, count, 5, batch + count) == 1);
    FUZZ_ASSERT(pgnkit_game_node(g, 0, &n) == -1 && pgnkit_game_node(g, count + 1, &n) == -1);
    unsigned char *seen = calloc(count + 1, 1);
    size_t *stack = malloc((count + 1) * sizeof *stack), depth = 0, visited = 0;
    if (count)
        stack[depth++] = 1;
    while (depth) {
        size_t i = stack[--depth];
        FUZZ_ASSERT(i >= 1 && i <= count && !seen[i]);
        seen[i] = 1;
        visited++;
        FUZZ_ASSERT(pgnkit_game_node(g, i, &n) == 0);
        FUZZ_ASSERT(n.parent < i && (i > plies || n.ply == i));
        fa_node(out, g, i, &n);
        size_t links[] = {n.next, n.variation, n.next_variation};
        for (size_t k = 0; k < 3; k++) {
            if (!links[k])
                continue;
            FUZZ_ASSERT(links[k] > i && links[k] <= count && depth <= count);
            stack[depth++] = links[k];
        }
    }
    FUZZ_ASSERT(visited == count);
    /* Node by node too, in number order (the FEN cursor's other path). */
    for (size_t i = 1; i <= count; i++) {
        FUZZ_ASSERT(pgnkit_game_node(g, i, &n) == 0);
        fa_node(out, g, i, &n);
        const pgnkit_str *c = &batch[i == count ? count : i - 1];
        FUZZ_ASSERT(c->len == n.comment.len && (c->ptr == NULL) == (n.comment.ptr == NULL));
        FUZZ_ASSERT(!c->len || memcmp(c->ptr, n.comment.ptr, c->len) == 0);
    }
    free(batch);
    free(seen);
    free(stack);
}

/* pgnkit_game_pgn, called once when 64 KB is room enough: a copy replays its input on
 * each call (a new replayer each time: the harness's slowest part).  The reader's game,
 * which does not replay, is asked for a short prefix too. */
static void fa_pgn(struct buf *out, pgnkit_game *g, bool prefix)
{
    size_t cap = 1 << 16;
    char *text = malloc(cap);
    size_t len = pgnkit_game_pgn(g, text, cap);
    if (len > cap) {
        text = realloc(text, len);
        FUZZ_ASSERT(pgnkit_game_pgn(g, text, len) == len);
    }
    if (prefix && len) {
        char first = text[0];
        text[0] = (char)~first;
        FUZZ_ASSERT(pgnkit_game_pgn(g, text, 1) == len && text[0] == first);
    }
    buf_append(out, text, len);
    free(text);
}

/* Everything the module asks of a game, as text (where it is, then what it is). */
static void fa_game(struct buf *out, pgnkit_game *g, bool prefix)
{
    const char *member = pgnkit_game_member(g);
    buf_printf(out, "%s %s %llu %llu %llu %llu %s %s %u\n", pgnkit_game_file(g),
               member ? member : "-", (unsigned long long)pgnkit_game_index(g),
               (unsigned long long)pgnkit_game_offset(g), (unsigned long long)pgnkit_game_bytes(g),
               (unsigned long long)pgnkit_game_line(g), pgnkit_status_name(pgnkit_game_status(g)),
               pgnkit_ending_name(pgnkit_game_ending(g)), pgnkit_game_error_ply(g));
    fa_str(out, pgnkit_game_result(g));
    fa_tags(out, g);
    fa_diagnostics(out, g);
    fa_mainline(out, g);
    fa_tree(out, g);
    fa_pgn(out, g, prefix);
}

static void fa_same(const struct buf *a, const struct buf *b, const char *what)
{
    if (a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0))
        return;
    size_t k = 0;
    while (k < a->len && k < b->len && a->data[k] == b->data[k])
        k++;
    fprintf(stderr, "%s answers otherwise than the reader's game, from byte %zu:\n"
            "--- reader's:\n%.800s\n--- copy's:\n%.800s\n", what, k,
            a->data ? a->data + k : "", b->data ? b->data + k : "");
    abort();
}

static char *fa_save(pgnkit_game *g, size_t *len)
{
    *len = pgnkit_game_save(g, NULL, 0);
    char *bytes = malloc(*len ? *len : 1);
    FUZZ_ASSERT(pgnkit_game_save(g, bytes, *len) == *len);
    return bytes;
}

/* The reader's game, its detached copy and that copy saved and loaded: the same. */
static void fa_compare(pgnkit_game *g, struct buf *want, struct buf *got)
{
    /* Detached before anything is asked: its tree replayed from its bytes, which makes
     * the next games' detach build theirs from the reader's tokens (the loop's path). */
    pgnkit_game *early = pgnkit_game_detach(g);
    FUZZ_ASSERT(early);
    buf_clear(want);
    fa_game(want, g, true);
    pgnkit_game *d = pgnkit_game_detach(g);
    FUZZ_ASSERT(d);
    size_t len, len2;
    char *bytes = fa_save(d, &len);
    pgnkit_error err;
    pgnkit_game *l = pgnkit_game_load(bytes, len, &err);
    FUZZ_ASSERT(l);
    if (len)
        FUZZ_ASSERT(pgnkit_game_load(bytes, len - 1, &err) == NULL);
    buf_clear(got);
    fa_game(got, d, false);
    fa_same(want, got, "a detached game");
    buf_clear(got);
    fa_game(got, l, false);
    fa_same(want, got, "a saved and loaded game");
    buf_clear(got);
    fa_game(got, early, false);
    fa_same(want, got, "a game detached before any question");
    pgnkit_game_free(early);
    char *again = fa_save(l, &len2);
    FUZZ_ASSERT(len2 == len && memcmp(again, bytes, len) == 0);
    free(again);
    free(bytes);
    pgnkit_game_free(l);
    pgnkit_game_free(d);
}

int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    pgnkit_options opts;
    pgnkit_options_init(&opts);
    opts.flags = data[0] & 0x1f; /* strict, lenient, no variations, ktr, ep legal */
    if (data[0] & 0x20)
        opts.max_game_bytes = 64 + (size_t)(data[0] >> 6) * 256;
    pgnkit_error err;
    pgnkit_reader *r = pgnkit_open_memory(data + 1, size - 1, "fuzz.pgn", &opts, &err);
    FUZZ_ASSERT(r);
    struct buf want, got;
    buf_init(&want);
    buf_init(&got);
    pgnkit_game *g;
    while (pgnkit_next(r, &g, &err) == 1)
        fa_compare(g, &want, &got);
    buf_release(&want);
    buf_release(&got);
    pgnkit_close(r);
    return 0;
}
