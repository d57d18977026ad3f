/*
 * route.h - where each replayed game goes: written (to the output, or a --split file),
 * set aside (--invalid-to, --duplicates-to) or dropped, and why.  Games in = games
 * written + games dropped, per reason.
 *
 * What a game decides alone (it has errors) is decided where it is processed, on any
 * thread (route_is_invalid, route_set_aside_invalid).  What depends on the games before
 * it (--dedupe) and which file it lands in (--split) is decided by route_settle, called
 * in input order by the thread that flushes: the serial run after each game, the
 * pipeline when it flushes a chunk.  So --jobs N routes every game as --jobs 1 does.
 *
 * Selection (select.h) is decided first, where the game is processed: a game not
 * selected is DROP_NOT_SELECTED and nothing else (no status, plies nor diagnostics
 * counted, nothing written), so the options after it (--skip-invalid, --dedupe, --split)
 * see only the games selected.
 */
#ifndef PGNKIT_CLI_ROUTE_H
#define PGNKIT_CLI_ROUTE_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "dedupe.h"
#include "output.h"
#include "pgnkit/buf.h"
#include "pgnkit/game.h"

enum drop_reason { DROP_INVALID = 0, DROP_DUPLICATE, DROP_NOT_SELECTED, DROP_REASON_COUNT };

/* "invalid", "duplicate", "not selected": the words of the summary; and the keys of
 * --summary-json ("not_selected"). */
extern const char *const drop_reason_names[DROP_REASON_COUNT];
extern const char *const drop_reason_keys[DROP_REASON_COUNT];

/* A game kept so far, waiting in a work_output for route_settle. */
struct routed_game {
    size_t out_start, out_end;   /* what the command wrote for it, in work_output.out */
    const char *raw;             /* its input bytes: valid until it is settled */
    size_t raw_len;
    size_t split_value;          /* --split-by: its tag value in work_output.route_text */
    size_t split_value_len;
    bool has_split_value;
    bool keyed;                  /* key is set: it may be a duplicate */
    struct game_key key;
};

struct work_output;
struct split;

/* The run's one router: the dedupe set and the extra files, used in input order only. */
struct router {
    const struct config *cfg;
    struct output *out;          /* the main output (-o or standard output) */
    struct output invalid;       /* --invalid-to */
    struct output duplicates;    /* --duplicates-to */
    struct game_key_set seen;
    struct split *split;         /* --split / --split-by, or NULL */
    struct buf scratch;
};

/* Open the files the options name.  0, or -1 after printing why. */
int router_open(struct router *r, const struct config *cfg, struct output *out);
/* Rename every file into place (ok) or remove them all (!ok).  0, or -1 on a failure. */
int router_finish(struct router *r, bool ok);

/* The game has errors and the options set such games aside (--skip-invalid,
 * --invalid-to). */
bool route_is_invalid(const struct config *cfg, const struct game_record *rec);
/* Count it dropped for that reason; for DROP_INVALID with --invalid-to, append its
 * original bytes to o->invalid after a ';' comment line per diagnostic.  rec may be NULL
 * for DROP_NOT_SELECTED (a game rejected by its tags is never replayed). */
void route_drop(const struct config *cfg, struct work_output *o, const struct game_record *rec,
                enum drop_reason why);
/* The game is kept; the command wrote it to o->out from out_start on. */
void route_keep(const struct config *cfg, struct work_output *o, const struct game_record *rec,
                size_t out_start);

/* Decide, in input order, the games o holds (duplicates, split files), leaving in o->out
 * only what goes to the main output.  0, or -1 on a write error. */
int route_settle(struct router *r, struct work_output *o);

/* Whether route_settle has work: with neither --dedupe nor --split it has none. */
bool route_defers(const struct config *cfg);

#endif
