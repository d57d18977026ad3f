/*
 * gen_openings.c - build-time tool: the opening book (opening.h) as C source.
 *
 *   gen_openings a.tsv b.tsv ... > opening_book.c
 *
 * Reads the lichess chess-openings TSV files (eco, name, pgn; a header row each), replays
 * every row's moves with pgnkit's own reader and replayer (any diagnostic at all fails the
 * build, naming the file and line), keys each row's final position with poskey_of(), and
 * writes the constant tables: openings in row order, an open-addressing table from key
 * to opening, and for each set of home-rank pawns the fewest pieces a book position with
 * no other home pawns has (opening.h).  When
 * rows share a position the one listed last wins, as a map built from the list would
 * (lichess builds its own that way); one stderr line says how many rows that shadows.
 * Exit 1 on any problem, with a message.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "game/game.h"
#include "pgn/pgn_reader.h"
#include "board/poskey.h"

struct row {
    char *eco, *name;
    const char *file;
    unsigned line;
    uint64_t key;
    int pieces;
    unsigned home; /* opening_home_pawns() */
    bool winner; /* no later row has the same position */
};

struct rows {
    struct row *items;
    size_t count, cap;
};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
    va_list ap;
    fputs("gen_openings: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static char *dup_field(const char *p, size_t n)
{
    char *s = malloc(n + 1);
    if (!s)
        die("out of memory");
    memcpy(s, p, n);
    s[n] = '\0';
    return s;
}

/* Each row becomes one game of pgn: its moves and '*'. */
static void read_tsv(const char *path, struct rows *rows, struct buf *pgn)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die("%s: cannot open", path);
    char line[1024];
    unsigned n = 0;
    while (fgets(line, sizeof line, f)) {
        n++;
        size_t len = strcspn(line, "\r\n");
        line[len] = '\0';
        if (n == 1) {
            if (strcmp(line, "eco\tname\tpgn") != 0)
                die("%s:%u: expected the header 'eco<TAB>name<TAB>pgn'", path, n);
            continue;
        }
        char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        if (!t2 || strchr(t2 + 1, '\t') || t1 == line || t2 == t1 + 1 || !t2[1])
            die("%s:%u: expected 3 columns: eco, name, pgn", path, n);
        if (rows->count == rows->cap) {
            rows->cap = rows->cap ? rows->cap * 2 : 4096;
            rows->items = realloc(rows->items, rows->cap * sizeof *rows->items);
            if (!rows->items)
                die("out of memory");
        }
        struct row *r = &rows->items[rows->count++];
        *r = (struct row){dup_field(line, (size_t)(t1 - line)),
                          dup_field(t1 + 1, (size_t)(t2 - t1 - 1)), path, n, 0, 0, 0, true};
        buf_printf(pgn, "%s *\n\n", t2 + 1);
    }
    if (ferror(f))
        die("%s:%u: read error", path, n);
    fclose(f);
}

static void note_counts(struct row *r, const struct position *pos)
{
    r->pieces = __builtin_popcountll(pos->by_color[WHITE] | pos->by_color[BLACK]);
    r->home = opening_home_pawns(pos);
}

/* Replay every row; each must be clean (no diagnostic) and end where its moves do. */
static void replay_rows(struct rows *rows, const struct buf *pgn)
{
    struct diag err;
    struct game_options opts = {0};
    struct game_replayer *rp = game_replayer_new(&opts, &err);
    struct pgn_reader *rd = pgn_reader_from_memory(pgn->data, pgn->len, "tsv", NULL);
    if (!rp || !rd)
        die("cannot start the replayer");
    struct pgn_game g;
    size_t i = 0;
    int rc;
    while ((rc = pgn_reader_next(rd, &g, &err)) == 1) {
        if (i == rows->count)
            die("more games than rows: a row's moves split in two");
        struct row *r = &rows->items[i++];
        const struct game_record *rec = game_replay(rp, &g);
        if (rec->status != GAME_CLEAN || !rec->mainline_count)
            die("%s:%u: the moves do not replay cleanly: %s", r->file, r->line,
                rec->diags.count ? rec->diags.items[0].message : "no moves");
        r->key = poskey_of(&rec->final);
        note_counts(r, &rec->final);
    }
    if (rc < 0 || i != rows->count)
        die("fewer games than rows");
    pgn_reader_free(rd);
    game_replayer_free(rp);
}

/* C string literal of s: printable ASCII as is, the rest (UTF-8 bytes) in octal. */
static void put_c_string(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p >= 0x20 && *p < 0x7f)
            putchar(*p);
        else
            printf("\\%03o", *p);
    }
    putchar('"');
}

static int by_key(const void *a, const void *b)
{
    const struct row *const *x = a, *const *y = b;
    if ((*x)->key != (*y)->key)
        return (*x)->key < (*y)->key ? -1 : 1;
    return *x < *y ? -1 : *x > *y; /* row order among equal keys */
}

/* Rows whose position a later row has lose; returns how many positions there are. */
static size_t mark_winners(struct rows *rows)
{
    struct row **order = malloc(rows->count * sizeof *order);
    if (!order)
        die("out of memory");
    for (size_t i = 0; i < rows->count; i++)
        order[i] = &rows->items[i];
    qsort(order, rows->count, sizeof *order, by_key);
    size_t positions = 0;
    for (size_t i = 0; i < rows->count; i++) {
        order[i]->winner = i + 1 == rows->count || order[i + 1]->key != order[i]->key;
        positions += order[i]->winner;
    }
    free(order);
    return positions;
}

static void write_openings(const struct rows *rows, uint32_t *index_of)
{
    printf("static const struct opening openings[] = {\n");
    uint32_t n = 0;
    for (size_t i = 0; i < rows->count; i++) {
        if (!rows->items[i].winner)
            continue;
        index_of[i] = n++;
        printf("    {");
        put_c_string(rows->items[i].eco);
        printf(", ");
        put_c_string(rows->items[i].name);
        printf(", NULL, NULL},\n");
    }
    printf("};\n\n");
}

static void write_slots(const struct rows *rows, const uint32_t *index_of, uint32_t slot_count)
{
    uint64_t *keys = calloc(slot_count, sizeof *keys);
    uint32_t *slots = calloc(slot_count, sizeof *slots);
    if (!keys || !slots)
        die("out of memory");
    for (size_t i = 0; i < rows->count; i++) {
        if (!rows->items[i].winner)
            continue;
        uint32_t s = (uint32_t)rows->items[i].key & (slot_count - 1);
        while (slots[s])
            s = (s + 1) & (slot_count - 1);
        keys[s] = rows->items[i].key;
        slots[s] = index_of[i] + 1;
    }
    printf("static const uint64_t keys[%u] = {\n", slot_count);
    for (uint32_t s = 0; s < slot_count; s++)
        printf("%s0x%016llxULL,%s", s % 4 ? " " : "    ", (unsigned long long)keys[s],
               s % 4 == 3 ? "\n" : "");
    printf("};\n\nstatic const uint16_t slots[%u] = {\n", slot_count);
    for (uint32_t s = 0; s < slot_count; s++)
        printf("%s%u,%s", s % 16 ? " " : "    ", slots[s], s % 16 == 15 ? "\n" : "");
    printf("};\n\n");
    free(keys);
    free(slots);
}

/* reach[h]: the fewest pieces of a row whose home pawns are a subset of h (33: none),
 * by the sum-over-subsets recurrence: reach[h] = min(reach[h], reach[h without bit]). */
static void write_reach(const struct rows *rows)
{
    enum { HOMES = 1 << 16 };
    static uint8_t reach[HOMES];
    memset(reach, 33, sizeof reach);
    for (size_t i = 0; i < rows->count; i++) {
        const struct row *r = &rows->items[i];
        if (r->pieces < reach[r->home])
            reach[r->home] = (uint8_t)r->pieces;
    }
    for (unsigned bit = 1; bit < HOMES; bit <<= 1)
        for (unsigned h = 0; h < HOMES; h++)
            if ((h & bit) && reach[h ^ bit] < reach[h])
                reach[h] = reach[h ^ bit];
    printf("static const uint8_t reach[%d] = {\n", HOMES);
    for (unsigned h = 0; h < HOMES; h++)
        printf("%s%u,%s", h % 32 ? "" : "    ", reach[h], h % 32 == 31 ? "\n" : "");
    printf("};\n\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: gen_openings FILE.tsv... > opening_book.c\n");
        return 1;
    }
    struct rows rows = {0};
    struct buf pgn;
    buf_init(&pgn);
    for (int i = 1; i < argc; i++)
        read_tsv(argv[i], &rows, &pgn);
    replay_rows(&rows, &pgn);
    size_t positions = mark_winners(&rows);
    uint32_t slot_count = 1;
    while (slot_count < 2 * positions)
        slot_count *= 2;
    if (positions >= UINT16_MAX)
        die("too many positions for 16-bit slots");
    uint32_t *index_of = calloc(rows.count, sizeof *index_of);
    struct position start;
    position_set_start(&start);

    printf("/* Generated by tools/gen_openings from data/openings/ (lichess chess-openings, "
           "CC0): do not edit. */\n#include \"game/opening_book.h\"\n\n");
    write_openings(&rows, index_of);
    write_slots(&rows, index_of, slot_count);
    write_reach(&rows);
    struct poskey_carry carry;
    poskey_carry_init(&carry, &start);
    printf("const struct opening_book opening_book_lichess = {keys, slots, %uu, openings, %zuu, "
           "{0x%016llxULL, 0x%016llxULL}, reach, NULL};\n", slot_count - 1, positions,
           (unsigned long long)carry.pieces, (unsigned long long)carry.castling);
    fprintf(stderr, "gen_openings: %zu rows, %zu positions (%zu rows share their position "
            "with a later row, which names it)\n", rows.count, positions, rows.count - positions);
    for (size_t i = 0; i < rows.count; i++) {
        free(rows.items[i].eco);
        free(rows.items[i].name);
    }
    free(rows.items);
    free(index_of);
    buf_release(&pgn);
    return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
