/*
 * writer_fen.c - `pgnkit fen`: the position after the last move (default), after ply N,
 * or after every ply (game<TAB>ply<TAB>FEN, joinable).  --comments is the PGN writer's
 * job (writer_pgn.c) since it re-emits the whole game.
 */
#include <stdio.h>
#include <string.h>

#include "pgnkit/fen.h"
#include "pgnkit/writer.h"
#include "fen_internal.h"
#include "position_internal.h"
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

void fen_text_head(struct fen_text *t, const struct position *pos)
{
    uint64_t key = fen_text_head_key(pos);
    /* The e.p. square changes twice a double push; the castling rights seldom. */
    if ((uint32_t)key != t->castle_key || !t->castle_fixed) {
        t->castle_key = (uint32_t)key;
        t->castle_fixed = fen_castling_fixed(pos, t->flags);
        t->castle_len = (uint8_t)fen_write_castling(pos, t->castling, t->flags);
    }
    t->head_key = key;
    /* --ep legal: the e.p. square is written by the position, not the square alone. */
    t->head_fixed = t->castle_fixed && (pos->ep_square == SQ_NONE || !(t->flags & FEN_EP_LEGAL));
    t->head_len = (uint8_t)fen_fields_head(pos, t->castling, t->castle_len, t->head, t->flags);
}

void fen_text_init(struct fen_text *t, const struct position *pos, unsigned flags)
{
    t->flags = flags;
    t->castle_fixed = false; /* nothing kept yet */
    for (int rank = 0; rank < 8; rank++)
        t->len[rank] = (uint8_t)fen_rank_slash(pos, rank, t->rank[rank]);
    fen_text_head(t, pos);
}

/* The ply number as text and a tab, counted up in place (a division loop per line
 * showed in the profile): digits in t[0..*len), t[*len] = '\t'. */
static void ply_text_next(char *t, size_t *len)
{
    size_t i = *len;
    while (i > 0 && t[i - 1] == '9')
        t[--i] = '0';
    if (i > 0) {
        t[i - 1]++;
        return;
    }
    memmove(t + 1, t, *len);
    t[0] = '1';
    ++*len;
    t[*len] = '\t';
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

/*
 * game<TAB>ply<TAB>FEN per ply.  The line's head ("[file\t][offset\t]index\t") is the
 * same on every line of a game: written once, then copied from the line before; the
 * board's text is rebuilt only on the ranks the move touched.  Every copy is of a fixed
 * size (16 bytes, or the head's length when longer), into room reserved once for a run
 * of lines.
 */
enum { EVERY_RUN = 256 };

static void write_every(struct buf *out, const struct game_record *rec,
                        const struct writer_options *o)
{
    if (rec->start.variant) {
        write_every_variant(out, rec, o);
        return;
    }
    const struct move *moves = rec->mainline;
    size_t count = rec->mainline_count;
    if (!count)
        return;
    struct position pos = rec->start;
    struct fen_text text;
    fen_text_init(&text, &pos, o->fen_flags);
    size_t head_at = out->len;
    writer_put_key_columns(out, rec->game, o);
    writer_put_game_index(out, rec->game);
    buf_putc(out, '\t');
    size_t head_len = out->len - head_at;
    /* A line: the head, the ply and a tab (copied as 16 bytes), a standard FEN (under 100
     * bytes, written by 16-byte copies), the line end. */
    size_t line_room = (head_len < 16 ? 16 : head_len) + 16 + 100 + 32;
    char ply[32] = "0\t"; /* read as 16 bytes: a game has fewer than 10^15 plies */
    size_t ply_len = 1;
    /* Only --ep legal reads the checks (position_ep_legal): else the pieces are moved
     * and the checks the move gives are not looked for. */
    bool checks = o->fen_flags & FEN_EP_LEGAL;
    for (size_t i = 0; i < count;) {
        size_t stop = count - i < EVERY_RUN ? count : i + EVERY_RUN;
        char *line = buf_reserve(out, (stop - i) * line_room);
        const char *head = out->data + head_at; /* the line before's (moved by a realloc) */
        for (; i < stop; i++) {
            struct move m = moves[i];
            if (checks)
                pos_do_move(&pos, m);
            else
                pos_move_pieces(&pos, m);
            fen_text_update(&text, &pos, m);
            ply_text_next(ply, &ply_len);
            size_t n = 0;
            if (i) { /* the first line's head is written */
                /* The line before is longer than 16 bytes: a short head is copied as 16. */
                if (head_len <= 16)
                    memcpy(line, head, 16);
                else
                    memcpy(line, head, head_len);
                head = line;
                n = head_len;
            }
            memcpy(line + n, ply, 16);
            n += ply_len + 1;
            size_t board_len;
            n += fen_text_write(&text, &pos, line + n, &board_len);
            line[n++] = '\n';
            line += n;
        }
        head_at = (size_t)(head - out->data);
        out->len = (size_t)(line - out->data);
        out->data[out->len] = '\0';
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
