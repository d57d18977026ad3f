/*
 * config.h - what the command line asked for.  Filled once by options.c, read-only
 * afterwards (everyone receives const struct config *).
 */
#ifndef PGNKIT_CLI_CONFIG_H
#define PGNKIT_CLI_CONFIG_H

struct eco_book;

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "pgn/pgn_reader.h"
#include "pgn/pgn_text.h"
#include "game/select.h"
#include "write/writer.h"

enum command { CMD_CHECK = 0, CMD_UCI, CMD_FEN, CMD_PGN, CMD_PERFT, CMD_COUNT };

/* Which game diagnostics make the exit status 1 (--fail-on); none: no game does, only
 * usage and I/O failures (2) change it, for curation jobs that expect broken games. */
enum fail_on { FAIL_ON_ERROR = 0, FAIL_ON_WARNING, FAIL_ON_NONE };

enum { MAX_TAG_COLUMNS = 64, MAX_ADDED_TAGS = 16 };

/* --range START:END: games whose first byte lies in [start, end) of the one input. */
struct byte_range {
    bool set;
    uint64_t start;
    uint64_t end; /* UINT64_MAX: to the end of the file */
};

struct config {
    enum command command;
    const char **inputs;      /* argv slices; "-" is standard input */
    size_t input_count;
    const char *output_path;  /* -o; NULL = standard output */
    struct game_options game;
    struct writer_options writer;
    struct pgn_limits limits;
    enum pgn_encoding encoding; /* --encoding: how a game that is not UTF-8 is read */
    int jobs;                 /* 0 = all cores */
    int progress;             /* -1 auto (stderr is a terminal), 0 off, 1 on */
    bool summary;             /* the detailed report on stderr */
    bool quiet;               /* no summary line, no game diagnostics on stderr */
    bool fixes;               /* pgn: report what normalization changed, on stderr */
    enum fail_on fail_on;
    uint64_t stop_after;      /* stop once this many games are written (kept); 0 = never */
    uint64_t max_errors;      /* stop after this many error diagnostics; 0 = never */
    struct byte_range range;  /* --range */
    bool no_header;           /* --no-header: no TSV header row */
    const char *summary_json; /* --summary-json FILE; NULL = none */
    const char *tag_names[MAX_TAG_COLUMNS];
    /* Where games go (route.h). */
    bool skip_invalid;        /* games with errors are not written */
    const char *invalid_to;   /* ... but their input bytes go here, after their diagnostics */
    bool dedupe;              /* a game equal to an earlier one is not written */
    const char *duplicates_to; /* ... but its input bytes go here */
    bool first_plies_set;     /* --first-plies: write only the first first_plies plies */
    unsigned long long first_plies;
    bool verbatim;            /* pgn: the input bytes, not the normalized game */
    bool split_variations;    /* pgn: each line of play as its own game */
    unsigned long long split_games; /* --split N: games per file, -o the name pattern */
    const char *split_by;     /* --split-by TAG: one file per value, -o the name pattern */
    bool force;               /* --split may replace existing files */
    const char *added_tag_names[MAX_ADDED_TAGS]; /* --add-tags */
    struct eco_book *eco_book; /* --eco-file: the book game.openings names, owned here */
    /* --where, --player, --result, --ending, --plies, --has, --reaches, --invert: built
     * while options are read, read-only afterwards (select.h); NULL keeps every game. */
    struct select *select;
};

/* Parse argv (argv[0] is the program, argv[1] the command).  Returns 0, or 2 after
 * printing a one-line reason and a --help hint, or -1 when help/version was printed
 * (exit 0). */
int options_parse(int argc, char **argv, struct config *cfg);
/* Free what options_parse allocated (the selection), whatever it returned. */
void config_release(struct config *cfg);

/* One option of the table, as shell completion (complete.c) needs it: does command cmd
 * take it, does its argument name a file, which words may that argument be (space
 * separated, "" when free).  False past the last option (i counts from 0). */
struct option_about {
    const char *name; /* without -- */
    char short_name;  /* or 0 */
    bool takes_arg;
    bool for_command;
    bool takes_file;
    char values[96];
};
bool options_about(size_t i, enum command cmd, struct option_about *out);

/* The names of the commands, indexed by enum command. */
extern const char *const command_names[CMD_COUNT];

#endif
