/**
 * select.h - which games to keep: criteria on the tags (--where, --player, --result) and
 * on the facts only a replay knows (--ending, --plies, --has, --reaches, --occurs,
 * --material, --moves), ANDed, and
 * optionally inverted (--invert).
 *
 * What it promises:
 * - A struct select is built once (the select_add_* calls, while options are read) and
 *   is read-only afterwards: any number of threads may use it at once, each with its own
 *   struct select_scratch (PCRE2 match data, the positions kept for threefold).  Regexes
 *   are compiled once (JIT when available); nothing is allocated per game or per move
 *   (the scratch grows to the longest game once).
 * - The tag criteria are decided from the tags alone, before any move is replayed
 *   (select_by_tags): a game they reject is never replayed.  Only when they pass and a
 *   fact criterion remains does the caller replay and ask select_by_facts.
 * - Every tag value is read through select_tag_value().  With select_use_openings, the
 *   criteria on ECO and Opening are computed: decided after the replay, on the game's
 *   classification (game_record.opening), as pgn --add-tags ECO,Opening writes them.
 * - Errors are values: a message naming the problem in the caller's buffer, nothing
 *   printed.
 *
 * The comparison rules (man page, "Selecting games"):
 * - A game without the tag matches no criterion on it, except != and !~, which it
 *   matches (they are the negations of = and ~).
 * - = and != compare the bytes exactly; ~ and !~ match a PCRE2 regex (UTF-8, case
 *   sensitive unless the regex says (?i)) anywhere in the value.
 * - < <= > >= compare as dates when VALUE is a PGN date (YYYY.MM.DD, ?? parts allowed)
 *   or, for the tags Date, EventDate and UTCDate, also YYYY or YYYY.MM: only the parts
 *   VALUE gives are compared, in order; the first that differs decides; a part unknown
 *   (??) on either side before that makes the comparison false; all equal: <= and >=
 *   hold.  Else as numbers when VALUE is a number (a tag value that is no number then
 *   fails).  Else bytewise.
 */
#ifndef PGNKIT_SELECT_H
#define PGNKIT_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "pgn/pgn_reader.h"
#include "board/position.h"

struct select;
struct select_scratch;

/** An empty selection: every game matches. */
struct select *select_new(void);
void select_free(struct select *s);

/* Each adds one criterion; 0, or -1 with the reason in why[cap] (a usage error). */
/** "TAG OP VALUE", OP one of = != ~ !~ < <= > >=; VALUE may be in double quotes. */
int select_add_where(struct select *s, const char *expr, char *why, size_t cap);
/** White or Black matches the regex. */
int select_add_player(struct select *s, const char *regex, char *why, size_t cap);
/** The Result tag (without one: the termination marker) is one of a comma list of 1-0,
 * 0-1, 1/2-1/2, *. */
int select_add_result(struct select *s, const char *list, char *why, size_t cap);
/** The final position ends the game so: a comma list of checkmate, stalemate,
 * insufficient, fifty-moves, threefold, none (OR). */
int select_add_ending(struct select *s, const char *list, char *why, size_t cap);
/** MIN:MAX mainline plies, either side may be empty. */
int select_add_plies(struct select *s, const char *range, char *why, size_t cap);
/** The game has a diagnostic of one of these codes (comma list of names). */
int select_add_has(struct select *s, const char *list, char *why, size_t cap);
/** The mainline (with --in-variations: or a variation) reaches this position (board,
 * side, castling, e.p. when a capture is legal; not the clocks). */
int select_add_reaches(struct select *s, const char *fen, char *why, size_t cap);
/** Somewhere on the mainline, one of a comma list of: capture, check (a move gives it),
 * castling, castling-short, castling-long, en-passant, promotion, underpromotion (to R, B
 * or N), fifty-moves (the halfmove clock at 100 or more), threefold (a position there
 * for the third time, as --ending threefold counts) (OR).  Added again: each list
 * must hold (AND). */
int select_add_occurs(struct select *s, const char *list, char *why, size_t cap);
/** A mainline position (the start included; with --in-variations: or a variation's) has
 * this material: a comma list (OR) of
 * WHITEvBLACK in letters K Q R B N P (KRPvKR: exact counts); a side ending in '+' has
 * at least its pieces and any others (KQ+vK+).  Added again: each reached (AND), at a
 * ply of its own. */
int select_add_material(struct select *s, const char *list, char *why, size_t cap);
/** The mainline plays these moves (SAN or UCI, space-separated, move numbers skipped)
 * from its start, or from any ply after a leading "...".  Each is resolved in the game's
 * position: compared as moves, not text.  Given once. */
int select_add_moves(struct select *s, const char *list, char *why, size_t cap);
/** Why --invert alone is refused: the CLI's and the API's one message. */
#define SELECT_INVERT_ALONE                                                                  \
    "--invert needs a criterion to invert (--where, --player, --result, --ending, --plies, " \
    "--has, --reaches, --occurs, --material, --moves)"
/** --in-variations: --reaches and --material also match a position reached in a
 * variation (game_variations.h: after any played move at any depth, the variation
 * starting from the position before the move it replaces).  A --material given more
 * than once may be met by positions of different lines.  The others stay on the
 * mainline: --occurs, --moves, --ending and --plies.  The caller replays the variations
 * and keeps the record's token moves (select_reads_variations). */
void select_set_in_variations(struct select *s, bool on);
/** Whether select_by_facts walks the variations: --in-variations with --reaches or
 * --material. */
bool select_reads_variations(const struct select *s);
/** Why --in-variations alone is refused, and with --no-variations. */
#define SELECT_IN_VARIATIONS_ALONE                                                           \
    "--in-variations makes --reaches and --material look at the variations' positions "     \
    "too: give one of them"
#define SELECT_IN_VARIATIONS_SKIPPED                                                         \
    "--in-variations needs the variations replayed: not with --no-variations"
/** Select the games that do not match instead. */
void select_set_invert(struct select *s, bool invert);
/** Games are classified (game_options.openings): the criteria on ECO and Opening, given
 * before or after, read the classification after the replay instead of the tags (a game
 * the book does not name: its own tag).  Call once all criteria are added. */
void select_use_openings(struct select *s);

/** Whether any criterion was added (--invert alone is none). */
bool select_has_criteria(const struct select *s);

/** Per-thread working storage for s (which must outlive it). */
struct select_scratch *select_scratch_new(const struct select *s);
void select_scratch_free(struct select_scratch *x);

enum select_verdict {
    SELECT_DROP = 0,  /* not selected (decided) */
    SELECT_KEEP,      /* selected (decided) */
    SELECT_REPLAY,    /* the tags pass: replay, then ask select_by_facts */
};

/** The verdict the tags give (--invert applied when they decide). */
enum select_verdict select_by_tags(const struct select *s, struct select_scratch *x,
                                   const struct pgn_game *g);
/** After SELECT_REPLAY: whether rec is selected (--invert applied). */
bool select_by_facts(const struct select *s, struct select_scratch *x,
                     const struct game_record *rec);

/** The value of tag name in g as criteria see it, or NULL when the game has none. */
const struct slice *select_tag_value(const struct pgn_game *g, const char *name);


#endif
