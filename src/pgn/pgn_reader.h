/**
 * pgn_reader.h - a streaming PGN reader: bytes in, one tokenized game at a time out.
 *
 * Reads any size with memory bounded by the largest game (limits below).  Splits games
 * the PGN-standard way: a game ends at its result token at depth 0, where a tag section
 * starts, or at the end of input; blank lines inside movetext do not end a game.  An
 * unterminated comment or variation ends at a blank line followed by a tag-pair line,
 * so it cannot swallow the next game (pgn_tag_line_ends_comment: a comment that closes
 * soon after such a line is not cut).  In movetext only a '[' that begins its line and is
 * followed by a tag name and '"' starts a tag section; any other '[' is the game's own:
 * "[%...]" up to ']' on its line is a comment (one NONSTANDARD warning per game: braces
 * lost by a broken export), else an UNEXPECTED_CHAR.  Every byte position is known as 1-based line
 * and column (bytes); LF, CRLF and lone CR end lines; a UTF-8 BOM is skipped.  A control
 * byte (ctrl.h) anywhere in a game -- tag value, comment, escape line, between tokens (read
 * as a blank there) -- is one CONTROL_BYTE warning per game, at the first one.
 *
 * Reserved tokens: the PGN standard (8.2.6) reserves '<' ... '>' for future expansion.
 * '<' up to the next '>' on the same line (at most max_token_bytes) is one token that is
 * skipped wherever it stands, the tag section included (so HTML's <br /> line breaks do
 * not split a game).  The first one in a game is reported as an UNEXPECTED_CHAR error
 * (the code's own severity: the text is not clean PGN, though nothing of the game is
 * lost); later ones in the same game are skipped silently.  A '<' with no '>' on its
 * line is an unexpected byte, as are ']' '}' '"' and a lone '>'.
 *
 * The reader does not know chess: move tokens are passed on as text for san.h.
 * Not thread-safe; one reader per input stream.
 */
#ifndef PGNKIT_PGN_READER_H
#define PGNKIT_PGN_READER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/diag.h"
#include "board/types.h"

enum pgn_token_kind {
    PGN_TOK_MOVE = 0,        /* a move (SAN or other notation), suffix !? included */
    PGN_TOK_MOVE_NUMBER,     /* 12. or 12... or 12 (digits then dots) */
    PGN_TOK_NAG,             /* $n (text includes the $) */
    PGN_TOK_COMMENT,         /* {...}: text is the inside, without the braces */
    PGN_TOK_LINE_COMMENT,    /* ;... to end of line: text without the ; */
    PGN_TOK_VARIATION_START, /* ( */
    PGN_TOK_VARIATION_END,   /* ) */
    PGN_TOK_RESULT,          /* 1-0 0-1 1/2-1/2 * */
};

/*
 * A token stays 24 bytes (there is one per input byte at worst), so its position is
 * kept in 32 bits: line holds the low 32 bits of its line number, which
 * pgn_token_line() makes whole again from its game's 64-bit first line (exact while the
 * token is less than 2^32 lines into its game: a game is at most max_game_bytes); col
 * is clamped at UINT32_MAX (a line over 4 GiB).  Diagnostics, tags and games carry
 * 64-bit lines and columns.
 */
struct pgn_token {
    const char *text; /* into the reader's buffer: valid until the next pgn_reader_next() */
    uint32_t len;
    uint32_t line;    /* low 32 bits: use pgn_token_line() */
    uint32_t col;
    uint8_t kind;     /* enum pgn_token_kind */
    uint8_t pad[3];
};

struct pgn_tag {
    struct slice name;
    struct slice value; /* escapes \" and \\ already undone */
    uint64_t line;
    uint64_t col;
};

/** One game as read.  All pointers are owned by the reader, valid until the next call. */
/*
 * A game of more than pgn_limits.part_tokens tokens is handed out in parts, so that its
 * tokens never take more than a part's room however many there are (at 24 bytes a token
 * and up to one token per input byte, a whole game's tokens could take 24 times its
 * bytes; its text is kept whole, ~1 time).  The game's text, tags, diagnostics, bytes and
 * last_result are whole as for any game; tokens/token_count hold part 0, and
 * pgn_game_part() gives part k, read again from the game's text (so a part costs a second
 * tokenizing, and only games over part_tokens pay it).  The concatenation of the parts is
 * exactly the token list the game would have had whole.  A part never ends between two
 * tokens one of which changes the reading of the other: not after a move token directly
 * followed by '(' (e8(Q)), nor between a move token (itself no such mark) and an
 * en-passant mark ("e.p.", "ep", "e.p", "ep.") that follows it.  A part may end before
 * the movetext too (after a comment: the only tokens there), so comments before the first
 * move come in parts like any others.  No part is empty.  Every part, part 0 included,
 * holds at most part_tokens + 2 tokens.  Loads are valid while the game is the reader's
 * last one (until its next pgn_reader_next or restart); with pgn_reader_keep_tokens,
 * part 0 is the game's kept tokens and the parts after it are not kept.
 */
struct pgn_part {
    const struct pgn_token *tokens;
    size_t count;
};

/* How a game's parts are loaded: the reader's own, or a wrapper's that changes the
 * tokens it hands on (pgn_text.c decodes them).  load(src, k) for 1 <= k < part_count;
 * valid until the next load from the same source or the reader's next pgn_reader_next(). */
struct pgn_part_source {
    struct pgn_part (*load)(const struct pgn_part_source *src, size_t k);
};

struct pgn_game {
    uint64_t index;              /* 1-based index of the game in its file; 0 when not known
                                  * (a reader resumed with games_unknown) */
    const char *file;            /* the name given to pgn_reader_new */
    uint64_t line;               /* first line of the game */
    uint64_t offset;             /* byte offset of its first byte in the file */
    uint64_t bytes;              /* bytes the game spans */
    const char *text;            /* its first byte in the reader's buffer (bytes long, unless
                                  * skipped); token texts and unescaped tag values point
                                  * into it, escaped tag values elsewhere */
    const struct pgn_tag *tags;
    size_t tag_count;
    const struct pgn_token *tokens; /* all of them, or part 0 when part_count > 1 */
    size_t token_count;
    size_t part_count;           /* 1: whole; more: in parts; 0: no tokens (skipped too) */
    const struct pgn_part_source *parts; /* loads parts 1.. when part_count > 1, else NULL */
    /* The last result token of the movetext, at any depth, as written ({NULL, 0}: none):
     * the termination marker when the game has one.  It is the last PGN_TOK_RESULT of the
     * game's tokens (a result inside variations nested past max_depth is none). */
    struct slice last_result;
    /* Problems the reader found: unterminated comment, bad tag, control bytes, size
     * limits, ...  A game with an error here may still have usable tokens. */
    struct diag_list diags;
    bool skipped;                /* too large or unreadable: no tags/tokens given */
    /* The reader found text[0, bytes) plain ASCII (no byte >= 0x80, no control byte) in
     * its pass for control bytes; false when it did not (pgn_text_utf8 then looks). */
    bool ascii;
};

/** The whole line of a line's low 32 bits `low`, at most 2^32 - 1 lines after `base`. */
static inline uint64_t pgn_line_from32(uint64_t base, uint32_t low)
{
    return base + (uint32_t)(low - (uint32_t)base);
}

/** The 1-based line of a token of game g. */
static inline uint64_t pgn_token_line(const struct pgn_game *g, const struct pgn_token *t)
{
    return pgn_line_from32(g->line, t->line);
}

/** Limits; 0 in a field means the default.  Going past one is a diagnostic, not an abort. */
struct pgn_limits {
    size_t max_game_bytes;    /* default 64 MiB */
    size_t max_token_bytes;   /* a move/NAG/number/tag name token; default 255 */
    size_t max_comment_bytes; /* default 32 MiB */
    uint32_t max_depth;       /* variation nesting; default 1024 */
    size_t max_diagnostics;   /* kept per game (then counted: diag_list); default 1000 */
    size_t max_game_tokens;   /* tokens in one game: more and the game is skipped; default
                               * none (SIZE_MAX): parts bound the memory they take */
    size_t part_tokens;       /* a game of more tokens comes in parts (struct pgn_part);
                               * default 64 Ki; SIZE_MAX: every game whole */
};

/** Part k (< g->part_count, or 0) of g's tokens: part 0 is g's own tokens, the others
 *  are loaded through g->parts. */
static inline struct pgn_part pgn_game_part(const struct pgn_game *g, size_t k)
{
    if (k == 0 || !g->parts)
        return (struct pgn_part){g->tokens, g->token_count};
    return g->parts->load(g->parts, k);
}

/** How far past a tag pair line inside a comment the reader looks for the comment's '}'. */
#define PGN_COMMENT_LOOKAHEAD ((size_t)64 << 10)

/**
 * The reader's rule for a line starting with '[' (at d[k]) after a blank line inside a
 * {comment}: 1 when it ends the comment there, which then never closed (the line is a
 * real tag pair, [Name "value"], and no '}' follows within PGN_COMMENT_LOOKAHEAD bytes
 * before a '{', the next game's comment); 0 when the comment goes on (a '[%clk ...]'
 * line, a lone '[', or a tag pair in a comment that closes); -1 when d[0, n) ends before
 * that is decided.  at_end: n is the end of the input (then never -1: an unfinished tag
 * line is none, an unfinished lookahead finds no '}').  pgn_split's sync points use it.
 */
int pgn_tag_line_ends_comment(const char *d, size_t n, size_t k, bool at_end);

/** Where bytes come from: read(2)-like, returns bytes read, 0 at end, -1 on error (errno). */
struct pgn_source {
    ssize_t (*read)(void *ctx, char *buf, size_t cap);
    void *ctx;
};

struct pgn_reader;

/** A reader over src (retained until pgn_reader_free); name is retained too. */
struct pgn_reader *pgn_reader_new(struct pgn_source src, const char *name,
                                  const struct pgn_limits *limits);
/** A reader over an in-memory buffer (retained; not copied). */
struct pgn_reader *pgn_reader_from_memory(const char *data, size_t len, const char *name,
                                          const struct pgn_limits *limits);
void pgn_reader_free(struct pgn_reader *r);

/**
 * Where a reader starts when a file is read in pieces (the --jobs pipeline): a line start
 * between two games, as the whole-file reader would be there.
 */
struct pgn_resume {
    uint64_t offset; /* file offset of that byte; 0 is the file's start (a BOM is skipped) */
    uint64_t line;   /* its 1-based line number */
    uint64_t games;  /* games before it: the next game's index is games + 1 */
    bool games_unknown; /* games before it not counted (--range): every index is 0 */
};

/** A reader over src, whose first byte is the file's byte at->offset. */
struct pgn_reader *pgn_reader_new_at(struct pgn_source src, const char *name,
                                     const struct pgn_limits *limits,
                                     const struct pgn_resume *at);

/**
 * Point a memory reader at another piece of a file: data[0, len) is the file from
 * at->offset on.  A game that would start at data[stop] or later is not read (there
 * pgn_reader_next returns 0): it belongs to the next piece.  The bytes from stop on are
 * still read as lookahead, and a game that starts before stop is read to its end, past
 * stop if that is where it ends.  The token, tag and scratch arrays are kept and reused.
 */
void pgn_reader_restart(struct pgn_reader *r, const char *data, size_t len, size_t stop,
                        const struct pgn_resume *at);

/**
 * Once pgn_reader_next has returned 0 on a restarted reader: whether its stop was not a
 * clean place between two games, so that the pieces would not read as the whole file
 * does.  That is when something read began before stop and ended after it (a game, or
 * comments that made no game), or a diagnostic (a control byte between games) was
 * waiting for the game at stop.  The piece must then be read with more bytes.
 */
bool pgn_reader_stop_crossed(const struct pgn_reader *r);

/**
 * Keep the tokens of every game read since the last restart, instead of reusing them for
 * the next game (memory readers only; off by default): a caller can then hold all the
 * games of a piece without copying their tokens.  The array still moves when it grows:
 * a game's tokens stay at the same index from pgn_reader_kept_tokens() as when the game
 * was returned, and are valid until the next restart.  Turned off between games, the
 * tokens kept so far stay (until the next restart); later games' go after them.
 */
void pgn_reader_keep_tokens(struct pgn_reader *r, bool keep);
const struct pgn_token *pgn_reader_kept_tokens(const struct pgn_reader *r);

/**
 * Read the next game into *game.  Returns 1 with a game, 0 at the end of input, -1 on
 * an I/O error (then *err is filled with DIAG_IO; the reader is finished).
 */
int pgn_reader_next(struct pgn_reader *r, struct pgn_game *game, struct diag *err);

/** Bytes consumed so far (for progress and the summary). */
uint64_t pgn_reader_bytes(const struct pgn_reader *r);

/**
 * A source reading the file descriptor *fd with read(2), retrying EINTR.  Retains fd (the
 * pointer): it must outlive the reader.  The caller opens and closes the descriptor.
 */
struct pgn_source pgn_source_fd(int *fd);

#endif
