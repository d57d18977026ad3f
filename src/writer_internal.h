/* writer_internal.h - what the writers share among themselves; never installed. */
#ifndef PGNKIT_WRITER_INTERNAL_H
#define PGNKIT_WRITER_INTERNAL_H

#include <string.h>

#include "fen_internal.h"
#include "pgnkit/writer.h"

/* The board field of a FEN by ranks, for the writers that print a FEN every ply
 * (fen --every, fen --comments) in standard chess: after a move only the ranks it
 * touched are rebuilt, and the castling field is kept while the rights stay. */
struct fen_text {
    char rank[8][16];     /* the rank's text and '/' (fen_rank_slash) */
    uint8_t len[8];       /* with the '/' */
    uint32_t castle_key;  /* the castle_rook bytes castling[] was written for */
    bool castle_fixed;    /* castling[] depends on castle_key alone (fen_castling_fixed) */
    uint8_t castle_len;
    char castling[4];
    unsigned flags;       /* enum fen_flags */
};

/** Every rank of pos, a standard-chess position (no variant). */
void fen_text_init(struct fen_text *t, const struct position *pos, unsigned flags);
/** The castling field of pos into t (the rights changed). */
void fen_text_castling(struct fen_text *t, const struct position *pos);

/** After m was played: pos is the position after it.  A standard move touches at most
 * two ranks, its origin's and its destination's (en passant and castling stay on them).
 * Inline, as fen_text_write: both run every ply. */
static inline void fen_text_update(struct fen_text *t, const struct position *pos, struct move m)
{
    if (!(m.flags & MOVE_NULL)) {
        int from = square_rank(m.from), to = square_rank(m.to);
        t->len[from] = (uint8_t)fen_rank_slash(pos, from, t->rank[from]);
        if (to != from)
            t->len[to] = (uint8_t)fen_rank_slash(pos, to, t->rank[to]);
    }
    uint32_t rights;
    memcpy(&rights, pos->castle_rook, sizeof rights);
    if (rights != t->castle_key || !t->castle_fixed)
        fen_text_castling(t, pos);
}

/** The FEN of pos (whose ranks t holds) into dst (FEN_MAX + 16 bytes: whole 16-byte
 * copies), no NUL; returns its length and sets *board_len to the board field's. */
static inline size_t fen_text_write(const struct fen_text *t, const struct position *pos,
                                    char *dst, size_t *board_len)
{
    size_t n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        memcpy(dst + n, t->rank[rank], 16);
        n += t->len[rank];
    }
    n--; /* no '/' after rank 1 */
    *board_len = n;
    return n + fen_fields_standard(pos, t->castling, t->castle_len, dst + n, t->flags);
}

/** The fields every per-game JSON object has: file, game, status, tags, uci, san, fen,
 * result, diagnostics (no braces around them, so callers can add their own). */
void writer_game_json_fields(struct buf *out, const struct game_record *rec,
                             const struct writer_options *o);

/** A PGN tag pair line, [Name "Value"] and a line end, with \ and " escaped. */
void writer_put_tag(struct buf *out, const char *name, size_t name_len, const char *value,
                    size_t len);

#endif
