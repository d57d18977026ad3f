/*
 * pgn_reader.c - the streaming PGN reader's game splitter and its public API
 * (include/pgnkit/pgn_reader.h).
 *
 * Owns the game-boundary rules of SPEC §2 (a result at depth 0, a tag section after
 * movetext, a tag pair after a blank line that repeats a name or follows a broken value,
 * a comment that never closes before a tag line), the per-game limits (a game over
 * max_game_bytes or max_game_tokens is read to its end and reported, nothing kept), the
 * stop of a restarted reader (pgn_reader_restart), and the game handed out.  The bytes
 * become tokens in pgn_lexer.c, tag pairs in pgn_tags.c; reader_buffer.c owns the input.
 * It does not know chess: move tokens are passed on as text; san.c parses them.  No
 * recursion anywhere.
 */
#include "pgn_reader_internal.h"

#include <stdlib.h>
#include <string.h>

#include "pgnkit/ctrl.h"
#include "pgnkit/xalloc.h"

#define DEFAULT_MAX_GAME_BYTES ((size_t)64 << 20)
#define DEFAULT_MAX_TOKEN_BYTES ((size_t)255)
#define DEFAULT_MAX_COMMENT_BYTES ((size_t)32 << 20)
#define DEFAULT_MAX_DEPTH 1024u
#define DEFAULT_MAX_DIAGNOSTICS ((size_t)1000)
#define DEFAULT_MAX_GAME_TOKENS ((size_t)2 << 20)


static void begin_game(struct pgn_reader *r, size_t i)
{
    r->started = true;
    r->game_start = i;
    r->game_off = r->base_off + i;
    r->game_line = r->line;
    r->game_col = col_at(r, i);
}

static void reset_game(struct pgn_reader *r)
{
    r->started = false;
    r->skipping = false;
    r->too_many_tokens = false;
    r->has_result = false;
    r->ctrl_reported = false;
    r->deep_reported = false;
    r->reserved_reported = false;
    r->unbraced_reported = false;
    r->bad_string = false;
    r->phase = PHASE_BEFORE;
    r->depth = 0;
    r->ntok = r->tok0 = r->kept;
    r->ntag = 0;
    name_set_clear(&r->names);
    r->tags_in_set = 0;
    r->scratch_len = 0;
    diag_list_clear(&r->diags);
}

/*
 * Tokenize one game from r->pos.  Returns 1 when a game ended (end kind in *end), 0 when
 * the input ended before any game, -1 on an I/O error.
 *
 * Longer than the house limit on purpose: this is the per-byte loop, one switch over the
 * character class, and its locals (data pointer, length, index) must stay in registers;
 * the rare cases (comments, tags, limits, refills) are calls out of it.
 */
static int scan_game(struct pgn_reader *r, enum game_end *end)
{
    const char *d = r->data;
    size_t i = r->pos, n = r->len;
    const size_t max_tok = r->lim.max_token_bytes;
    uint64_t eols = 0; /* r->eols as it was before the token at i */
    for (;;) {
        if (i >= n) {
            if (r->eof) {
                *end = END_EOF;
                break;
            }
            eols = 0;
        refill:
            /* The token at i is scanned again: give back its line-end count. */
            r->eols += eols;
            eols = 0;
            /* Read until the bytes of the construct at i at least double: rescanning it
             * after every short read (64 KiB from a pipe) would be quadratic. */
            size_t pending = n - i;
            int st;
            do {
                r->pos = i;
                st = reader_fill(r, i);
                d = r->data;
                n = r->len;
                i = r->pos;
            } while (st > 0 && n - i < 2 * pending);
            if (st < 0)
                return -1;
            continue;
        }
        unsigned cl = cls(d[i]);
        if (r->started &&
            (cl == CC_OTHER || cl == CC_DIGIT || cl == CC_LBRACE || cl == CC_LBRACKET) &&
            tokens_kept(r)) {
            /* Most of a game's bytes; what scan_fast() leaves is handled below. */
            i = scan_fast(r, i);
            if (i >= n)
                continue;
            cl = cls(d[i]);
        }
        if (cl == CC_OTHER && (unsigned char)d[i] == 0xef) {
            /* A byte-order mark where a token would start (two BOM files concatenated):
             * whitespace, so a game boundary stays one. */
            if (n - i < 3 && !r->eof) {
                eols = 0;
                goto refill;
            }
            if (n - i >= 3 && memcmp(d + i, "\xef\xbb\xbf", 3) == 0) {
                i += 3;
                continue;
            }
        }
        if (cl == CC_OTHER && r->started) {
            eols = r->eols;
            r->eols = 0;
            goto move_token; /* the common case first */
        }
        /* Whitespace and control bytes (CC_SPACE .. CC_CTRL): one range test keeps them
         * off the path of the tokens. */
        if (cl - CC_SPACE <= CC_CTRL - CC_SPACE) {
            if (cl == CC_SPACE) {
                i++;
                continue;
            }
            if (cl == CC_LF) {
                i++;
                r->eols++;
                r->line++;
                r->ls = (ptrdiff_t)i;
                continue;
            }
            if (cl == CC_CR) {
                if (i + 1 >= n && !r->eof) {
                    eols = 0; /* no token is pending */
                    goto refill;
                }
                i += (i + 1 < n && d[i + 1] == '\n') ? 2 : 1;
                r->eols++;
                r->line++;
                r->ls = (ptrdiff_t)i;
                continue;
            }
            if (cl == CC_CTRL) {
                if (!r->ctrl_reported) {
                    r->ctrl_reported = true;
                    add_diag(r, DIAG_CONTROL_BYTE, r->line, col_at(r, i),
                             "control byte 0x%02x; read as a space", (unsigned char)d[i]);
                }
                i++;
                continue;
            }
        }
        /* Line ends since the last thing that was not whitespace: 2 = a blank line. */
        eols = r->eols;
        r->eols = 0;
        if (cl == CC_PERCENT && (ptrdiff_t)i == r->ls) {
            /* An escape line (PGN standard 6): ignored whole. */
            r->pos = i;
            i = skip_line(r, i);
            if (i == SIZE_MAX)
                return -1;
            d = r->data;
            n = r->len;
            continue;
        }
        if (!r->started) {
            if (i >= r->stop_at) {
                /* The next piece's first game (pgn_reader_restart): this piece ends.  A
                 * diagnostic waiting here (a control byte between games) belongs to that
                 * game, which the next piece's reader will not see. */
                if (r->diags.count)
                    r->stop_crossed = true;
                *end = END_EOF;
                break;
            }
            begin_game(r, i);
        }
        if (cl == CC_OTHER) {
        move_token:;
            size_t j = i + 1;
            while (j < n && !is_delim(d[j]))
                j++;
            if (j - i > max_tok)
                goto too_long;
            if (j == n && !r->eof)
                goto refill;
            r->phase = PHASE_MOVETEXT;
            if ((unsigned char)d[i] == 0xc2 && is_result(d + i, j - i)) {
                emit(r, d + i, j - i, r->line, col_at(r, i), PGN_TOK_RESULT);
                if (r->depth == 0) {
                    r->has_result = true;
                    i = j;
                    *end = END_RESULT;
                    goto done;
                }
            } else {
                emit(r, d + i, j - i, r->line, col_at(r, i), PGN_TOK_MOVE);
            }
            i = j;
            if (i < n && d[i] == ' ')
                i++;
            continue;
        }
        uint64_t line = r->line, col = col_at(r, i);
        switch (cl) {
        case CC_DIGIT: {
            size_t k = i + 1;
            while (k < n && cls(d[k]) == CC_DIGIT)
                k++;
            if (k < n && d[k] == '.') {
                while (k < n && d[k] == '.')
                    k++;
                if (k - i > max_tok)
                    goto too_long;
                if (k == n && !r->eof)
                    goto refill;
                emit(r, d + i, k - i, line, col, PGN_TOK_MOVE_NUMBER);
                r->phase = PHASE_MOVETEXT;
                i = k;
                if (i < n && d[i] == ' ')
                    i++;
                continue;
            }
            size_t j = k;
            while (j < n && !is_delim(d[j]))
                j++;
            if (j - i > max_tok)
                goto too_long;
            if (j == n && !r->eof)
                goto refill;
            r->phase = PHASE_MOVETEXT;
            if (j == k) {
                emit(r, d + i, k - i, line, col, PGN_TOK_MOVE_NUMBER);
            } else if (is_result(d + i, j - i)) {
                emit(r, d + i, j - i, line, col, PGN_TOK_RESULT);
                if (r->depth == 0) {
                    r->has_result = true;
                    i = j;
                    *end = END_RESULT;
                    goto done;
                }
            } else {
                emit(r, d + i, j - i, line, col, PGN_TOK_MOVE);
            }
            i = j;
            continue;
        }
        case CC_PERCENT:
            goto move_token;
        case CC_DOT:
            i++; /* dots between tokens are move-number decoration */
            continue;
        case CC_STAR:
            r->phase = PHASE_MOVETEXT;
            emit(r, d + i, 1, line, col, PGN_TOK_RESULT);
            i++;
            if (r->depth == 0) {
                r->has_result = true;
                *end = END_RESULT;
                goto done;
            }
            continue;
        case CC_DOLLAR: {
            size_t k = i + 1;
            while (k < n && cls(d[k]) == CC_DIGIT)
                k++;
            if (k - i > max_tok)
                goto too_long;
            if (k == n && !r->eof)
                goto refill;
            if (k == i + 1) {
                add_diag(r, DIAG_UNEXPECTED_CHAR, line, col, "'$' without a number");
                i++;
                continue;
            }
            r->phase = PHASE_MOVETEXT;
            emit(r, d + i, k - i, line, col, PGN_TOK_NAG);
            i = k;
            continue;
        }
        case CC_LPAREN: {
            size_t k = promotion_paren_end(r, i);
            if (k == NEED_MORE)
                goto refill;
            if (k) {
                r->toks[r->ntok - 1].len = (uint32_t)(d + k - r->toks[r->ntok - 1].text);
                i = k;
                continue;
            }
            r->phase = PHASE_MOVETEXT;
            if (++r->depth == 1) {
                r->open_line = line;
                r->open_col = col;
            }
            if (r->depth > r->lim.max_depth && !r->deep_reported) {
                r->deep_reported = true;
                add_diag(r, DIAG_NESTING_TOO_DEEP, line, col,
                         "variations nested deeper than %u; the deeper ones are not kept",
                         r->lim.max_depth);
            }
            emit(r, d + i, 1, line, col, PGN_TOK_VARIATION_START);
            i++;
            continue;
        }
        case CC_RPAREN:
            r->phase = PHASE_MOVETEXT;
            if (r->depth == 0) {
                add_diag(r, DIAG_UNBALANCED_VARIATION, line, col, "')' with no open '('");
            } else {
                emit(r, d + i, 1, line, col, PGN_TOK_VARIATION_END);
                r->depth--;
            }
            i++;
            continue;
        case CC_LBRACE: {
            bool boundary;
            r->pos = i;
            i = scan_comment(r, i, &boundary);
            if (i == SIZE_MAX)
                return -1;
            d = r->data;
            n = r->len;
            if (boundary) {
                *end = END_BOUNDARY;
                goto done;
            }
            if (i < n && d[i] == ' ')
                i++; /* as for moves: the usual single space costs no round of the loop */
            continue;
        }
        case CC_SEMI: {
            size_t e = next_eol(d, i + 1, n);
            if (e - i > r->lim.max_comment_bytes) {
                add_diag(r, DIAG_COMMENT_TOO_LONG, line, col,
                         "a ';' comment over the limit of %zu bytes; dropped",
                         r->lim.max_comment_bytes);
                r->pos = i;
                i = skip_line(r, i);
                if (i == SIZE_MAX)
                    return -1;
                d = r->data;
                n = r->len;
                continue;
            }
            if (e == n && !r->eof)
                goto refill;
            emit(r, d + i + 1, e - i - 1, line, col, PGN_TOK_LINE_COMMENT);
            i = e;
            continue;
        }
        case CC_LBRACKET: {
            if (r->phase == PHASE_MOVETEXT) {
                size_t j = movetext_bracket(r, d, i, n, line, col);
                if (j == NEED_MORE)
                    goto refill;
                if (j == 0) {
                    /* A tag section starts: the game before it has ended. */
                    *end = END_BOUNDARY;
                    goto done;
                }
                i = j;
                continue;
            }
            struct tag_parse tp;
            size_t j = parse_tag_simple(r, d, i, n, &tp);
            if (j == 0)
                j = parse_tag(r, d, i, n, &tp);
            if (j == NEED_MORE)
                goto refill;
            if (j == TAG_SKIP_LINE) {
                /* Too long to keep: report, then skip the rest of the line streaming. */
                commit_tag(r, d, i, &tp, r->line, r->ls);
                r->phase = PHASE_TAGS;
                r->pos = i;
                i = skip_line(r, i);
                if (i == SIZE_MAX)
                    return -1;
                d = r->data;
                n = r->len;
                continue;
            }
            if (r->phase == PHASE_TAGS && tp.has_tag && eols >= 2 &&
                (r->bad_string || tag_is_dup(r, d, &tp))) {
                /* A new tag section after a blank line: a game with no movetext ended. */
                *end = END_BOUNDARY;
                goto done;
            }
            commit_tag(r, d, i, &tp, r->line, r->ls);
            r->phase = PHASE_TAGS;
            i = j;
            continue;
        }
        case CC_BAD:
        default:
            if (d[i] == '<') {
                /* A reserved token (pgn_reader.h): '<' to the next '>' on the same line,
                 * at most max_token_bytes, skipped whole with the phase unchanged. */
                size_t j = i + 1;
                while (j < n && d[j] != '>' && !is_eol(d[j]) && j - i < max_tok)
                    j++;
                if (j == n && !r->eof)
                    goto refill;
                if (j < n && d[j] == '>') {
                    if (!r->reserved_reported) {
                        r->reserved_reported = true;
                        add_diag(r, DIAG_UNEXPECTED_CHAR, line, col,
                                 "reserved token '%.*s' skipped (the first in this game)",
                                 (int)(j + 1 - i > 40 ? 40 : j + 1 - i), d + i);
                    }
                    i = j + 1;
                    continue;
                }
            }
            add_diag(r, DIAG_UNEXPECTED_CHAR, line, col, "unexpected '%c'", d[i]);
            i++;
            continue;
        }
    too_long:
        r->pos = i;
        i = token_too_long(r, i);
        if (i == SIZE_MAX)
            return -1;
        d = r->data;
        n = r->len;
        r->phase = PHASE_MOVETEXT;
        continue;
    }
done:
    r->pos = i;
    return r->started ? 1 : 0;
}

/*
 * One CONTROL_BYTE per game, at its first control byte wherever it stands (a tag value,
 * a comment, an escape line): the scan reports only those it reads as blanks between
 * tokens, so one pass over the game's text finds the others and the first of all.
 */
static void report_control_byte(struct pgn_reader *r, const char *text, size_t n)
{
    size_t k = ctrl_find(text, n);
    if (k == n)
        return;
    uint64_t line = r->game_line, col = r->game_col;
    for (size_t j = 0; j < k; j++) {
        bool eol = text[j] == '\n' || (text[j] == '\r' && text[j + 1] != '\n');
        line += eol;
        col = eol ? 1 : col + 1;
    }
    const char *what = ctrl_len(text, k, n) == 2 ? "control character U+%04X (the first of "
                                                   "the game); escaped in text output"
                                                 : "control byte 0x%02x (the first of the "
                                                   "game); escaped in text output";
    unsigned code = ctrl_code(text, k);
    for (size_t d = 0; d < r->diags.count; d++) {
        struct diag *old = &r->diags.items[d];
        if (old->code != DIAG_CONTROL_BYTE)
            continue;
        if (old->line > line || (old->line == line && old->col > col))
            diag_set(old, DIAG_CONTROL_BYTE, line, col, what, code);
        return;
    }
    add_diag(r, DIAG_CONTROL_BYTE, line, col, what, code);
}

/* Close the game just scanned: end-of-game diagnostics, the size check, the public view. */
static bool finish_game(struct pgn_reader *r, enum game_end end, struct pgn_game *game)
{
    size_t i = r->pos;
    uint64_t bytes = r->base_off + i - r->game_off;
    if (!r->skipping && bytes > r->lim.max_game_bytes)
        start_skipping(r);
    /* Only comments or whitespace since the last game: not a game of its own (unless too
     * large to look at, or broken). */
    if (r->phase == PHASE_BEFORE && !r->has_result && !r->skipping &&
        diag_list_errors(&r->diags) == 0)
        return false;
    uint64_t line = r->line, col = col_at(r, i);
    if (r->ntok > r->tok0) {
        line = pgn_line_from32(r->game_line, r->toks[r->ntok - 1].line);
        col = r->toks[r->ntok - 1].col;
    }
    if (r->depth > 0)
        add_diag(r, DIAG_UNTERMINATED_VARIATION, r->open_line, r->open_col,
                 "the variation never closes (%llu still open where the game ends)",
                 (unsigned long long)r->depth);
    if (r->phase == PHASE_TAGS && !r->has_result)
        add_diag(r, DIAG_NO_MOVETEXT, r->game_line, r->game_col,
                 "a tag section with no movetext and no result");
    else if (r->phase == PHASE_MOVETEXT && !r->has_result)
        add_diag(r, DIAG_NO_RESULT, line, col,
                 end == END_EOF ? "the game has no result before the end of the input"
                                : "the game has no result before the next tag section");
    if (r->skipping) {
        /* Its contents were not all looked at: the one diagnostic says so, whatever the
         * buffer size at which the skipping began. */
        diag_list_clear(&r->diags);
        if (r->too_many_tokens && bytes <= r->lim.max_game_bytes)
            add_diag(r, DIAG_GAME_TOO_LARGE, r->game_line, r->game_col,
                     "the game has more than %zu tokens (moves, numbers, comments, "
                     "parentheses: --max-game-tokens); skipped",
                     r->lim.max_game_tokens);
        else
            add_diag(r, DIAG_GAME_TOO_LARGE, r->game_line, r->game_col,
                     "the game is over the limit of %zu bytes (%llu); skipped",
                     r->lim.max_game_bytes, (unsigned long long)bytes);
    }

    if (!r->skipping)
        report_control_byte(r, r->data + r->game_start, (size_t)bytes);
    if (r->scratch_len)
        place_escaped(r);
    r->games++;
    game->index = r->games_unknown ? 0 : r->games;
    game->file = r->name;
    game->line = r->game_line;
    game->offset = r->game_off;
    game->bytes = bytes;
    game->text = r->data + r->game_start;
    game->tags = r->ntag ? r->tags : NULL;
    game->tag_count = r->ntag;
    game->tokens = r->ntok > r->tok0 ? r->toks + r->tok0 : NULL;
    game->token_count = r->ntok - r->tok0;
    if (r->keep_tokens)
        r->kept = r->ntok;
    game->diags = r->diags;
    game->skipped = r->skipping;
    return true;
}

int pgn_reader_next(struct pgn_reader *r, struct pgn_game *game, struct diag *err)
{
    memset(game, 0, sizeof *game);
    if (r->finished)
        return 0;
    if (!r->bom_done)
        skip_bom(r);
    for (;;) {
        enum game_end end = END_EOF;
        int st = -1;
        if (!r->failed) {
            reset_game(r);
            st = scan_game(r, &end);
            /* A game, or comments that made none, from before the stop to past it. */
            if (r->started && r->game_off < r->base_off + r->stop_at &&
                r->base_off + r->pos > r->base_off + r->stop_at)
                r->stop_crossed = true;
        }
        if (st < 0) {
            r->finished = true;
            if (err)
                diag_set(err, DIAG_IO, r->line, 0, "%s: read error: %s",
                         r->name ? r->name : "input", strerror(r->err_no));
            return -1;
        }
        if (st == 0 || !finish_game(r, end, game)) {
            if (end == END_EOF) {
                r->finished = true;
                return 0;
            }
            continue;
        }
        return 1;
    }
}

/* ---- construction ----------------------------------------------------------------------- */

static void init_limits(struct pgn_reader *r, const struct pgn_limits *limits)
{
    if (limits)
        r->lim = *limits;
    if (!r->lim.max_game_bytes)
        r->lim.max_game_bytes = DEFAULT_MAX_GAME_BYTES;
    if (!r->lim.max_token_bytes)
        r->lim.max_token_bytes = DEFAULT_MAX_TOKEN_BYTES;
    if (!r->lim.max_comment_bytes)
        r->lim.max_comment_bytes = DEFAULT_MAX_COMMENT_BYTES;
    /* Token lengths are 32-bit. */
    if (r->lim.max_comment_bytes > UINT32_MAX)
        r->lim.max_comment_bytes = UINT32_MAX;
    if (r->lim.max_token_bytes > UINT32_MAX)
        r->lim.max_token_bytes = UINT32_MAX;
    if (!r->lim.max_depth)
        r->lim.max_depth = DEFAULT_MAX_DEPTH;
    if (!r->lim.max_diagnostics)
        r->lim.max_diagnostics = DEFAULT_MAX_DIAGNOSTICS;
    if (!r->lim.max_game_tokens)
        r->lim.max_game_tokens = DEFAULT_MAX_GAME_TOKENS;
}

static struct pgn_reader *reader_alloc(const char *name, const struct pgn_limits *limits)
{
    struct pgn_reader *r = xcalloc(1, sizeof *r);
    r->name = name;
    r->line = 1;
    r->stop_at = SIZE_MAX;
    init_limits(r, limits);
    diag_list_init_capped(&r->diags, r->lim.max_diagnostics);
    return r;
}

struct pgn_reader *pgn_reader_new(struct pgn_source src, const char *name,
                                  const struct pgn_limits *limits)
{
    struct pgn_reader *r = reader_alloc(name, limits);
    r->src = src;
    r->data = "";
    return r;
}

/* Start reading at `at`: a line start between two games (0: the file's start). */
static void resume_at(struct pgn_reader *r, const struct pgn_resume *at)
{
    r->base_off = at->offset;
    r->line = at->line ? at->line : 1;
    r->games = at->games;
    r->games_unknown = at->games_unknown;
    r->bom_done = at->offset != 0; /* a BOM is looked for at the file's start only */
    r->no_close = r->no_open = (struct absent){0, 0};
}

struct pgn_reader *pgn_reader_new_at(struct pgn_source src, const char *name,
                                     const struct pgn_limits *limits,
                                     const struct pgn_resume *at)
{
    struct pgn_reader *r = pgn_reader_new(src, name, limits);
    resume_at(r, at);
    return r;
}

void pgn_reader_restart(struct pgn_reader *r, const char *data, size_t len, size_t stop,
                        const struct pgn_resume *at)
{
    r->data = data ? data : "";
    r->len = data ? len : 0;
    r->pos = 0;
    r->shift = 0;
    r->ls = 0;
    r->eols = 0;
    r->eof = true;
    r->failed = false;
    r->finished = false;
    r->err_no = 0;
    r->stop_at = stop;
    r->stop_crossed = false;
    r->kept = 0;
    resume_at(r, at);
}

struct pgn_reader *pgn_reader_from_memory(const char *data, size_t len, const char *name,
                                          const struct pgn_limits *limits)
{
    struct pgn_reader *r = reader_alloc(name, limits);
    r->memory = true;
    r->data = data ? data : "";
    r->len = data ? len : 0;
    r->eof = true;
    return r;
}

void pgn_reader_free(struct pgn_reader *r)
{
    if (!r)
        return;
    free(r->buf);
    free(r->toks);
    free(r->tags);
    name_set_release(&r->names);
    free(r->scratch);
    diag_list_release(&r->diags);
    free(r);
}

uint64_t pgn_reader_bytes(const struct pgn_reader *r) { return r->base_off + r->pos; }

bool pgn_reader_stop_crossed(const struct pgn_reader *r) { return r->stop_crossed; }

void pgn_reader_keep_tokens(struct pgn_reader *r, bool keep)
{
    r->keep_tokens = keep && r->memory;
}

const struct pgn_token *pgn_reader_kept_tokens(const struct pgn_reader *r) { return r->toks; }
