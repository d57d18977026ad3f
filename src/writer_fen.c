/*
 * writer_fen.c - `pgnkit fen`: the position after the last move (default), after ply N,
 * or after every ply (game<TAB>ply<TAB>FEN, joinable).  --comments is the PGN writer's
 * job (writer_pgn.c) since it re-emits the whole game.
 */
#include <stdio.h>
#include <string.h>

#include "pgnkit/fen.h"
#include "pgnkit/writer.h"
#include "writer_internal.h"

static void put_fen(struct buf *out, const struct position *pos, unsigned flags)
{
    char *p = buf_reserve(out, 128);
    out->len += fen_write(pos, p, 128, flags);
    out->data[out->len] = '\0';
}

/* The position after ply `ply` of the mainline (0 = start); false if the game is shorter. */
static bool position_at(const struct game_record *rec, uint32_t ply, struct position *pos)
{
    if (!rec->started || ply > rec->mainline_count)
        return false;
    if (ply == rec->mainline_count) {
        *pos = rec->final;
        return true;
    }
    *pos = rec->start;
    for (uint32_t i = 0; i < ply; i++)
        position_do_move(pos, rec->mainline[i]);
    return true;
}

/* The board field by ranks, rebuilt only where a move changed something: a move touches
 * at most two ranks (its origin and destination; en passant and castling stay on them). */
struct board_text {
    char rank[8][8];
    uint8_t len[8];
};

static void board_text_rank(struct board_text *t, const struct position *pos, int rank)
{
    t->len[rank] = (uint8_t)fen_write_rank(pos, rank, t->rank[rank]);
}

static void put_board_text(struct buf *out, const struct board_text *t,
                           const struct position *pos, unsigned flags)
{
    char *p = buf_reserve(out, FEN_MAX);
    size_t n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        memcpy(p + n, t->rank[rank], 8);
        n += t->len[rank];
        p[n++] = rank ? '/' : ' ';
    }
    n--; /* fen_write_fields brings its own leading space */
    n += fen_write_fields(pos, p + n, flags);
    out->len += n;
    out->data[out->len] = '\0';
}

/* A variant move may change any rank (explosions) and the fields carry pockets or
 * counters: the whole FEN each ply. */
static void write_every_variant(struct buf *out, const struct game_record *rec,
                                const struct writer_options *o)
{
    struct position pos = rec->start;
    for (size_t i = 0; i < rec->mainline_count; i++) {
        position_do_move(&pos, rec->mainline[i]);
        buf_put_u64(out, rec->game->index);
        buf_putc(out, '\t');
        buf_put_u64(out, i + 1);
        buf_putc(out, '\t');
        char fen[FEN_MAX];
        size_t n = fen_write(&pos, fen, sizeof fen, o->fen_flags);
        buf_append(out, fen, n);
        buf_putc(out, '\n');
    }
}

static void write_every(struct buf *out, const struct game_record *rec,
                        const struct writer_options *o)
{
    if (rec->start.variant) {
        write_every_variant(out, rec, o);
        return;
    }
    struct position pos = rec->start;
    struct board_text text;
    for (int rank = 0; rank < 8; rank++)
        board_text_rank(&text, &pos, rank);
    for (size_t i = 0; i < rec->mainline_count; i++) {
        struct move m = rec->mainline[i];
        position_do_move(&pos, m);
        if (!(m.flags & MOVE_NULL)) {
            board_text_rank(&text, &pos, square_rank(m.from));
            board_text_rank(&text, &pos, square_rank(m.to));
        }
        writer_put_key_columns(out, rec->game, o);
        writer_put_game_index(out, rec->game);
        buf_putc(out, '\t');
        buf_put_u64(out, i + 1);
        buf_putc(out, '\t');
        put_board_text(out, &text, &pos, o->fen_flags);
        buf_putc(out, '\n');
    }
}

static void write_json(struct buf *out, const struct game_record *rec,
                       const struct writer_options *o)
{
    buf_putc(out, '{');
    writer_game_json_fields(out, rec, o);
    if (o->fen_mode == FEN_MODE_EVERY || o->fen_mode == FEN_MODE_PLY) {
        buf_puts(out, ",\"fens\":[");
        struct position pos = rec->start;
        for (size_t i = 0; rec->started && i < rec->mainline_count; i++) {
            position_do_move(&pos, rec->mainline[i]);
            if (o->fen_mode == FEN_MODE_PLY && i + 1 != o->fen_ply)
                continue;
            if (o->fen_mode == FEN_MODE_EVERY && i)
                buf_putc(out, ',');
            char fen[FEN_MAX];
            size_t n = fen_write(&pos, fen, sizeof fen, o->fen_flags);
            buf_json_string(out, fen, n);
        }
        buf_putc(out, ']');
    }
    buf_puts(out, "}\n");
}

void writer_fen(struct buf *out, const struct game_record *rec, const struct writer_options *o)
{
    struct position pos;
    if (o->format == FORMAT_JSON) {
        write_json(out, rec, o);
        return;
    }
    switch (o->fen_mode) {
    case FEN_MODE_EVERY:
        write_every(out, rec, o);
        return;
    case FEN_MODE_COMMENTS:
        writer_pgn(out, rec, o);
        return;
    case FEN_MODE_PLY:
        /* A game shorter than N plies (or not playable) gets an empty line: lines stay
         * aligned with games. */
        writer_put_key_columns(out, rec->game, o);
        if (position_at(rec, o->fen_ply, &pos))
            put_fen(out, &pos, o->fen_flags);
        buf_putc(out, '\n');
        return;
    default:
        writer_put_key_columns(out, rec->game, o);
        if (rec->started)
            put_fen(out, &rec->final, o->fen_flags);
        buf_putc(out, '\n');
        return;
    }
}
