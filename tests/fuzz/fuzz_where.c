/*
 * fuzz_where.c - --where expressions (select_add_where) and the verdicts they give.
 *
 * The input's first line is an expression given to select_add_where as it is: accepted
 * or refused with a one-line reason, never a crash.  The same line gives a TAG (its
 * leading name characters) and a VALUE (after its second blank), put together again with
 * each operator; and
 * the rest of the input is read as PGN.  For every game read:
 * - = and !=, ~ and !~ are negations of each other (a game without the tag matches no
 *   criterion but the negated ones), so exactly one of each pair keeps it;
 * - --invert turns every verdict of any operator the other way;
 * - criteria on tags alone decide from the tags: no verdict asks for a replay.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "game/select.h"
#include "pgn/pgn_reader.h"

enum { WHERE_MAX = 256 };

static const char *const operators[] = {"=", "!=", "~", "!~", "<", "<=", ">", ">="};
enum { OPERATOR_COUNT = sizeof operators / sizeof operators[0] };

/* A selection of the one criterion expr, inverted or not; NULL when it is refused. */
static struct select *selection_of(const char *expr, bool invert)
{
    char why[512];
    why[0] = '\0';
    struct select *s = select_new();
    if (select_add_where(s, expr, why, sizeof why) != 0) {
        /* Refused: a reason, and the selection is left with no criterion. */
        FUZZ_ASSERT(why[0] != '\0' && strlen(why) < sizeof why);
        FUZZ_ASSERT(!select_has_criteria(s));
        select_free(s);
        return NULL;
    }
    FUZZ_ASSERT(select_has_criteria(s));
    select_set_invert(s, invert);
    return s;
}

/* The verdict of s on g: tag criteria alone never ask for a replay. */
static bool keeps(const struct select *s, const struct pgn_game *g)
{
    struct select_scratch *x = select_scratch_new(s);
    enum select_verdict v = select_by_tags(s, x, g);
    select_scratch_free(x);
    FUZZ_ASSERT(v == SELECT_KEEP || v == SELECT_DROP);
    return v == SELECT_KEEP;
}

/* "TAG OP VALUE" from the first line's pieces: TAG its leading tag-name characters
 * (letters, digits, _), VALUE what follows the line's second blank (after the line's own
 * operator, or whatever stands there). */
static void compose(const char *line, const char *op, char *out, size_t cap)
{
    size_t tag_len = 0;
    while (isalnum((unsigned char)line[tag_len]) || line[tag_len] == '_')
        tag_len++;
    const char *value = "";
    const char *sp = strchr(line, ' ');
    if (sp) {
        const char *sp2 = strchr(sp + 1, ' ');
        value = sp2 ? sp2 + 1 : "";
    }
    snprintf(out, cap, "%.*s %s %s", (int)tag_len, line, op, value);
}

/* Per game: each operator's pair and its inversion agree with the rules above. */
static void check_game(struct select *const plain[OPERATOR_COUNT],
                       struct select *const inverted[OPERATOR_COUNT], const struct pgn_game *g)
{
    bool kept[OPERATOR_COUNT];
    for (int k = 0; k < OPERATOR_COUNT; k++) {
        if (!plain[k])
            continue;
        kept[k] = keeps(plain[k], g);
        FUZZ_ASSERT(keeps(inverted[k], g) == !kept[k]);
    }
    for (int k = 0; k < 4; k += 2) /* (=, !=) and (~, !~) */
        if (plain[k] && plain[k + 1])
            FUZZ_ASSERT(kept[k] != kept[k + 1]);
}

int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    const char *nl = memchr(data, '\n', size);
    size_t line_len = nl ? (size_t)(nl - (const char *)data) : size;
    if (line_len >= WHERE_MAX || memchr(data, '\0', line_len))
        return 0; /* options are C strings of modest length */
    char line[WHERE_MAX];
    memcpy(line, data, line_len);
    line[line_len] = '\0';

    struct select *as_given = selection_of(line, false);
    struct select *plain[OPERATOR_COUNT], *inverted[OPERATOR_COUNT];
    for (int k = 0; k < OPERATOR_COUNT; k++) {
        char expr[WHERE_MAX + 8];
        compose(line, operators[k], expr, sizeof expr);
        plain[k] = selection_of(expr, false);
        inverted[k] = plain[k] ? selection_of(expr, true) : NULL;
        FUZZ_ASSERT(!plain[k] == !inverted[k]);
    }
    /* = and != accept the same expressions; so do ~ and !~ (the same regex). */
    FUZZ_ASSERT(!plain[0] == !plain[1] && !plain[2] == !plain[3]);

    const char *pgn = nl ? nl + 1 : "";
    size_t pgn_len = nl ? size - line_len - 1 : 0;
    struct pgn_reader *r = pgn_reader_from_memory(pgn, pgn_len, "fuzz", NULL);
    FUZZ_ASSERT(r);
    struct pgn_game g;
    struct diag err;
    while (pgn_reader_next(r, &g, &err) == 1) {
        check_game(plain, inverted, &g);
        if (as_given)
            (void)keeps(as_given, &g);
    }
    pgn_reader_free(r);
    for (int k = 0; k < OPERATOR_COUNT; k++) {
        select_free(plain[k]);
        select_free(inverted[k]);
    }
    select_free(as_given);
    return 0;
}
