/**
 * writer.h - turn replayed games into output bytes.
 *
 * Every writer appends to a struct buf and never touches a file descriptor, so the
 * same code serves one thread, many threads, and the tests.  A writer reads the game
 * (tags, tokens) and its record (moves, diagnostics); it never changes either.
 */
#ifndef PGNKIT_WRITER_H
#define PGNKIT_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "game/game.h"

/* SAN and LALG: uci's line per game in SAN or pgn-extract's long algebraic (-Wlalg);
 * EPD: fen's lines with the FEN's first four fields. */
enum output_format {
    FORMAT_TEXT = 0, FORMAT_JSON, FORMAT_PGN, FORMAT_TSV, FORMAT_SAN, FORMAT_LALG, FORMAT_EPD
};

/* The "schema" of every JSON object pgnkit writes (per-game and diagnostic lines here;
 * --summary-json and pgnkit summary in the CLI): raised only when a reader of the old
 * form would misread the new one (a key removed, or changed in meaning or type), not
 * for keys added.  1: the first numbered form (clk and emt as seconds). */
enum { WRITER_JSON_SCHEMA = 1 };

enum fen_mode { FEN_MODE_FINAL = 0, FEN_MODE_PLY, FEN_MODE_EVERY, FEN_MODE_COMMENTS };

/* The tags `pgn` writes (--seven-tags, --no-tags): all of them (the roster first), only
 * the Seven Tag Roster (then any added ones), or none (the movetext alone). */
enum pgn_tag_set { PGN_TAGS_ALL = 0, PGN_TAGS_ROSTER, PGN_TAGS_NONE };

enum writer_extra {
    WRITER_WITH_CLK = 1 << 0,  /* [%clk h:mm:ss] per move */
    WRITER_WITH_EVAL = 1 << 1, /* [%eval x] per move */
    WRITER_WITH_EMT = 1 << 2,  /* [%emt h:mm:ss] per move */
    /* The key of a game across files and byte ranges: its file's name and its first
     * byte's offset, as leading columns of the line-per-game and row-per-ply outputs
     * (JSON always has both keys). */
    WRITER_WITH_FILE = 1 << 3,
    WRITER_WITH_OFFSET = 1 << 4,
    /* The game's opening (game_record.opening): eco and opening columns at the end of
     * uci's TSV rows, an "opening" member in JSON. */
    WRITER_WITH_OPENING = 1 << 5,
};

struct writer_options {
    enum output_format format;
    const char *const *tags;  /* --tags columns, borrowed */
    size_t tag_count;
    bool king_takes_rook;     /* castling as e1h1 in standard games too */
    enum fen_mode fen_mode;
    uint32_t fen_ply;         /* FEN_MODE_PLY */
    unsigned fen_flags;       /* enum fen_flags */
    unsigned with;            /* enum writer_extra */
    /* Shaping `pgn` (and fen --comments) output. */
    bool drop_comments;       /* no comments (pgnkit's own "not replayed" one stays) */
    bool drop_nags;           /* no NAGs, suffix annotations (! ?) included */
    bool drop_variations;     /* no variations */
    bool fix_result;          /* the result a final checkmate or stalemate decides wins */
    enum pgn_tag_set tag_set; /* which tags: all, the Seven Tag Roster, none */
    size_t line_width;        /* the columns a movetext line may fill; 0: 80 */
    /* Tags added after the game's own (one of the same name is replaced when the added one
     * has a value), in this order.  The writer knows PlyCount (mainline plies replayed),
     * FinalFEN (after them), HashCode (polyglot_key of that
     * position, 16 lowercase hex digits), ECO and Opening (game_record.opening; none when NULL);
     * for any other name it asks tag_value, which appends the value and returns true,
     * or returns false to leave the tag out (tag_value may be NULL). */
    const char *const *add_tags;
    size_t add_tag_count;
    bool (*tag_value)(const void *ctx, const struct game_record *rec, const char *name,
                      struct buf *value);
    const void *tag_value_ctx;
};

/** `uci`: one line (or object, or PGN game) per game. */
void writer_uci(struct buf *out, const struct game_record *rec, const struct writer_options *o);

/** The header row `uci --format tsv` writes once, before the first game (nothing for the
 * other formats): the --tags names, game, ply, uci, san, then clk, eval, emt, eco,
 * opening as --with asks. */
void writer_uci_header(struct buf *out, const struct writer_options *o);

/**
 * `fen`: the FEN after the last ply (FEN_MODE_FINAL), after ply N, or after every ply;
 * with FORMAT_JSON, the game's object with those FENs.  `fen --comments` (FEN_MODE_COMMENTS)
 * re-emits the whole game, which is the PGN writer's work: call writer_pgn() with the same
 * options for it, as the CLI does (cli/work.c).  writer_fen() writes nothing for
 * FEN_MODE_COMMENTS outside JSON (it no longer hands the game to writer_pgn() itself).
 */
void writer_fen(struct buf *out, const struct game_record *rec, const struct writer_options *o);

/** `pgn`: the game normalized in export format.  With o->fen_mode FEN_MODE_COMMENTS
 * (`fen --comments`), a comment holding the FEN after each mainline move. */
void writer_pgn(struct buf *out, const struct game_record *rec, const struct writer_options *o);

/** `pgn --split-variations`: each line of play (the mainline, then every variation in
 * the order it starts, nested ones too) as a game of its own: the game's tag section and
 * result, the moves leading to the line and its own, in canonical SAN (writer_lines.c). */
void writer_pgn_lines(struct buf *out, const struct game_record *rec,
                      const struct writer_options *o);

/**
 * writer_pgn(), and when fixes is not NULL, one line per change the normalization made
 * appended to it, in the compiler form of the diagnostics:
 * FILE:LINE:COL: fix[KIND]: game N[, ply P]: what changed.  KIND is one of TAG_ADDED,
 * TAG_REPEATED, TAG_ORDER, SAN, MOVE_NUMBER, RESULT, NOT_REPLAYED, VARIATION_CLOSED.
 */
void writer_pgn_fixes(struct buf *out, struct buf *fixes, const struct game_record *rec,
                      const struct writer_options *o);

/** One diagnostic of game g, compiler form:
 * FILE:LINE:COL: error[CODE]: game N, ply P (12... Nbd7): msg
 * where "game N" is "game at byte OFFSET" when the game's index is not known (0). */
void writer_diag_text(struct buf *out, const struct pgn_game *g, const struct diag *d);
/** One diagnostic of game g as a JSON object (no newline): file, offset (the game's),
 * line, col, game (null when not known), ply, ... */
void writer_diag_json(struct buf *out, const struct pgn_game *g, const struct diag *d);
/** The same as a line of its own, as check --format json writes it: "schema" first, then
 * the same keys, and a newline. */
void writer_diag_json_line(struct buf *out, const struct pgn_game *g, const struct diag *d);

#endif
