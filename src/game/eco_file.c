/*
 * eco_file.c - read an ECO file (eco.pgn) into an opening book (eco_file.h).
 *
 * Every entry is replayed with pgnkit's own reader and replayer; the tables are those
 * tools/gen_openings.c writes for the built-in book (open addressing from position key
 * to opening, the reach[] table), built here at run time, plus the lines themselves
 * (struct opening_lines) for pgn-extract's rules.
 */
#include "game/eco_file.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "board/poskey.h"
#include "game/game.h"
#include "pgn/pgn_reader.h"
#include "pgn/pgn_text.h"

enum { HOMES = 1 << 16, MAX_LINES = UINT16_MAX - 1 };

struct eco_book {
    struct opening_book book;
    struct opening_lines lines;
    struct opening *openings;
    uint32_t count, cap;
    uint32_t *plies, *first, *next;
    uint64_t *line_keys;
    uint8_t *pieces;
    uint16_t *home;
    struct move *moves;
    size_t move_count, move_cap;
    uint64_t *keys;
    uint16_t *slots;
    uint8_t *reach;
};

static void fail(struct eco_error *err, uint64_t line, uint64_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fail(struct eco_error *err, uint64_t line, uint64_t col, const char *fmt, ...)
{
    err->line = line;
    err->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

static char *tag_string(const struct pgn_game *g, const char *name)
{
    const struct slice *v = game_tag(g, name);
    return v ? xstrndup(v->ptr, v->len) : NULL;
}

/* The reasons an entry cannot be a line from the standard start; 0 when it can. */
static int check_entry(const struct pgn_game *g, const struct game_record *rec,
                       struct eco_error *err)
{
    static const char *const needed[] = {"ECO", "Opening"};
    for (int i = 0; i < 2; i++)
        if (!game_tag(g, needed[i]) || !game_tag(g, needed[i])->len) {
            fail(err, g->line, 1, "an entry needs an %s tag (ECO, Opening; Variation and "
                                  "SubVariation may follow)", needed[i]);
            return -1;
        }
    if (game_tag(g, "FEN") || game_tag(g, "Variant")) {
        fail(err, g->line, 1, "an entry is a line from the standard start position: no %s tag",
             game_tag(g, "FEN") ? "FEN" : "Variant");
        return -1;
    }
    for (size_t i = 0; i < rec->diags.count; i++) {
        const struct diag *d = &rec->diags.items[i];
        if (d->severity == DIAG_ERROR) {
            fail(err, d->line, d->col, "%s%s%s: %s", diag_code_name(d->code),
                 d->san[0] ? " at " : "", d->san, d->message);
            return -1;
        }
    }
    if (!rec->mainline_count) {
        fail(err, g->line, 1, "an entry needs moves: its line names the position they reach");
        return -1;
    }
    return 0;
}

static void add_line(struct eco_book *b, const struct pgn_game *g, const struct game_record *rec)
{
    if (b->count == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 256;
        b->openings = xrealloc(b->openings, b->cap * sizeof *b->openings);
        b->plies = xrealloc(b->plies, b->cap * sizeof *b->plies);
        b->first = xrealloc(b->first, b->cap * sizeof *b->first);
        b->line_keys = xrealloc(b->line_keys, b->cap * sizeof *b->line_keys);
        b->pieces = xrealloc(b->pieces, b->cap * sizeof *b->pieces);
        b->home = xrealloc(b->home, b->cap * sizeof *b->home);
    }
    uint32_t k = b->count++;
    b->openings[k] = (struct opening){tag_string(g, "ECO"), tag_string(g, "Opening"),
                                      tag_string(g, "Variation"), tag_string(g, "SubVariation")};
    b->plies[k] = (uint32_t)rec->mainline_count;
    b->first[k] = (uint32_t)b->move_count;
    b->line_keys[k] = poskey_of(&rec->final);
    b->pieces[k] = (uint8_t)__builtin_popcountll(position_occupied(&rec->final));
    b->home[k] = (uint16_t)opening_home_pawns(&rec->final);
    xgrow((void **)&b->moves, &b->move_cap, b->move_count + rec->mainline_count, sizeof *b->moves);
    memcpy(b->moves + b->move_count, rec->mainline, rec->mainline_count * sizeof *b->moves);
    b->move_count += rec->mainline_count;
}

/* Every entry replayed and kept; 0, or -1 with err set. */
static int read_lines(struct eco_book *b, const char *text, size_t len, const char *name,
                      struct eco_error *err)
{
    struct diag d;
    struct game_options opts = {0};
    struct game_replayer *rp = game_replayer_new(&opts, &d);
    struct pgn_reader *rd = pgn_reader_from_memory(text, len, name, NULL);
    struct pgn_text conv;
    pgn_text_init(&conv);
    struct pgn_game game;
    int rc = rp && rd ? 1 : -1;
    if (rc < 0)
        fail(err, 0, 0, "cannot start the reader");
    while (rc == 1 && (rc = pgn_reader_next(rd, &game, &d)) == 1) {
        const struct pgn_game *g = pgn_text_utf8(&conv, &game, PGN_ENCODING_AUTO);
        const struct game_record *rec = game_replay(rp, g);
        if (b->count == MAX_LINES) /* the table's slots are 16 bits, as the book's */
            fail(err, g->line, 1, "more than %d entries", MAX_LINES);
        if (b->count == MAX_LINES || check_entry(g, rec, err) != 0)
            rc = -1;
        else
            add_line(b, g, rec);
    }
    if (rc == -1 && !err->message[0])
        fail(err, d.line, d.col, "%s", d.message);
    pgn_text_release(&conv);
    pgn_reader_free(rd);
    game_replayer_free(rp);
    return rc < 0 ? -1 : 0;
}

/* The position table: each position's slot holds its first line in file order, and
 * next[] chains the later lines at the same position. */
static void build_table(struct eco_book *b)
{
    uint32_t slot_count = 2;
    while (slot_count < 2 * b->count)
        slot_count *= 2;
    b->keys = xcalloc(slot_count, sizeof *b->keys);
    b->slots = xcalloc(slot_count, sizeof *b->slots);
    b->next = xcalloc(b->count ? b->count : 1, sizeof *b->next);
    for (uint32_t k = 0; k < b->count; k++) {
        uint32_t s = (uint32_t)b->line_keys[k] & (slot_count - 1);
        while (b->slots[s] && b->keys[s] != b->line_keys[k])
            s = (s + 1) & (slot_count - 1);
        if (!b->slots[s]) {
            b->keys[s] = b->line_keys[k];
            b->slots[s] = (uint16_t)(k + 1);
            continue;
        }
        uint32_t last = b->slots[s] - 1u;
        while (b->next[last])
            last = b->next[last] - 1;
        b->next[last] = k + 1;
    }
    b->book.slot_mask = slot_count - 1;
}

/* reach[h]: the fewest pieces of a line whose home pawns are a subset of h (33: none),
 * by the sum-over-subsets recurrence (as tools/gen_openings.c). */
static void build_reach(struct eco_book *b)
{
    b->reach = xmalloc(HOMES);
    memset(b->reach, 33, HOMES);
    for (uint32_t k = 0; k < b->count; k++)
        if (b->pieces[k] < b->reach[b->home[k]])
            b->reach[b->home[k]] = b->pieces[k];
    for (unsigned bit = 1; bit < HOMES; bit <<= 1)
        for (unsigned h = 0; h < HOMES; h++)
            if ((h & bit) && b->reach[h ^ bit] < b->reach[h])
                b->reach[h] = b->reach[h ^ bit];
}

struct eco_book *eco_book_read(const char *text, size_t len, const char *name,
                               struct eco_error *err)
{
    struct eco_book *b = xcalloc(1, sizeof *b);
    err->message[0] = '\0';
    if (read_lines(b, text, len, name, err) != 0) {
        eco_book_free(b);
        return NULL;
    }
    if (!b->count) {
        fail(err, 1, 1, "no entries: an ECO file is games whose tags name an opening "
                        "(ECO, Opening, Variation) and whose moves are its line");
        eco_book_free(b);
        return NULL;
    }
    build_table(b);
    build_reach(b);
    struct position start;
    position_set_start(&start);
    poskey_carry_init(&b->book.start, &start);
    b->lines = (struct opening_lines){b->plies, b->first, b->moves, b->next};
    b->book.keys = b->keys;
    b->book.slots = b->slots;
    b->book.openings = b->openings;
    b->book.count = b->count;
    b->book.reach = b->reach;
    b->book.lines = &b->lines;
    return b;
}

const struct opening_book *eco_book_openings(const struct eco_book *b) { return &b->book; }

uint32_t eco_book_count(const struct eco_book *b) { return b->count; }

void eco_book_free(struct eco_book *b)
{
    if (!b)
        return;
    for (uint32_t k = 0; k < b->count; k++) {
        free((char *)b->openings[k].eco);
        free((char *)b->openings[k].name);
        free((char *)b->openings[k].variation);
        free((char *)b->openings[k].subvariation);
    }
    free(b->openings);
    free(b->plies);
    free(b->first);
    free(b->next);
    free(b->line_keys);
    free(b->pieces);
    free(b->home);
    free(b->moves);
    free(b->keys);
    free(b->slots);
    free(b->reach);
    free(b);
}
