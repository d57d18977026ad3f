/*
 * pgn_reader.c - the streaming PGN reader's game splitter and its public API
 * (include/pgnkit/pgn_reader.h).
 *
 * Owns the game-boundary rules of SPEC §2 (a result at depth 0, a tag section after
 * movetext, a tag pair after a blank line that repeats a name or follows a broken value,
 * a comment that never closes before a tag line), the per-game limits (a game over
 * max_game_bytes or max_game_tokens is read to its end and reported, nothing kept), the
 * stop of a restarted reader (pgn_reader_restart), and the game handed out, in parts when
 * it has more than part_tokens tokens (pgn_parts.c keeps the cuts; load_part here reads a
 * part again with the same steps).  The bytes become tokens in pgn_lexer_fast.c and
 * pgn_lexer.c, tag pairs in pgn_tags.c; reader_buffer.c owns the input.
 * It does not know chess: move tokens are passed on as text; san.c parses them.  No
 * recursion anywhere.
 *
 * Owns struct pgn_reader (reader_state.h) but for its parts, which the other files own;
 * sets them up, resets them per game, and hands the game out.  Implements pgn_reader.h.
 */
#include "pgn/pgn_reader.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cpu.h"
#include "base/ctrl.h"
#include "base/xalloc.h"
#include "pgn/pgn_bytes.h"
#include "pgn/pgn_comments_internal.h"
#include "pgn/pgn_lexer_fast_internal.h"
#include "pgn/pgn_lexer_internal.h"
#include "pgn/pgn_parts_internal.h"
#include "pgn/pgn_tags_internal.h"
#include "pgn/reader_buffer.h"

#define DEFAULT_MAX_GAME_BYTES ((size_t)64 << 20)
#define DEFAULT_MAX_TOKEN_BYTES ((size_t)255)
#define DEFAULT_MAX_COMMENT_BYTES ((size_t)32 << 20)
#define DEFAULT_MAX_DEPTH 1024u
#define DEFAULT_MAX_DIAGNOSTICS ((size_t)1000)
#define DEFAULT_MAX_GAME_TOKENS SIZE_MAX /* none: parts bound the tokens held */
#define DEFAULT_PART_TOKENS ((size_t)64 << 10)

/* How the game read last ended. */
enum game_end { END_EOF, END_RESULT, END_BOUNDARY };

static void begin_game(struct pgn_reader *r, size_t i)
{
    r->started = true;
    r->game_start = i;
    r->game_off = r->in.base_off + i;
    r->game_line = r->scan.line;
    r->game_col = col_at(r, i);
}

static void reset_game(struct pgn_reader *r)
{
    r->started = false;
    r->skipping = false;
    r->too_many_tokens = false;
    r->has_result = false;
    r->scan.ctrl_reported = false;
    r->scan.deep_reported = false;
    r->scan.reserved_reported = false;
    r->scan.unbraced_reported = false;
    r->tag.bad_string = false;
    r->scan.phase = PHASE_BEFORE;
    r->scan.depth = 0;
    r->tok.ntok = r->tok.tok0 = r->kept;
    parts_reset(r);
    r->tag.ntag = 0;
    name_set_clear(&r->tag.names);
    r->tag.tags_in_set = 0;
    r->tag.scratch_len = 0;
    diag_list_clear(&r->diags);
}

/* Classes whose tokens scan_fast reads (a started game, tokens kept): nearly all bytes.
 * A line end too: the one after a game's first tag pair, read by tag_pair, would
 * otherwise take a step of its own before the fast path reads the next tag. */
static inline bool fast_path_starts(const struct pgn_reader *r, unsigned cl)
{
    return r->started &&
           (cl == CC_OTHER || cl == CC_DIGIT || cl == CC_LBRACE || cl == CC_LBRACKET ||
            cl == CC_LF) &&
           tokens_kept(r);
}

/*
 * A tag pair at i.  In a tag section, after a blank line, one that repeats a name of the
 * section (or follows a broken value) starts a new game: the game before it had no
 * movetext.  A tag line too long to keep is reported and skipped to its end.  A part read
 * again (r->parts.relex) only steps over it: the game's tags, handed out with it, stay as they
 * are, and the first reading took no boundary inside the part.
 */
static struct step tag_pair(struct pgn_reader *r, size_t i, uint64_t eols)
{
    const char *d = r->in.data;
    struct tag_parse tp;
    size_t j = parse_tag_simple(r, d, i, r->in.len, &tp);
    if (j == 0)
        j = parse_tag(r, d, i, r->in.len, &tp);
    if (j == NEED_MORE)
        return step_to(STEP_MORE, i);
    if (!r->parts.relex) {
        if (j != TAG_SKIP_LINE && r->scan.phase == PHASE_TAGS && tp.has_tag && eols >= 2 &&
            (r->tag.bad_string || tag_is_dup(r, d, &tp)))
            return step_to(STEP_BOUNDARY, i);
        commit_tag(r, d, i, &tp, r->scan.line, r->scan.ls);
    }
    r->scan.phase = PHASE_TAGS;
    if (j != TAG_SKIP_LINE)
        return step_to(STEP_NEXT, j);
    r->scan.pos = i;
    j = skip_line(r, i);
    return j == SIZE_MAX ? step_to(STEP_FAILED, i) : step_to(STEP_NEXT, j);
}

/* A '[': after movetext, the next game's tag section or a bracket of this game's moves
 * (movetext_bracket); before, a tag pair. */
static struct step bracket(struct pgn_reader *r, size_t i, uint64_t eols)
{
    if (r->scan.phase != PHASE_MOVETEXT)
        return tag_pair(r, i, eols);
    size_t j = movetext_bracket(r, i);
    if (j == NEED_MORE)
        return step_to(STEP_MORE, i);
    return j ? step_to(STEP_NEXT, j) : step_to(STEP_BOUNDARY, i);
}

/* scan_fast by the reader's path (cpu.h): the AVX2 copy where it is built and chosen. */
static size_t scan_fast_at(struct pgn_reader *r, size_t i)
{
#ifdef PGNKIT_DISPATCH_AVX2
    if (r->cpu >= CPU_AVX2)
        return scan_fast_avx2(r, i);
#endif
    return scan_fast(r, i);
}

/*
 * The next step of the scan at i: the fast path over the usual tokens, then a blank, an
 * escape line, or the token at i, which starts the game when none has started.  *eols:
 * the line ends before that token (2: a blank line before it), taken from r->scan.eols; 0
 * when no token was reached.
 */
static struct step next_step(struct pgn_reader *r, size_t i, uint64_t *eols)
{
again:
    *eols = 0;
    if (i >= r->in.len)
        return step_to(r->in.eof ? STEP_STOP : STEP_MORE, i);
    unsigned cl = cls(r->in.data[i]);
    /* A game's first tag pair starts it here, as the token steps below would (no blank,
     * no escape line at a '['), so that the fast path reads it and the tag section on
     * like the others (a tag before movetext).  What it leaves goes on below as before. */
    if (cl == CC_LBRACKET && !r->started && i < r->stop_at && tokens_kept(r))
        begin_game(r, i);
    if (fast_path_starts(r, cl)) {
        size_t before = r->tok.ntok;
        i = scan_fast_at(r, i);
        /* It stops after a result it read (at depth 0: the game's end), else before what
         * it leaves. */
        if (r->tok.ntok != before && r->tok.toks[r->tok.ntok - 1].kind == PGN_TOK_RESULT)
            return step_to(STEP_RESULT, i);
        if (i >= r->in.len)
            return step_to(STEP_NEXT, i);
        cl = cls(r->in.data[i]);
    }
    size_t j = lex_blank(r, i, cl);
    if (j != i) {
        if (j == NEED_MORE)
            return step_to(STEP_MORE, i);
        /* Blanks between games (the blank line after a result): the next byte at once,
         * not in a round of scan_game's each, which would only find no part due (no game
         * started, no token kept) and come back here. */
        if (!r->started) {
            i = j;
            goto again;
        }
        return step_to(STEP_NEXT, j);
    }
    *eols = r->scan.eols;
    r->scan.eols = 0;
    if (cl == CC_PERCENT && (ptrdiff_t)i == r->scan.ls &&
        !(r->lim.mid_line && r->in.base_off + i == 0))
        return lex_escape_line(r, i);
    if (!r->started) {
        if (i >= r->stop_at) {
            /* The next piece's first game (pgn_reader_restart): this piece ends.  A
             * diagnostic waiting here (a control byte between games) belongs to that
             * game, which the next piece's reader will not see. */
            if (r->diags.count)
                r->stop_crossed = true;
            return step_to(STEP_STOP, i);
        }
        begin_game(r, i);
    }
    return cl == CC_LBRACKET ? bracket(r, i, *eols) : lex_token(r, i, cl);
}

/*
 * Tokenize one game from r->scan.pos.  Returns 1 when a game ended (end kind in *end), 0 when
 * the input ended before any game, -1 on an I/O error.
 */
static int scan_game(struct pgn_reader *r, enum game_end *end)
{
    size_t i = r->scan.pos;
    for (;;) {
        uint64_t eols;
        struct step s = next_step(r, i, &eols);
        i = s.at;
        switch (s.kind) {
        case STEP_NEXT:
            if (r->tok.ntok >= r->parts.part_stop)
                part_due(r, i);
            continue;
        case STEP_MORE:
            r->scan.eols += eols; /* the token at i is scanned again: give back its line ends */
            i = reader_read_more(r, i);
            if (i == SIZE_MAX)
                return -1;
            continue;
        case STEP_RESULT:
            if (r->scan.depth > 0) {
                if (r->tok.ntok >= r->parts.part_stop)
                    part_due(r, i);
                continue; /* a variation's result: the game goes on */
            }
            r->has_result = true;
            *end = END_RESULT;
            break;
        case STEP_BOUNDARY:
            *end = END_BOUNDARY;
            break;
        case STEP_STOP:
            *end = END_EOF;
            break;
        case STEP_FAILED:
            return -1;
        }
        r->scan.pos = i;
        return r->started ? 1 : 0;
    }
}

/*
 * One CONTROL_BYTE per game, at its first control byte wherever it stands (a tag value,
 * a comment, an escape line): the scan reports only those it reads as blanks between
 * tokens, so one pass over the game's text finds the others and the first of all.  The
 * same pass tells whether the text is plain ASCII (pgn_game.ascii): returns that.
 */
static bool report_control_byte(struct pgn_reader *r, const char *text, size_t n)
{
    bool ascii;
    size_t k = ctrl_find_ascii(text, n, &ascii);
    if (k == n)
        return ascii;
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
        return false;
    }
    add_diag(r, DIAG_CONTROL_BYTE, line, col, what, code);
    return false;
}

/* Close the game just scanned: end-of-game diagnostics, the size check, the public view. */
static bool finish_game(struct pgn_reader *r, enum game_end end, struct pgn_game *game)
{
    size_t i = r->scan.pos;
    uint64_t bytes = r->in.base_off + i - r->game_off;
    if (!r->skipping && bytes > r->lim.max_game_bytes)
        start_skipping(r);
    /* Only comments or whitespace since the last game: not a game of its own (unless too
     * large to look at, or broken). */
    if (r->scan.phase == PHASE_BEFORE && !r->has_result && !r->skipping &&
        diag_list_errors(&r->diags) == 0)
        return false;
    uint64_t line = r->scan.line, col = col_at(r, i);
    const struct pgn_token *last = parts_last_token(r);
    if (last) {
        line = pgn_line_from32(r->game_line, last->line);
        col = last->col;
    }
    if (r->scan.depth > 0)
        add_diag(r, DIAG_UNTERMINATED_VARIATION, r->scan.open_line, r->scan.open_col,
                 "the variation never closes (%llu still open where the game ends)",
                 (unsigned long long)r->scan.depth);
    if (r->scan.phase == PHASE_TAGS && !r->has_result)
        add_diag(r, DIAG_NO_MOVETEXT, r->game_line, r->game_col,
                 "a tag section with no movetext and no result");
    else if (r->scan.phase == PHASE_MOVETEXT && !r->has_result)
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

    bool ascii = !r->skipping && report_control_byte(r, r->in.data + r->game_start, (size_t)bytes);
    if (r->tag.scratch_len)
        place_escaped(r);
    r->games++;
    game->index = r->games_unknown ? 0 : r->games;
    game->file = r->name;
    game->line = r->game_line;
    game->offset = r->game_off;
    game->bytes = bytes;
    game->text = r->in.data + r->game_start;
    game->tags = r->tag.ntag ? r->tag.tags : NULL;
    game->tag_count = r->tag.ntag;
    parts_finish(r, game, r->in.base_off + i);
    if (r->keep_tokens)
        r->kept = r->tok.tok0 + game->token_count; /* a part's room after it is reused */
    game->diags = r->diags;
    game->skipped = r->skipping;
    game->ascii = ascii;
    game->mid_line = r->game_col != 1;
    return true;
}

int pgn_reader_next(struct pgn_reader *r, struct pgn_game *game, struct diag *err)
{
    /* A game handed out has every field set by finish_game: only the other answers zero
     * it (a memset per game is a cost lichess's short games feel). */
    if (r->finished) {
        memset(game, 0, sizeof *game);
        return 0;
    }
    if (!r->in.bom_done)
        skip_bom(r);
    for (;;) {
        enum game_end end = END_EOF;
        int st = -1;
        if (!r->in.failed) {
            reset_game(r);
            st = scan_game(r, &end);
            /* A game, or comments that made none, from before the stop to past it. */
            if (r->started && r->game_off < r->in.base_off + r->stop_at &&
                r->in.base_off + r->scan.pos > r->in.base_off + r->stop_at)
                r->stop_crossed = true;
        }
        if (st < 0) {
            memset(game, 0, sizeof *game);
            r->finished = true;
            if (err)
                diag_set(err, DIAG_IO, r->scan.line, 0, "%s: read error: %s",
                         r->name ? r->name : "input", strerror(r->in.err_no));
            return -1;
        }
        if (st == 0 || !finish_game(r, end, game)) {
            if (end == END_EOF) {
                memset(game, 0, sizeof *game);
                r->finished = true;
                return 0;
            }
            continue;
        }
        return 1;
    }
}

/* ---- parts ------------------------------------------------------------------------------ */

/*
 * Part k of the game handed out last, read again (pgn_part_source.load): from its cut to
 * the next, by the same steps as the first reading, with the reader's state put back
 * after (pgn_parts.c).  The data ends at the part's end, so the scan stops there.
 */
static struct pgn_part load_part(const struct pgn_part_source *src, size_t k)
{
    struct pgn_reader *r =
        (struct pgn_reader *)(void *)((char *)(uintptr_t)src -
                                      offsetof(struct pgn_reader, parts.part_src));
    if (k >= r->parts.part_count)
        return (struct pgn_part){NULL, 0};
    if (k == 0)
        return (struct pgn_part){r->tok.toks + r->tok.tok0,
                                 r->parts.ncut ? r->parts.cuts[0].first
                                               : r->tok.ntok - r->tok.tok0};
    struct pgn_reader saved;
    relex_begin(r, k, &saved);
    /* scan_game itself (next_step stays inlined in its one loop): it ends at the part's
     * end, the end of the data (relex_end checks that no boundary came first). */
    enum game_end end;
    if (scan_game(r, &end) < 0)
        r->parts.relex_broken = true;
    return relex_end(r, k, &saved);
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
    if (r->lim.max_game_tokens != DEFAULT_MAX_GAME_TOKENS)
        r->lim.drop_comments = false;
    if (!r->lim.part_tokens)
        r->lim.part_tokens = DEFAULT_PART_TOKENS;
}

static struct pgn_reader *reader_alloc(const char *name, const struct pgn_limits *limits)
{
    struct pgn_reader *r = xcalloc(1, sizeof *r);
    r->parts.part_src.load = load_part;
    r->name = name;
    r->scan.line = 1;
    r->stop_at = SIZE_MAX;
    r->cpu = (unsigned char)cpu_level();
    init_limits(r, limits);
    diag_list_init_capped(&r->diags, r->lim.max_diagnostics);
    return r;
}

struct pgn_reader *pgn_reader_new(struct pgn_source src, const char *name,
                                  const struct pgn_limits *limits)
{
    struct pgn_reader *r = reader_alloc(name, limits);
    r->in.src = src;
    r->in.data = "";
    return r;
}

/* Start reading at `at`: a line start between two games (0: the file's start). */
static void resume_at(struct pgn_reader *r, const struct pgn_resume *at)
{
    r->in.base_off = at->offset;
    r->scan.line = at->line ? at->line : 1;
    r->games = at->games;
    r->games_unknown = at->games_unknown;
    r->in.bom_done = at->offset != 0; /* a BOM is looked for at the file's start only */
    r->scan.no_close = r->scan.no_open = (struct absent){0, 0};
}

struct pgn_reader *pgn_reader_new_at(struct pgn_source src, const char *name,
                                     const struct pgn_limits *limits,
                                     const struct pgn_resume *at)
{
    struct pgn_reader *r = pgn_reader_new(src, name, limits);
    resume_at(r, at);
    return r;
}

struct pgn_reader *pgn_reader_new_blocks(const struct pgn_block_source *src, const char *name,
                                         const struct pgn_limits *limits)
{
    struct pgn_reader *r = reader_alloc(name, limits);
    r->in.data = "";
    reader_blocks_start(r, src);
    return r;
}

struct pgn_reader *pgn_reader_new_mapped(const struct pgn_file_map *map, const char *name,
                                         const struct pgn_limits *limits)
{
    return pgn_reader_new_mapped_at(map, name, limits, &(struct pgn_resume){0, 0, 0, false});
}

struct pgn_reader *pgn_reader_new_mapped_at(const struct pgn_file_map *map, const char *name,
                                            const struct pgn_limits *limits,
                                            const struct pgn_resume *at)
{
    struct pgn_reader *r = reader_alloc(name, limits);
    r->in.data = "";
    if (!reader_map_start(r, map)) {
        pgn_reader_free(r);
        return NULL;
    }
    resume_at(r, at);
    return r;
}

void pgn_reader_restart(struct pgn_reader *r, const char *data, size_t len, size_t stop,
                        const struct pgn_resume *at)
{
    r->in.data = data ? data : "";
    r->in.len = data ? len : 0;
    r->scan.pos = 0;
    r->in.shift = 0;
    r->scan.ls = 0;
    r->scan.eols = 0;
    r->in.eof = true;
    r->in.failed = false;
    r->finished = false;
    r->in.err_no = 0;
    r->stop_at = stop;
    r->stop_crossed = false;
    r->kept = 0;
    r->parts.part_count = 0; /* the last game's parts are in the old data */
    resume_at(r, at);
}

struct pgn_reader *pgn_reader_from_memory(const char *data, size_t len, const char *name,
                                          const struct pgn_limits *limits)
{
    struct pgn_reader *r = reader_alloc(name, limits);
    r->in.memory = true;
    r->in.data = data ? data : "";
    r->in.len = data ? len : 0;
    r->in.eof = true;
    return r;
}

void pgn_reader_free(struct pgn_reader *r)
{
    if (!r)
        return;
    free(r->in.buf);
    reader_unmap(r);
    reader_blocks_end(r);
    free(r->tok.toks);
    free(r->parts.cuts);
    free(r->tag.tags);
    name_set_release(&r->tag.names);
    free(r->tag.scratch);
    diag_list_release(&r->diags);
    free(r);
}

uint64_t pgn_reader_bytes(const struct pgn_reader *r) { return r->in.base_off + r->scan.pos; }

bool pgn_reader_stop_crossed(const struct pgn_reader *r) { return r->stop_crossed; }

void pgn_reader_set_cpu(struct pgn_reader *r, enum cpu_level level)
{
    r->cpu = (unsigned char)level;
}

void pgn_reader_keep_tokens(struct pgn_reader *r, bool keep)
{
    r->keep_tokens = keep && r->in.memory;
}

const struct pgn_token *pgn_reader_kept_tokens(const struct pgn_reader *r) { return r->tok.toks; }

/* ---- sources ---------------------------------------------------------------------------- */

static ssize_t fd_read(void *ctx, char *buf, size_t cap)
{
    int fd = *(const int *)ctx;
    for (;;) {
        ssize_t got = read(fd, buf, cap);
        if (got >= 0 || errno != EINTR)
            return got;
    }
}

struct pgn_source pgn_source_fd(int *fd) { return (struct pgn_source){fd_read, fd}; }
