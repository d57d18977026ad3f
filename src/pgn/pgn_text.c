/*
 * pgn_text.c - per-game encoding: UTF-8 checked, CP1252/Latin-1 decoded (pgn_text.h).
 *
 * Owns the UTF-8 validator, the CP1252 table and the converted copy of a game.  The
 * check runs on every game, so it starts with an ASCII scan of 8 bytes at a time; only
 * a game with a byte >= 0x80 is validated character by character.
 */
#include "pgn/pgn_text.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpu.h"
#if CPU_HAS_AVX2_PATHS
#include <immintrin.h>
#endif

#include "base/utf8.h"
#include "base/xalloc.h"

/* CP1252's 0x80-0x9F; the five bytes it leaves unassigned stay the C1 controls. */
static const uint16_t cp1252_high[32] = {
    0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
    0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d, 0x017d, 0x008f,
    0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
    0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
};

void pgn_text_init(struct pgn_text *t) { memset(t, 0, sizeof *t); }

void pgn_text_release(struct pgn_text *t)
{
    free(t->tags);
    free(t->tokens);
    free(t->diags);
    free(t->text);
    free(t->part_tokens);
    free(t->part_text);
    memset(t, 0, sizeof *t);
}

bool pgn_text_encoding_by_name(const char *name, enum pgn_encoding *out)
{
    static const struct { const char *name; enum pgn_encoding enc; } names[] = {
        {"auto", PGN_ENCODING_AUTO},     {"utf-8", PGN_ENCODING_UTF8},
        {"utf8", PGN_ENCODING_UTF8},     {"latin1", PGN_ENCODING_LATIN1},
        {"latin-1", PGN_ENCODING_LATIN1}, {"iso-8859-1", PGN_ENCODING_LATIN1},
        {"cp1252", PGN_ENCODING_CP1252}, {"windows-1252", PGN_ENCODING_CP1252},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(name, names[i].name) == 0) {
            *out = names[i].enc;
            return true;
        }
    return false;
}

/* The ASCII scan from i: 8 bytes a step, then byte by byte. */
static size_t ascii_words(const char *p, size_t i, size_t n)
{
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        if (w & 0x8080808080808080ull)
            break;
    }
    while (i < n && (unsigned char)p[i] < 0x80)
        i++;
    return i;
}

#if CPU_HAS_AVX2_PATHS
/* Index of the first byte >= 0x80 in p[0, n), or n.  It runs over every byte of every
 * game: with AVX2, 64 bytes a step (two loads, an OR, one sign-bit test), and the last
 * bytes of the game as one block that overlaps the ones before, not a byte loop. */
CPU_TARGET_AVX2 static size_t ascii_prefix_avx2(const char *p, size_t n)
{
    if (n < 64)
        return ascii_words(p, 0, n);
    for (size_t i = 0;; i += 64) {
        if (i + 64 > n)
            i = n - 64; /* bytes before i are ASCII: re-reading them finds nothing */
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 32));
        unsigned ma = (unsigned)_mm256_movemask_epi8(a);
        if ((ma | (unsigned)_mm256_movemask_epi8(b)) != 0) {
            uint64_t bits = ma | (uint64_t)(unsigned)_mm256_movemask_epi8(b) << 32;
            return i + (size_t)__builtin_ctzll(bits);
        }
        if (i + 64 == n)
            return n;
    }
}
#endif

/* The same by the path of `level` (cpu.h); the baseline is the word loop. */
static size_t ascii_prefix(const char *p, size_t n, enum cpu_level level)
{
#if CPU_HAS_AVX2_PATHS
    if (level >= CPU_AVX2)
        return ascii_prefix_avx2(p, n);
#else
    (void)level;
#endif
    return ascii_words(p, 0, n);
}

/* Index of the first byte of p[0, n) that is no part of a UTF-8 character, or n. */
static size_t first_non_utf8(const char *p, size_t n, enum cpu_level level)
{
    size_t i = ascii_prefix(p, n, level);
    while (i < n) {
        size_t len = utf8_char_len((const unsigned char *)p + i, n - i);
        if (len == 0)
            return i;
        i += len;
        if (len == 1)
            i += ascii_prefix(p + i, n - i, level);
    }
    return n;
}

size_t pgn_text_first_non_utf8_at(const char *p, size_t n, enum cpu_level level)
{
    return first_non_utf8(p, n, level);
}

bool pgn_text_is_utf8(const char *p, size_t n)
{
    return first_non_utf8(p, n, cpu_level()) == n;
}

/* Decode s[0, n) into out (room for 3 bytes per byte).  Returns the bytes written. */
static size_t decode_into(unsigned char *out, const char *s, size_t n, enum pgn_encoding enc)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            out[o++] = c;
            i++;
            continue;
        }
        if (enc == PGN_ENCODING_UTF8) {
            size_t len = utf8_char_len((const unsigned char *)s + i, n - i);
            if (len) {
                memcpy(out + o, s + i, len);
                o += len;
                i += len;
            } else {
                o += utf8_put(out + o, UTF8_REPLACEMENT);
                i++;
            }
            continue;
        }
        uint32_t cp = enc == PGN_ENCODING_CP1252 && c < 0xa0 ? cp1252_high[c - 0x80] : c;
        o += utf8_put(out + o, cp);
        i++;
    }
    return o;
}

/* s[0, n) decoded into t->text (room reserved by the caller): the new slice. */
static struct slice convert(struct pgn_text *t, const char *s, size_t n, enum pgn_encoding enc)
{
    size_t o = decode_into((unsigned char *)t->text + t->text_len, s, n, enc);
    struct slice r = {t->text + t->text_len, o};
    t->text_len += o;
    return r;
}

/* A fixed-size string field (diag message, san) decoded in place, cut at a character. */
static void convert_field(char *field, size_t size, enum pgn_encoding enc)
{
    unsigned char tmp[3 * DIAG_MESSAGE_MAX];
    size_t n = strnlen(field, size);
    if (n > DIAG_MESSAGE_MAX || pgn_text_is_utf8(field, n))
        return;
    size_t len = decode_into(tmp, field, n, enc);
    size_t keep = len < size - 1 ? len : size - 1;
    while (keep > 0 && keep < len && (tmp[keep] & 0xc0) == 0x80)
        keep--; /* never cut a character in two */
    memcpy(field, tmp, keep);
    field[keep] = '\0';
}

static void reserve(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need > *cap)
        xgrow(p, cap, need, elem);
}

/* The tokens toks[0, n) decoded into out (their texts into text, room for 3 bytes per
 * byte).  Returns the bytes written. */
static size_t convert_tokens(struct pgn_token *out, char *text, const struct pgn_token *toks,
                             size_t n, enum pgn_encoding enc)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        out[i] = toks[i];
        size_t len = decode_into((unsigned char *)text + o, toks[i].text, toks[i].len, enc);
        out[i].text = text + o;
        out[i].len = (uint32_t)len;
        o += len;
    }
    return o;
}

static size_t token_bytes(const struct pgn_token *toks, size_t n)
{
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++)
        bytes += toks[i].len;
    return bytes;
}

/* Part k of the copy (pgn_part_source.load): the source game's part k, converted. */
static struct pgn_part load_converted(const struct pgn_part_source *src, size_t k)
{
    struct pgn_text *t =
        (struct pgn_text *)(void *)((char *)(uintptr_t)src - offsetof(struct pgn_text, parts));
    if (k == 0)
        return (struct pgn_part){t->game.tokens, t->game.token_count};
    struct pgn_part in = t->inner->load(t->inner, k);
    reserve((void **)&t->part_text, &t->part_text_cap, 3 * token_bytes(in.tokens, in.count) + 1, 1);
    reserve((void **)&t->part_tokens, &t->part_token_cap, in.count + 1, sizeof *t->part_tokens);
    convert_tokens(t->part_tokens, t->part_text, in.tokens, in.count, t->part_encoding);
    return (struct pgn_part){in.count ? t->part_tokens : NULL, in.count};
}

/* Where byte k of the game's text is: its 1-based line and column. */
static void position_of(const struct pgn_game *g, size_t k, uint64_t *line, uint64_t *col)
{
    uint64_t l = g->line;
    size_t start = 0;
    for (size_t i = 0; i < k; i++) {
        char c = g->text[i];
        if (c == '\n' || (c == '\r' && (i + 1 >= g->bytes || g->text[i + 1] != '\n'))) {
            l++;
            start = i + 1;
        }
    }
    *line = l;
    *col = k - start + 1;
}

/* The first byte of g that enc decodes to a C1 control (U+0080-U+009F), or g->bytes. */
static size_t first_c1(const struct pgn_game *g, enum pgn_encoding enc)
{
    for (size_t i = ascii_prefix(g->text, g->bytes, cpu_level()); i < g->bytes; i++) {
        unsigned char c = (unsigned char)g->text[i];
        if (c >= 0x80 && c < 0xa0 && (enc == PGN_ENCODING_LATIN1 || cp1252_high[c - 0x80] < 0xa0))
            return i;
    }
    return g->bytes;
}

/*
 * A byte decoded to a C1 control is a control character of the game as a UTF-8 one is
 * (ctrl.h): one CONTROL_BYTE per game, at the first.  The reader saw only the bytes, so
 * its own CONTROL_BYTE among diags[0, nd) is moved here when this one comes first.
 * Returns the diagnostics added (0 or 1).
 */
static size_t decoded_control(const struct pgn_game *g, enum pgn_encoding enc,
                              struct diag *diags, size_t nd)
{
    if (enc == PGN_ENCODING_UTF8)
        return 0; /* bytes that are not UTF-8 become U+FFFD, never a control */
    size_t k = first_c1(g, enc);
    if (k == g->bytes)
        return 0;
    uint64_t line, col;
    position_of(g, k, &line, &col);
    unsigned char c = (unsigned char)g->text[k];
    unsigned cp = enc == PGN_ENCODING_LATIN1 ? c : cp1252_high[c - 0x80];
    struct diag *d = NULL;
    for (size_t i = 0; i < nd && !d; i++)
        if (diags[i].code == DIAG_CONTROL_BYTE)
            d = &diags[i];
    if (d && (d->line < line || (d->line == line && d->col < col)))
        return 0;
    diag_set(d ? d : &diags[nd], DIAG_CONTROL_BYTE, line, col,
             "control character U+%04X (byte 0x%02X read as %s; the first of the game); "
             "escaped in text output", cp, c, enc == PGN_ENCODING_LATIN1 ? "Latin-1" : "CP1252");
    return d ? 0 : 1;
}

const struct pgn_game *pgn_text_utf8(struct pgn_text *t, const struct pgn_game *g,
                                     enum pgn_encoding encoding)
{
    if (g->skipped || !g->text || g->ascii)
        return g; /* g->ascii: the reader's pass found no byte to convert */
    size_t bad = encoding == PGN_ENCODING_AUTO || encoding == PGN_ENCODING_UTF8
                     ? first_non_utf8(g->text, g->bytes, cpu_level())
                     : ascii_prefix(g->text, g->bytes, cpu_level());
    if (bad == g->bytes)
        return g;
    enum pgn_encoding enc = encoding == PGN_ENCODING_AUTO ? PGN_ENCODING_CP1252 : encoding;
    bool warn = encoding == PGN_ENCODING_AUTO || encoding == PGN_ENCODING_UTF8;

    /* Every byte becomes at most 3 (U+FFFD, U+20AC), so one reservation covers all. */
    size_t bytes = token_bytes(g->tokens, g->token_count) + g->last_result.len;
    for (size_t i = 0; i < g->tag_count; i++)
        bytes += g->tags[i].name.len + g->tags[i].value.len;
    t->text_len = 0;
    reserve((void **)&t->text, &t->text_cap, 3 * bytes + 1, 1);
    reserve((void **)&t->tags, &t->tag_cap, g->tag_count + 1, sizeof *t->tags);
    reserve((void **)&t->tokens, &t->token_cap, g->token_count + 1, sizeof *t->tokens);
    reserve((void **)&t->diags, &t->diag_cap, g->diags.count + 2, sizeof *t->diags);

    t->game = *g;
    for (size_t i = 0; i < g->tag_count; i++) {
        t->tags[i] = g->tags[i];
        t->tags[i].name = convert(t, g->tags[i].name.ptr, g->tags[i].name.len, enc);
        t->tags[i].value = convert(t, g->tags[i].value.ptr, g->tags[i].value.len, enc);
    }
    t->text_len += convert_tokens(t->tokens, t->text + t->text_len, g->tokens, g->token_count, enc);
    /* Converted as the result token it is, so the two stay equal. */
    if (g->last_result.ptr)
        t->game.last_result = convert(t, g->last_result.ptr, g->last_result.len, enc);
    if (g->parts) {
        t->inner = g->parts;
        t->part_encoding = enc;
        t->parts.load = load_converted;
        t->game.parts = &t->parts;
    }
    size_t nd = 0;
    if (warn) {
        uint64_t line, col;
        position_of(g, bad, &line, &col);
        diag_set(&t->diags[nd++], DIAG_ENCODING, line, col,
                 enc == PGN_ENCODING_UTF8
                     ? "not UTF-8 (byte 0x%02X): such bytes are replaced by U+FFFD"
                     : "not UTF-8 (byte 0x%02X): the game is read as CP1252 (Latin-1)",
                 (unsigned)(unsigned char)g->text[bad]);
    }
    for (size_t i = 0; i < g->diags.count; i++) {
        struct diag *d = &t->diags[nd++];
        *d = g->diags.items[i];
        convert_field(d->message, sizeof d->message, enc);
        convert_field(d->san, sizeof d->san, enc);
    }
    nd += decoded_control(g, enc, t->diags, nd);
    t->game.tags = t->tags;
    t->game.tokens = t->tokens;
    /* The cap and the counts past it stay the source's: only the kept entries moved. */
    t->game.diags = g->diags;
    t->game.diags.items = t->diags;
    t->game.diags.count = nd;
    t->game.diags.cap = t->diag_cap;
    return &t->game;
}
