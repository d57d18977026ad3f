/*
 * cmd_perft.c - `pgnkit perft FEN DEPTH [--divide]`: count the leaves of the legal
 * move tree, the move generator's own check.  The FEN may be one argument or its 4 to
 * 6 fields as separate arguments, and may name its variant as an EPD operation
 * ("... w - - variant crazyhouse;").  Prints the count as the last line; with --divide,
 * one "uci: count" line per root move first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "board/fen.h"
#include "board/uci.h"
#include "board/variant.h"
#include "board/rules.h"

enum { PERFT_MAX_DEPTH = 20, PERFT_FEN_MAX = 512 };

struct divide_line {
    char uci[8];
    uint64_t nodes;
};

static int usage_error(const char *reason)
{
    fprintf(stderr, "pgnkit: perft: %s (try 'pgnkit perft --help')\n", reason);
    return 2;
}

static void print_help(void)
{
    puts("usage: pgnkit perft FEN DEPTH [--divide] [--variant NAME]\n"
         "Count the leaf nodes of the legal move tree of FEN to DEPTH plies.\n"
         "FEN may be one argument or its 4 to 6 fields as separate arguments; an EPD\n"
         "operation 'variant NAME;' after the fields names its variant (as --variant).\n"
         "  --divide        print each root move (UCI) with its count, then the total\n"
         "  --variant NAME  play by a variant's rules: crazyhouse, atomic, antichess,\n"
         "                  kingofthehill, 3check, racingkings, horde (lichess names too)");
}

static int compare_lines(const void *a, const void *b)
{
    return strcmp(((const struct divide_line *)a)->uci, ((const struct divide_line *)b)->uci);
}

static void run_divide(const struct position *pos, int depth)
{
    struct move moves[MAX_MOVES];
    struct divide_line lines[MAX_MOVES];
    int n = rules_legal_moves(pos, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        struct position next = *pos;
        rules_do_move(&next, moves[i]);
        uci_write_move(pos, moves[i], false, lines[i].uci);
        lines[i].nodes = rules_perft(&next, depth - 1);
        total += lines[i].nodes;
    }
    qsort(lines, (size_t)n, sizeof lines[0], compare_lines);
    for (int i = 0; i < n; i++)
        printf("%s: %llu\n", lines[i].uci, (unsigned long long)lines[i].nodes);
    printf("\n%llu\n", (unsigned long long)total);
}

/* The EPD operation "variant NAME;" (NAME may be quoted) anywhere after the board: cut
 * out of fen.  Returns the variant, VARIANT_STANDARD without one, -1 for an unknown name
 * (copied into bad). */
static int take_variant_op(char *fen, char *bad, size_t cap)
{
    char *op = strstr(fen, " variant ");
    if (!op)
        return VARIANT_STANDARD;
    char *name = op + 9;
    while (*name == ' ')
        name++;
    size_t len = strcspn(name, ";");
    char *rest = name + len + (name[len] == ';');
    while (len && name[len - 1] == ' ')
        len--;
    if (len >= 2 && name[0] == '"' && name[len - 1] == '"') {
        name++;
        len -= 2;
    }
    int v = variant_from_name(name, len);
    if (v < 0)
        snprintf(bad, cap, "%.*s", (int)len, name);
    memmove(op, rest, strlen(rest) + 1);
    size_t n = strlen(fen); /* what the operation leaves behind: "w - - ;" */
    while (n && (fen[n - 1] == ' ' || fen[n - 1] == ';'))
        fen[--n] = '\0';
    return v;
}

/* Join the FEN arguments with single spaces; returns -1 if too long. */
static int join_fen(char *dst, size_t cap, char **parts, int count)
{
    size_t n = 0;
    for (int i = 0; i < count; i++) {
        size_t len = strlen(parts[i]);
        if (n + len + 2 > cap)
            return -1;
        if (i)
            dst[n++] = ' ';
        memcpy(dst + n, parts[i], len);
        n += len;
    }
    dst[n] = '\0';
    return 0;
}

int cmd_perft(int argc, char **argv)
{
    char *args[8];
    int nargs = 0;
    int divide = 0;
    int variant = VARIANT_STANDARD;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            print_help();
            return 0;
        } else if (strcmp(argv[i], "--divide") == 0) {
            divide = 1;
        } else if (strcmp(argv[i], "--variant") == 0 || strncmp(argv[i], "--variant=", 10) == 0) {
            const char *name = argv[i][9] == '=' ? argv[i] + 10 : (i + 1 < argc ? argv[++i] : NULL);
            if (!name)
                return usage_error("--variant needs a variant name");
            variant = variant_from_name(name, strlen(name));
            if (variant < 0) {
                fprintf(stderr, "pgnkit: perft: unknown variant '%s' (try 'pgnkit perft --help')\n",
                        name);
                return 2;
            }
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            fprintf(stderr, "pgnkit: perft: unknown option '%s' (try 'pgnkit perft --help')\n",
                    argv[i]);
            return 2;
        } else if (nargs < 8) {
            args[nargs++] = argv[i];
        } else {
            return usage_error("too many arguments");
        }
    }
    if (nargs != 2 && (nargs < 5 || nargs > 7))
        return usage_error("expected a FEN and a depth");

    const char *depth_text = args[nargs - 1];
    char *end;
    long depth = strtol(depth_text, &end, 10);
    if (!*depth_text || *end || depth < 0 || depth > PERFT_MAX_DEPTH) {
        fprintf(stderr, "pgnkit: perft: depth '%s' is not a number from 0 to %d\n"
                        " (try 'pgnkit perft --help')\n",
                depth_text, PERFT_MAX_DEPTH);
        return 2;
    }
    char fen[PERFT_FEN_MAX];
    if (join_fen(fen, sizeof fen, args, nargs - 1) < 0)
        return usage_error("the FEN is too long");

    char bad[64];
    int named = take_variant_op(fen, bad, sizeof bad);
    if (named < 0) {
        fprintf(stderr, "pgnkit: perft: unknown variant '%s' in the FEN (try 'pgnkit perft --help')\n",
                bad);
        return 2;
    }
    if (named != VARIANT_STANDARD && variant != VARIANT_STANDARD && named != variant)
        return usage_error("--variant and the FEN's variant operation disagree");
    if (named != VARIANT_STANDARD)
        variant = named;

    struct position pos;
    struct diag err;
    if (fen_parse_variant(&pos, fen, strlen(fen), false, (enum variant)variant, &err) < 0) {
        fprintf(stderr, "pgnkit: bad FEN: %s (column %u)\n", err.message, (unsigned)err.col);
        return 2;
    }
    if (divide && depth > 0)
        run_divide(&pos, (int)depth);
    else
        printf("%llu\n", (unsigned long long)rules_perft(&pos, (int)depth));
    return 0;
}
