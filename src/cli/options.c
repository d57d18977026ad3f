/*
 * options.c - the command line to a struct config, table-driven (bfs's parse_table).
 *
 * Owns: option names, their arguments and which commands take them, --help texts,
 * usage errors with a nearest-option suggestion.  Nothing else reads argv.
 */
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/config.h"
#include "cli/eco_option.h"
#include "game/opening_book.h"
#include "cli/range.h"
#include "cli/split.h"
#include "cli/shown.h"
#include "board/fen.h"
#include "write/pgn_line.h"
#include "version.h"

const char *const command_names[CMD_COUNT] = {"check", "uci", "fen", "pgn", "perft"};

#define ALL_CMDS ((1u << CMD_CHECK) | (1u << CMD_UCI) | (1u << CMD_FEN) | (1u << CMD_PGN))
#define CMD_BIT(c) (1u << (c))

struct option_entry {
    const char *name;  /* long name without -- */
    char short_name;   /* or 0 */
    bool takes_arg;
    unsigned commands; /* CMD_BIT mask */
    int (*apply)(struct config *cfg, const char *arg);
    const char *help;  /* "ARG  text" or "text" */
};

static int usage_error(const struct config *cfg, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int usage_error(const struct config *cfg, const char *fmt, ...)
{
    va_list ap;
    fputs("pgnkit: ", stderr);
    va_start(ap, fmt);
    shown_vprint(stderr, fmt, ap); /* it may quote an argument: no raw control character */
    va_end(ap);
    if (cfg && cfg->command < CMD_COUNT)
        fprintf(stderr, " (try 'pgnkit %s --help')\n", command_names[cfg->command]);
    else
        fputs(" (try 'pgnkit --help')\n", stderr);
    return 2;
}

static int parse_count(const char *arg, unsigned long long max, unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!arg[0] || arg[0] == '-')
        return -1;
    unsigned long long v = strtoull(arg, &end, 10);
    unsigned long long scale = 1;
    if (*end == 'k' || *end == 'K')
        scale = 1024, end++;
    else if (*end == 'M')
        scale = 1024 * 1024, end++;
    else if (*end == 'G')
        scale = 1024ULL * 1024 * 1024, end++;
    if (errno || *end || v > max / scale)
        return -1;
    *out = v * scale;
    return 0;
}

#define COUNT_OPTION(fn, field, max, what)                                                       \
    static int fn(struct config *cfg, const char *arg)                                           \
    {                                                                                            \
        unsigned long long v;                                                                    \
        if (parse_count(arg, (max), &v) != 0)                                                    \
            return usage_error(cfg, "%s wants a number, not '%s'", what, arg);                   \
        cfg->field = v;                                                                          \
        return 0;                                                                                \
    }

COUNT_OPTION(opt_max_game_bytes, limits.max_game_bytes, SIZE_MAX / 2, "--max-game-bytes")
COUNT_OPTION(opt_max_token_bytes, limits.max_token_bytes, 1u << 20, "--max-token-bytes")
COUNT_OPTION(opt_max_comment_bytes, limits.max_comment_bytes, SIZE_MAX / 2,
             "--max-comment-bytes")
COUNT_OPTION(opt_max_depth, limits.max_depth, 1u << 24, "--max-depth")
COUNT_OPTION(opt_max_game_tokens, limits.max_game_tokens, SIZE_MAX / 64, "--max-game-tokens")
COUNT_OPTION(opt_part_tokens, limits.part_tokens, SIZE_MAX / 64, "--part-tokens")
COUNT_OPTION(opt_max_errors, max_errors, UINT64_MAX, "--max-errors")
COUNT_OPTION(opt_jobs, jobs, 1024, "--jobs")

/* Both the reader's list and the replay's list keep at most N per game. */
static int opt_max_diagnostics(struct config *cfg, const char *arg)
{
    unsigned long long v;
    if (parse_count(arg, 1u << 24, &v) != 0 || v == 0)
        return usage_error(cfg, "--max-diagnostics wants a number from 1, not '%s'", arg);
    cfg->limits.max_diagnostics = (size_t)v;
    cfg->game.max_diagnostics = (size_t)v;
    return 0;
}

static int opt_ply(struct config *cfg, const char *arg)
{
    unsigned long long v;
    if (parse_count(arg, UINT32_MAX, &v) != 0)
        return usage_error(cfg, "--ply wants a number, not '%s'", arg);
    cfg->writer.fen_ply = (uint32_t)v;
    cfg->writer.fen_mode = FEN_MODE_PLY;
    return 0;
}

static int opt_invalid_to(struct config *cfg, const char *arg)
{
    cfg->invalid_to = arg;
    return 0;
}

static int opt_duplicates_to(struct config *cfg, const char *arg)
{
    cfg->dedupe = true;
    cfg->duplicates_to = arg;
    return 0;
}

static int opt_split(struct config *cfg, const char *arg)
{
    unsigned long long v;
    if (parse_count(arg, UINT64_MAX, &v) != 0 || v == 0)
        return usage_error(cfg, "--split wants a number of games per file, not '%s'", arg);
    cfg->split_games = v;
    return 0;
}

static int opt_split_by(struct config *cfg, const char *arg)
{
    if (!arg[0])
        return usage_error(cfg, "--split-by wants a tag name");
    cfg->split_by = arg;
    return 0;
}

/* The selection options: each adds a criterion to cfg->select (select.h says the rules). */
typedef int (*select_adder)(struct select *s, const char *arg, char *why, size_t cap);

static int add_criterion(struct config *cfg, select_adder add, const char *arg)
{
    char why[1024];
    if (!cfg->select)
        cfg->select = select_new();
    if (add(cfg->select, arg, why, sizeof why) != 0)
        return usage_error(cfg, "%s", why);
    return 0;
}

#define SELECT_OPTION(fn, adder)                                                                 \
    static int fn(struct config *cfg, const char *arg) { return add_criterion(cfg, adder, arg); }

SELECT_OPTION(opt_where, select_add_where)
SELECT_OPTION(opt_player, select_add_player)
SELECT_OPTION(opt_result, select_add_result)
SELECT_OPTION(opt_ending, select_add_ending)
SELECT_OPTION(opt_plies, select_add_plies)
SELECT_OPTION(opt_has, select_add_has)
SELECT_OPTION(opt_reaches, select_add_reaches)
SELECT_OPTION(opt_occurs, select_add_occurs)
SELECT_OPTION(opt_material, select_add_material)
SELECT_OPTION(opt_moves, select_add_moves)

static int opt_first_plies(struct config *cfg, const char *arg)
{
    if (parse_count(arg, UINT32_MAX, &cfg->first_plies) != 0)
        return usage_error(cfg, "--first-plies wants a number of plies, not '%s'", arg);
    cfg->first_plies_set = true;
    return 0;
}

static int opt_stop_after(struct config *cfg, const char *arg)
{
    unsigned long long v;
    if (parse_count(arg, UINT64_MAX, &v) != 0 || v == 0)
        return usage_error(cfg, "--stop-after wants a number of games (1 or more), not '%s'",
                           arg);
    cfg->stop_after = v;
    return 0;
}

/* The book games are classified in: --eco-file's, else the built-in one. */
static void classify_games(struct config *cfg)
{
    cfg->game.openings = cfg->eco_book ? eco_book_openings(cfg->eco_book) : &opening_book_lichess;
}

/* --line-width N: 0 never wraps; else from PGN_LINE_MIN_WIDTH (a line narrower than a
 * numbered move would hold single words only). */
static int opt_line_width(struct config *cfg, const char *arg)
{
    unsigned long long v;
    if (parse_count(arg, 1u << 20, &v) != 0 || (v && v < PGN_LINE_MIN_WIDTH))
        return usage_error(cfg, "--line-width wants 0 (no wrapping) or a number of columns "
                                "from %d to %u, not '%s'", PGN_LINE_MIN_WIDTH, 1u << 20, arg);
    cfg->writer.line_width = v ? (size_t)v : PGN_LINE_UNLIMITED;
    return 0;
}

static int opt_classify(struct config *cfg, const char *arg)
{
    (void)arg;
    classify_games(cfg);
    return 0;
}

static int opt_eco_file(struct config *cfg, const char *arg)
{
    if (cfg->eco_book)
        return usage_error(cfg, "--eco-file is given twice: one ECO file per run");
    cfg->eco_book = eco_option_load(arg);
    if (!cfg->eco_book)
        return 2; /* eco_option_load said why, with the file's line and column */
    classify_games(cfg);
    return 0;
}

static int opt_invert(struct config *cfg, const char *arg)
{
    (void)arg;
    if (!cfg->select)
        cfg->select = select_new();
    select_set_invert(cfg->select, true);
    return 0;
}

static int opt_in_variations(struct config *cfg, const char *arg)
{
    (void)arg;
    if (!cfg->select)
        cfg->select = select_new();
    select_set_in_variations(cfg->select, true);
    return 0;
}

static int opt_output(struct config *cfg, const char *arg)
{
    cfg->output_path = arg;
    return 0;
}

static const char *const format_names[] = {"text", "json", "pgn", "tsv", "san", "lalg", "epd"};
enum { FORMAT_COUNT = sizeof format_names / sizeof *format_names };
static const unsigned formats_of[CMD_COUNT] = {
    [CMD_CHECK] = 1u << FORMAT_TEXT | 1u << FORMAT_JSON,
    [CMD_UCI] = 1u << FORMAT_TEXT | 1u << FORMAT_JSON | 1u << FORMAT_PGN | 1u << FORMAT_TSV |
                1u << FORMAT_SAN | 1u << FORMAT_LALG,
    [CMD_FEN] = 1u << FORMAT_TEXT | 1u << FORMAT_JSON | 1u << FORMAT_EPD,
    [CMD_PGN] = 1u << FORMAT_PGN,
};

/* "text|json": the formats cmd writes, the first its default. */
static void format_list(enum command cmd, char *dst, size_t cap)
{
    size_t n = 0;
    dst[0] = '\0';
    for (int f = 0; f < FORMAT_COUNT; f++)
        if (formats_of[cmd] & (1u << f))
            n += (size_t)snprintf(dst + n, cap - n, "%s%s", n ? "|" : "", format_names[f]);
}

static int opt_format(struct config *cfg, const char *arg)
{
    for (int f = 0; f < FORMAT_COUNT; f++) {
        if (strcmp(arg, format_names[f]) != 0)
            continue;
        if (!(formats_of[cfg->command] & (1u << f)))
            return usage_error(cfg, "%s does not write --format %s", command_names[cfg->command],
                               arg);
        cfg->writer.format = (enum output_format)f;
        return 0;
    }
    char list[40];
    format_list(cfg->command, list, sizeof list);
    return usage_error(cfg, "unknown --format '%s' (%s)", arg, list);
}

static int opt_tags(struct config *cfg, const char *arg)
{
    /* Split on commas in place: argv strings are ours to modify. */
    char *s = (char *)arg;
    size_t n = 0;
    for (char *save = NULL, *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (n == MAX_TAG_COLUMNS)
            return usage_error(cfg, "--tags takes at most %d names", MAX_TAG_COLUMNS);
        cfg->tag_names[n++] = tok;
    }
    cfg->writer.tags = cfg->tag_names;
    cfg->writer.tag_count = n;
    return 0;
}

/* The tags --add-tags can compute (the writer knows these; more plug in through
 * writer_options.tag_value).  ECO and Opening classify each game in the built-in book. */
static const char *const addable_tags[] = {"PlyCount", "FinalFEN", "HashCode", "ECO",
                                           "Opening", "Variation", "SubVariation"};
enum { ADDABLE_COUNT = sizeof addable_tags / sizeof *addable_tags };

static int opt_add_tags(struct config *cfg, const char *arg)
{
    char *s = (char *)arg;
    size_t n = 0;
    for (char *save = NULL, *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < ADDABLE_COUNT && strcmp(tok, addable_tags[k]) != 0)
            k++;
        if (k == ADDABLE_COUNT)
            return usage_error(cfg, "--add-tags knows PlyCount, FinalFEN, HashCode, ECO, "
                                    "Opening, Variation and SubVariation, not '%s'", tok);
        if (n == MAX_ADDED_TAGS)
            return usage_error(cfg, "--add-tags takes at most %d names", MAX_ADDED_TAGS);
        if (k >= 3) /* ECO, Opening, Variation, SubVariation */
            classify_games(cfg);
        cfg->added_tag_names[n++] = addable_tags[k];
    }
    cfg->writer.add_tags = cfg->added_tag_names;
    cfg->writer.add_tag_count = n;
    return 0;
}

static int opt_with(struct config *cfg, const char *arg)
{
    char *s = (char *)arg;
    for (char *save = NULL, *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "clk") == 0)
            cfg->writer.with |= WRITER_WITH_CLK;
        else if (strcmp(tok, "eval") == 0)
            cfg->writer.with |= WRITER_WITH_EVAL;
        else if (strcmp(tok, "emt") == 0)
            cfg->writer.with |= WRITER_WITH_EMT;
        else if (strcmp(tok, "file") == 0)
            cfg->writer.with |= WRITER_WITH_FILE;
        else if (strcmp(tok, "offset") == 0)
            cfg->writer.with |= WRITER_WITH_OFFSET;
        else if (strcmp(tok, "opening") == 0)
            cfg->writer.with |= WRITER_WITH_OPENING;
        else
            return usage_error(cfg, "--with knows clk, eval, emt, file, offset and opening, "
                                    "not '%s'", tok);
        if (cfg->writer.with & WRITER_WITH_OPENING)
            classify_games(cfg);
    }
    return 0;
}

static int opt_range(struct config *cfg, const char *arg)
{
    char why[160];
    if (cfg->range.set)
        return usage_error(cfg, "--range is given twice: one range per run (run one per range)");
    if (range_parse(arg, &cfg->range, why, sizeof why) != 0)
        return usage_error(cfg, "%s", why);
    return 0;
}

static int opt_summary_json(struct config *cfg, const char *arg)
{
    cfg->summary_json = arg;
    return 0;
}

static int opt_ep(struct config *cfg, const char *arg)
{
    if (strcmp(arg, "legal") == 0)
        cfg->writer.fen_flags |= FEN_EP_LEGAL;
    else if (strcmp(arg, "standard") == 0)
        cfg->writer.fen_flags &= ~(unsigned)FEN_EP_LEGAL;
    else
        return usage_error(cfg, "--ep is 'standard' or 'legal', not '%s'", arg);
    return 0;
}

static int opt_castling(struct config *cfg, const char *arg)
{
    if (strcmp(arg, "king-takes-rook") == 0)
        cfg->writer.king_takes_rook = true;
    else if (strcmp(arg, "standard") == 0)
        cfg->writer.king_takes_rook = false;
    else
        return usage_error(cfg, "--castling is 'standard' or 'king-takes-rook', not '%s'", arg);
    return 0;
}

static int opt_fail_on(struct config *cfg, const char *arg)
{
    if (strcmp(arg, "warning") == 0)
        cfg->fail_on = FAIL_ON_WARNING;
    else if (strcmp(arg, "error") == 0)
        cfg->fail_on = FAIL_ON_ERROR;
    else if (strcmp(arg, "none") == 0)
        cfg->fail_on = FAIL_ON_NONE;
    else
        return usage_error(cfg, "--fail-on is 'warning', 'error' or 'none', not '%s'", arg);
    return 0;
}

static int opt_encoding(struct config *cfg, const char *arg)
{
    if (!pgn_text_encoding_by_name(arg, &cfg->encoding))
        return usage_error(cfg, "--encoding is auto, utf-8, latin1 or cp1252, not '%s'", arg);
    return 0;
}

static int opt_piece_letters(struct config *cfg, const char *arg)
{
    int letters = san_letters_from_name(arg);
    if (letters < 0)
        return usage_error(cfg, "--piece-letters knows english, german, french, spanish and "
                                "dutch, not '%s'", arg);
    cfg->game.letters = (enum san_letters)letters;
    return 0;
}

#define FLAG_OPTION(fn, stmt)                                                                    \
    static int fn(struct config *cfg, const char *arg)                                           \
    {                                                                                            \
        (void)arg;                                                                               \
        stmt;                                                                                    \
        return 0;                                                                                \
    }

FLAG_OPTION(opt_strict, cfg->game.san.strict = true; cfg->fail_on = FAIL_ON_WARNING)
FLAG_OPTION(opt_lenient, cfg->game.san.lenient = true)
/* pgn and fen --comments also leave them out of the output. */
FLAG_OPTION(opt_no_variations, cfg->game.skip_variations = true; cfg->writer.drop_variations = true)
FLAG_OPTION(opt_no_comments, cfg->writer.drop_comments = true)
FLAG_OPTION(opt_no_nags, cfg->writer.drop_nags = true)
FLAG_OPTION(opt_fix_result, cfg->writer.fix_result = true)
FLAG_OPTION(opt_split_variations, cfg->split_variations = true)
FLAG_OPTION(opt_seven_tags, cfg->writer.tag_set = PGN_TAGS_ROSTER)
FLAG_OPTION(opt_no_tags, cfg->writer.tag_set = PGN_TAGS_NONE)
FLAG_OPTION(opt_variations, cfg->game.skip_variations = false; cfg->writer.drop_variations = false)
FLAG_OPTION(opt_skip_invalid, cfg->skip_invalid = true)
FLAG_OPTION(opt_dedupe, cfg->dedupe = true)
FLAG_OPTION(opt_verbatim, cfg->verbatim = true)
FLAG_OPTION(opt_force, cfg->force = true)
FLAG_OPTION(opt_every, cfg->writer.fen_mode = FEN_MODE_EVERY)
FLAG_OPTION(opt_comments, cfg->writer.fen_mode = FEN_MODE_COMMENTS)
FLAG_OPTION(opt_shredder, cfg->writer.fen_flags |= FEN_SHREDDER)
FLAG_OPTION(opt_summary, cfg->summary = true)
FLAG_OPTION(opt_quiet, cfg->quiet = true)
FLAG_OPTION(opt_fixes, cfg->fixes = true)
FLAG_OPTION(opt_progress, cfg->progress = 1)
FLAG_OPTION(opt_no_progress, cfg->progress = 0)
FLAG_OPTION(opt_no_header, cfg->no_header = true)

static const struct option_entry option_table[] = {
    {"output", 'o', true, ALL_CMDS, opt_output, "FILE  write to FILE (atomically: renamed at the end)"},
    {"format", 'f', true, ALL_CMDS, opt_format, "FMT  the output formats of the command"},
    {"strict", 0, false, ALL_CMDS, opt_strict, "warn about over-disambiguated SAN; warnings fail"},
    {"lenient", 0, false, ALL_CMDS, opt_lenient, "take the first candidate of an ambiguous SAN"},
    {"variations", 0, false, ALL_CMDS, opt_variations, "replay and validate variations (default)"},
    {"no-variations", 0, false, ALL_CMDS, opt_no_variations, "do not replay variations (pgn: nor write them)"},
    {"piece-letters", 0, true, ALL_CMDS, opt_piece_letters, "LANG  also accept german|french|spanish|dutch letters"},
    {"encoding", 0, true, ALL_CMDS, opt_encoding, "ENC  auto (per game: UTF-8, else CP1252), utf-8, latin1, cp1252"},
    {"fail-on", 0, true, ALL_CMDS, opt_fail_on, "LEVEL  error (default), warning or none: what sets exit status 1"},
    {"max-errors", 0, true, ALL_CMDS, opt_max_errors, "N  stop after N error diagnostics"},
    {"stop-after", 0, true, ALL_CMDS, opt_stop_after, "N  stop once N games are written (check: kept); one thread"},
    {"summary", 0, false, ALL_CMDS, opt_summary, "print a per-file, per-code report on stderr"},
    {"quiet", 'q', false, ALL_CMDS, opt_quiet, "nothing on stderr but failures: no summary line, no game diagnostics (uci, fen, pgn)"},
    {"jobs", 'j', true, ALL_CMDS, opt_jobs, "N  threads, the reading one included (default: all cores; at most 16 run)"},
    {"progress", 0, false, ALL_CMDS, opt_progress, "show progress on stderr (file k of n; % of compressed input too)"},
    {"no-progress", 0, false, ALL_CMDS, opt_no_progress, "never show progress"},
    {"tags", 't', true, CMD_BIT(CMD_UCI), opt_tags, "A,B,..  these tags first (text, tsv); only these (json, pgn)"},
    {"skip-invalid", 0, false, ALL_CMDS, opt_skip_invalid, "do not write games with errors (check: still reports them)"},
    {"invalid-to", 0, true, ALL_CMDS, opt_invalid_to, "FILE  games with errors to FILE as read, after ';' lines naming their diagnostics"},
    {"dedupe", 0, false, ALL_CMDS, opt_dedupe, "write only the first of games with the same start position and mainline"},
    {"duplicates-to", 0, true, ALL_CMDS, opt_duplicates_to, "FILE  --dedupe, and the duplicates to FILE as read"},
    {"where", 0, true, ALL_CMDS, opt_where, "'TAG OP VALUE'  only games whose tag compares so (OP: = != ~ !~ < <= > >=); repeatable"},
    {"player", 0, true, ALL_CMDS, opt_player, "REGEX  only games where White or Black matches REGEX"},
    {"result", 0, true, ALL_CMDS, opt_result, "R,..  only games whose Result tag is one of 1-0, 0-1, 1/2-1/2, *"},
    {"ending", 0, true, ALL_CMDS, opt_ending, "E,..  only games ending so: checkmate|stalemate|insufficient|fifty-moves|threefold|none, or a variant's own (see man)"},
    {"plies", 0, true, ALL_CMDS, opt_plies, "MIN:MAX  only games with that many mainline plies (either may be empty)"},
    {"has", 0, true, ALL_CMDS, opt_has, "CODE,..  only games with a diagnostic of one of these codes"},
    {"reaches", 0, true, ALL_CMDS, opt_reaches, "FEN  only games whose mainline reaches this position (clocks aside)"},
    {"occurs", 0, true, ALL_CMDS, opt_occurs, "F,..  only games where, anywhere on the mainline: capture|check|castling|castling-short|castling-long|en-passant|promotion|underpromotion|fifty-moves|threefold"},
    {"material", 0, true, ALL_CMDS, opt_material, "SIG,..  only games whose mainline has this material at some ply: KRPvKR (exact), KQ+vK+ (at least)"},
    {"moves", 0, true, ALL_CMDS, opt_moves, "'M M ..'  only games whose mainline starts with these moves (SAN or UCI); '... M M': anywhere"},
    {"in-variations", 0, false, ALL_CMDS, opt_in_variations, "--reaches and --material also look at the positions reached in variations (pgn-extract -x)"},
    {"first-plies", 0, true, CMD_BIT(CMD_UCI) | CMD_BIT(CMD_FEN) | CMD_BIT(CMD_PGN), opt_first_plies, "N  write only the first N plies of each game (pgn: result *); selection sees it whole"},
    {"classify", 0, false, ALL_CMDS, opt_classify, "name each game's opening from the book: --where on ECO and Opening reads it"},
    {"eco-file", 0, true, ALL_CMDS, opt_eco_file, "FILE  classify by this ECO file (pgn-extract's eco.pgn) instead of the book; pgn adds ECO, Opening, Variation"},
    {"invert", 0, false, ALL_CMDS, opt_invert, "only the games the criteria above reject (pgn-extract -n)"},
    {"verbatim", 0, false, CMD_BIT(CMD_PGN), opt_verbatim, "write each game as its input bytes, not normalized"},
    {"split", 0, true, CMD_BIT(CMD_PGN), opt_split, "N  N games per file, named by -o with a %d (out-%04d.pgn)"},
    {"split-by", 0, true, CMD_BIT(CMD_PGN), opt_split_by, "TAG  one file per value of TAG, named by -o with a %s"},
    {"no-comments", 0, false, CMD_BIT(CMD_PGN), opt_no_comments, "leave comments out"},
    {"no-nags", 0, false, CMD_BIT(CMD_PGN), opt_no_nags, "leave NAGs and ! ? suffixes out"},
    {"split-variations", 0, false, CMD_BIT(CMD_PGN), opt_split_variations, "each line of play (mainline, every variation) as its own game, moves only (pgn-extract --splitvariants)"},
    {"line-width", 0, true, CMD_BIT(CMD_PGN), opt_line_width, "N  wrap movetext lines at N columns (80; 0: never) (pgn-extract -w)"},
    {"seven-tags", 0, false, CMD_BIT(CMD_PGN), opt_seven_tags, "only the Seven Tag Roster, then any --add-tags (pgn-extract -7)"},
    {"no-tags", 0, false, CMD_BIT(CMD_PGN), opt_no_tags, "no tags: the movetext alone (pgn-extract --notags)"},
    {"add-tags", 0, true, CMD_BIT(CMD_PGN), opt_add_tags, "A,B,..  add tags computed from the replay: PlyCount, FinalFEN, HashCode (Polyglot key), ECO, Opening, Variation, SubVariation"},
    {"fix-result", 0, false, CMD_BIT(CMD_PGN), opt_fix_result, "a final checkmate or stalemate sets the result"},
    {"force", 0, false, CMD_BIT(CMD_PGN), opt_force, "--split and --split-by may replace existing files"},
    {"castling", 0, true, CMD_BIT(CMD_UCI) | CMD_BIT(CMD_FEN), opt_castling, "STYLE  standard (e1g1) or king-takes-rook (e1h1)"},
    {"with", 0, true, CMD_BIT(CMD_UCI) | CMD_BIT(CMD_FEN), opt_with, "A,B,..  clk,eval,emt per move (uci tsv, json: clk, emt in seconds); file,offset key columns; opening: eco, name"},
    {"range", 0, true, ALL_CMDS, opt_range, "START:END  only games starting in these bytes of the one file (K/M/G)"},
    {"no-header", 0, false, CMD_BIT(CMD_UCI), opt_no_header, "no header row in --format tsv"},
    {"summary-json", 0, true, ALL_CMDS, opt_summary_json, "FILE  write the run's counts, wall and CPU time, and whether it stopped early as JSON (for pgnkit summary)"},
    {"fixes", 0, false, CMD_BIT(CMD_PGN), opt_fixes, "report on stderr what normalization changed, per game"},
    {"ply", 0, true, CMD_BIT(CMD_FEN), opt_ply, "N  the position after ply N"},
    {"every", 0, false, CMD_BIT(CMD_FEN), opt_every, "one line per ply: game, ply, FEN"},
    {"comments", 0, false, CMD_BIT(CMD_FEN), opt_comments, "PGN with a {FEN} comment after each move"},
    {"ep", 0, true, CMD_BIT(CMD_FEN) | CMD_BIT(CMD_UCI), opt_ep, "standard|legal  en passant field convention"},
    {"shredder", 0, false, CMD_BIT(CMD_FEN) | CMD_BIT(CMD_UCI), opt_shredder, "Shredder-FEN castling letters"},
    {"max-game-bytes", 0, true, ALL_CMDS, opt_max_game_bytes, "N  skip games larger than N bytes (64M)"},
    {"max-game-tokens", 0, true, ALL_CMDS, opt_max_game_tokens, "N  skip games of more than N tokens (no limit)"},
    {"part-tokens", 0, true, ALL_CMDS, opt_part_tokens, "N  replay and write a game of more tokens in parts (64K)"},
    {"max-token-bytes", 0, true, ALL_CMDS, opt_max_token_bytes, "N  longest move/NAG/tag name (255)"},
    {"max-comment-bytes", 0, true, ALL_CMDS, opt_max_comment_bytes, "N  longest comment (32M)"},
    {"max-depth", 0, true, ALL_CMDS, opt_max_depth, "N  deepest variation nesting (1024)"},
    {"max-diagnostics", 0, true, ALL_CMDS, opt_max_diagnostics, "N  diagnostics kept per game, then one MORE_DIAGNOSTICS (1000)"},
};
enum { OPTION_COUNT = sizeof option_table / sizeof *option_table };

/* The values an option's argument takes, for shell completion (complete.c); every one is
 * accepted by the option's apply function above (tests/cli/completion.sh runs them all).
 * --format's come from formats_of, per command. */
static const struct {
    const char *option;
    const char *values;
} option_values[] = {
    {"ep", "standard legal"},
    {"castling", "standard king-takes-rook"},
    {"fail-on", "error warning"},
    {"encoding", "auto utf-8 latin1 cp1252"},
    {"piece-letters", "english german french spanish dutch"},
    {"ending", "checkmate stalemate insufficient fifty-moves threefold none"},
    {"result", "1-0 0-1 1/2-1/2 *"},
    {"with", "clk eval emt file offset opening"},
    {"add-tags", "PlyCount FinalFEN HashCode ECO Opening"},
};

bool options_about(size_t i, enum command cmd, struct option_about *out)
{
    if (i >= OPTION_COUNT)
        return false;
    const struct option_entry *o = &option_table[i];
    *out = (struct option_about){.name = o->name, .short_name = o->short_name,
                                 .takes_arg = o->takes_arg,
                                 .for_command = cmd < CMD_COUNT && (o->commands & CMD_BIT(cmd)),
                                 .takes_file = strncmp(o->help, "FILE ", 5) == 0};
    if (strcmp(o->name, "format") == 0 && cmd < CMD_COUNT) {
        format_list(cmd, out->values, sizeof out->values);
        for (char *bar = strchr(out->values, '|'); bar; bar = strchr(bar, '|'))
            *bar = ' ';
    }
    for (size_t v = 0; v < sizeof option_values / sizeof *option_values; v++)
        if (strcmp(o->name, option_values[v].option) == 0)
            snprintf(out->values, sizeof out->values, "%s", option_values[v].values);
    return true;
}

static const char *const command_summaries[CMD_COUNT] = {
    "validate: one diagnostic per line, summary on stderr",
    "the mainline as UCI moves, one line per game",
    "FEN after the last move, after ply N, or after every ply",
    "normalized PGN: canonical SAN, Seven Tag Roster first, 80 columns",
    "count the leaves of the legal move tree: pgnkit perft FEN DEPTH [--divide]",
};

static void print_version(void) { printf("pgnkit %s\n", PGNKIT_VERSION); }

static void print_main_help(void)
{
    puts("usage: pgnkit COMMAND [OPTIONS] [FILE...]\n"
         "\n"
         "Streams PGN files (or standard input: '-' or none), replays every move on a real\n"
         "board, and writes diagnostics, UCI moves, FENs or normalized PGN.\n"
         "\n"
         "commands:");
    for (int c = 0; c < CMD_COUNT; c++)
        printf("  %-7s %s\n", command_names[c], command_summaries[c]);
    printf("  %-7s %s\n", "summary", "add up the --summary-json files of runs over parts of a job");
    puts("\n'pgnkit COMMAND --help' lists a command's options; 'man pgnkit' says it all.\n"
         "exit status: 0 nothing wrong, 1 errors found, 2 usage or I/O failure.");
}

static void print_command_help(enum command cmd)
{
    printf("usage: pgnkit %s [OPTIONS] [FILE...]\n%s\n\noptions:\n", command_names[cmd],
           command_summaries[cmd]);
    for (int i = 0; i < OPTION_COUNT; i++) {
        const struct option_entry *o = &option_table[i];
        if (!(o->commands & CMD_BIT(cmd)))
            continue;
        char left[48], formats[64];
        const char *help = o->help;
        if (o->apply == opt_format) { /* only this command's formats */
            char list[40];
            format_list(cmd, list, sizeof list);
            snprintf(formats, sizeof formats, "FMT  %s (default %s)", list,
                     format_names[__builtin_ctz(formats_of[cmd])]);
            help = formats;
        }
        const char *gap = o->takes_arg ? strstr(help, "  ") : NULL;
        if (gap)
            snprintf(left, sizeof left, "%c%c%s--%s %.*s", o->short_name ? '-' : ' ',
                     o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ", o->name,
                     (int)(gap - help), help);
        else
            snprintf(left, sizeof left, "%c%c%s--%s", o->short_name ? '-' : ' ',
                     o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ", o->name);
        printf("  %-30s %s\n", left, gap ? gap + 2 : help);
    }
    puts("  -h, --help                     this text\n"
         "      --version                  the version");
}

/* Levenshtein distance, for "did you mean". */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40)
        return 99;
    size_t row[41];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t best = diag + cost;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* The suggestion is the nearest option of this command: one it would refuse is no help
 * ("pgn --notags" is not told of uci's --tags). */
static int unknown_option(const struct config *cfg, const char *name)
{
    const char *best = NULL;
    size_t best_d = 4;
    for (int i = 0; i < OPTION_COUNT; i++) {
        if (!(option_table[i].commands & CMD_BIT(cfg->command)))
            continue;
        size_t d = edit_distance(name, option_table[i].name);
        if (d < best_d) {
            best_d = d;
            best = option_table[i].name;
        }
    }
    if (best)
        return usage_error(cfg, "unknown option '--%s'; did you mean '--%s'?", name, best);
    return usage_error(cfg, "unknown option '--%s'", name);
}

static int unknown_command(const char *name)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (int c = 0; c < CMD_COUNT; c++) {
        size_t d = edit_distance(name, command_names[c]);
        if (d < best_d) {
            best_d = d;
            best = command_names[c];
        }
    }
    if (best)
        return usage_error(NULL, "unknown command '%s'; did you mean '%s'?", name, best);
    return usage_error(NULL, "unknown command '%s'", name);
}

static const struct option_entry *find_long(const char *name, size_t len)
{
    for (int i = 0; i < OPTION_COUNT; i++)
        if (strlen(option_table[i].name) == len && strncmp(option_table[i].name, name, len) == 0)
            return &option_table[i];
    return NULL;
}

static const struct option_entry *find_short(char c)
{
    for (int i = 0; i < OPTION_COUNT; i++)
        if (option_table[i].short_name == c)
            return &option_table[i];
    return NULL;
}

/* The options given, by index in option_table: for the checks of combinations. */
struct given {
    bool option[OPTION_COUNT];
};

/* Apply option o with arg (NULL for a flag): it must belong to the command. */
static int apply_option(struct config *cfg, struct given *given, const struct option_entry *o,
                        const char *arg)
{
    if (!(o->commands & CMD_BIT(cfg->command)))
        return usage_error(cfg, "'%s %s' has no option --%s", "pgnkit",
                           command_names[cfg->command], o->name);
    given->option[o - option_table] = true;
    return o->apply(cfg, arg);
}

/* The argument of option o: inline (--name=ARG, -jARG), else the next word. */
static int take_argument(const struct config *cfg, const struct option_entry *o,
                         const char *inline_arg, int argc, char **argv, int *i,
                         const char **arg)
{
    if (inline_arg) {
        *arg = inline_arg;
        return 0;
    }
    if (*i + 1 >= argc)
        return usage_error(cfg, "--%s needs an argument", o->name);
    *arg = argv[++*i];
    return 0;
}

/* Short options, bundled as in -qj1 or -qo FILE: flags, then at most one option with an
 * argument, which takes the rest of the word or the next one. */
static int parse_short(struct config *cfg, struct given *given, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    for (size_t k = 1; a[k]; k++) {
        const struct option_entry *o = find_short(a[k]);
        if (!o)
            return a[k + 1] || k > 1 ? usage_error(cfg, "unknown option '-%c' in '%s'", a[k], a)
                                     : usage_error(cfg, "unknown option '%s'", a);
        const char *arg = NULL;
        if (o->takes_arg) {
            int rc = take_argument(cfg, o, a[k + 1] ? a + k + 1 : NULL, argc, argv, i, &arg);
            if (rc)
                return rc;
        }
        int rc = apply_option(cfg, given, o, arg);
        if (rc || o->takes_arg)
            return rc;
    }
    return 0;
}

/* One option at argv[*i]; advances *i past its argument.  Returns 0, 2 or -1 (help). */
static int parse_one(struct config *cfg, struct given *given, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
        print_command_help(cfg->command);
        return -1;
    }
    if (strcmp(a, "--version") == 0) {
        print_version();
        return -1;
    }
    if (a[1] != '-')
        return parse_short(cfg, given, argc, argv, i);
    const char *eq = strchr(a + 2, '=');
    size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
    const struct option_entry *o = find_long(a + 2, len);
    if (!o) {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)len, a + 2);
        return unknown_option(cfg, name);
    }
    const char *arg = NULL;
    if (o->takes_arg) {
        int rc = take_argument(cfg, o, eq ? eq + 1 : NULL, argc, argv, i, &arg);
        if (rc)
            return rc;
    } else if (eq) {
        return usage_error(cfg, "--%s takes no argument", o->name);
    }
    return apply_option(cfg, given, o, arg);
}

static bool was_given(const struct given *given, const char *name)
{
    const struct option_entry *o = find_long(name, strlen(name));
    return o && given->option[o - option_table];
}

/* The --with values read from each move's comments (the others are key columns). */
#define PER_MOVE_VALUES (WRITER_WITH_CLK | WRITER_WITH_EVAL | WRITER_WITH_EMT)

/* No option may be given where it would change nothing: each is refused with the reason. */
static int check_combinations(const struct config *cfg, const struct given *given)
{
    if (cfg->split_games && cfg->split_by)
        return usage_error(cfg, "--split and --split-by do not go together");
    if (cfg->split_games && !split_pattern_ok(cfg->output_path, 'd'))
        return usage_error(cfg, "--split needs -o with one %%d for the file number "
                                "(like -o out-%%04d.pgn)");
    if (cfg->split_games && split_number_width(cfg->output_path) > SPLIT_WIDTH_MAX)
        return usage_error(cfg, "--split: the width of -o's %%d is %d; at most %d (the digits "
                                "of the largest file number): wider names would be cut to one",
                           split_number_width(cfg->output_path), SPLIT_WIDTH_MAX);
    if (cfg->split_by && !split_pattern_ok(cfg->output_path, 's'))
        return usage_error(cfg, "--split-by needs -o with one %%s for the tag value "
                                "(like -o event-%%s.pgn)");
    if (cfg->verbatim && cfg->fixes)
        return usage_error(cfg, "--verbatim writes the input bytes: there are no --fixes");
    enum output_format f = cfg->writer.format;
    const char *fmt = format_names[f];
    if (was_given(given, "quiet") && was_given(given, "summary"))
        return usage_error(cfg, "--quiet and --summary contradict each other");
    unsigned with = cfg->writer.with; /* as given: the automatic keys come later */
    bool pgn_out = f == FORMAT_PGN || cfg->writer.fen_mode == FEN_MODE_COMMENTS;
    if ((with & PER_MOVE_VALUES) && f != FORMAT_JSON && (cfg->command != CMD_UCI || f != FORMAT_TSV))
        return usage_error(cfg, "--with clk, eval, emt need --format %s: %s writes no "
                                "per-move values", cfg->command == CMD_UCI ? "tsv or json" : "json",
                           pgn_out ? "PGN" : fmt);
    if ((with & (WRITER_WITH_FILE | WRITER_WITH_OFFSET)) && pgn_out)
        return usage_error(cfg, "--with file, offset add columns: PGN output has none");
    if ((with & WRITER_WITH_OPENING) && f != FORMAT_JSON &&
        (cfg->command != CMD_UCI || f != FORMAT_TSV))
        return usage_error(cfg, "--with opening needs --format %s: %s has no place for it%s",
                           cfg->command == CMD_UCI ? "tsv or json" : "json",
                           pgn_out ? "PGN" : fmt, pgn_out ? " (pgn --add-tags ECO,Opening)" : "");
    if (cfg->command == CMD_UCI) {
        if ((f == FORMAT_SAN || f == FORMAT_LALG) && was_given(given, "castling"))
            return usage_error(cfg, "--castling changes UCI moves: --format %s writes none", fmt);
        if (f != FORMAT_JSON && (was_given(given, "ep") || was_given(given, "shredder")))
            return usage_error(cfg, "--%s changes FENs: uci writes one (\"fen\") only with "
                                    "--format json", was_given(given, "ep") ? "ep" : "shredder");
    }
    if (cfg->command == CMD_FEN) {
        int modes = was_given(given, "ply") + was_given(given, "every") +
                    was_given(given, "comments");
        if (modes > 1)
            return usage_error(cfg, "--ply, --every and --comments exclude each other");
        if (f != FORMAT_TEXT && was_given(given, "comments"))
            return usage_error(cfg, "--comments writes PGN: it cannot be --format %s", fmt);
        if (f != FORMAT_JSON && was_given(given, "castling"))
            return usage_error(cfg, "--castling changes UCI moves: fen writes them (\"uci\") "
                                    "only with --format json");
    }
    if (was_given(given, "invert") && cfg->select && !select_has_criteria(cfg->select))
        return usage_error(cfg, "%s", SELECT_INVERT_ALONE);
    if (was_given(given, "in-variations") && !select_reads_variations(cfg->select))
        return usage_error(cfg, "%s", SELECT_IN_VARIATIONS_ALONE);
    if (was_given(given, "in-variations") && cfg->game.skip_variations)
        return usage_error(cfg, "%s", SELECT_IN_VARIATIONS_SKIPPED);
    /* Classified games (--classify, --add-tags ECO/Opening, --with opening): the criteria
     * on ECO and Opening read the classification, as pgn-extract's -e makes its tag
     * criteria read the tags it adds. */
    if (cfg->select && cfg->game.openings)
        select_use_openings(cfg->select);
    if (cfg->max_errors && cfg->jobs != 1 && was_given(given, "jobs"))
        return usage_error(cfg, "--max-errors stops at an exact game, on one thread: "
                                "--jobs %d cannot apply", cfg->jobs);
    if (was_given(given, "seven-tags") && was_given(given, "no-tags"))
        return usage_error(cfg, "--seven-tags and --no-tags contradict each other");
    const struct writer_options *w = &cfg->writer;
    if (w->tag_set == PGN_TAGS_NONE && w->add_tag_count)
        return usage_error(cfg, "--no-tags writes no tags: it cannot also --add-tags");
    if (cfg->split_variations && (cfg->verbatim || cfg->first_plies_set || cfg->fixes ||
                                  w->drop_variations || w->add_tag_count))
        return usage_error(cfg, "--split-variations writes each line's moves: it cannot also "
                                "%s", cfg->verbatim ? "--verbatim" : cfg->first_plies_set
                                ? "--first-plies" : cfg->fixes ? "--fixes"
                                : w->drop_variations ? "--no-variations"
                                : "--add-tags (they describe the mainline)");
    if (cfg->verbatim && w->line_width)
        return usage_error(cfg, "--verbatim writes the input bytes: it cannot also --line-width");
    if (cfg->verbatim && w->tag_set != PGN_TAGS_ALL)
        return usage_error(cfg, "--verbatim writes the input bytes: it cannot also %s",
                           w->tag_set == PGN_TAGS_NONE ? "--no-tags" : "--seven-tags");
    if (cfg->verbatim && cfg->first_plies_set)
        return usage_error(cfg, "--verbatim writes the input bytes: it cannot cut them "
                                "(--first-plies)");
    if (cfg->verbatim && (w->drop_comments || w->drop_nags || w->add_tag_count || w->fix_result))
        return usage_error(cfg, "--verbatim writes the input bytes: it cannot also %s",
                           w->drop_comments ? "--no-comments" : w->drop_nags ? "--no-nags"
                           : w->add_tag_count ? "--add-tags" : "--fix-result");
    return 0;
}

static void config_defaults(struct config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->progress = -1;
    cfg->game.letters = SAN_LETTERS_ENGLISH;
}

void config_release(struct config *cfg)
{
    select_free(cfg->select);
    cfg->select = NULL;
    eco_book_free(cfg->eco_book);
    cfg->eco_book = NULL;
}

/* pgn --eco-file without --add-tags naming the opening's tags: the tags pgn-extract -e
 * writes, ECO, Opening, Variation (and SubVariation where the file has one). */
static int add_eco_tags(struct config *cfg)
{
    static const char *const eco_tags[] = {"ECO", "Opening", "Variation", "SubVariation"};
    if (!cfg->eco_book || cfg->command != CMD_PGN || cfg->verbatim)
        return 0;
    size_t n = cfg->writer.add_tag_count;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 4; k++)
            if (strcmp(cfg->added_tag_names[i], eco_tags[k]) == 0)
                return 0; /* the user chose which */
    if (n + 4 > MAX_ADDED_TAGS)
        return usage_error(cfg, "--add-tags takes at most %d names", MAX_ADDED_TAGS);
    for (int k = 0; k < 4; k++)
        cfg->added_tag_names[n++] = eco_tags[k];
    cfg->writer.add_tags = cfg->added_tag_names;
    cfg->writer.add_tag_count = n;
    return 0;
}

/* Options that only make sense together, checked once all are read.  0 or 2. */
int options_parse(int argc, char **argv, struct config *cfg)
{
    config_defaults(cfg);
    cfg->command = CMD_COUNT;
    if (argc < 2)
        return usage_error(NULL, "no command given");
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        print_main_help();
        return -1;
    }
    if (strcmp(cmd, "--version") == 0) {
        print_version();
        return -1;
    }
    for (int c = 0; c < CMD_COUNT; c++)
        if (strcmp(cmd, command_names[c]) == 0)
            cfg->command = (enum command)c;
    if (cfg->command == CMD_COUNT && cmd[0] == '-')
        return usage_error(NULL, "the command comes first: pgnkit COMMAND [OPTIONS] [FILE...], "
                                 "not '%s'", cmd);
    if (cfg->command == CMD_COUNT)
        return unknown_command(cmd);
    /* Inputs are collected in place over argv: no allocation, argv outlives the run. */
    cfg->inputs = (const char **)argv + 2;
    bool only_files = false;
    struct given given = {{false}};
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!only_files && strcmp(a, "--") == 0) {
            only_files = true;
            continue;
        }
        if (!only_files && a[0] == '-' && a[1]) {
            int rc = parse_one(cfg, &given, argc, argv, &i);
            if (rc)
                return rc;
            continue;
        }
        cfg->inputs[cfg->input_count++] = a;
    }
    int rc = check_combinations(cfg, &given);
    if (!rc)
        rc = add_eco_tags(cfg);
    if (rc)
        return rc;
    if (cfg->range.set && cfg->input_count != 1)
        return usage_error(cfg, "--range applies to one file, not %zu inputs",
                           cfg->input_count);
    /* fen --with clk,eval,emt (JSON only) and --with on PGN output: check_combinations. */
    /* Rows from several files or from byte ranges are told apart by (file, offset). */
    if (cfg->input_count > 1 || cfg->range.set)
        cfg->writer.with |= WRITER_WITH_FILE | WRITER_WITH_OFFSET;
    /* Only the PGN writer (pgn, fen --comments), uci's TSV, the per-move values of
     * --with and --in-variations's selection walk the tokens' moves. */
    cfg->game.skip_token_moves =
        !(cfg->command == CMD_PGN || (cfg->select && select_reads_variations(cfg->select)) ||
          (cfg->command == CMD_FEN && cfg->writer.fen_mode == FEN_MODE_COMMENTS) ||
          (cfg->command == CMD_UCI && cfg->writer.format == FORMAT_TSV) ||
          (cfg->writer.with & PER_MOVE_VALUES));
    /* The token moves' walk is what reads comments: without it the reader need not keep
     * them all (lichess's clock after every move). */
    cfg->limits.drop_comments = cfg->game.skip_token_moves;
    return 0;
}
