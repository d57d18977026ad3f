/*
 * pgn_lexer.c - bytes to tokens, one token at a time: moves, move numbers, results,
 * NAGs, parentheses, ';' comments, escape lines, blanks, stray bytes; {comments} are
 * handed to pgn_comments.c.  What the fast path (pgn_lexer_fast.c) leaves comes here.
 *
 * Owns the token rules of SPEC §3 (what ends a token, a result's spellings, a promotion
 * written e8(Q), a '[' in the moves, reserved <...> tokens) and reports each token's
 * problems once.  It does not decide where a game ends: each step returns what it found
 * (struct step), and pgn_reader.c decides.
 *
 * Writes the scan's place (r->scan, reader_scan.h) and the tokens (r->tok, through emit);
 * sets the last result's place (r->parts.result_off); offers pgn_lexer_internal.h.
 */
#include "pgn/pgn_lexer_internal.h"

#include <string.h>

#include "pgn/pgn_bytes.h"
#include "pgn/pgn_comments_internal.h"
#include "pgn/reader_buffer.h"

/* An en dash or an em dash (UTF-8 E2 80 93 / E2 80 94) at p. */
static bool is_dash(const char *p)
{
    return memcmp(p, "\xe2\x80", 2) == 0 && (p[2] == '\x93' || p[2] == '\x94');
}

/* A termination marker: the standard's, ½-½, or one written with an en or em dash (1–0,
 * 0—1, ½–½, 1/2–1/2); game.c reads the others as the standard one, with a warning. */
static bool is_result(const char *p, size_t len)
{
    switch (len) {
    case 3:
        return memcmp(p, "1-0", 3) == 0 || memcmp(p, "0-1", 3) == 0;
    case 5:
        return memcmp(p, "\xc2\xbd-\xc2\xbd", 5) == 0 || /* ½-½ */
               (((p[0] == '1' && p[4] == '0') || (p[0] == '0' && p[4] == '1')) &&
                is_dash(p + 1));
    case 7:
        return memcmp(p, "1/2-1/2", 7) == 0 ||
               (memcmp(p, "\xc2\xbd", 2) == 0 && is_dash(p + 2) && memcmp(p + 5, "\xc2\xbd", 2) == 0);
    case 9:
        return memcmp(p, "1/2", 3) == 0 && is_dash(p + 3) && memcmp(p + 6, "1/2", 3) == 0;
    default:
        return false;
    }
}

/* A result token at d[i, i + len): the game's last_result when it is the last kept. */
static inline void emit_result(struct pgn_reader *r, size_t i, size_t len, uint64_t line,
                               uint64_t col)
{
    if (tokens_kept(r)) {
        r->parts.result_off = r->in.base_off + i;
        r->parts.result_len = (uint32_t)len;
    }
    emit(r, r->in.data + i, len, line, col, PGN_TOK_RESULT);
}

/*
 * e8(Q), bxa8(N)+: a promotion piece in parentheses (SPEC §3.6) looks like a one-letter
 * variation to the tokenizer.  At the '(' at index i: when the token just kept is a move
 * ending on rank 1 or 8 right before it, starting with a file letter (a pawn move), and
 * '(' letter ')' follows, returns the index after the rest of that move token (a check
 * mark or glyph may follow the ')'), which then joins the move; else 0 (a variation).
 * NEED_MORE when the bytes to decide are not read yet.
 */
static size_t promotion_paren_end(const struct pgn_reader *r, size_t i)
{
    const char *d = r->in.data;
    size_t n = r->in.len;
    if (r->tok.ntok == r->tok.tok0 || !tokens_kept(r))
        return 0;
    const struct pgn_token *last = &r->tok.toks[r->tok.ntok - 1];
    if (last->kind != PGN_TOK_MOVE || last->text + last->len != d + i ||
        (d[i - 1] != '1' && d[i - 1] != '8') || last->text[0] < 'a' || last->text[0] > 'h')
        return 0;
    if (n - i < 3)
        return r->in.eof ? 0 : NEED_MORE;
    if (!((d[i + 1] | 0x20) >= 'a' && (d[i + 1] | 0x20) <= 'z') || d[i + 2] != ')')
        return 0;
    size_t k = i + 3;
    while (k < n && !is_delim(d[k]) && k - i < 8)
        k++;
    if (k == n && !r->in.eof)
        return NEED_MORE;
    return k;
}

/* Whether only blanks stand before d[i] on its line (a UTF-8 BOM counts as blank: one
 * between concatenated files starts the next file's first line). */
static bool first_on_line(const struct pgn_reader *r, const char *d, size_t i)
{
    /* A line that started before data[0] had its head dropped by a fill: what it held
     * was noted then (reader_input.h, struct dropped_head). */
    if (!only_blanks(d, r->scan.ls > 0 ? r->scan.ls : 0, (ptrdiff_t)i))
        return false;
    return r->scan.ls >= 0 ||
           !(r->in.head.nonblank &&
             r->in.head.line_off == r->in.base_off + (uint64_t)(int64_t)r->scan.ls);
}

/*
 * The index of the first `close` from j on, on the line of the run that starts at i and
 * within max_token_bytes of it: 0 when there is none (a line end, the limit or the end
 * of the input comes first), NEED_MORE when the data ends before that is decided.
 */
static size_t run_to(const struct pgn_reader *r, size_t i, size_t j, char close)
{
    const char *d = r->in.data;
    size_t n = r->in.len;
    while (j < n && d[j] != close && !is_eol(d[j]) && j - i < r->lim.max_token_bytes)
        j++;
    if (j == n && !r->in.eof)
        return NEED_MORE;
    return j < n && d[j] == close ? j : 0;
}

/* Report the run d[i, e) if none was reported in this game (*reported): fmt shows its
 * first 40 bytes with one %.*s. */
__attribute__((format(printf, 4, 0))) static void
report_run_once(struct pgn_reader *r, bool *reported, enum diag_code code, const char *fmt,
                size_t i, size_t e)
{
    if (*reported)
        return;
    *reported = true;
    add_diag(r, code, r->scan.line, col_at(r, i), fmt, (int)(e - i > 40 ? 40 : e - i),
             r->in.data + i);
}

/*
 * A '[' in movetext at d[i].  When it begins its line and a tag pair follows ('[', a name,
 * a '"'), the next game's tag section starts here: returns 0.  Any other '[' is this
 * game's: "[%...]" up to a ']' on the same line (at most max_token_bytes; a broken
 * export's [%clk 0:00:10] without braces) is a comment token, with one NONSTANDARD
 * warning per game; the rest is an UNEXPECTED_CHAR error.  Returns the index after what
 * was read, or NEED_MORE.
 */
size_t movetext_bracket(struct pgn_reader *r, size_t i)
{
    const char *d = r->in.data;
    size_t n = r->in.len;
    uint64_t line = r->scan.line, col = col_at(r, i);
    size_t max_tok = r->lim.max_token_bytes;
    if (first_on_line(r, d, i)) {
        size_t j = i + 1;
        while (j < n && is_hspace(d[j]) && j - i < max_tok)
            j++;
        size_t name = j;
        while (j < n && !is_delim(d[j]) && j - name <= max_tok)
            j++;
        size_t name_end = j;
        while (j < n && is_hspace(d[j]) && j - i < 2 * max_tok)
            j++;
        if (j == n && !r->in.eof)
            return NEED_MORE;
        if (name_end > name && d[name] != '%' && j < n && d[j] == '"')
            return 0;
    }
    if (i + 1 < n && d[i + 1] == '%') {
        size_t j = run_to(r, i, i + 2, ']');
        if (j == NEED_MORE)
            return NEED_MORE;
        if (j) {
            report_run_once(r, &r->scan.unbraced_reported, DIAG_NONSTANDARD,
                            "'%.*s' outside braces read as a comment (the first in this game)",
                            i, j + 1);
            emit(r, d + i, j + 1 - i, line, col, PGN_TOK_COMMENT);
            return j + 1;
        }
    }
    if (i + 1 == n && !r->in.eof)
        return NEED_MORE;
    add_diag(r, DIAG_UNEXPECTED_CHAR, line, col,
             "'[' in the moves starts no tag pair (a tag pair begins its line)");
    return i + 1;
}

/*
 * A blank at i: a space, a line end, a control byte (read as a space, reported once per
 * game) or a byte-order mark where a token would start (two BOM files concatenated: a
 * blank, so that a game boundary stays one).  Returns the index after it, i when no
 * blank starts at i, or NEED_MORE (a CR or a BOM's first bytes at the end of the data).
 */
size_t lex_blank(struct pgn_reader *r, size_t i, unsigned cl)
{
    const char *d = r->in.data;
    size_t n = r->in.len;
    if (cl == CC_OTHER && (unsigned char)d[i] == 0xef) {
        if (n - i < 3 && !r->in.eof)
            return NEED_MORE;
        return n - i >= 3 && memcmp(d + i, "\xef\xbb\xbf", 3) == 0 ? i + 3 : i;
    }
    /* One range test (CC_SPACE .. CC_CTRL) keeps the blanks off the path of the tokens. */
    if (cl - CC_SPACE > CC_CTRL - CC_SPACE)
        return i;
    if (cl == CC_SPACE)
        return i + 1;
    if (cl == CC_CTRL) {
        if (!r->scan.ctrl_reported) {
            r->scan.ctrl_reported = true;
            add_diag(r, DIAG_CONTROL_BYTE, r->scan.line, col_at(r, i),
                     "control byte 0x%02x; read as a space", (unsigned char)d[i]);
        }
        return i + 1;
    }
    size_t j = i + 1; /* LF, or CR, CR LF */
    if (cl == CC_CR) {
        if (j >= n && !r->in.eof)
            return NEED_MORE; /* LF may follow */
        j += j < n && d[j] == '\n';
    }
    r->scan.eols++;
    r->scan.line++;
    r->scan.ls = (ptrdiff_t)j;
    return j;
}

/* A '%' that begins its line: an escape line (PGN standard 6), ignored whole. */
struct step lex_escape_line(struct pgn_reader *r, size_t i)
{
    r->scan.pos = i;
    size_t j = skip_line(r, i);
    return j == SIZE_MAX ? step_to(STEP_FAILED, i) : step_to(STEP_NEXT, j);
}

/* A move, number or NAG token over max_token_bytes at i: reported and skipped. */
static struct step too_long(struct pgn_reader *r, size_t i)
{
    add_diag(r, DIAG_TOKEN_TOO_LONG, r->scan.line, col_at(r, i),
             "a token longer than %zu bytes; skipped", r->lim.max_token_bytes);
    r->scan.pos = i;
    /* From i + 1: a NAG's '$' is a delimiter itself, and progress must be made. */
    size_t j = skip_run(r, i + 1);
    if (j == SIZE_MAX)
        return step_to(STEP_FAILED, i);
    r->scan.phase = PHASE_MOVETEXT;
    return step_to(STEP_NEXT, j);
}

/* The token [i, j) ended the data: it may go on in bytes not read yet. */
static inline bool cut_off(const struct pgn_reader *r, size_t j)
{
    return j == r->in.len && !r->in.eof;
}

/* What follows the token that ends at j: the usual single space costs no round of the
 * scan loop. */
static inline size_t after_space(const struct pgn_reader *r, size_t j)
{
    return j + (j < r->in.len && r->in.data[j] == ' ');
}

/* A move token at i (or a result spelled with '½'); also a '%' that is not an escape. */
static struct step lex_move(struct pgn_reader *r, size_t i)
{
    const char *d = r->in.data;
    size_t j = run_end(d, i + 1, r->in.len);
    if (j - i > r->lim.max_token_bytes)
        return too_long(r, i);
    if (cut_off(r, j))
        return step_to(STEP_MORE, i);
    r->scan.phase = PHASE_MOVETEXT;
    if ((unsigned char)d[i] == 0xc2 && is_result(d + i, j - i)) {
        emit_result(r, i, j - i, r->scan.line, col_at(r, i));
        return step_to(STEP_RESULT, j);
    }
    emit(r, d + i, j - i, r->scan.line, col_at(r, i), PGN_TOK_MOVE);
    return step_to(STEP_NEXT, after_space(r, j));
}

/* A token that starts with a digit: a move number (digits, then dots), a bare number
 * (a move number without its dots), a result, or a move token. */
static struct step lex_number(struct pgn_reader *r, size_t i)
{
    const char *d = r->in.data;
    size_t n = r->in.len, k = i + 1;
    uint64_t line = r->scan.line, col = col_at(r, i);
    while (k < n && is_digit(d[k]))
        k++;
    bool dots = k < n && d[k] == '.';
    size_t j = k;
    if (dots)
        while (j < n && d[j] == '.')
            j++;
    else
        j = run_end(d, k, n);
    if (j - i > r->lim.max_token_bytes)
        return too_long(r, i);
    if (cut_off(r, j))
        return step_to(STEP_MORE, i);
    r->scan.phase = PHASE_MOVETEXT;
    if (dots || j == k) {
        emit(r, d + i, j - i, line, col, PGN_TOK_MOVE_NUMBER);
        return step_to(STEP_NEXT, dots ? after_space(r, j) : j);
    }
    if (is_result(d + i, j - i)) {
        emit_result(r, i, j - i, line, col);
        return step_to(STEP_RESULT, j);
    }
    emit(r, d + i, j - i, line, col, PGN_TOK_MOVE);
    return step_to(STEP_NEXT, j);
}

/* A NAG: '$' and its digits. */
static struct step lex_nag(struct pgn_reader *r, size_t i)
{
    const char *d = r->in.data;
    size_t n = r->in.len, k = i + 1;
    while (k < n && is_digit(d[k]))
        k++;
    if (k - i > r->lim.max_token_bytes)
        return too_long(r, i);
    if (cut_off(r, k))
        return step_to(STEP_MORE, i);
    if (k == i + 1) {
        add_diag(r, DIAG_UNEXPECTED_CHAR, r->scan.line, col_at(r, i), "'$' without a number");
        return step_to(STEP_NEXT, i + 1);
    }
    r->scan.phase = PHASE_MOVETEXT;
    emit(r, d + i, k - i, r->scan.line, col_at(r, i), PGN_TOK_NAG);
    return step_to(STEP_NEXT, k);
}

/* A '(': a variation opens, or a promotion piece in parentheses joins its move. */
static struct step lex_open(struct pgn_reader *r, size_t i)
{
    size_t k = promotion_paren_end(r, i);
    if (k == NEED_MORE)
        return step_to(STEP_MORE, i);
    if (k) {
        struct pgn_token *move = &r->tok.toks[r->tok.ntok - 1];
        move->len = (uint32_t)(r->in.data + k - move->text);
        return step_to(STEP_NEXT, k);
    }
    uint64_t line = r->scan.line, col = col_at(r, i);
    r->scan.phase = PHASE_MOVETEXT;
    if (++r->scan.depth == 1) {
        r->scan.open_line = line;
        r->scan.open_col = col;
    }
    if (r->scan.depth > r->lim.max_depth && !r->scan.deep_reported) {
        r->scan.deep_reported = true;
        add_diag(r, DIAG_NESTING_TOO_DEEP, line, col,
                 "variations nested deeper than %u; the deeper ones are not kept",
                 r->lim.max_depth);
    }
    emit(r, r->in.data + i, 1, line, col, PGN_TOK_VARIATION_START);
    return step_to(STEP_NEXT, i + 1);
}

/* A ')': the variation closes (an error when none is open). */
static struct step lex_close(struct pgn_reader *r, size_t i)
{
    r->scan.phase = PHASE_MOVETEXT;
    if (r->scan.depth == 0) {
        add_diag(r, DIAG_UNBALANCED_VARIATION, r->scan.line, col_at(r, i), "')' with no open '('");
    } else {
        emit(r, r->in.data + i, 1, r->scan.line, col_at(r, i), PGN_TOK_VARIATION_END);
        r->scan.depth--;
    }
    return step_to(STEP_NEXT, i + 1);
}

/* A {comment}: one that never closes may end at the next game's tag section. */
static struct step lex_comment(struct pgn_reader *r, size_t i)
{
    bool boundary;
    r->scan.pos = i;
    size_t j = scan_comment(r, i, &boundary);
    if (j == SIZE_MAX)
        return step_to(STEP_FAILED, i);
    return boundary ? step_to(STEP_BOUNDARY, j) : step_to(STEP_NEXT, after_space(r, j));
}

/* A ';' comment, to the end of its line (dropped whole when over max_comment_bytes). */
static struct step lex_line_comment(struct pgn_reader *r, size_t i)
{
    size_t e = next_eol(r->in.data, i + 1, r->in.len);
    if (e - i > r->lim.max_comment_bytes) {
        add_diag(r, DIAG_COMMENT_TOO_LONG, r->scan.line, col_at(r, i),
                 "a ';' comment over the limit of %zu bytes; dropped", r->lim.max_comment_bytes);
        return lex_escape_line(r, i); /* skipped to its end the same way */
    }
    if (cut_off(r, e))
        return step_to(STEP_MORE, i);
    emit(r, r->in.data + i + 1, e - i - 1, r->scan.line, col_at(r, i), PGN_TOK_LINE_COMMENT);
    return step_to(STEP_NEXT, e);
}

/* A byte that starts no token: a reserved token '<...>' (pgn_reader.h; skipped whole, the
 * phase unchanged) or an error. */
static struct step lex_stray(struct pgn_reader *r, size_t i)
{
    const char *d = r->in.data;
    uint64_t line = r->scan.line, col = col_at(r, i);
    if (d[i] == '<') {
        size_t j = run_to(r, i, i + 1, '>');
        if (j == NEED_MORE)
            return step_to(STEP_MORE, i);
        if (j) {
            report_run_once(r, &r->scan.reserved_reported, DIAG_UNEXPECTED_CHAR,
                            "reserved token '%.*s' skipped (the first in this game)", i, j + 1);
            return step_to(STEP_NEXT, j + 1);
        }
    }
    add_diag(r, DIAG_UNEXPECTED_CHAR, line, col, "unexpected '%c'", d[i]);
    return step_to(STEP_NEXT, i + 1);
}

struct step lex_token(struct pgn_reader *r, size_t i, unsigned cl)
{
    switch (cl) {
    case CC_OTHER:
    case CC_PERCENT:
        return lex_move(r, i);
    case CC_DIGIT:
        return lex_number(r, i);
    case CC_DOT:
        return step_to(STEP_NEXT, i + 1); /* dots between tokens are move-number decoration */
    case CC_STAR:
        r->scan.phase = PHASE_MOVETEXT;
        emit_result(r, i, 1, r->scan.line, col_at(r, i));
        return step_to(STEP_RESULT, i + 1);
    case CC_DOLLAR:
        return lex_nag(r, i);
    case CC_LPAREN:
        return lex_open(r, i);
    case CC_RPAREN:
        return lex_close(r, i);
    case CC_LBRACE:
        return lex_comment(r, i);
    case CC_SEMI:
        return lex_line_comment(r, i);
    default:
        return lex_stray(r, i);
    }
}
