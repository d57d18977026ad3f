/* writer_internal.h - what the writers share among themselves; never installed. */
#ifndef PGNKIT_WRITER_INTERNAL_H
#define PGNKIT_WRITER_INTERNAL_H

#include "pgnkit/writer.h"

/* The board field of a FEN by ranks, for the writers that print a FEN every ply
 * (fen --every, fen --comments): after a move only the ranks it touched are rebuilt. */
struct fen_text {
    char rank[8][16]; /* 16: Crazyhouse's '~' marks */
    uint8_t len[8];
};

/** Every rank of pos. */
void fen_text_init(struct fen_text *t, const struct position *pos);
/** After m was played: pos is the position after it.  A variant's move (an explosion)
 * may touch any rank: all are rebuilt then. */
void fen_text_update(struct fen_text *t, const struct position *pos, struct move m);
/** The FEN of pos (whose ranks t holds) into dst, FEN_MAX bytes, no NUL; returns its
 * length and sets *board_len to the board field's (Crazyhouse's pockets follow it). */
size_t fen_text_write(const struct fen_text *t, const struct position *pos, unsigned flags,
                      char *dst, size_t *board_len);

/** The fields every per-game JSON object has: file, game, status, tags, uci, san, fen,
 * result, diagnostics (no braces around them, so callers can add their own). */
void writer_game_json_fields(struct buf *out, const struct game_record *rec,
                             const struct writer_options *o);

/** A PGN tag pair line, [Name "Value"] and a line end, with \ and " escaped. */
void writer_put_tag(struct buf *out, const char *name, size_t name_len, const char *value,
                    size_t len);

#endif
