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

#include "cli/config.h"
#include "game/game_key.h"
#include "cli/output.h"
#include "cli/summary.h"
#include "base/buf.h"
#include "game/game.h"

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

/* What routing keeps of one batch of games (a work_output's) until route_settle. */
struct route_queue {
    struct buf invalid;           /* --invalid-to bytes */
    struct routed_game *routed;   /* games kept, for route_settle */
    size_t routed_count, routed_cap;
    struct buf route_text;        /* their --split-by values */
};
void route_queue_init(struct route_queue *q);
void route_queue_release(struct route_queue *q);

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
/* Count it dropped for that reason in stats; for DROP_INVALID with --invalid-to, append
 * its original bytes to q->invalid after a ';' comment line per diagnostic.  rec may be
 * NULL for DROP_NOT_SELECTED (a game rejected by its tags is never replayed). */
void route_drop(const struct config *cfg, struct route_queue *q, struct run_stats *stats,
                const struct game_record *rec, enum drop_reason why);
/* The game is kept; the command wrote it to the batch's output at [out_start, out_end). */
void route_keep(const struct config *cfg, struct route_queue *q, struct run_stats *stats,
                const struct game_record *rec, size_t out_start, size_t out_end);

/* Decide, in input order, the games q holds (duplicates, split files), leaving in out
 * (the batch's output, where route_keep's offsets point) only what goes to the main
 * output; counts in stats.  0, or -1 on a write error. */
int route_settle(struct router *r, struct route_queue *q, struct buf *out,
                 struct run_stats *stats);

/* Whether route_settle has work: with neither --dedupe nor --split it has none. */
bool route_defers(const struct config *cfg);

#endif
