/*
 * pgn_reader_internal.h - the state the streaming reader's files share, and what each
 * of them offers the others.  Private to the reader: the library's API is
 * include/pgnkit/pgn_reader.h.
 *
 * The reader is seven files, whose calls go one way (down this list):
 *   pgn_reader.c      the game splitter and the public API: a game's start and end
 *                     (SPEC §2), its limits, the view handed out, construction, the
 *                     second reading of a part;
 *   pgn_parts.c       a game in parts: where its parts end (the cuts), and the state a
 *                     part is read again from;
 *   pgn_lexer_fast.c  bytes to tokens, the fast path: the usual tokens, nearly all bytes;
 *   pgn_lexer.c       bytes to tokens, one at a time: whatever the fast path leaves;
 *   pgn_comments.c    {comments}, and the rule that a tag pair line after a blank line
 *                     ends a comment that never closes;
 *   pgn_tags.c        tag pairs: parsing, recovery from broken ones, keeping them;
 *   reader_buffer.c   the input buffer (reads, compaction, growth, the pointers that move
 *                     with it), streaming skips, the growable per-game arrays, diagnostics;
 * over name_set.{c,h} (the tag names seen) and pgn_bytes.h (byte classes, vector scans).
 */
#ifndef PGNKIT_PGN_READER_INTERNAL_H
#define PGNKIT_PGN_READER_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/inline_hints.h"
#include "base/name_set.h"
#include "pgn/pgn_bytes.h"
#include "pgn/pgn_reader.h"

/* Out of line and cold, across the reader's files (PGNKIT_COLD is for one file). */
#define READER_COLD __attribute__((noinline, cold))

#define NEED_MORE SIZE_MAX /* a scanner ran out of bytes before the end of its construct */
#define TAG_SKIP_LINE (SIZE_MAX - 1) /* a tag line over its bound: the caller skips the line */

enum game_phase {
    PHASE_BEFORE = 0, /* nothing yet but whitespace, comments or junk */
    PHASE_TAGS,       /* in the tag section */
    PHASE_MOVETEXT,   /* a movetext token was seen */
};

enum game_end { END_EOF, END_RESULT, END_BOUNDARY };

/* File offsets [from, to) that hold no byte of some value. */
struct absent {
    uint64_t from, to;
};

/*
 * Where a part of a game in parts starts (pgn_reader.h, struct pgn_part): the scan's
 * state between two steps, which is all that reading on from there needs (the tags, the
 * tag names and the limits' flags decide only diagnostics, tags and game boundaries,
 * which a second reading neither makes nor takes: the first reading found none inside
 * the part).  File offsets, not indices: the data moves under a streaming reader.
 */
struct part_cut {
    uint64_t off;      /* where the scan resumes */
    uint64_t ls_off;   /* its line's first byte */
    uint64_t line;
    uint64_t eols;
    uint64_t depth;
    uint64_t open_line, open_col;
    size_t first;      /* the part's first token: its index among the game's tokens */
    enum game_phase phase; /* before the movetext, a '[' is a tag pair's */
};

/*
 * The reader's state, and which file keeps each part up to date:
 *   reader_buffer.c  the input: buf .. base_off, eof, failed, err_no; it moves pos, ls
 *                    and game_start with the data, grows toks and tags, and sets skipping
 *                    (and too_many_tokens) when a game passes a limit;
 *   pgn_lexer*.c,    where the scan is (line, ls, eols), the variation depth and its
 *   pgn_comments.c   first '(', the *_reported flags, the tokens, no_close/no_open;
 *   pgn_tags.c       the tags, names and tags_in_set, scratch, bad_string;
 *   pgn_parts.c      the parts (win .. relex_broken): cuts, the part being read, the
 *                    limits on its tokens (part_stop, tok_limit), the last result's place
 *                    (set by the lexer's result tokens);
 *   pgn_reader.c     construction and restarts, the game's start (started, game_*), its
 *                    result, stop_crossed, the counts (games, tok0, kept), finished.
 * Two are shared: pos (where a call that may read resumes) is set by whichever file calls
 * reader_fill(), and phase by the lexer (movetext seen) and the splitter (tags).
 */
struct pgn_reader {
    struct pgn_source src;
    const char *name;
    struct pgn_limits lim;

    char *buf;         /* owned buffer; NULL for memory readers */
    size_t cap;
    const char *data;  /* buf, or the caller's memory */
    size_t len;        /* valid bytes in data */
    size_t pos;        /* where scanning resumes; the restart point handed to reader_fill() */
    size_t shift;      /* how far the last reader_fill() moved the data to the left */
    uint64_t base_off; /* file offset of data[0] */
    ptrdiff_t ls;      /* index of the current line's first byte (negative once discarded) */
    uint64_t line;
    bool eof;
    bool memory;
    bool bom_done;
    bool failed;
    bool finished;
    int err_no;
    uint64_t games;
    bool games_unknown; /* game indexes are not known: each game gets index 0 */
    size_t stop_at;    /* games starting at this index or later are not read (restart) */
    /* Stretches of the file known to hold no '}' (no '{'): an unterminated comment
     * searched them, and the next one does not search them again (else each costs the
     * rest of the buffer, or the tag line rule's lookahead). */
    struct absent no_close, no_open;
    bool stop_crossed; /* stop_at was no clean place between games */

    /* The game being read. */
    bool started;
    bool skipping;     /* over max_game_bytes: scanned for its end, nothing kept */
    bool too_many_tokens; /* skipping since the game passed max_game_tokens */
    bool has_result;
    bool ctrl_reported;
    bool deep_reported;
    bool reserved_reported; /* a <...> reserved token was reported in this game */
    bool unbraced_reported; /* a [%...] comment without braces was reported in this game */
    bool bad_string;   /* an unterminated tag value: a tag line after a blank line starts anew */
    enum game_phase phase;
    size_t game_start; /* index in data of its first byte (only while !skipping) */
    uint64_t game_off;
    uint64_t game_line;
    uint64_t game_col;
    uint64_t depth;
    uint64_t open_line; /* where the outermost open '(' is */
    uint64_t open_col;

    struct pgn_token *toks;
    size_t ntok, tok_cap;
    size_t tok0;      /* the game's first token: 0, or after the kept games' (keep_tokens) */
    /* The game's tokens in parts (pgn_parts.c): part 0 is toks[tok0, win) once cut, and
     * the part being read is toks[win, ntok), its tokens counted from part_base (the
     * game's tokens before it).  Before the first cut win is tok0. */
    size_t win;
    size_t part_base;
    size_t part_stop; /* toks index where the part being read is due for a cut */
    size_t tok_limit; /* toks index where the game passes max_game_tokens */
    struct part_cut *cuts; /* cuts[k]: where part k + 1 starts */
    size_t ncut, cut_cap;
    /* A cut after a move waits for the next token: no cut before a promotion piece that
     * joins the move (e8(Q)) or an en passant mark (e.p.). */
    bool cut_waits;
    uint32_t wait_len;   /* the move's length at the wait */
    size_t wait_ntok;    /* ntok at the wait */
    struct part_cut wait_at;
    struct pgn_token cut_last; /* the token before the last cut */
    uint64_t result_off;  /* the last result token kept: its file offset (UINT64_MAX: none) */
    uint32_t result_len;
    /* The game handed out last, for loading its parts (pgn_reader.c's load_part). */
    uint64_t game_end;    /* file offset after its last byte */
    size_t part_count;
    bool relex;           /* reading a part again: no diagnostic, tag, boundary or read */
    bool relex_broken;    /* ... and it read otherwise than the first time (a bug) */
    struct pgn_part_source part_src;
    size_t kept;      /* tokens of the games returned since the restart, when keep_tokens */
    bool keep_tokens;
    /* The tags as handed out, built as they are read: names and unescaped values point
     * into data and move with it (make_room); an escaped value has a NULL pointer until
     * finish_game, as scratch may still move: those values lie in scratch in tag order. */
    struct pgn_tag *tags;
    size_t ntag, tag_cap;
    uint64_t eols;    /* line ends since the last byte that was not whitespace */
    struct name_set names; /* this game's tag names (tag_is_dup) */
    size_t tags_in_set; /* tags[0, tags_in_set) are in names */
    char *scratch;
    size_t scratch_len, scratch_cap;
    struct diag_list diags;
};

/* The 1-based column of index i on the line that starts at index ls. */
static inline uint64_t col_of(size_t i, ptrdiff_t ls) { return (uint64_t)((ptrdiff_t)i - ls + 1); }

static inline uint64_t col_at(const struct pgn_reader *r, size_t i) { return col_of(i, r->ls); }

/*
 * What one step of the scan found at an index: the lexer's token steps return it, and
 * pgn_reader.c's loop acts on it.  Errors and game ends flow back as values.
 */
enum step_kind {
    STEP_NEXT,     /* read on at .at */
    STEP_MORE,     /* the data ends inside the construct at .at: read more, scan it again */
    STEP_RESULT,   /* a result token ends at .at: the game's end, outside variations */
    STEP_BOUNDARY, /* the next game starts at .at: this one has ended */
    STEP_STOP,     /* no game starts at .at: the end of the input, or a restarted reader's stop */
    STEP_FAILED,   /* an I/O error */
};

struct step {
    enum step_kind kind;
    size_t at;
};

static inline struct step step_to(enum step_kind kind, size_t at) { return (struct step){kind, at}; }

/* ---- reader_buffer.c: input, streaming skips, per-game arrays, diagnostics ---------------- */

void add_diag(struct pgn_reader *r, enum diag_code code, uint64_t line, uint64_t col,
              const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * Read more bytes.  Keeps the current game (or, when skipping, everything from r->pos);
 * the data may move: callers subtract r->shift from their indices.  mark: the bytes
 * before it surely belong to the current game (the size limit is checked on them).
 * Returns 1 when bytes were added, 0 at the end of input, -1 on an I/O error.
 */
int reader_fill(struct pgn_reader *r, size_t mark);
/* Read until the bytes from i (a construct cut by the end of the data) at least double;
 * returns where i's byte now is, or SIZE_MAX on an I/O error. */
size_t reader_read_more(struct pgn_reader *r, size_t i);
/* Skip a UTF-8 byte-order mark at the start of the input. */
void skip_bom(struct pgn_reader *r);
/* Skip to the end of the line (not consumed), keeping nothing.  SIZE_MAX on I/O error. */
size_t skip_line(struct pgn_reader *r, size_t i);
/* Skip the rest of a token run, keeping nothing.  SIZE_MAX on I/O error. */
size_t skip_run(struct pgn_reader *r, size_t i);
/* Keep nothing more of this game (its tag names stay known); called while the game's
 * bytes are still in the buffer (before reader_fill() moves them). */
void start_skipping(struct pgn_reader *r);
/* The game passed max_game_tokens (emit() at tok_limit): it is skipped from here on, as
 * one over max_game_bytes is.  While a part is read again: more tokens than the first
 * reading found there (a bug), the rest dropped. */
READER_COLD void tokens_over_limit(struct pgn_reader *r);
/* Out of line and cold: keeps emit() and push_tag() small enough to inline without
 * register spills. */
READER_COLD void grow_tokens(struct pgn_reader *r);
READER_COLD void grow_tags(struct pgn_reader *r);
/* Hash the names of the tags kept that are not in r->names yet. */
void name_set_catch_up(struct pgn_reader *r);

/* Tokens are dropped while the game is skipped or inside variations nested too deep. */
static inline bool tokens_kept(const struct pgn_reader *r)
{
    return !r->skipping && r->depth <= r->lim.max_depth;
}

static inline void emit(struct pgn_reader *r, const char *text, size_t len, uint64_t line,
                        uint64_t col, enum pgn_token_kind kind)
{
    if (!tokens_kept(r))
        return;
    if (r->ntok >= r->tok_limit) {
        tokens_over_limit(r);
        return;
    }
    if (r->ntok == r->tok_cap)
        grow_tokens(r);
    /* A token keeps its line's low 32 bits (pgn_token_line) and a clamped column. */
    r->toks[r->ntok++] = (struct pgn_token){.text = text, .len = (uint32_t)len,
                                            .line = (uint32_t)line,
                                            .col = col > UINT32_MAX ? UINT32_MAX : (uint32_t)col,
                                            .kind = (uint8_t)kind};
}

/* A new tag at the end of the game's tags, for the caller to fill. */
static inline struct pgn_tag *push_tag(struct pgn_reader *r)
{
    if (r->ntag == r->tag_cap)
        grow_tags(r);
    return &r->tags[r->ntag++];
}

/* ---- pgn_parts.c: a game in parts ------------------------------------------------------- */

/* a + b, or SIZE_MAX when that overflows. */
static inline size_t add_sat(size_t a, size_t b) { return b > SIZE_MAX - a ? SIZE_MAX : a + b; }

/* Start the game's parts: none cut yet, no result seen; after reset_game's tok0. */
void parts_reset(struct pgn_reader *r);
/* The scan is between two steps at i with the part being read due for a cut
 * (ntok >= part_stop): cut it here, or at the move before, when that is safe. */
READER_COLD void part_due(struct pgn_reader *r, size_t i);
/* The game's last token kept (the part being read may be empty), or NULL. */
const struct pgn_token *parts_last_token(const struct pgn_reader *r);
/* The game just read, as handed out: its tokens (part 0), parts and last result, for a
 * game of the given end offset.  Sets what load_part needs. */
void parts_finish(struct pgn_reader *r, struct pgn_game *game, uint64_t end);
/* Set the reader to read part k (1 <= k < part_count) again from r->pos, its state kept
 * in *saved: the scan ends at the end of the data, the part's end. */
void relex_begin(struct pgn_reader *r, size_t k, struct pgn_reader *saved);
/* The part read, and the reader as it was. */
struct pgn_part relex_end(struct pgn_reader *r, size_t k, const struct pgn_reader *saved);

/* ---- pgn_tags.c: tag pairs ------------------------------------------------------------------ */

/* A tag pair as parsed, before the caller decides to keep it. */
struct tag_parse {
    size_t name, name_len, value, value_len; /* indices into data */
    bool has_tag;
    bool escaped;
    bool fixed;   /* the value held an unescaped '"' (tag_fix_string) */
    enum diag_code err;
    size_t err_pos;
    const char *err_msg;
};

/*
 * The usual tag pair, [Name "Value"] with one space, no escape and nothing wrong, all
 * within the data and the limits: returns the index after its ']' with *tp filled as
 * parse_tag() would fill it, or 0 for anything else, which parse_tag() then handles.
 * Two vector scans (name, value) instead of parse_tag's byte loops and bound bookkeeping.
 * Here, not in pgn_tags.c: the lexer's loops call it once per tag pair, inlined.
 */
static inline size_t parse_tag_simple(const struct pgn_reader *r, const char *d, size_t i,
                                      size_t n, struct tag_parse *tp)
{
    size_t name = i + 1;
    size_t j = run_end(d, name, n);
    if (j == name || j - name > r->lim.max_token_bytes || n - j < 2 || d[j] != ' ' ||
        d[j + 1] != '"')
        return 0;
    size_t value = j + 2;
    size_t q = find_stop(d, value, n, '"', '\\');
    /* Within max_comment_bytes, the line is within parse_tag's bound too. */
    if (n - q < 2 || d[q] != '"' || d[q + 1] != ']' || q - value > r->lim.max_comment_bytes)
        return 0;
    *tp = (struct tag_parse){.name = name,
                             .name_len = j - name,
                             .value = value,
                             .value_len = q - value,
                             .has_tag = true};
    return q + 2;
}


/* Any tag pair whose '[' is at d[i]: the index after it, NEED_MORE or TAG_SKIP_LINE. */
size_t parse_tag(const struct pgn_reader *r, const char *d, size_t i, size_t n,
                 struct tag_parse *tp);
/* Whether the pair parsed repeats a name of this game's tags. */
bool tag_is_dup(struct pgn_reader *r, const char *d, const struct tag_parse *tp);
/* Keep the tag pair parsed at d[i] (its diagnostics too), on the line `line` whose first
 * byte is at ls. */
void commit_tag(struct pgn_reader *r, const char *d, size_t i, const struct tag_parse *tp,
                uint64_t line, ptrdiff_t ls);
/* Point the escaped tag values at their unescaped text, once scratch no longer moves. */
void place_escaped(struct pgn_reader *r);

/* ---- pgn_comments.c: {comments} ------------------------------------------------------------- */

/*
 * Scan the {comment} whose '{' is at index i.  Returns the index after it.  When it never
 * closes and a tag line after a blank line ends it, returns that '[' index and sets
 * *boundary.  Returns SIZE_MAX on an I/O error.
 */
size_t scan_comment(struct pgn_reader *r, size_t i, bool *boundary);

/* ---- pgn_lexer_fast.c: the usual tokens ----------------------------------------------------- */

/*
 * The fast path: from i, the tokens of a started game whose tokens are kept, as long as
 * they are the usual ones (moves, move numbers, comments on one line, usual tag pairs
 * in a tag section, blanks); returns the index of the first byte it leaves to the rest.
 */
size_t scan_fast(struct pgn_reader *r, size_t i);

/* ---- pgn_lexer.c: one token at a time ------------------------------------------------------- */

/* The index after the blank at i, i when no blank starts there, or NEED_MORE. */
size_t lex_blank(struct pgn_reader *r, size_t i, unsigned cl);
/* A '%' that begins its line: the escape line, skipped. */
struct step lex_escape_line(struct pgn_reader *r, size_t i);
/* The token at i, of class cl: anything but a blank and a '[' (the splitter's). */
struct step lex_token(struct pgn_reader *r, size_t i, unsigned cl);
/*
 * A '[' in movetext at d[i].  When it begins its line and a tag pair follows, the next
 * game's tag section starts here: returns 0.  Any other '[' is this game's (a comment
 * token or an error).  Returns the index after what was read, or NEED_MORE.
 */
size_t movetext_bracket(struct pgn_reader *r, size_t i);

#endif
