/* writer_internal.h - what the writers share among themselves; never installed. */
#ifndef PGNKIT_WRITER_INTERNAL_H
#define PGNKIT_WRITER_INTERNAL_H

#include "pgnkit/writer.h"

/** The fields every per-game JSON object has: file, game, status, tags, uci, san, fen,
 * result, diagnostics (no braces around them, so callers can add their own). */
void writer_game_json_fields(struct buf *out, const struct game_record *rec,
                             const struct writer_options *o);

/** A PGN tag pair line, [Name "Value"] and a line end, with \ and " escaped. */
void writer_put_tag(struct buf *out, const char *name, size_t name_len, const char *value,
                    size_t len);

#endif
