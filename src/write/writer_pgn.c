/*
 * writer_pgn.c - `pgnkit pgn` and `pgnkit fen --comments`: a replayed game re-emitted in
 * the PGN export format (PGN standard §8), and the --fixes report of what changed.
 *
 * Owns: tag order and escapes, canonical SAN for mainline and variation moves (walked
 * with an explicit stack of positions, never recursion), export move numbers, comments,
 * NAGs, variations, 80-column wrapping, the termination marker.  Does not own replay:
 * it trusts the moves the replay resolved (game_part_first/next: a game of many tokens
 * comes in parts) and only re-plays those moves to know each position.
 *
 * Decisions (also in the man page):
 * - Tags: the Seven Tag Roster first, in order, missing ones filled ("?", Date
 *   "????.??.??"); repeated roster tags keep the first; other tags follow in input
 *   order.  Values escape \ and ".
 * - Result: the Result tag wins when it is a valid result; else the game's termination
 *   marker; else "*".  The Result tag and the marker written are always equal.
 * - Move numbers are recomputed from the board: always before a white move; before a
 *   black move only at the start of a line or after a comment, NAG or variation
 *   (§8.2.2.2: "intervening annotation or commentary").  Input numbers are dropped.
 * - Suffix annotations become NAGs ($1 ! $2 ? $3 !! $4 ?? $5 !? $6 ?!, and the other
 *   glyphs of san_glyph_nag()), as do glyphs written as their own word.
 * - Comments are written "{ words }": whitespace runs become one space, so a comment may
 *   wrap at any space; ';' comments become brace comments; a '}' inside one (the only
 *   place it can occur) becomes ')'.  A line never starts with '%' (an escape line).
 * - A line (mainline or variation) stopped by an error keeps the moves played, then
 *   its unplayable remainder, as written, in one comment
 *   "{ pgnkit: not replayed (CODE): 23. Nxe5 ... }" (inner comments as "< text >"),
 *   so nothing is lost and the output replays cleanly.  A variation that was not
 *   replayed at all (--no-variations) is copied as written.
 * - Shaping (writer_options): --no-comments, --no-nags (suffix annotations too) and
 *   --no-variations leave those out; the "not replayed" comment stays, since it holds
 *   moves.  Added tags (--add-tags) follow the game's own tags, replacing one of the same
 *   name.  --fix-result: a final checkmate or stalemate decides the result written
 *   (a fix[RESULT] line says so when it differs from the tag or marker).
 *   --seven-tags writes only the roster (and added tags), --no-tags no tag section.
 * - A game that could not be set up (bad FEN tag, unsupported variant) is copied as
 *   written (tags ordered as above).  A game skipped without its bytes (over the size
 *   limit) writes nothing: its diagnostic on stderr is all that is left of it.
 * Output is a fixed point: `pgnkit pgn` of its own output is byte-identical.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/ctrl.h"
#include "board/fen.h"
#include "board/polyglot.h"
#include "san/san_resolve.h"
#include "board/uci.h"
#include "write/writer.h"
#include "base/xalloc.h"
#include "base/inline_hints.h"
#include "write/pgn_line.h"
#include "board/position_internal.h"
#include "board/rules.h"
#include "write/writer_common.h"

enum { INLINE_LEVELS = 16 };

/* One line of play (the mainline or an open variation). */
struct pgn_level {
    struct position current;     /* before the line's next move */
    struct position before_last; /* where a sibling variation starts */
    uint32_t ply;                /* plies from the game's start to current */
    bool has_last;
    bool raw;                    /* positions unknown: copy tokens as written */
};

struct pgn_out {
    struct pgn_line line;        /* the output and its column */
    struct buf *fixes;           /* NULL: no --fixes report */
    const struct game_record *rec;
    struct game_part part;       /* the part of the game's tokens being written */
    const struct writer_options *o;
    bool fen_comments;
    bool fen_pending;            /* a mainline move was written; its FEN comment is due */
    bool force_number;           /* the next black move needs "N..." */
    bool remainder;              /* inside a "not replayed" comment */
    size_t remainder_nest;       /* '(' opened inside that comment */
    struct pgn_level *levels;
    size_t depth, cap;
    size_t next_diag;            /* error_at's cursor: diags before it lie before the token */
    uint32_t last_ply;           /* a played mainline move past it ends the movetext (a cut
                                  * record's count; else no limit) */
    struct fen_text fen_text;    /* fen_comments: the mainline position's board field */
    struct pgn_level inline_levels[INLINE_LEVELS];
};

static const char *const roster[7] = {"Event", "Site", "Date", "Round", "White", "Black",
                                      "Result"};

/* A comment, after which a black move needs its number again. */
static inline PGNKIT_HOT void put_comment(struct pgn_out *w, const char *s, size_t len)
{
    pgn_line_comment(&w->line, s, len);
    w->force_number = true;
}

/* move_numbers[black][n]: "n. " (White) or "n... " (Black) for n below 100, zeros after
 * it, its length in byte 7. */
#define MOVE_NUMBER_W(n)                                                                   \
    {(n) < 10 ? '0' + (n) : '0' + (n) / 10, (n) < 10 ? '.' : '0' + (n) % 10,                \
     (n) < 10 ? ' ' : '.', (n) < 10 ? 0 : ' ', 0, 0, 0, (n) < 10 ? 3 : 4}
#define MOVE_NUMBER_B(n)                                                                   \
    {(n) < 10 ? '0' + (n) : '0' + (n) / 10, (n) < 10 ? '.' : '0' + (n) % 10, '.', '.',       \
     (n) < 10 ? ' ' : '.', (n) < 10 ? 0 : ' ', 0, (n) < 10 ? 5 : 6}
#define MOVE_NUMBERS_10(M, t)                                                              \
    M(t * 10 + 0), M(t * 10 + 1), M(t * 10 + 2), M(t * 10 + 3), M(t * 10 + 4),            \
        M(t * 10 + 5), M(t * 10 + 6), M(t * 10 + 7), M(t * 10 + 8), M(t * 10 + 9)
#define MOVE_NUMBERS_100(M)                                                                \
    MOVE_NUMBERS_10(M, 0), MOVE_NUMBERS_10(M, 1), MOVE_NUMBERS_10(M, 2),                   \
        MOVE_NUMBERS_10(M, 3), MOVE_NUMBERS_10(M, 4), MOVE_NUMBERS_10(M, 5),               \
        MOVE_NUMBERS_10(M, 6), MOVE_NUMBERS_10(M, 7), MOVE_NUMBERS_10(M, 8),               \
        MOVE_NUMBERS_10(M, 9)
static const char move_numbers[2][100][8] = {{MOVE_NUMBERS_100(MOVE_NUMBER_W)},
                                             {MOVE_NUMBERS_100(MOVE_NUMBER_B)}};

/* "12. " (white) or "12... " into num (at least 16 bytes, no NUL); returns its length.
 * Once per move in fen --comments (a FEN comment before every black move): one 8-byte
 * copy from a table for numbers below 100, where decimal digits cost ~20 instructions. */
static PGNKIT_NOINLINE size_t put_long_move_number(char *num, uint32_t number, bool white)
{
    size_t len = decimal_put(num, number);
    memcpy(num + len, white ? ". \0\0" : "... ", 4);
    return len + (white ? 2 : 4);
}

static inline PGNKIT_HOT size_t put_move_number(char *num, uint32_t number, bool white)
{
    if (__builtin_expect(number >= 100, 0))
        return put_long_move_number(num, number, white);
    const char *entry = move_numbers[!white][number];
    uint64_t text; /* one load: the length is its byte 7 */
    memcpy(&text, entry, 8);
    memcpy(num, &text, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return (size_t)(text >> 56);
#else
    return (size_t)entry[7];
#endif
}

/* The move after its number when it needs one ("12. e4", "12... e5", "e5"): one word,
 * so a line never ends between a number and its move -- except inside a comment, where
 * a re-read splits at every space, so must this write. */
static void put_numbered(struct pgn_out *w, const struct position *pos, const char *move,
                         size_t len, bool in_comment)
{
    char num[24] = "";
    if (pos->side_to_move == WHITE || w->force_number)
        num[put_move_number(num, pos->fullmove_number, pos->side_to_move == WHITE)] = '\0';
    if (in_comment && num[0]) {
        pgn_line_word(&w->line, "", num, strlen(num) - 1);
        num[0] = '\0';
    }
    pgn_line_word_ex(&w->line, num, move, len, in_comment);
    w->force_number = false;
}

/* put_numbered() of a canonical SAN in its 16-byte buffer (san_write's): number and move
 * put together by fixed-size copies, then written as one short word. */
static void put_numbered_san(struct pgn_out *w, const struct position *pos, const char san[16],
                             size_t len)
{
    char word[48];
    size_t n = 0;
    if (pos->side_to_move == WHITE || w->force_number)
        n = put_move_number(word, pos->fullmove_number, pos->side_to_move == WHITE);
    memcpy(word + n, san, 16);
    pgn_line_short_word(&w->line, word, n + len);
    w->force_number = false;
}

/* "$n" for a glyph's NAG (1-146), a word of its own; snprintf cost ~650 instructions a
 * glyph (Lichess games mark many moves ?! ? ??). */
static void put_nag(struct pgn_out *w, int nag)
{
    char text[24] = "$";
    size_t n = 1 + decimal_put(text + 1, (unsigned)nag);
    pgn_line_plain_word(&w->line, "", 0, text, n);
    w->force_number = true;
}

/* ---- the --fixes report ---- */

static void fix(struct pgn_out *w, const char *kind, uint64_t line, uint64_t col, uint32_t ply,
                const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void fix(struct pgn_out *w, const char *kind, uint64_t line, uint64_t col, uint32_t ply,
                const char *fmt, ...)
{
    if (!w->fixes)
        return;
    const struct pgn_game *g = w->rec->game;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ctrl_put_line(w->fixes, g->file, strlen(g->file));
    buf_printf(w->fixes, ":%llu:%llu: fix[%s]: game ", (unsigned long long)line,
               (unsigned long long)col, kind);
    if (g->index)
        buf_put_u64(w->fixes, g->index);
    else
        buf_printf(w->fixes, "at byte %llu", (unsigned long long)g->offset);
    if (ply)
        buf_printf(w->fixes, ", ply %u", ply);
    buf_puts(w->fixes, ": ");
    ctrl_put_line(w->fixes, msg, strlen(msg));
    buf_putc(w->fixes, '\n');
}

/* ---- tags ---- */

static bool is_result_text(const struct slice *s)
{
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
    for (int i = 0; i < 4; i++)
        if (s->len == strlen(results[i]) && memcmp(s->ptr, results[i], s->len) == 0)
            return true;
    return false;
}

/* The index in roster[] of a tag name, or -1: by its length, then a fixed-size compare
 * or two (every tag of every game asks; a loop of strlen and memcmp over the roster cost
 * ~60 instructions a tag). */
static int roster_index(const struct slice *name)
{
    const char *p = name->ptr;
    switch (name->len) {
    case 4:
        return memcmp(p, "Site", 4) == 0 ? 1 : memcmp(p, "Date", 4) == 0 ? 2 : -1;
    case 5:
        return memcmp(p, "Event", 5) == 0   ? 0
               : memcmp(p, "Round", 5) == 0 ? 3
               : memcmp(p, "White", 5) == 0 ? 4
               : memcmp(p, "Black", 5) == 0 ? 5
                                            : -1;
    case 6:
        return memcmp(p, "Result", 6) == 0 ? 6 : -1;
    default:
        return -1;
    }
}

/* The game's termination marker: the one the replay met, else the game's last token if
 * it is a result (a game not replayed). */
static struct slice result_token(const struct game_record *rec)
{
    return rec->result_token.ptr ? rec->result_token : rec->ending_result;
}

static struct slice result_tag(const struct game_record *rec)
{
    const struct slice *tag = game_tag(rec->game, "Result");
    return tag ? *tag : (struct slice){NULL, 0};
}

/* The result written in the Result tag and as the termination marker. */
static struct slice game_result(const struct game_record *rec)
{
    struct slice tag = result_tag(rec), token = result_token(rec);
    if (tag.ptr && is_result_text(&tag))
        return tag;
    if (token.ptr)
        return token;
    return (struct slice){"*", 1};
}

/* Fixes about the roster: added, repeated, out of order. */
static void note_tag_fixes(struct pgn_out *w)
{
    const struct pgn_game *g = w->rec->game;
    bool seen[7] = {false}, in_order = true;
    int last = -1;
    for (size_t i = 0; i < g->tag_count; i++) {
        int k = roster_index(&g->tags[i].name);
        if (k < 0) {
            last = 7;
            continue;
        }
        if (seen[k])
            fix(w, "TAG_REPEATED", g->tags[i].line, g->tags[i].col, 0,
                "a second %s tag is dropped", roster[k]);
        else if (k < last)
            in_order = false;
        seen[k] = true;
        last = k > last ? k : last;
    }
    char added[64] = "";
    for (int k = 0; k < 7; k++)
        if (!seen[k])
            snprintf(added + strlen(added), sizeof added - strlen(added), "%s%s",
                     added[0] ? ", " : "", roster[k]);
    if (added[0])
        fix(w, "TAG_ADDED", g->line, 1, 0, "missing roster tags added: %s", added);
    if (!in_order)
        fix(w, "TAG_ORDER", g->line, 1, 0, "Seven Tag Roster moved first, in order");
}

/* An added tag's value into value; false to leave it out. */
static bool added_value(const struct pgn_out *w, const char *name, struct buf *value)
{
    const struct game_record *rec = w->rec;
    if (!rec->started)
        return false; /* nothing was replayed */
    if (strcmp(name, "PlyCount") == 0) {
        buf_put_u64(value, rec->mainline_count);
        return true;
    }
    if (strcmp(name, "FinalFEN") == 0) {
        char fen[FEN_MAX];
        buf_append(value, fen, fen_write(&rec->final, fen, sizeof fen, w->o->fen_flags));
        return true;
    }
    if (strcmp(name, "HashCode") == 0) { /* pgn-extract --addhashcode's tag, Polyglot's key */
        buf_printf(value, "%016llx", (unsigned long long)polyglot_key(&rec->final));
        return true;
    }
    if (strcmp(name, "ECO") == 0 || strcmp(name, "Opening") == 0 ||
        strcmp(name, "Variation") == 0 || strcmp(name, "SubVariation") == 0) {
        const struct opening *op = rec->opening;
        const char *v = !op ? NULL : name[0] == 'E' ? op->eco : name[0] == 'O' ? op->name
                                   : name[0] == 'V' ? op->variation : op->subvariation;
        if (!v)
            return false; /* not classified, or no such tag in its line: the game's own stays */
        buf_puts(value, v);
        return true;
    }
    return w->o->tag_value && w->o->tag_value(w->o->tag_value_ctx, rec, name, value);
}

/* Whether the game's own tag of this name gives way to an added one: only when the
 * added one has a value (so an unclassified game keeps its own ECO, as pgn-extract -e
 * does). */
static bool is_replaced(const struct pgn_out *w, const struct slice *name)
{
    const struct writer_options *o = w->o;
    for (size_t k = 0; k < o->add_tag_count; k++) {
        if (name->len != strlen(o->add_tags[k]) || memcmp(name->ptr, o->add_tags[k], name->len))
            continue;
        struct buf value;
        buf_init(&value);
        bool has = added_value(w, o->add_tags[k], &value);
        buf_release(&value);
        return has;
    }
    return false;
}

static void write_added_tags(struct pgn_out *w)
{
    if (!w->o->add_tag_count)
        return;
    struct buf value;
    buf_init(&value);
    for (size_t k = 0; k < w->o->add_tag_count; k++) {
        const char *name = w->o->add_tags[k];
        buf_clear(&value);
        if (added_value(w, name, &value))
            writer_put_tag(w->line.out, name, strlen(name), value.data ? value.data : "",
                           value.len);
    }
    buf_release(&value);
}

static void write_tags(struct pgn_out *w, struct slice result)
{
    const struct pgn_game *g = w->rec->game;
    if (w->o->tag_set == PGN_TAGS_NONE)
        return; /* the movetext alone: nothing about tags to fix either */
    /* Each roster tag's first occurrence (game_tag's answer), in one pass. */
    size_t first[7] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX};
    for (size_t i = 0; i < g->tag_count; i++) {
        int k = roster_index(&g->tags[i].name);
        if (k >= 0 && first[k] == SIZE_MAX)
            first[k] = i;
    }
    for (int k = 0; k < 7; k++) {
        const char *fill = k == 2 ? "????.??.??" : "?";
        struct slice value = k == 6                  ? result
                             : first[k] != SIZE_MAX ? g->tags[first[k]].value
                                                    : (struct slice){fill, strlen(fill)};
        writer_put_tag(w->line.out, roster[k], strlen(roster[k]), value.ptr, value.len);
    }
    for (size_t i = 0; w->o->tag_set == PGN_TAGS_ALL && i < g->tag_count; i++)
        if (roster_index(&g->tags[i].name) < 0 && !is_replaced(w, &g->tags[i].name))
            writer_put_tag(w->line.out, g->tags[i].name.ptr, g->tags[i].name.len,
                           g->tags[i].value.ptr, g->tags[i].value.len);
    write_added_tags(w);
    buf_putc(w->line.out, '\n');
    if (w->fixes)
        note_tag_fixes(w);
}

static void note_result_fixes(struct pgn_out *w, struct slice result)
{
    struct slice tag_value = result_tag(w->rec), token = result_token(w->rec);
    const struct slice *tag = &tag_value, *tok = &token;
    uint64_t line = w->rec->game->line;
    if (tag->ptr && (tag->len != result.len || memcmp(tag->ptr, result.ptr, result.len) != 0))
        fix(w, "RESULT", line, 1, 0, "Result tag \"%.*s\" is not a result: now %.*s",
            (int)tag->len, tag->ptr, (int)result.len, result.ptr);
    if (!tok->ptr)
        fix(w, "RESULT", line, 1, 0, "termination marker %.*s added", (int)result.len,
            result.ptr);
    else if (tok->len != result.len || memcmp(tok->ptr, result.ptr, result.len) != 0)
        fix(w, "RESULT", line, 1, 0, "termination marker %.*s replaced by the Result tag's %.*s",
            (int)tok->len, tok->ptr, (int)result.len, result.ptr);
}

/* ---- levels ---- */

static struct pgn_level *top(struct pgn_out *w) { return &w->levels[w->depth]; }

static void push_level(struct pgn_out *w)
{
    if (w->depth + 1 >= w->cap) {
        size_t cap = w->cap * 2;
        struct pgn_level *grown = xmalloc(cap * sizeof *grown);
        memcpy(grown, w->levels, (w->depth + 1) * sizeof *grown);
        if (w->levels != w->inline_levels)
            free(w->levels);
        w->levels = grown;
        w->cap = cap;
    }
    struct pgn_level *parent = &w->levels[w->depth], *child = &w->levels[w->depth + 1];
    child->raw = parent->raw;
    child->has_last = false;
    if (!parent->raw) {
        child->current = parent->has_last ? parent->before_last : parent->current;
        child->ply = parent->has_last ? parent->ply - 1 : parent->ply;
    }
    w->depth++;
}

/* ---- moves ---- */

/* The blanks of s[0, len), len <= 32, as a mask (bit k: s[k]); s is readable for 32
 * bytes (the output's room). */
static uint64_t fen_blanks(const char *s, size_t len)
{
    uint64_t mask;
#ifdef __SSE2__
    const __m128i blank = _mm_set1_epi8(' ');
    __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
    mask = (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, blank)) |
           (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, blank)) << 16;
#else
    mask = 0;
    for (size_t k = 0; k < 32; k++)
        mask |= (uint64_t)(s[k] == ' ') << k;
#endif
    return mask & (((uint64_t)1 << len) - 1);
}

/*
 * put_comment() of a FEN: "{ ", the FEN's words, " }".  Its words are one blank apart
 * and have nothing to clean, so the FEN is written in place in the output and only the
 * blanks where a line must break become line ends: the same bytes as word by word (a
 * FEN a ply made the word-by-word writing the largest cost of fen --comments).
 */
static inline PGNKIT_HOT void write_fen_comment(struct pgn_out *w)
{
    w->fen_pending = false;
    const struct position *pos = &w->levels[0].current;
    /* fen_text_write writes 16-byte pieces, up to 16 bytes past the FEN; fen_blanks reads
     * 32 bytes from the board's end. */
    char *p = buf_reserve(w->line.out, FEN_MAX + 40);
    size_t at = w->line.column ? 1 : 0; /* p[0]: the separator before "{", if any */
    memcpy(p + at, "{ ", 2);
    char *fen = p + at + 2;
    size_t n, board_len;
    if (pos->variant) {
        n = fen_write(pos, fen, FEN_MAX, w->o->fen_flags);
        board_len = (size_t)((const char *)memchr(fen, ' ', n) - fen); /* pockets too */
    } else {
        n = fen_text_write(&w->fen_text, pos, fen, &board_len);
    }
    memcpy(fen + n, " }", 2);
    size_t column = pgn_line_wrap_first(&w->line, p, at, board_len, n - board_len);
    if (column && n - board_len <= 32 && w->line.width == PGN_LINE_COLUMNS)
        pgn_line_wrap_tail_once(&w->line, column, fen, n, board_len,
                                fen_blanks(fen + board_len, n - board_len));
    else if (column)
        pgn_line_wrap_slow(&w->line, p, at, fen, n);
    w->line.out->len += at + n + 4;
    w->line.out->data[w->line.out->len] = '\0';
    w->force_number = true;
}

/* The FEN comment due, if any (write_usual_run has its own copy of write_fen_comment). */
static void flush_fen(struct pgn_out *w)
{
    if (w->fen_pending)
        write_fen_comment(w);
}

/*
 * The number (when due) and canonical SAN of standard chess's usual move as one word
 * straight into the output, by fixed-size stores: a pawn move, or a piece move to a
 * square no other piece of its kind attacks (no disambiguation, so none of
 * write_disambiguation's legal-move questions).  san_write_marked()'s text for such a
 * move, mark included (tests/test_writer_pgn.c: every legal move of random.perft).
 * False for any other move (castling, null, a rival): nothing written.
 */
static inline PGNKIT_HOT bool put_usual_move(struct pgn_out *w, const struct position *pos, struct move m,
                               char mark)
{
    if (m.flags & (MOVE_NULL | MOVE_CASTLE | MOVE_DROP))
        return false;
    enum piece_type piece = piece_type_of(pos->board[m.from]);
    int us = pos->side_to_move;
    /* The rivals' attack looked for only when there is a rival (a king never has one, a
     * queen seldom, a minor piece or rook often not late in a game). */
    bitboard rivals = position_pieces(pos, (enum color)us, piece) & ~bb_square(m.from);
    if (piece != PAWN && rivals && (att_piece(piece, m.to, position_occupied(pos)) & rivals))
        return false;
    size_t column = w->line.column, at = column ? 1 : 0; /* p[0]: the separator */
    char *p = buf_reserve(w->line.out, 1 + 32), *q = p + at;
    size_t n = 0;
    if (us == WHITE || w->force_number)
        n = put_move_number(q, pos->fullmove_number, us == WHITE);
    if (piece != PAWN) {
        q[n++] = "PNBRQK"[piece];
        if (m.flags & MOVE_CAPTURE)
            q[n++] = 'x';
    } else if (m.flags & MOVE_CAPTURE) {
        q[n++] = (char)('a' + square_file(m.from));
        q[n++] = 'x';
    }
    memcpy(q + n, uci_square_names[m.to], 2);
    n += 2;
    if (m.promo) {
        q[n++] = '=';
        q[n++] = "PNBRQK"[m.promo];
    }
    q[n] = mark; /* '\0' when none */
    n += mark != 0;
    if (at) {
        bool fits = column + 1 + n <= w->line.width;
        p[0] = fits ? ' ' : '\n';
        column = fits ? column + 1 : 0;
    }
    w->line.column = column + n;
    w->line.out->len += at + n;
    w->line.out->data[w->line.out->len] = '\0';
    w->force_number = false;
    return true;
}

/* Standard chess: the move's pieces, then the checks it gives, which the replay found
 * (its mark is '+' or '#' exactly when the move gives check): the king's attackers
 * looked for only then.  pos_do_move found them from the move, for every move. */
static inline PGNKIT_HOT void play_marked(struct position *pos, struct move m, char mark)
{
    pos_move_pieces(pos, m);
    int us = pos->side_to_move;
    pos->checkers = mark ? pos_attackers(pos, pos->king_square[us], us ^ 1,
                                         position_occupied(pos))
                         : 0;
}

/* Inline: write_usual_run() writes nearly every move (its call cost ~30 instructions). */
static inline PGNKIT_HOT void write_played_move(struct pgn_out *w, const struct pgn_token *tok,
                                  const struct game_token_move *tm)
{
    struct pgn_level *lv = top(w);
    struct position *pos = &lv->current;
    bool standard = !pos->variant;
    /* --fixes compares the SAN with the token's: written by san_write_marked. */
    if (w->fixes || !standard || !put_usual_move(w, pos, tm->move, tm->check_mark)) {
        char san[16];
        size_t n = san_write_marked(pos, tm->move, tm->check_mark, san);
        put_numbered_san(w, pos, san, n);
        size_t written = tok->len - tm->suffix_len;
        if (w->fixes && (written != n || memcmp(tok->text, san, n) != 0))
            fix(w, "SAN", pgn_token_line(w->rec->game, tok), tok->col, tm->ply, "%.*s -> %s",
                (int)written, tok->text, san);
    }
    size_t suffix = tm->suffix_len;
    int glyph = suffix ? san_glyph_nag(tok->text + tok->len - suffix, suffix) : 0;
    if (glyph && !w->o->drop_nags)
        put_nag(w, glyph);
    /* Copied every move: looking ahead for a variation that may ask for it cost more
     * than the 160-byte copy. */
    lv->before_last = *pos;
    if (standard)
        play_marked(pos, tm->move, tm->check_mark);
    else
        rules_do_move(pos, tm->move);
    lv->has_last = true;
    lv->ply = tm->ply;
    w->fen_pending = w->fen_comments && w->depth == 0;
    if (w->fen_pending && standard)
        fen_text_update(&w->fen_text, pos, tm->move);
}

/* Whether diagnostic d lies before the token's position (diags are in file order). */
static bool diag_before(const struct diag *d, uint64_t line, const struct pgn_token *tok)
{
    return d->line != line ? d->line < line : d->col < tok->col;
}

/*
 * The error diagnostic at a token's position, or NULL.  Tokens are written in file
 * order and the record's diagnostics are sorted so: a cursor that only moves forward
 * makes all the calls of a game one pass over its diagnostics, not one pass per error.
 */
static const struct diag *error_at(struct pgn_out *w, const struct pgn_token *tok)
{
    const struct diag_list *list = &w->rec->diags;
    uint64_t line = pgn_token_line(w->rec->game, tok);
    while (w->next_diag < list->count && diag_before(&list->items[w->next_diag], line, tok))
        w->next_diag++;
    for (size_t i = w->next_diag; i < list->count; i++) {
        const struct diag *d = &list->items[i];
        if (d->line != line || d->col != tok->col)
            break;
        if (d->severity == DIAG_ERROR)
            return d;
    }
    return NULL;
}

/* A move the replay did not play on a line still alive: the line ends here. */
static void start_unplayed(struct pgn_out *w, const struct pgn_token *tok)
{
    struct pgn_level *lv = top(w);
    const struct diag *d = error_at(w, tok);
    if (!d && w->depth > 0) {
        /* Not replayed at all (--no-variations): copy the variation as written. */
        put_numbered(w, &lv->current, tok->text, tok->len, false);
        lv->raw = true;
        return;
    }
    char head[64];
    snprintf(head, sizeof head, "(%s):", d ? diag_code_name(d->code) : "ERROR");
    pgn_line_word(&w->line, "{ ", "pgnkit:", 7);
    pgn_line_word(&w->line, "", "not", 3);
    pgn_line_word(&w->line, "", "replayed", 8);
    pgn_line_word(&w->line, "", head, strlen(head));
    /* The move number goes inside too, so the comment alone reads as movetext. */
    w->force_number = true;
    put_numbered(w, &lv->current, tok->text, tok->len, true);
    w->remainder = true;
    w->remainder_nest = 0;
    fix(w, "NOT_REPLAYED", pgn_token_line(w->rec->game, tok), tok->col, lv->ply + 1,
        "the line's moves from %.*s on are kept in a comment", (int)tok->len, tok->text);
}

/* A part never starts with the mark of a move in the part before (pgn_reader.h). */
static bool is_ep_mark_after_move(const struct game_part *part, size_t i)
{
    const struct pgn_token *tok = &part->tokens[i];
    bool nonstandard;
    return i > 0 && san_is_ep_mark(tok->text, tok->len, &nonstandard) &&
           part->moves[i - 1].played;
}

/* An annotation glyph written as its own word (game.c read it as a NAG): its NAG. */
static bool write_glyph_word(struct pgn_out *w, const struct pgn_token *tok)
{
    int nag = san_glyph_nag(tok->text, tok->len);
    if (!nag)
        return false;
    put_nag(w, nag);
    return true;
}

static void write_move_token(struct pgn_out *w, size_t i)
{
    const struct pgn_token *tok = &w->part.tokens[i];
    const struct game_token_move *tm = &w->part.moves[i];
    if (top(w)->raw) {
        pgn_line_word(&w->line, "", tok->text, tok->len);
        w->force_number = false;
    } else if (tm->played) {
        write_played_move(w, tok, tm);
    } else if (!is_ep_mark_after_move(&w->part, i) && !write_glyph_word(w, tok)) {
        start_unplayed(w, tok);
    }
}

static void check_move_number(struct pgn_out *w, const struct pgn_token *tok)
{
    if (!w->fixes)
        return; /* only a --fixes report reads the number written */
    const struct position *pos = &top(w)->current;
    unsigned long number = 0;
    size_t k = 0, dots;
    while (k < tok->len && tok->text[k] >= '0' && tok->text[k] <= '9' && number < 100000000)
        number = number * 10 + (unsigned long)(tok->text[k++] - '0');
    dots = tok->len - k;
    if (number != pos->fullmove_number || (dots >= 3 && pos->side_to_move == WHITE))
        fix(w, "MOVE_NUMBER", pgn_token_line(w->rec->game, tok), tok->col, top(w)->ply + 1,
            "%.*s -> %u%s",
            (int)tok->len, tok->text, pos->fullmove_number,
            pos->side_to_move == WHITE ? "." : "...");
}

/* ---- the token walk ---- */

/* Inside a "not replayed" comment: tokens as written, until the line closes. */
static void write_remainder_token(struct pgn_out *w, const struct pgn_token *tok)
{
    switch (tok->kind) {
    case PGN_TOK_COMMENT:
    case PGN_TOK_LINE_COMMENT:
        pgn_line_word(&w->line, "", "<", 1);
        pgn_line_words(&w->line, "", tok->text, tok->len);
        pgn_line_word(&w->line, "", ">", 1);
        return;
    case PGN_TOK_VARIATION_START:
        w->remainder_nest++;
        break;
    case PGN_TOK_VARIATION_END:
        w->remainder_nest--;
        break;
    default:
        break;
    }
    pgn_line_word(&w->line, "", tok->text, tok->len);
}

static bool ends_remainder(const struct pgn_out *w, const struct pgn_token *tok)
{
    if (w->remainder_nest)
        return false;
    return tok->kind == PGN_TOK_VARIATION_END || (tok->kind == PGN_TOK_RESULT && w->depth == 0);
}

static void close_remainder(struct pgn_out *w)
{
    pgn_line_word(&w->line, "", "}", 1);
    w->remainder = false;
    w->force_number = true;
}

/* A comment or a NAG, unless --no-comments / --no-nags drops it; after a NAG the next
 * move is numbered again. */
static inline void write_aside(struct pgn_out *w, const struct pgn_token *tok)
{
    if (tok->kind == PGN_TOK_NAG) {
        if (!w->o->drop_nags) {
            pgn_line_word(&w->line, "", tok->text, tok->len);
            w->force_number = true;
        }
    } else if (!w->o->drop_comments) {
        put_comment(w, tok->text, tok->len);
    }
}

/* One token outside a remainder comment. */
static void write_token(struct pgn_out *w, size_t i)
{
    const struct pgn_token *tok = &w->part.tokens[i];
    if (tok->kind != PGN_TOK_NAG)
        flush_fen(w);
    switch (tok->kind) {
    case PGN_TOK_MOVE:
        write_move_token(w, i);
        return;
    case PGN_TOK_MOVE_NUMBER:
        if (top(w)->raw)
            pgn_line_word(&w->line, "", tok->text, tok->len);
        else
            check_move_number(w, tok);
        return;
    case PGN_TOK_COMMENT:
    case PGN_TOK_LINE_COMMENT:
    case PGN_TOK_NAG:
        write_aside(w, tok);
        return;
    case PGN_TOK_VARIATION_START:
        push_level(w);
        pgn_line_word(&w->line, "", "(", 1);
        break;
    case PGN_TOK_VARIATION_END:
        if (!w->depth)
            return;
        w->depth--;
        pgn_line_word(&w->line, "", ")", 1);
        break;
    case PGN_TOK_RESULT:
        if (!w->depth)
            return; /* the termination marker is written at the end */
        pgn_line_word(&w->line, "", tok->text, tok->len);
        break;
    }
    w->force_number = true;
}

/* --no-variations: whether tok is part of a variation left out; *nest counts the ones
 * open. */
static bool in_dropped_variation(const struct pgn_out *w, const struct pgn_token *tok,
                                 size_t *nest)
{
    if (!w->o->drop_variations)
        return false;
    if (tok->kind == PGN_TOK_VARIATION_START) {
        ++*nest;
        return true;
    }
    if (!*nest)
        return false;
    if (tok->kind == PGN_TOK_VARIATION_END)
        --*nest;
    return true;
}

/*
 * The tokens from i on, while they are the usual ones of a line being written: numbers,
 * played moves, comments and NAGs -- write_token()'s work for them, without its questions
 * about the walk's state, which a run of them does not change (the caller asked them
 * once: not in a "not replayed" comment nor a dropped variation, the line replayed, no
 * --fixes report).  Returns the first token not written.
 */
static size_t write_usual_run(struct pgn_out *w, size_t i)
{
    const struct pgn_token *tokens = w->part.tokens;
    const struct game_token_move *moves = w->part.moves;
    for (size_t count = w->part.count; i < count; i++) {
        const struct pgn_token *tok = &tokens[i];
        unsigned kind = tok->kind;
        if (kind > PGN_TOK_LINE_COMMENT ||
            (kind == PGN_TOK_MOVE && (!moves[i].played || moves[i].ply > w->last_ply)))
            return i; /* write_token()'s, or the cut */
        if (kind != PGN_TOK_NAG && w->fen_pending)
            write_fen_comment(w);
        switch (kind) {
        case PGN_TOK_MOVE:
            write_played_move(w, tok, &moves[i]);
            break;
        case PGN_TOK_MOVE_NUMBER:
            break;
        default: /* a comment or a NAG */
            write_aside(w, tok);
            break;
        }
    }
    return i;
}

/* A cut record (game_record_cut): token i is the first mainline move past the cut. */
static bool at_cut(const struct pgn_out *w, size_t i)
{
    const struct pgn_token *tok = &w->part.tokens[i];
    return tok->kind == PGN_TOK_MOVE && !w->depth && !w->remainder && w->part.moves &&
           w->part.moves[i].played && w->part.moves[i].ply > w->last_ply;
}

static void write_movetext(struct pgn_out *w, struct slice result)
{
    const struct pgn_game *g = w->rec->game;
    size_t dropped_nest = 0;
    bool cut = false;
    for (bool more = game_part_first(w->rec, &w->part); more && !cut;
         more = game_part_next(w->rec, &w->part)) {
        for (size_t i = 0; i < w->part.count; i++) {
            if (!w->remainder && !dropped_nest && !w->fixes && !top(w)->raw &&
                (i = write_usual_run(w, i)) == w->part.count)
                break;
            if (w->rec->cut && !dropped_nest && (cut = at_cut(w, i)))
                break;
            const struct pgn_token *tok = &w->part.tokens[i];
            if (w->remainder && ends_remainder(w, tok))
                close_remainder(w);
            if (w->remainder)
                write_remainder_token(w, tok);
            else if (!in_dropped_variation(w, tok, &dropped_nest))
                write_token(w, i);
        }
    }
    if (w->remainder)
        close_remainder(w);
    flush_fen(w);
    for (; w->depth; w->depth--) {
        pgn_line_word(&w->line, "", ")", 1);
        fix(w, "VARIATION_CLOSED", g->line, 1, 0, "an unterminated variation is closed");
    }
    pgn_line_word(&w->line, "", result.ptr, result.len);
    buf_puts(w->line.out, "\n\n");
}

/* --fix-result: the result a final checkmate or stalemate decides, when the game's
 * (tag or marker) says otherwise.  True when *result was changed (and the fix noted). */
static bool decide_result(struct pgn_out *w, struct slice *result)
{
    const struct game_record *rec = w->rec;
    if (!rec->started || rec->error_ply || rec->end == ENDING_NONE)
        return false;
    int winner;
    rules_ending(&rec->final, &winner);
    const char *want = winner < 0 ? "1/2-1/2" : winner == WHITE ? "1-0" : "0-1";
    struct slice tag = result_tag(rec), token = result_token(rec);
    bool tag_ok = tag.len == strlen(want) && memcmp(tag.ptr, want, tag.len) == 0;
    bool token_ok = token.len == strlen(want) && memcmp(token.ptr, want, token.len) == 0;
    if (tag_ok && token_ok)
        return false;
    fix(w, "RESULT", rec->game->line, 1, 0, "the game ends in %s: result %s (was: tag %.*s, "
        "marker %.*s)", ending_name(rec->end), want,
        (int)(tag.ptr ? tag.len : 4), tag.ptr ? tag.ptr : "none",
        (int)(token.ptr ? token.len : 4), token.ptr ? token.ptr : "none");
    *result = (struct slice){want, strlen(want)};
    return true;
}

void writer_pgn_fixes(struct buf *out, struct buf *fixes, const struct game_record *rec,
                      const struct writer_options *o)
{
    if (rec->game->skipped)
        return;
    /* Not the levels kept inline (5 KB) nor the FEN text: set as they are used (zeroing
     * them cost 8 instructions a ply). */
    struct pgn_out w;
    memset(&w, 0, offsetof(struct pgn_out, fen_text));
    w.line.out = out;
    w.line.width = o->line_width ? o->line_width : PGN_LINE_COLUMNS;
    w.fixes = fixes;
    w.rec = rec;
    w.o = o;
    w.fen_comments = o->fen_mode == FEN_MODE_COMMENTS;
    w.force_number = true;
    w.levels = w.inline_levels;
    w.cap = INLINE_LEVELS;
    w.levels[0].raw = !rec->started;
    w.levels[0].ply = 0;
    w.levels[0].has_last = false;
    if (rec->started) {
        w.levels[0].current = rec->start;
        if (w.fen_comments && !rec->start.variant)
            fen_text_init(&w.fen_text, &rec->start, o->fen_flags);
    }
    struct slice result = game_result(rec);
    w.last_ply = UINT32_MAX;
    if (rec->cut) { /* the game goes on past what is written: no result is known */
        result = (struct slice){"*", 1};
        w.last_ply = (uint32_t)rec->mainline_count;
    }
    bool decided = o->fix_result && decide_result(&w, &result);
    write_tags(&w, result);
    write_movetext(&w, result);
    if (!decided && !rec->cut) /* a cut game's "*" is no normalization */
        note_result_fixes(&w, result);
    if (w.levels != w.inline_levels)
        free(w.levels);
}

struct slice writer_pgn_tag_section(struct buf *out, const struct game_record *rec,
                                    const struct writer_options *o)
{
    struct pgn_out w;
    memset(&w, 0, offsetof(struct pgn_out, fen_text));
    w.line.out = out;
    w.rec = rec;
    w.o = o;
    struct slice result = game_result(rec);
    write_tags(&w, result);
    return result;
}

void writer_pgn(struct buf *out, const struct game_record *rec, const struct writer_options *o)
{
    writer_pgn_fixes(out, NULL, rec, o);
}
