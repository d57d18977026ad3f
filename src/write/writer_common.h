/*
 * writer_common.h - what more than one writer writes the same way, so that each writer
 * file holds only its own writer; never installed.
 *
 * Promises: the pieces here write the same bytes for every writer that uses them --
 * a FEN kept by ranks between plies (fen --every, fen --comments), the fields every
 * per-game JSON object has (uci and fen --format json), a PGN tag pair line (pgn and
 * uci --format pgn), and the key columns of the line-per-game and row-per-ply outputs
 * (uci, fen).  Nothing here chooses a writer: that is the CLI's (cli/work.c).
 */
#ifndef PGNKIT_WRITER_COMMON_H
#define PGNKIT_WRITER_COMMON_H

#include <string.h>

#include "board/fen_internal.h"
#include "write/writer.h"

/* ---- a FEN by ranks, kept between plies ---- */

/* The board field of a FEN by ranks, for the writers that print a FEN every ply with
 * their own replay in standard chess (fen --every, fen --comments): after a move only
 * the ranks it touched are rebuilt, and the fields up to the clocks are kept per side to
 * move while the castling rights stay. */
struct fen_text {
    char rank[8][16];     /* the rank's text and '/' (fen_rank_slash) */
    uint8_t len[8];       /* with the '/' */
    /* " w KQkq - " for White to move, " b KQkq - " for Black: the e.p. square, when
     * written, goes over the "- " (fen_text_write). */
    char side[2][16];
    uint8_t side_len;
    bool castle_fixed;    /* side[] depends on the rights alone (fen_castling_fixed) */
    uint32_t castle_key;  /* the rights side[] was written for */
    unsigned flags;       /* enum fen_flags */
};

/** Every rank of pos, a standard-chess position (no variant). */
void fen_text_init(struct fen_text *t, const struct position *pos, unsigned flags);
/** The castling field of pos into t's side[] (its castling rights changed). */
void fen_text_castling(struct fen_text *t, const struct position *pos);

static inline uint32_t fen_text_castle_key(const struct position *pos)
{
    uint32_t rights;
    memcpy(&rights, pos->castle_rook, sizeof rights);
    return rights;
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
    if (fen_text_castle_key(pos) != t->castle_key || !t->castle_fixed)
        fen_text_castling(t, pos);
}

/** The FEN of pos (whose ranks t holds) up to its clocks into dst, whole 16-byte copies
 * (16 bytes past what it writes), no NUL: the board, then fen_fields_head()'s text, the
 * e.p. square when there is one (ep_legal, as FEN_EP_LEGAL: when position_ep_legal),
 * else '-'.  Returns its length and sets *board_len to the board field's.  The clocks
 * are the caller's: fen --every keeps its fullmove number as text. */
static inline size_t fen_text_write_head(const struct fen_text *t, const struct position *pos,
                                         char *dst, size_t *board_len, bool ep_legal)
{
    size_t n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        memcpy(dst + n, t->rank[rank], 16);
        n += t->len[rank];
    }
    n--; /* no '/' after rank 1 */
    *board_len = n;
    memcpy(dst + n, t->side[pos->side_to_move], 16);
    n += t->side_len;
    int ep = pos->ep_square;
    if (ep != SQ_NONE && (!ep_legal || position_ep_legal(pos))) {
        memcpy(dst + n - 2, uci_square_names[ep], 2); /* in place of "- " */
        dst[n++] = ' ';
    }
    return n;
}

/** The FEN of pos (whose ranks t holds) into dst (FEN_MAX + 16 bytes: whole 16-byte
 * copies), no NUL; returns its length and sets *board_len to the board field's. */
static inline size_t fen_text_write(const struct fen_text *t, const struct position *pos,
                                    char *dst, size_t *board_len)
{
    size_t n = fen_text_write_head(t, pos, dst, board_len, t->flags & FEN_EP_LEGAL);
    n += fen_put_clock(dst + n, pos->halfmove_clock);
    n += fen_put_clock(dst + n, pos->fullmove_number);
    return n - 1; /* not the blank after the fullmove number */
}

/* ---- per-game JSON ---- */

/** The fields every per-game JSON object has: schema (WRITER_JSON_SCHEMA), file, game,
 * status, tags, uci, san, fen,
 * result, diagnostics, and the opening and per-move values o->with asks for (no braces
 * around them, so callers can add their own). */
void writer_game_json_fields(struct buf *out, const struct game_record *rec,
                             const struct writer_options *o);

/* The per-move values of --with (enum writer_extra's first bits, in this order): their
 * names as comment commands ([%clk]), TSV columns and JSON members. */
enum { WRITER_EXTRA_COUNT = 3 };
extern const char *const writer_extra_names[WRITER_EXTRA_COUNT];

/* ---- PGN tags ---- */

/** A PGN tag pair line, [Name "Value"] and a line end, with \ and " escaped. */
void writer_put_tag(struct buf *out, const char *name, size_t name_len, const char *value,
                    size_t len);
/** writer_put_tag() for each of tags[0, count), in their order. */
void writer_put_tags(struct buf *out, const struct pgn_tag *tags, size_t count);

/* ---- the key columns of line-per-game and row-per-ply output ---- */

/** The leading key columns o->with asks for: file TAB, offset TAB. */
void writer_put_key_columns(struct buf *out, const struct pgn_game *g,
                            const struct writer_options *o);
/** Their names for a header row ("file\toffset\t", as asked). */
void writer_put_key_header(struct buf *out, const struct writer_options *o);
/** The game's index, or nothing when it is not known (0): for TSV columns. */
void writer_put_game_index(struct buf *out, const struct pgn_game *g);

/* pgn's tag section of a game (writer_pgn.c: the roster first, as --seven-tags and
 * --no-tags shape it, then a blank line), and the result it writes there, which is also
 * the termination marker: for the games of pgn --split-variations (writer_lines.c). */
struct slice writer_pgn_tag_section(struct buf *out, const struct game_record *rec,
                                    const struct writer_options *o);

#endif
