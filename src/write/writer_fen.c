/*
 * writer_fen.c - `pgnkit fen`: the position after the last move (default), after ply N,
 * or after every ply (game<TAB>ply<TAB>FEN, joinable); --format epd writes the FENs'
 * first four fields (EPD's position, as pgn-extract -Wepd).  --comments is the PGN writer's
 * job (writer_pgn.c), since it re-emits the whole game: the CLI calls it (writer.h).
 */
#include <stdio.h>
#include <string.h>

#include "board/fen.h"
#include "write/writer.h"
#include "board/fen_internal.h"
#include "base/inline_hints.h"
#include "board/position_internal.h"
#include "board/rules.h"
#include "write/writer_common.h"

/* The length of the FEN's first four fields (EPD's position: board, side, castling, en
 * passant), without the clocks. */
static size_t epd_len(const char *fen, size_t n)
{
    size_t blanks = 0;
    for (size_t i = 0; i < n; i++)
        if (fen[i] == ' ' && ++blanks == 4)
            return i;
    return n;
}

/* The FEN of pos, or its EPD fields (epd). */
static void put_fen_as(struct buf *out, const struct position *pos, unsigned flags, bool epd)
{
    char fen[FEN_MAX];
    size_t n = fen_write(pos, fen, sizeof fen, flags);
    buf_append(out, fen, epd ? epd_len(fen, n) : n);
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
        rules_do_move(pos, rec->mainline[i]);
    return true;
}

/* Lines (or FENs) written between two chances for the output to go out
 * (game_record_output_point). */
enum { EVERY_RUN = 256 };

/* A variant move may change any rank (explosions) and the fields carry pockets or
 * counters: the whole FEN each ply.  --format epd takes this way too (not a hot path). */
static void write_every_plain(struct buf *out, const struct game_record *rec,
                              const struct writer_options *o)
{
    bool epd = o->format == FORMAT_EPD;
    struct position pos = rec->start;
    for (size_t i = 0; i < rec->mainline_count; i++) {
        if (i % EVERY_RUN == EVERY_RUN - 1)
            game_record_output_point(rec);
        rules_do_move(&pos, rec->mainline[i]);
        buf_put_u64(out, rec->game->index);
        buf_putc(out, '\t');
        buf_put_u64(out, i + 1);
        buf_putc(out, '\t');
        put_fen_as(out, &pos, o->fen_flags, epd);
        buf_putc(out, '\n');
    }
}

/*
 * fen --every's text of a standard-chess position, kept between lines: fen_text's (the
 * board by ranks, only the ranks a move touched rebuilt; the fields up to the clocks
 * per side to move, rebuilt when the rights change) and the fullmove number, counted
 * up in place.  The e.p. square and halfmove clock come from tables each line.
 */
struct every_text {
    struct fen_text fen;
    char full[16];         /* the fullmove number and '\n' */
    uint8_t full_len;      /* digits only */
};

static inline PGNKIT_HOT void every_rank(struct every_text *t, const struct position *pos, int rank)
{
    t->fen.len[rank] = (uint8_t)fen_rank_slash(pos, rank, t->fen.rank[rank]);
}

static void every_text_init(struct every_text *t, const struct position *pos, unsigned flags)
{
    fen_text_init(&t->fen, pos, flags);
    t->full_len = (uint8_t)decimal_put(t->full, pos->fullmove_number);
    t->full[t->full_len] = '\n';
}

/* A decimal number as text, counted up by one in place: digits in t[0..*len), then a
 * terminator that moves along when the number grows a digit (a division per line
 * showed in the profile).  t has room for one more digit. */
static inline PGNKIT_HOT void counter_text_next(char *t, uint8_t *len)
{
    size_t i = *len;
    while (i > 0 && t[i - 1] == '9')
        t[--i] = '0';
    if (i > 0) {
        t[i - 1]++;
        return;
    }
    memmove(t + 1, t, *len + 1u);
    t[0] = '1';
    ++*len;
}

/* The squares whose moves take the whole replay (pos_move_board) rather than
 * pos_move_board_plain: a castling rook's and its king's (the rights), and every square
 * while the castling field reads the board (X-FEN). */
static bitboard every_slow_squares(const struct every_text *t, const struct position *pos)
{
    if (!t->fen.castle_fixed)
        return ~(bitboard)0;
    bitboard slow = 0;
    for (int c = 0; c < COLOR_COUNT; c++)
        for (int side = 0; side < 2; side++)
            if (pos->castle_rook[c][side] != SQ_NONE)
                slow |= bb_square(pos->castle_rook[c][side]) | bb_square(pos->king_square[c]);
    return slow;
}

/* The whole replay of m (--ep legal: with the checks), then the castling field when
 * the rights changed and the squares to watch.  Not inline: a castling piece's move, a
 * promotion, an e.p. capture, a null move. */
static void every_move_slow(struct every_text *t, struct position *pos, struct move m,
                            bitboard *slow, unsigned flags)
{
    if (flags & FEN_EP_LEGAL)
        pos_do_move(pos, m);
    else
        pos_move_board(pos, m);
    if (fen_text_castle_key(pos) != t->fen.castle_key || !t->fen.castle_fixed)
        fen_text_castling(&t->fen, pos);
    *slow = flags & FEN_EP_LEGAL ? ~(bitboard)0 : every_slow_squares(t, pos);
}

/* The FEN of pos (whose text t holds) and '\n' into dst; writes whole 16-byte pieces
 * (up to 16 bytes past the line end).  Returns the length with the '\n'. */
static inline PGNKIT_HOT size_t every_text_write(const struct every_text *t, const struct position *pos,
                                   char *dst, bool ep_legal)
{
    size_t board_len;
    size_t n = fen_text_write_head(&t->fen, pos, dst, &board_len, ep_legal);
    n += fen_put_clock(dst + n, pos->halfmove_clock);
    memcpy(dst + n, t->full, 16);
    return n + t->full_len + 1;
}

/* Plays m into pos and t. */
static inline PGNKIT_HOT void every_move(struct every_text *t, struct position *pos, struct move m,
                           bitboard *slow, unsigned flags, bool ep_legal)
{
    int from = m.from, to = m.to, us = pos->side_to_move;
    if (ep_legal || !pos_move_board_plain(pos, m, *slow))
        every_move_slow(t, pos, m, slow, flags);
    if (us == BLACK)
        counter_text_next(t->full, &t->full_len);
    if (m.flags & MOVE_NULL)
        return;
    /* A standard move touches at most two ranks, its origin's and its destination's
     * (e.p. and castling stay on them). */
    int rf = square_rank(from), rt = square_rank(to);
    every_rank(t, pos, rf);
    if (rt != rf)
        every_rank(t, pos, rt);
}

/*
 * game<TAB>ply<TAB>FEN per ply.  The line's head ("[file\t][offset\t]index\t") is the
 * same on every line of a game: written once, then copied.  Every copy is of a fixed
 * size (16 bytes, or the head's length when longer), into room reserved once for a run
 * of lines; after each run the output may go out (game_record_output_point), so the
 * head is kept outside it.  --ep legal asks whether a capture is legal, so that replay
 * keeps the whole position (pos_do_move: bitboards, checks); else only what the FEN
 * shows.
 */
static inline PGNKIT_HOT void write_every_standard(struct buf *out, const struct game_record *rec,
                                     const struct writer_options *o, bool ep_legal)
{
    const struct move *moves = rec->mainline;
    size_t count = rec->mainline_count;
    struct position pos = rec->start;
    unsigned flags = o->fen_flags;
    struct every_text text;
    every_text_init(&text, &pos, flags);
    bitboard slow = ep_legal ? ~(bitboard)0 : every_slow_squares(&text, &pos);
    struct buf long_head;
    buf_init(&long_head);
    writer_put_key_columns(&long_head, rec->game, o);
    writer_put_game_index(&long_head, rec->game);
    buf_putc(&long_head, '\t');
    size_t head_len = long_head.len;
    /* A line: the head, the ply and a tab (copied as 16 bytes), a standard FEN (under 100
     * bytes, written by 16-byte copies), the line end. */
    size_t line_room = (head_len < 16 ? 16 : head_len) + 16 + 100 + 32;
    /* A head of up to 16 bytes and the ply number are kept together and copied as 32
     * bytes (a game has fewer than 10^15 plies); a longer head is copied from long_head,
     * the ply number from ply[]. */
    bool short_head = head_len <= 16;
    char head_ply[64] = "";
    char *ply = short_head ? head_ply + head_len : head_ply;
    if (short_head)
        memcpy(head_ply, long_head.data, head_len);
    memcpy(ply, "0\t", 2);
    uint8_t ply_len = 1;
    for (size_t i = 0; i < count;) {
        size_t stop = count - i < EVERY_RUN ? count : i + EVERY_RUN;
        char *line = buf_reserve(out, (stop - i) * line_room);
        for (; i < stop; i++) {
            every_move(&text, &pos, moves[i], &slow, flags, ep_legal);
            counter_text_next(ply, &ply_len);
            size_t n = head_len + ply_len + 1u;
            if (short_head) {
                memcpy(line, head_ply, 32);
            } else {
                memcpy(line, long_head.data, head_len);
                memcpy(line + head_len, ply, 16);
            }
            n += every_text_write(&text, &pos, line + n, ep_legal);
            line += n;
        }
        out->len = (size_t)(line - out->data);
        out->data[out->len] = '\0';
        game_record_output_point(rec);
    }
    buf_release(&long_head);
}

static void write_every(struct buf *out, const struct game_record *rec,
                        const struct writer_options *o)
{
    if (rec->start.variant || o->format == FORMAT_EPD) {
        write_every_plain(out, rec, o);
        return;
    }
    if (!rec->mainline_count)
        return;
    /* Two copies of the loop, each with its replay. */
    if (o->fen_flags & FEN_EP_LEGAL)
        write_every_standard(out, rec, o, true);
    else
        write_every_standard(out, rec, o, false);
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
            rules_do_move(&pos, rec->mainline[i]);
            if (o->fen_mode == FEN_MODE_PLY && i + 1 != o->fen_ply)
                continue;
            if (o->fen_mode == FEN_MODE_EVERY && i)
                buf_putc(out, ',');
            if (i % EVERY_RUN == EVERY_RUN - 1)
                game_record_output_point(rec);
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
        return; /* writer_pgn()'s (writer.h) */
    case FEN_MODE_PLY:
        /* A game shorter than N plies (or not playable) gets an empty line: lines stay
         * aligned with games. */
        writer_put_key_columns(out, rec->game, o);
        if (position_at(rec, o->fen_ply, &pos))
            put_fen_as(out, &pos, o->fen_flags, o->format == FORMAT_EPD);
        buf_putc(out, '\n');
        return;
    default:
        writer_put_key_columns(out, rec->game, o);
        if (rec->started)
            put_fen_as(out, &rec->final, o->fen_flags, o->format == FORMAT_EPD);
        buf_putc(out, '\n');
        return;
    }
}
