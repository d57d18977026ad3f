/*
 * fuzz_variant.c - the lichess variants: a variant FEN, then SAN moves played from it.
 *
 * Input: the first byte picks the variant (1 + byte % 7: Crazyhouse .. Horde); the text
 * up to the first newline is a FEN for it (an empty or rejected one: the variant's start
 * position); every whitespace-separated word after it is a SAN move (drops, =K, ...)
 * resolved in the current position and played when legal.  Invariants, in every position
 * reached: the FEN written parses again to the same FEN; the legal moves are as many as
 * perft 1, each is legal by rules_is_legal, and its SAN (san_write) resolves back to it;
 * the game is over exactly when there is no legal move; a resolved move is one of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "board/fen.h"
#include "board/movegen.h"
#include "san/san.h"
#include "san/san_resolve.h"
#include "board/variant.h"
#include "board/rules.h"

enum { FV_MAX_WORDS = 400, FV_MAX_WORD = 32 };

static struct san_matcher *fv_matcher;

static void fv_round_trip(const struct position *pos, unsigned flags)
{
    char a[FEN_MAX], b[FEN_MAX];
    struct position again;
    struct diag err;
    size_t n = fen_write(pos, a, sizeof a, flags);
    FUZZ_ASSERT(n > 0 && n < FEN_MAX && strlen(a) == n);
    if (fen_parse_variant(&again, a, n, pos->chess960, (enum variant)pos->variant, &err) != 0) {
        fprintf(stderr, "written %s FEN rejected: %s (%s)\n",
                variant_name((enum variant)pos->variant), a, err.message);
        abort();
    }
    size_t m = fen_write(&again, b, sizeof b, flags);
    if (m != n || memcmp(a, b, n) != 0) {
        fprintf(stderr, "FEN round trip differs:\n  %s\n  %s\n", a, b);
        abort();
    }
}

static bool fv_same_move(struct move a, struct move b)
{
    return a.from == b.from && a.to == b.to && a.promo == b.promo &&
           (a.flags & MOVE_DROP) == (b.flags & MOVE_DROP);
}

/* Every legal move's SAN names that move again. */
static void fv_san_round_trip(const struct position *pos, const struct move *moves, int n)
{
    for (int i = 0; i < n; i++) {
        FUZZ_ASSERT(rules_is_legal(pos, moves[i]));
        char text[32];
        size_t len = san_write(pos, moves[i], text);
        FUZZ_ASSERT(len > 0 && len < 16);
        struct san san;
        if (san_decode(fv_matcher, text, len, &san) != 0) {
            fprintf(stderr, "san_write wrote %.*s, which does not decode\n", (int)len, text);
            abort();
        }
        struct position after;
        struct san_outcome out = {.after = &after};
        struct san_options plain = {0};
        san_resolve(pos, &san, &plain, &out);
        if (!out.ok || !fv_same_move(out.move, moves[i])) {
            fprintf(stderr, "%s: %.*s does not resolve back to its move\n",
                    variant_name((enum variant)pos->variant), (int)len, text);
            abort();
        }
    }
}

/* The invariants of one position; returns its number of legal moves. */
static int fv_check_position(const struct position *pos, bool all_san)
{
    FUZZ_ASSERT(rules_position_ok(pos));
    fv_round_trip(pos, 0);
    fv_round_trip(pos, FEN_EP_LEGAL);
    struct move moves[MAX_MOVES];
    int n = rules_legal_moves(pos, moves);
    FUZZ_ASSERT(n >= 0 && n <= MAX_MOVES);
    FUZZ_ASSERT((uint64_t)n == rules_perft(pos, 1));
    struct variant_end e = variant_end_of(pos);
    /* Over exactly when no move is left, except a draw by insufficient material (Atomic
     * K v K, Antichess bishops that never meet), which still has moves to play. */
    bool drawn_with_moves = e.over && n > 0 && e.winner < 0 && e.termination &&
                            strcmp(e.termination, "insufficient-material") == 0;
    if (e.over != (n == 0) && !drawn_with_moves) {
        char fen[FEN_MAX];
        fen_write(pos, fen, sizeof fen, 0);
        fprintf(stderr, "%s %s: over=%d (%s) but %d legal moves\n",
                variant_name((enum variant)pos->variant), fen, e.over,
                e.termination ? e.termination : "-", n);
        abort();
    }
    if (all_san)
        fv_san_round_trip(pos, moves, n);
    return n;
}

int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (!fv_matcher) {
        struct diag err;
        fv_matcher = san_matcher_new(SAN_LETTERS_ENGLISH, &err);
        FUZZ_ASSERT(fv_matcher);
    }
    enum variant v = (enum variant)(1 + data[0] % (VARIANT_COUNT - 1));
    const char *text = (const char *)data + 1;
    size_t len = size - 1, line = 0;
    while (line < len && text[line] != '\n')
        line++;
    struct position pos;
    struct diag err;
    if (line == 0) {
        variant_set_start(&pos, v);
    } else if (fen_parse_variant(&pos, text, line, false, v, &err) != 0) {
        FUZZ_ASSERT(err.code == DIAG_BAD_FEN);
        variant_set_start(&pos, v);
    }
    FUZZ_ASSERT(pos.variant == v);
    fv_check_position(&pos, true);

    size_t i = line;
    for (int words = 0; words < FV_MAX_WORDS && i < len; words++) {
        while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t'))
            i++;
        size_t start = i;
        while (i < len && text[i] != ' ' && text[i] != '\n' && text[i] != '\t')
            i++;
        if (i == start || i - start > FV_MAX_WORD)
            continue;
        struct san san;
        if (san_decode(fv_matcher, text + start, i - start, &san) != 0)
            continue;
        struct position after;
        struct san_outcome out = {.after = &after};
        struct san_options opts = {.strict = true, .lenient = words & 1};
        san_resolve(&pos, &san, &opts, &out);
        FUZZ_ASSERT(out.problem_count <= SAN_MAX_PROBLEMS);
        FUZZ_ASSERT(out.candidate_count <= SAN_MAX_CANDIDATES);
        if (!out.ok)
            continue;
        FUZZ_ASSERT(rules_is_legal(&pos, out.move));
        pos = after;
        /* SAN of every move only now and then: a Crazyhouse position has hundreds. */
        fv_check_position(&pos, words % 8 == 0);
    }
    return 0;
}
