/*
 * encoding_note.h - one ENCODING note per input file, not one per game.
 *
 * A file written in CP1252 has that byte in many of its games: each game still carries
 * its ENCODING warning (counted, --fail-on warning sees it, --summary's examples show
 * it), but what is printed is one line per file, said when the file ends: the first
 * such game's diagnostic (file:line:col, game) and how many games of the file were
 * read that way.  Games are processed out of order by the pipeline, so the first is
 * found where their outputs meet again in input order (encoding_note_merge).
 */
#ifndef PGNKIT_CLI_ENCODING_NOTE_H
#define PGNKIT_CLI_ENCODING_NOTE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "game/game.h"

struct encoding_note {
    bool set;
    struct diag diag;  /* the first ENCODING diagnostic seen */
    const char *file;  /* its game's file name (the input's, alive while it is read) */
    uint64_t index, offset;
};

/* Keep rec's ENCODING diagnostic when n holds none yet. */
void encoding_note_keep(struct encoding_note *n, const struct game_record *rec);

/* Into an earlier note (to), a later one's: the earlier one stays when set. */
void encoding_note_merge(struct encoding_note *to, const struct encoding_note *from);

/* The note for a file whose games had games ENCODING warnings, into out as check's
 * --format json line (json) or in the compiler form; nothing when none was kept.
 * Clears n for the next file. */
void encoding_note_put(struct encoding_note *n, uint64_t games, bool json, struct buf *out);

#endif
