/*
 * complete.c - the words a shell may offer at one place of a pgnkit command line
 * (complete.h).  Options, which commands take them and their values come from
 * options.c's table (options_about); perft and summary have their own small parsers,
 * so their few options are listed here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/complete.h"
#include "cli/config.h"

/* The commands main.c dispatches itself (commands.h): "summary" and perft's options. */
static const char *const summary_options = "--format --fail-on --help";
static const char *const perft_options = "--divide --variant --help";
static const char *const perft_variants =
    "standard crazyhouse atomic antichess kingofthehill 3check racingkings horde";

static const char *prefix; /* the word being completed */

static void offer(const char *word)
{
    if (strncmp(word, prefix, strlen(prefix)) == 0)
        puts(word);
}

/* Each word of a space-separated list, with before (e.g. "--format=") in front. */
static void offer_list(const char *list, const char *before)
{
    char word[128];
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, " ");
        snprintf(word, sizeof word, "%s%.*s", before, (int)n, p);
        offer(word);
        p += n + (p[n] == ' ');
    }
}

static int command_of(const char *name)
{
    for (int c = 0; c < CMD_COUNT; c++)
        if (strcmp(name, command_names[c]) == 0)
            return c;
    return strcmp(name, "summary") == 0 ? CMD_COUNT : -1;
}

/* The table's option spelt as word (--name or -x), or false. */
static bool find_option(const char *word, int cmd, struct option_about *o)
{
    for (size_t i = 0; options_about(i, (enum command)cmd, o); i++) {
        if (word[0] == '-' && word[1] == '-' && strcmp(word + 2, o->name) == 0)
            return true;
        if (word[0] == '-' && o->short_name && word[1] == o->short_name && !word[2])
            return true;
    }
    return false;
}

/* The argument of option word (as typed, -- included); before goes in front of each. */
static void offer_values(const char *word, int cmd, const char *before)
{
    struct option_about o;
    if (cmd == CMD_COUNT || cmd == CMD_PERFT) { /* summary, perft: their own parsers */
        if (strcmp(word, "--format") == 0 || strcmp(word, "-f") == 0)
            offer_list("text json", before);
        else if (strcmp(word, "--fail-on") == 0)
            offer_list("error warning", before);
        else if (strcmp(word, "--variant") == 0)
            offer_list(perft_variants, before);
        return;
    }
    if (!find_option(word, cmd, &o) || !o.takes_arg)
        return;
    if (o.takes_file && !before[0])
        puts(":files");
    offer_list(o.values, before);
}

static bool takes_argument(const char *word, int cmd)
{
    struct option_about o;
    if (cmd == CMD_COUNT)
        return strcmp(word, "--format") == 0 || strcmp(word, "-f") == 0 ||
               strcmp(word, "--fail-on") == 0;
    if (cmd == CMD_PERFT)
        return strcmp(word, "--variant") == 0;
    return find_option(word, cmd, &o) && o.takes_arg && !strchr(word, '=');
}

static void offer_options(int cmd)
{
    struct option_about o;
    if (cmd == CMD_COUNT || cmd == CMD_PERFT) {
        offer_list(cmd == CMD_PERFT ? perft_options : summary_options, "");
        return;
    }
    char word[80];
    for (size_t i = 0; options_about(i, (enum command)cmd, &o); i++) {
        if (!o.for_command)
            continue;
        snprintf(word, sizeof word, "--%s", o.name);
        offer(word);
    }
    offer("--help");
}

int cmd_complete(int argc, char **argv)
{
    char *end;
    long n = argc < 2 ? 0 : strtol(argv[1], &end, 10);
    if (n < 1 || *end) {
        fputs("pgnkit: --complete N WORD... is the shell completion's question: what may go "
              "at WORD[N] (try 'pgnkit --help')\n", stderr);
        return 2;
    }
    char **w = argv + 2;
    int nw = argc - 2;
    prefix = n < nw ? w[n] : "";
    if (n == 1) {
        for (int c = 0; c < CMD_COUNT; c++)
            offer(command_names[c]);
        offer("summary");
        offer("--help");
        offer("--version");
        return 0;
    }
    int cmd = command_of(w[1]);
    if (cmd < 0)
        return 0;
    for (long i = 2; i < n && i < nw; i++)
        if (strcmp(w[i], "--") == 0)
            return puts(":files"), 0;
    /* bash splits --format=json at '=' (COMP_WORDBREAKS): "--format" "=" "json". */
    const char *prev = n - 1 < nw ? w[n - 1] : "";
    if (strcmp(prefix, "=") == 0) {
        prefix = "";
        offer_values(prev, cmd, "");
        return 0;
    }
    if (n >= 3 && strcmp(prev, "=") == 0) {
        offer_values(w[n - 2], cmd, "");
        return 0;
    }
    /* zsh keeps it one word: offer "--format=json". */
    const char *eq = strchr(prefix, '=');
    if (prefix[0] == '-' && prefix[1] == '-' && eq) {
        char option[80], before[96];
        snprintf(option, sizeof option, "%.*s", (int)(eq - prefix), prefix);
        snprintf(before, sizeof before, "%s=", option);
        offer_values(option, cmd, before);
        return 0;
    }
    if (n >= 3 && prev[0] == '-' && takes_argument(prev, cmd)) {
        offer_values(prev, cmd, "");
        return 0;
    }
    if (prefix[0] == '-') {
        offer_options(cmd);
        return 0;
    }
    if (cmd == CMD_PERFT)
        return 0; /* a FEN and a depth: nothing to offer */
    puts(":files");
    return 0;
}
