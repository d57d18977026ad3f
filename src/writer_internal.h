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
    /* The fields up to the clocks (" w KQkq e3 "; the side to move is patched each ply)
     * for the castling rights and e.p. square in head_key. */
    uint64_t head_key;
    bool head_fixed;      /* head[] depends on head_key alone */
    uint8_t head_len;
    char head[16];
    /* The castling field for the rights in castle_key (fixed: for them alone). */
    uint32_t castle_key;
    bool castle_fixed;
    uint8_t castle_len;
    char castling[4];
    unsigned flags;       /* enum fen_flags */
};

/** Every rank of pos, a standard-chess position (no variant). */
void fen_text_init(struct fen_text *t, const struct position *pos, unsigned flags);
/** The fields' head of pos into t (its castling rights or e.p. square changed). */
void fen_text_head(struct fen_text *t, const struct position *pos);

static inline uint64_t fen_text_head_key(const struct position *pos)
{
    uint32_t rights;
    memcpy(&rights, pos->castle_rook, sizeof rights);
    return rights | (uint64_t)pos->ep_square << 32;
}

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
    if (fen_text_head_key(pos) != t->head_key || !t->head_fixed)
        fen_text_head(t, pos);
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
    memcpy(dst + n, t->head, 16);
    dst[n + 1] = "wb"[pos->side_to_move];
    n += t->head_len;
    n += fen_put_clock(dst + n, pos->halfmove_clock);
    n += fen_put_clock(dst + n, pos->fullmove_number);
    return n - 1; /* not the blank after the fullmove number */
}

/** The fields every per-game JSON object has: file, game, status, tags, uci, san, fen,
 * result, diagnostics (no braces around them, so callers can add their own). */
void writer_game_json_fields(struct buf *out, const struct game_record *rec,
                             const struct writer_options *o);

/** A PGN tag pair line, [Name "Value"] and a line end, with \ and " escaped. */
void writer_put_tag(struct buf *out, const char *name, size_t name_len, const char *value,
                    size_t len);

#endif
