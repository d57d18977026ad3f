/*
 * writer_common.c - the pieces more than one writer writes the same way (writer_common.h):
 * a FEN kept by ranks, the per-game JSON fields, a PGN tag pair, the key columns.
 */
#include "board/rules.h"
#include "write/writer_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpu.h"
#ifdef __SSSE3__
#include <tmmintrin.h>
#endif
#if CPU_HAS_AVX2_PATHS
#include <immintrin.h>
#endif

#include "base/ctrl.h"
#include "board/uci.h"
#include "game/game_mainline.h"
#include "pgn/comment.h"
#include "san/san_resolve.h"
#include "write/pgn_line.h"

/* ---- a FEN by ranks, kept between plies ---- */

/* The fields after the board up to the clocks for either side to move, with '-' for the
 * e.p. square (" w KQkq - ", " b KQkq - "); returns their length. */
static uint8_t side_fields(char side[2][16], const struct position *pos, unsigned flags)
{
    char castling[4];
    size_t n = fen_write_castling(pos, castling, flags);
    for (int c = 0; c < COLOR_COUNT; c++) {
        memcpy(side[c], c == WHITE ? " w " : " b ", 3);
        memcpy(side[c] + 3, castling, 4);
        memcpy(side[c] + 3 + n, " - ", 3);
    }
    return (uint8_t)(n + 6);
}

void fen_text_castling(struct fen_text *t, const struct position *pos)
{
    t->castle_key = fen_text_castle_key(pos);
    t->castle_fixed = fen_castling_fixed(pos, t->flags);
    t->side_len = side_fields(t->side, pos, t->flags);
}

void fen_text_init(struct fen_text *t, const struct position *pos, unsigned flags)
{
    t->flags = flags;
    for (int rank = 0; rank < 8; rank++)
        t->len[rank] = (uint8_t)fen_rank_slash(pos, rank, t->rank[rank]);
    fen_text_castling(t, pos);
}

/* ---- per-game JSON ---- */

const char *const writer_extra_names[WRITER_EXTRA_COUNT] = {"clk", "eval", "emt"};

static const char *status_name(enum game_status s)
{
    static const char *const names[] = {"ok", "warnings", "errors", "skipped"};
    return names[s];
}

/* The tags object's members: every tag of the game in its order, or with --tags the
 * named ones in the order named, null where the game has none. */
static void put_json_tags(struct buf *out, const struct pgn_game *g,
                          const struct writer_options *o)
{
    for (size_t i = 0; i < (o->tag_count ? o->tag_count : g->tag_count); i++) {
        if (i)
            buf_putc(out, ',');
        if (!o->tag_count) {
            buf_json_string(out, g->tags[i].name.ptr, g->tags[i].name.len);
            buf_putc(out, ':');
            buf_json_string(out, g->tags[i].value.ptr, g->tags[i].value.len);
            continue;
        }
        const struct slice *v = game_tag(g, o->tags[i]);
        buf_json_string(out, o->tags[i], strlen(o->tags[i]));
        buf_putc(out, ':');
        if (v)
            buf_json_string(out, v->ptr, v->len);
        else
            buf_puts(out, "null");
    }
}

/* ,"opening":{"eco":...,"name":...} or ,"opening":null (not classified). */
static void put_json_opening(struct buf *out, const struct opening *op)
{
    buf_puts(out, ",\"opening\":");
    if (!op) {
        buf_puts(out, "null");
        return;
    }
    buf_puts(out, "{\"eco\":");
    buf_json_string(out, op->eco, strlen(op->eco));
    buf_puts(out, ",\"name\":");
    buf_json_string(out, op->name, strlen(op->name));
    /* An ECO file's lines (--eco-file) may name a variation and a sub-variation. */
    if (op->variation) {
        buf_puts(out, ",\"variation\":");
        buf_json_string(out, op->variation, strlen(op->variation));
    }
    if (op->subvariation) {
        buf_puts(out, ",\"subvariation\":");
        buf_json_string(out, op->subvariation, strlen(op->subvariation));
    }
    buf_putc(out, '}');
}

/* --with clk,eval,emt: one array per value, aligned with "uci".  clk and emt are
 * numbers of seconds (60, 59.5), as the library (and the Python module's Move.clock)
 * gives them: the first comment whose [%clk] reads as a clock (comment_parse_clock),
 * else null.  eval stays the text ("0.31", "#-2"): a mate is no number. */

/* The shortest decimal that reads back as x (Python's repr of a float): 59.5, not
 * 59.500000000000000. */
static void put_json_seconds(struct buf *out, double x)
{
    char text[40];
    if (x == (double)(int64_t)x && x < 1e15 && x > -1e15) { /* 60, not 6e+01 */
        buf_printf(out, "%.0f", x);
        return;
    }
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*g", digits, x);
        if (strtod(text, NULL) == x)
            break;
    }
    buf_puts(out, text);
}

/* One element of an array: a string, a number of seconds, or null.  (*first, not a look
 * at the last byte written: the output may have been written out between two parts of a
 * game.) */
static void put_json_extra(struct buf *out, struct slice v, const double *seconds,
                           bool *first)
{
    if (!*first)
        buf_putc(out, ',');
    *first = false;
    if (seconds)
        put_json_seconds(out, *seconds);
    else if (v.ptr)
        buf_json_string(out, v.ptr, v.len);
    else
        buf_puts(out, "null");
}

/* ,"name":[...]: for each mainline move, [%name] from the first of its comments that has
 * one (game_mainline.h), as the TSV rows take it (clk, emt: the first that reads as a
 * clock, as the library takes it), else null.  A value is written as soon as it is
 * found, so nothing is kept from part to part. */
static void put_json_extra_array(struct buf *out, const struct game_record *rec,
                                 const char *name)
{
    buf_printf(out, ",\"%s\":[", name);
    bool clock = strcmp(name, "eval") != 0;
    bool open = false, found = false, first = true;
    struct mainline_walk walk;
    mainline_walk_start(&walk, rec);
    for (enum mainline_step step; (step = mainline_walk_next(&walk)) != MAINLINE_END;) {
        if (step == MAINLINE_MOVE) {
            if (open && !found)
                put_json_extra(out, (struct slice){NULL, 0}, NULL, &first);
            open = true;
            found = false;
        } else if (step == MAINLINE_COMMENT && !found) {
            struct slice v = comment_command(walk.tok->text, walk.tok->len, name);
            double secs;
            if (clock ? comment_parse_clock(v, &secs) : v.ptr != NULL) {
                put_json_extra(out, v, clock ? &secs : NULL, &first);
                found = true;
            }
        }
    }
    if (open && !found)
        put_json_extra(out, (struct slice){NULL, 0}, NULL, &first);
    buf_putc(out, ']');
}

/* ,"clk":[...],"eval":[...] as --with asks. */
static void put_json_extras(struct buf *out, const struct game_record *rec,
                            const struct writer_options *o)
{
    for (int k = 0; k < WRITER_EXTRA_COUNT; k++)
        if (o->with & (1u << k))
            put_json_extra_array(out, rec, writer_extra_names[k]);
}

/* Moves written between two chances for the output to go out (game_record_output_point):
 * a long game's arrays are not held whole. */
enum { JSON_MOVES_RUN = 4096 };

/* The fields every per-game JSON object shares (tags, moves, final FEN, diagnostics). */
void writer_game_json_fields(struct buf *out, const struct game_record *rec,
                             const struct writer_options *o)
{
    const struct pgn_game *g = rec->game;
    buf_printf(out, "\"schema\":%d,\"file\":", WRITER_JSON_SCHEMA);
    buf_json_string(out, g->file, strlen(g->file));
    buf_printf(out, ",\"offset\":%llu,\"game\":", (unsigned long long)g->offset);
    if (g->index)
        buf_put_u64(out, g->index);
    else
        buf_puts(out, "null");
    buf_printf(out, ",\"line\":%llu,\"status\":\"%s\",\"tags\":{", (unsigned long long)g->line,
               status_name(rec->status));
    put_json_tags(out, g, o);
    buf_putc(out, '}');
    if (o->with & WRITER_WITH_OPENING)
        put_json_opening(out, rec->opening);
    buf_puts(out, ",\"uci\":[");
    struct position pos = rec->start;
    for (size_t i = 0; i < rec->mainline_count; i++) {
        char m[8];
        size_t n = uci_write_move(&pos, rec->mainline[i], o->king_takes_rook, m);
        if (i)
            buf_putc(out, ',');
        if (i % JSON_MOVES_RUN == JSON_MOVES_RUN - 1)
            game_record_output_point(rec);
        buf_json_string(out, m, n);
    }
    buf_puts(out, "],\"san\":[");
    for (size_t i = 0; i < rec->mainline_count; i++) {
        char s[16];
        size_t n = san_write(&pos, rec->mainline[i], s);
        if (i)
            buf_putc(out, ',');
        if (i % JSON_MOVES_RUN == JSON_MOVES_RUN - 1)
            game_record_output_point(rec);
        buf_json_string(out, s, n);
        rules_do_move(&pos, rec->mainline[i]);
    }
    buf_putc(out, ']');
    put_json_extras(out, rec, o);
    buf_puts(out, ",\"fen\":");
    if (rec->started) {
        char fen[FEN_MAX];
        size_t n = fen_write(&rec->final, fen, sizeof fen, o->fen_flags);
        buf_json_string(out, fen, n);
    } else {
        buf_puts(out, "null");
    }
    buf_puts(out, ",\"result\":");
    if (rec->result_token.ptr)
        buf_json_string(out, rec->result_token.ptr, rec->result_token.len);
    else
        buf_puts(out, "null");
    buf_puts(out, ",\"diagnostics\":[");
    for (size_t i = 0; i < rec->diags.count; i++) {
        if (i)
            buf_putc(out, ',');
        writer_diag_json(out, g, &rec->diags.items[i]);
    }
    buf_putc(out, ']');
}

/* ---- PGN tags ---- */

/* One reservation per tag, the worst case of every value byte escaped: tags are most of
 * the bytes `uci --format pgn` writes, and a call per byte showed in profiles (11%). */
void writer_put_tag(struct buf *out, const char *name, size_t name_len, const char *value,
                    size_t len)
{
    char *p = buf_reserve(out, name_len + 3 * len + 6);
    size_t n = 0;
    p[n++] = '[';
    pgn_line_copy(p + n, name, name_len); /* fixed-size copies: a memcpy call cost more */
    n += name_len;
    p[n++] = ' ';
    p[n++] = '"';
    /* Nearly every value has nothing to escape: one pass finds that, a table look-up a
     * byte (tag values are short: the 5 tests a byte, vectorized, cost more), and one
     * copy writes it (a test and a store per byte cost 10% of uci --format pgn). */
    static const uint8_t special_byte[256] = {
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, /* C0 controls */
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        ['"'] = 1, ['\\'] = 1, [0x7f] = 1,
        [0xc2] = 1, /* maybe a C1 control */
    };
    const unsigned char *u = (const unsigned char *)value;
    unsigned special = 0;
    for (size_t i = 0; i < len; i++)
        special |= special_byte[u[i]];
    if (!special) {
        pgn_line_copy(p + n, value, len);
        n += len;
    } else {
        for (size_t i = 0; i < len; i++) {
            size_t c = ctrl_len(value, i, len);
            if (c) {
                memcpy(p + n, "\xef\xbf\xbd", 3); /* U+FFFD: never a raw control character */
                n += 3;
                i += c - 1;
                continue;
            }
            if (value[i] == '"' || value[i] == '\\')
                p[n++] = '\\';
            p[n++] = value[i];
        }
    }
    memcpy(p + n, "\"]\n", 3);
    out->len += n + 3;
    out->data[out->len] = '\0';
}

#ifdef __SSSE3__
/*
 * The tag section in one copy.  A usual game's tag pairs lie in the input as their lines
 * are written: name ` "` value `"]\n[` name ... (written tag by tag, a tag cost ~135
 * instructions, a third of them the escape test a byte: ~35 a ply on lichess's 18 tags
 * a game).  tags_laid_out() asks that of the slices' places and of the bytes between them;
 * section_plain() then copies the text from the first name to the last value 16 bytes at
 * a time and tells whether any byte needs writer_put_tag()'s escapes.
 */

/* Whether the tags' names and values lie in one text, each pair's as written
 * (`name "value"` with `"]\n[` before the next name).  The places are compared before
 * the bytes between them are read, so no byte outside the text is read. */
static bool tags_laid_out(const struct pgn_tag *t, size_t count)
{
    for (const struct pgn_tag *last = t + count - 1;; t++) { /* count > 0 */
        const char *name_end = t->name.ptr + t->name.len;
        if (t->value.ptr != name_end + 2 || memcmp(name_end, " \"", 2) != 0)
            return false;
        if (t == last)
            return true;
        const char *value_end = t->value.ptr + t->value.len;
        if (t[1].name.ptr != value_end + 4 || memcmp(value_end, "\"]\n[", 4) != 0)
            return false;
    }
}

/* The class bits of 16 bytes, the AND of a look-up by each nibble: 0x04 for '\n', 0x08
 * for '"' (which only the separators may hold), another nonzero value for a byte that
 * writer_put_tag() escapes or may replace (C0 controls but '\n', '\\', 0x7f, 0xc2), else
 * 0. */
static inline __m128i tag_byte_classes(__m128i x)
{
    const __m128i lo = _mm_setr_epi8(0x03, 0x03, 0x4b, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03,
                                     0x03, 0x06, 0x03, 0x13, 0x03, 0x03, 0x23);
    const __m128i hi = _mm_setr_epi8(0x05, 0x02, 0x08, 0, 0, 0x10, 0, 0x20, 0, 0, 0, 0,
                                     0x40, 0, 0, 0);
    const __m128i nibble = _mm_set1_epi8(0x0f);
    __m128i l = _mm_shuffle_epi8(lo, _mm_and_si128(x, nibble));
    __m128i h = _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16(x, 4), nibble));
    return _mm_and_si128(l, h);
}

/* s[0, len) (len >= 16) to dst; whether it holds no byte to escape and exactly the '"'
 * and '\n' of its separators.  Their classes sum to `weight` (8 a '"', 4 a '\n'); the
 * separators hold that many (tags_laid_out), so any other special byte makes the sum of
 * all classes larger: one sum tells both. */
static bool section_plain(char *dst, const char *s, size_t len, uint64_t weight)
{
    static const uint8_t tail_mask[32] = {[16] = 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                          0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    const __m128i zero = _mm_setzero_si128();
    __m128i sum = zero;
    size_t i = 0;
    for (; i + 16 <= len; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(s + i));
        _mm_storeu_si128((__m128i *)(dst + i), x);
        sum = _mm_add_epi64(sum, _mm_sad_epu8(tag_byte_classes(x), zero));
    }
    if (i < len) { /* the last 16 bytes, the ones summed already masked off */
        __m128i x = _mm_loadu_si128((const __m128i *)(s + len - 16));
        _mm_storeu_si128((__m128i *)(dst + len - 16), x);
        __m128i m = _mm_loadu_si128((const __m128i *)(tail_mask + (len - i)));
        sum = _mm_add_epi64(sum, _mm_sad_epu8(_mm_and_si128(tag_byte_classes(x), m), zero));
    }
    return (uint64_t)_mm_cvtsi128_si64(sum) +
               (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(sum, sum)) ==
           weight;
}

#if CPU_HAS_AVX2_PATHS
/* tag_byte_classes() of 32 bytes. */
CPU_TARGET_AVX2 static inline __m256i tag_byte_classes32(__m256i x)
{
    const __m256i lo = _mm256_setr_epi8(0x03, 0x03, 0x4b, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03,
                                        0x03, 0x06, 0x03, 0x13, 0x03, 0x03, 0x23, 0x03, 0x03,
                                        0x4b, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x06,
                                        0x03, 0x13, 0x03, 0x03, 0x23);
    const __m256i hi = _mm256_setr_epi8(0x05, 0x02, 0x08, 0, 0, 0x10, 0, 0x20, 0, 0, 0, 0,
                                        0x40, 0, 0, 0, 0x05, 0x02, 0x08, 0, 0, 0x10, 0, 0x20,
                                        0, 0, 0, 0, 0x40, 0, 0, 0);
    const __m256i nibble = _mm256_set1_epi8(0x0f);
    __m256i l = _mm256_shuffle_epi8(lo, _mm256_and_si256(x, nibble));
    __m256i h = _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble));
    return _mm256_and_si256(l, h);
}

/* section_plain() 32 bytes a step (len >= 32): half the steps over lichess's ~390 bytes
 * of tags a game. */
CPU_TARGET_AVX2 static bool section_plain_avx2(char *dst, const char *s, size_t len,
                                               uint64_t weight)
{
    static const uint8_t tail_mask[64] = {
        [32] = 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    const __m256i zero = _mm256_setzero_si256();
    __m256i sum = zero;
    size_t i = 0;
    for (; i + 32 <= len; i += 32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
        _mm256_storeu_si256((__m256i *)(void *)(dst + i), x);
        sum = _mm256_add_epi64(sum, _mm256_sad_epu8(tag_byte_classes32(x), zero));
    }
    if (i < len) { /* the last 32 bytes, the ones summed already masked off */
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(s + len - 32));
        _mm256_storeu_si256((__m256i *)(void *)(dst + len - 32), x);
        __m256i m = _mm256_loadu_si256((const __m256i *)(const void *)(tail_mask + (len - i)));
        sum = _mm256_add_epi64(sum, _mm256_sad_epu8(_mm256_and_si256(tag_byte_classes32(x), m),
                                                    zero));
    }
    __m128i s2 = _mm_add_epi64(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    return (uint64_t)_mm_cvtsi128_si64(s2) +
               (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(s2, s2)) ==
           weight;
}
#endif

/* section_plain() by the widest path this CPU runs. */
static bool section_plain_widest(char *dst, const char *s, size_t len, uint64_t weight)
{
#if CPU_HAS_AVX2_PATHS
    if (len >= 32 && cpu_level() >= CPU_AVX2)
        return section_plain_avx2(dst, s, len, weight);
#endif
    return section_plain(dst, s, len, weight);
}

/* The tags' lines in one copy when they lie as written and need no escape. */
static bool put_tags_whole(struct buf *out, const struct pgn_tag *tags, size_t count)
{
    if (!count || !tags_laid_out(tags, count))
        return false;
    const char *s = tags[0].name.ptr;
    size_t len = (size_t)(tags[count - 1].value.ptr + tags[count - 1].value.len - s);
    if (len < 16)
        return false;
    char *p = buf_reserve(out, len + 4);
    p[0] = '[';
    /* Each pair's opening '"', each but the last one's closing '"' and line end. */
    if (!section_plain_widest(p + 1, s, len, 8 * (2 * (uint64_t)count - 1) + 4 * ((uint64_t)count - 1)))
        return false;
    memcpy(p + 1 + len, "\"]\n", 3);
    out->len += len + 4;
    out->data[out->len] = '\0';
    return true;
}
#endif

void writer_put_tags(struct buf *out, const struct pgn_tag *tags, size_t count)
{
#ifdef __SSSE3__
    if (put_tags_whole(out, tags, count))
        return;
#endif
    for (size_t i = 0; i < count; i++)
        writer_put_tag(out, tags[i].name.ptr, tags[i].name.len, tags[i].value.ptr,
                       tags[i].value.len);
}

/* ---- the key columns of line-per-game and row-per-ply output ---- */

void writer_put_key_columns(struct buf *out, const struct pgn_game *g,
                            const struct writer_options *o)
{
    if (o->with & WRITER_WITH_FILE) {
        /* A tab or line end in a file name would break the row: written as a space. */
        ctrl_put_column(out, g->file, strlen(g->file));
        buf_putc(out, '\t');
    }
    if (o->with & WRITER_WITH_OFFSET) {
        buf_put_u64(out, g->offset);
        buf_putc(out, '\t');
    }
}

void writer_put_key_header(struct buf *out, const struct writer_options *o)
{
    if (o->with & WRITER_WITH_FILE)
        buf_puts(out, "file\t");
    if (o->with & WRITER_WITH_OFFSET)
        buf_puts(out, "offset\t");
}

void writer_put_game_index(struct buf *out, const struct pgn_game *g)
{
    if (g->index)
        buf_put_u64(out, g->index);
}
