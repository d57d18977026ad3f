/**
 * pgnkit.h - the public C API of libpgnkit: read PGN games, replay them, ask for moves,
 * positions, tags, diagnostics and clock/eval comments.  The one header to include.
 *
 * A reader streams one source (a file, a file descriptor or memory; gzip, zstd, bzip2, xz
 * and zip, 7z or tar archives found by content) and hands out one game at a time; in an
 * archive, the games of every .pgn member in archive order, as the command line reads
 * them (pgnkit_game_member names the member; index, offset and line count per member).  Each game is replayed on a real board
 * as it is read, exactly as `pgnkit check` and `pgnkit uci` replay it, so its status and
 * diagnostics are the ones the command line prints.
 *
 * Ownership: every handle is opaque.  A game and every pointer it gives out (strings,
 * diagnostics) belong to the reader and stay valid until the next pgnkit_next() or
 * pgnkit_close() on that reader; copy what you keep.  Strings from this API are UTF-8
 * bytes with a length (pgnkit_str), not NUL-terminated unless said so.
 *
 * Errors are values: a function that can fail returns NULL or -1 and fills a
 * pgnkit_error when one is given.  Problems in the games themselves are never errors
 * of the API: they are the game's diagnostics.
 *
 * Threads: no global mutable state.  Readers are independent: use one reader per
 * thread (a reader and its games must not be used by two threads at once).
 */
#ifndef PGNKIT_PGNKIT_H
#define PGNKIT_PGNKIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PGNKIT_VERSION_MAJOR 0
#define PGNKIT_VERSION_MINOR 3
#define PGNKIT_VERSION_PATCH 0
/* MAJOR * 10000 + MINOR * 100 + PATCH: compare with pgnkit_version_number(). */
#define PGNKIT_VERSION_NUMBER \
    (PGNKIT_VERSION_MAJOR * 10000 + PGNKIT_VERSION_MINOR * 100 + PGNKIT_VERSION_PATCH)

#if defined(__GNUC__) && defined(PGNKIT_BUILDING_LIBRARY)
#define PGNKIT_API __attribute__((visibility("default")))
#else
#define PGNKIT_API
#endif

/** The version of the library linked at run time, "MAJOR.MINOR.PATCH". */
PGNKIT_API const char *pgnkit_version(void);
/** The same as PGNKIT_VERSION_NUMBER of the library linked at run time. */
PGNKIT_API int pgnkit_version_number(void);

typedef struct pgnkit_reader pgnkit_reader;
typedef struct pgnkit_game pgnkit_game;

/** A byte string owned by the reader: ptr is NULL when absent. */
typedef struct pgnkit_str {
    const char *ptr;
    size_t len;
} pgnkit_str;

/** Why a call failed: a one-line message, NUL-terminated. */
typedef struct pgnkit_error {
    int code; /* an errno value (ENOENT, EIO for corrupt compressed data, ...) */
    char message[256];
} pgnkit_error;

enum pgnkit_flags {
    PGNKIT_STRICT = 1 << 0,           /* flag over-disambiguation; as pgnkit --strict */
    PGNKIT_LENIENT = 1 << 1,          /* take the first candidate of an ambiguous SAN */
    PGNKIT_NO_VARIATIONS = 1 << 2,    /* do not replay (...) variations */
    PGNKIT_KING_TAKES_ROOK = 1 << 3,  /* UCI castling as e1h1 in standard games too */
    PGNKIT_EP_LEGAL = 1 << 4,         /* FENs name the e.p. square only when a legal e.p.
                                       * capture exists; as --ep legal (since 0.3.0) */
};

/** Options of a reader; zero-initialize (or pgnkit_options_init) for the defaults. */
typedef struct pgnkit_options {
    unsigned flags;          /* enum pgnkit_flags */
    size_t max_game_bytes;   /* 0: the default (64 MiB), as --max-game-bytes */
} pgnkit_options;

PGNKIT_API void pgnkit_options_init(pgnkit_options *opts);

/** A reader over the file at path (compressed by content).  NULL and *err on failure. */
PGNKIT_API pgnkit_reader *pgnkit_open_path(const char *path, const pgnkit_options *opts,
                                           pgnkit_error *err);
/** A reader over fd, which it does not close; name is copied (used in diagnostics). */
PGNKIT_API pgnkit_reader *pgnkit_open_fd(int fd, const char *name, const pgnkit_options *opts,
                                         pgnkit_error *err);
/** A reader over data[0, len), which must stay valid until pgnkit_close (not copied). */
PGNKIT_API pgnkit_reader *pgnkit_open_memory(const void *data, size_t len, const char *name,
                                             const pgnkit_options *opts, pgnkit_error *err);
/**
 * A reader over the games that start in bytes [start, end) of the regular, uncompressed
 * file at path (end UINT64_MAX: to its end), as `pgnkit --range START:END` reads them:
 * each read exactly as the whole-file reader reads it (same offsets and lines), so ranges
 * tiling a file yield each of its games once.  Game indexes are 0 (unknown) unless the
 * reader could start at byte 0.  NULL and *err: EINVAL (with the CLI's message) for a
 * reversed range, a START past the end, a pipe, or a compressed file, archive or UTF-16
 * text; an errno value when the file cannot be read.  (Since 0.3.0.)
 */
PGNKIT_API pgnkit_reader *pgnkit_open_range(const char *path, uint64_t start, uint64_t end,
                                            const pgnkit_options *opts, pgnkit_error *err);

/**
 * Set a game-selection option of the command line on r, by its long name without "--",
 * before the first pgnkit_next: the games they do not select are not yielded (their
 * indexes stay those of the input).  0, or -1 and *err (EINVAL) for an unknown name, a
 * bad value (the CLI's message) or a call after pgnkit_next.  (Since 0.3.0.)
 *   "encoding"  auto, utf-8, latin1 or cp1252: how tag values and comments are decoded
 *   "where"     'TAG OP VALUE' (OP: = != ~ !~ < <= > >=); each call adds one, ANDed
 *   "player"    a regex White or Black matches
 *   "result"    a comma list of 1-0, 0-1, 1/2-1/2, *
 *   "ending"    a comma list of checkmate, stalemate, insufficient, fifty-moves,
 *               threefold, none
 *   "plies"     MIN:MAX mainline plies (either may be empty)
 *   "has"       a comma list of diagnostic codes, one of which the game has
 *   "reaches"   a FEN the mainline reaches
 *   "in-variations"  reaches and material also look at the variations' positions (a
 *               flag; needs one of them and the variations replayed)
 *   "invert"    yield the games the criteria reject instead (needs a criterion)
 *   "classify"  name each game's opening from the built-in book: criteria on ECO and
 *               Opening read that name (a game the book does not name: its own tag)
 *   "dedupe"    only the first of games with the same start position and mainline
 *   "skip-invalid"  only the games without errors
 * "in-variations" and the last four are flags: value NULL, "1", "true" or "yes" sets them, "0", "false" or
 * "no" clears them.  Selection comes first, then skip-invalid, then dedupe (among the
 * games kept), as in the CLI.
 */
PGNKIT_API int pgnkit_reader_option(pgnkit_reader *r, const char *name, const char *value,
                                    pgnkit_error *err);
/** The whole message of the last option error on r (err->message holds its first 255
 * bytes: a --has message lists every code), NUL-terminated; "" when none.  Valid until
 * the next option call or pgnkit_close.  (Since 0.3.0.) */
PGNKIT_API const char *pgnkit_reader_message(const pgnkit_reader *r);
/** Whether the options set so far make a valid whole (e.g. "invert" needs a criterion):
 * 0, or -1 and *err (EINVAL, the CLI's message).  The first pgnkit_next checks the same
 * and fails so.  (Since 0.3.0.) */
PGNKIT_API int pgnkit_reader_check_options(pgnkit_reader *r, pgnkit_error *err);

/** Free the reader and everything it handed out; NULL is a no-op. */
PGNKIT_API void pgnkit_close(pgnkit_reader *r);

/**
 * The next game (the next one the options select): 1 and *game set, 0 at the end of the
 * input, -1 when the input could not be read (then *err says why; the reader is
 * finished) or the options are no valid whole (EINVAL, pgnkit_reader_check_options).
 */
PGNKIT_API int pgnkit_next(pgnkit_reader *r, pgnkit_game **game, pgnkit_error *err);

/**
 * An owned copy of game that outlives the reader's next call (its tags, moves,
 * positions, diagnostics and input bytes; not its tokens), to free with
 * pgnkit_game_free().  Every pgnkit_game_* call below works on it: its move tree,
 * comments, clocks and evals are built on the first call about them from its input
 * bytes (unless game had built them already).  NULL only when out of memory.
 */
PGNKIT_API pgnkit_game *pgnkit_game_detach(pgnkit_game *game);
/** Free a game from pgnkit_game_detach(); NULL is a no-op (never pass the reader's). */
PGNKIT_API void pgnkit_game_free(pgnkit_game *game);

/**
 * A game as bytes, to store or send to another process (Python's pickle uses it):
 * everything a detached game holds.  Writes at most cap bytes to dst and returns the
 * size the whole needs (call with cap 0 to learn it); when that is more than cap, dst
 * holds only a prefix.  (Since 0.3.0.)
 */
PGNKIT_API size_t pgnkit_game_save(pgnkit_game *game, void *dst, size_t cap);
/**
 * The game pgnkit_game_save wrote, as an owned game (free with pgnkit_game_free); NULL
 * and *err (EINVAL) when data is not a whole save by this same library version and
 * build.  Sizes and ranges are checked, but the bytes are trusted as pgnkit's own: load
 * only what you saved.  (Since 0.3.0.)
 */
PGNKIT_API pgnkit_game *pgnkit_game_load(const void *data, size_t len, pgnkit_error *err);

/**
 * The game as `pgnkit pgn` writes it (the same bytes, with the reader's flags as the
 * command line's options of the same names: PGNKIT_NO_VARIATIONS leaves variations out
 * as `pgnkit pgn --no-variations` does), UTF-8, its blank line after it; nothing for a
 * game skipped unread (over max_game_bytes).  Writes at most cap bytes to dst and
 * returns the size the whole needs, as pgnkit_game_save.  A detached or loaded game
 * keeps its input bytes for it and reads them again on each call.  (After 0.3.0.)
 */
PGNKIT_API size_t pgnkit_game_pgn(pgnkit_game *game, char *dst, size_t cap);

/* ---- the game: where it is ---- */

/** The name the reader was opened with (path, or the name given); for a game in an
 * archive member, "name:member" (as the command line names it).  NUL-terminated. */
PGNKIT_API const char *pgnkit_game_file(const pgnkit_game *g);
/** The archive member the game is in (e.g. "2024/jan.pgn"), or NULL when the input is no
 * archive.  NUL-terminated.  (Since 0.3.0.) */
PGNKIT_API const char *pgnkit_game_member(const pgnkit_game *g);
/** 1-based index of the game in its input. */
PGNKIT_API uint64_t pgnkit_game_index(const pgnkit_game *g);
/** Byte offset of its first byte in the (decompressed) input, and its length. */
PGNKIT_API uint64_t pgnkit_game_offset(const pgnkit_game *g);
PGNKIT_API uint64_t pgnkit_game_bytes(const pgnkit_game *g);
/** 1-based line of its first byte. */
PGNKIT_API uint64_t pgnkit_game_line(const pgnkit_game *g);

/* ---- the verdict ---- */

typedef enum pgnkit_status {
    PGNKIT_STATUS_OK = 0,       /* no diagnostic */
    PGNKIT_STATUS_WARNINGS = 1, /* warnings only */
    PGNKIT_STATUS_ERRORS = 2,   /* at least one error */
    PGNKIT_STATUS_SKIPPED = 3,  /* not replayed (too large, unsupported variant) */
} pgnkit_status;

/* How the final position ends the game by the game's rules (docs/api.md).  A variant
 * game may end by its own rule; the Result says who won. */
typedef enum pgnkit_ending {
    PGNKIT_ENDING_NONE = 0,     /* none of the below */
    PGNKIT_ENDING_CHECKMATE = 1,
    PGNKIT_ENDING_STALEMATE = 2, /* a drawn stalemate (Antichess's is a win: ANTICHESS) */
    PGNKIT_ENDING_KING_EXPLODED = 3,    /* Atomic: a king exploded */
    PGNKIT_ENDING_KING_OF_THE_HILL = 4, /* a king reached d4, e4, d5 or e5 */
    PGNKIT_ENDING_THREE_CHECKS = 5,     /* Three-check: a side gave its third check */
    PGNKIT_ENDING_RACING_KINGS = 6,     /* the race to the 8th rank is decided (win or draw) */
    PGNKIT_ENDING_HORDE_WIPED_OUT = 7,  /* Horde: White has no piece left */
    PGNKIT_ENDING_ANTICHESS = 8, /* the side to move has no piece or no move, and wins */
    PGNKIT_ENDING_INSUFFICIENT = 9, /* a variant's draw by insufficient material */
} pgnkit_ending;

PGNKIT_API pgnkit_status pgnkit_game_status(const pgnkit_game *g);
/** "ok", "warnings", "errors", "skipped" (as the CLI's JSON writes them). */
PGNKIT_API const char *pgnkit_status_name(pgnkit_status s);
PGNKIT_API pgnkit_ending pgnkit_game_ending(const pgnkit_game *g);
/** "none", "checkmate", "stalemate", "king-exploded", "king-of-the-hill", "three-checks",
 * "racing-kings", "horde-wiped-out", "antichess", "insufficient"; "unknown" out of range. */
PGNKIT_API const char *pgnkit_ending_name(pgnkit_ending e);
/** The termination marker written (1-0, 0-1, 1/2-1/2, *); ptr NULL when there is none. */
PGNKIT_API pgnkit_str pgnkit_game_result(const pgnkit_game *g);
/** The ply of the mainline error that stopped the replay, or 0. */
PGNKIT_API uint32_t pgnkit_game_error_ply(const pgnkit_game *g);

/* ---- tags ---- */

PGNKIT_API size_t pgnkit_game_tag_count(const pgnkit_game *g);
/** The i-th tag in file order; 0, or -1 when i is out of range. */
PGNKIT_API int pgnkit_game_tag(const pgnkit_game *g, size_t i, pgnkit_str *name,
                               pgnkit_str *value);
/** The value of the tag called name (case-sensitive); ptr NULL when absent. */
PGNKIT_API pgnkit_str pgnkit_game_tag_value(const pgnkit_game *g, const char *name);

/* ---- the mainline ---- */

enum { PGNKIT_UCI_MAX = 8, PGNKIT_SAN_MAX = 16, PGNKIT_FEN_MAX = 128 };

/** Mainline moves played (up to the first error that stopped the replay). */
PGNKIT_API size_t pgnkit_game_ply_count(const pgnkit_game *g);
/** Move number ply (1-based) as UCI into dst (PGNKIT_UCI_MAX bytes, NUL-terminated);
 * returns its length, or 0 when ply is out of range. */
PGNKIT_API size_t pgnkit_game_uci(pgnkit_game *g, size_t ply, char *dst);
/** The same move as canonical SAN (PGNKIT_SAN_MAX bytes). */
PGNKIT_API size_t pgnkit_game_san(pgnkit_game *g, size_t ply, char *dst);
/** The FEN after ply (0: the start position) into dst (PGNKIT_FEN_MAX bytes); 0 when
 * ply is out of range or the start position could not be set up.  Walking the plies in
 * order costs one move each. */
PGNKIT_API size_t pgnkit_game_fen(pgnkit_game *g, size_t ply, char *dst);
/** The same with the e.p. convention chosen per call: ep_legal 0 is the PGN standard's
 * (the square after every double push), 1 the reader option PGNKIT_EP_LEGAL's (only when
 * a legal e.p. capture exists, as python-chess's board.fen()).  pgnkit_game_fen uses the
 * reader's option.  (Since 0.3.0.) */
PGNKIT_API size_t pgnkit_game_fen_ep(pgnkit_game *g, size_t ply, char *dst, int ep_legal);

/* ---- comments: [%clk h:mm:ss] and [%eval ...] after mainline moves ---- */

/** Seconds on the clock after ply (from the first [%clk] after that move): 1 and *seconds,
 * or 0 when that move has none. */
PGNKIT_API int pgnkit_game_clock(pgnkit_game *g, size_t ply, double *seconds);

typedef struct pgnkit_eval {
    int is_mate;     /* 1: mate_in is set; 0: pawns is set */
    double pawns;    /* from White's view, e.g. 0.31 or -1.5 */
    int mate_in;     /* #3 is 3, #-2 is -2 */
} pgnkit_eval;

/** The [%eval] after ply: 1 and *eval, or 0 when that move has none. */
PGNKIT_API int pgnkit_game_eval(pgnkit_game *g, size_t ply, pgnkit_eval *eval);

/* ---- diagnostics: exactly what `pgnkit check` prints ---- */

typedef struct pgnkit_diagnostic {
    const char *code;       /* "ILLEGAL", "AMBIGUOUS", ... NUL-terminated */
    int is_error;           /* 1 error, 0 warning */
    uint64_t line, col;     /* 1-based position in the input */
    uint32_t ply;           /* the mainline or variation ply, 0 when not about a move */
    const char *message;    /* NUL-terminated */
    const char *san;        /* the token as written ("" when not about a move) */
    const char *fen;        /* the position before the move ("" when not about a move) */
    const char *candidates; /* space-separated UCI moves the SAN could mean (or "") */
} pgnkit_diagnostic;

PGNKIT_API size_t pgnkit_game_diagnostic_count(const pgnkit_game *g);
/** The i-th diagnostic, in file order: 0, or -1 when i is out of range.  The strings
 * are the game's (valid until the next pgnkit_next). */
PGNKIT_API int pgnkit_game_diagnostic(const pgnkit_game *g, size_t i, pgnkit_diagnostic *out);

/* ---- the move tree: comments, NAGs and variations (after 0.3.0) ---- */

/*
 * Every move of a game is a node, numbered from 1: nodes 1 .. pgnkit_game_ply_count()
 * are the mainline (node n is ply n), the moves of variations follow in file order, and
 * node 0 stands for the start position.  A node's info links it into the tree: next is
 * the move after it in its line, variation the first move of the first variation that
 * replaces it, and from that first move next_variation the next variation replacing the
 * same move.  Walk a line with next; at each of its moves, each alternative line starts
 * at variation, then next_variation, ...
 *
 * Which text belongs to which move (python-chess's rules, with the differences
 * docs/api.md lists): a comment ({...} or ;...) belongs to the last move played before
 * it in the same line; before the first move of the game it is the game's comment
 * (pgnkit_game_comment), before the first move of a variation that move's starting
 * comment.  Each comment loses its surrounding blanks (and the blanks at its line ends;
 * line ends are '\n'); empty ones are dropped, the others joined by one space.  NAGs are
 * $n, a move's glyph suffix (e4! is $1, e4?! is $6) and glyphs written as words, in file
 * order, each once.  A variation opened before any move of its line is not in the tree,
 * nor are the moves of a line after one that could not be played (its diagnostics say
 * why).  The tree is built on the first call about it (one pass over the game's tokens;
 * a detached game's from its input bytes, read and replayed again).
 */

/** The game's comment (the comments before its first move); ptr NULL when none. */
PGNKIT_API pgnkit_str pgnkit_game_comment(pgnkit_game *g);

/** Nodes in the tree: the mainline's plies and the moves of every variation. */
PGNKIT_API size_t pgnkit_game_node_count(pgnkit_game *g);

typedef struct pgnkit_node {
    size_t ply;            /* plies from the game's start to after this move (1-based) */
    size_t parent;         /* the node played before it; 0: the start position */
    size_t next;           /* the next move of its line, or 0 at the line's end */
    size_t variation;      /* the first node of the first variation replacing it, or 0 */
    size_t next_variation; /* on a variation's first node: the next variation replacing
                            * the same move, or 0 */
    pgnkit_str comment;    /* the comments after it, joined; ptr NULL when none (the
                            * text is NUL-terminated) */
    pgnkit_str starting_comment; /* a variation's first node: the comments between '('
                                  * and it; ptr NULL when none */
    const int *nags;       /* nag_count NAGs, in file order */
    size_t nag_count;
    int is_check;          /* the move gives check (checkmate included) */
    int is_checkmate;
    int is_capture;        /* takes a piece (en passant included) */
    char promotion;        /* 'q', 'r', 'b', 'n' ('k' in Antichess), or 0 */
    int has_clock;         /* 1: clock holds the first [%clk] of its comments, seconds */
    double clock;
    int has_eval;          /* 1: eval holds the first [%eval] of its comments */
    pgnkit_eval eval;
} pgnkit_node;

/** Node number node (1 .. pgnkit_game_node_count()) into *out: 0, or -1 when out of
 * range.  The strings and NAGs are the game's (valid as long as the game). */
PGNKIT_API int pgnkit_game_node(pgnkit_game *g, size_t node, pgnkit_node *out);
/** The node's comment alone, as pgnkit_game_node gives it (ptr NULL: none or out of
 * range): a loop over every move's comment without filling a pgnkit_node each. */
PGNKIT_API pgnkit_str pgnkit_game_node_comment(pgnkit_game *g, size_t node);
/** The comments of nodes first .. first + count - 1 into out[], as
 * pgnkit_game_node_comment gives them but not NUL-terminated (a one-line comment may be
 * its place in the game's input bytes, not a copy): a loop over a line's comments at a
 * call per batch.  Returns how many were filled (fewer at the tree's end).  (After 0.3.0.) */
PGNKIT_API size_t pgnkit_game_node_comments(pgnkit_game *g, size_t first, size_t count,
                                            pgnkit_str *out);
/** The node's move as UCI (PGNKIT_UCI_MAX bytes, NUL-terminated); 0 when out of range. */
PGNKIT_API size_t pgnkit_game_node_uci(pgnkit_game *g, size_t node, char *dst);
/** The node's move as canonical SAN (PGNKIT_SAN_MAX bytes). */
PGNKIT_API size_t pgnkit_game_node_san(pgnkit_game *g, size_t node, char *dst);
/** The FEN after the node's move (node 0: the start position; PGNKIT_FEN_MAX bytes), in
 * the reader's e.p. convention (PGNKIT_EP_LEGAL: the field only when a capture is legal).
 * Asking for a node after its parent, or for the node whose FEN was asked last, costs
 * one move; any other node replays its line from the start. */
PGNKIT_API size_t pgnkit_game_node_fen(pgnkit_game *g, size_t node, char *dst);

/* ---- the board: one position to ask questions of and play moves on (after 0.3.0) ---- */

/*
 * A board holds one position and the rules it is played by: standard chess, Chess960 or
 * a lichess variant.  It plays moves given as SAN (resolved as `pgnkit check` resolves
 * them, with the same diagnostic codes) or UCI, and answers what python-chess's
 * chess.Board answers: the legal moves, the FEN, the piece on a square, check, mate and
 * stalemate.  Bad input (a FEN, a variant name, a SAN or UCI string) is an error value,
 * never a crash; a board is left as it was by a move that fails.  A board is one
 * thread's at a time; boards are independent.
 */
typedef struct pgnkit_board pgnkit_board;

/* Room for any FEN a board writes (Crazyhouse pockets and marks included, with its NUL)
 * and for every legal move of a position (Crazyhouse drops included). */
enum { PGNKIT_BOARD_FEN_MAX = 192, PGNKIT_BOARD_MOVES_MAX = 640, PGNKIT_CANDIDATES_MAX = 16 };

/** Why a move was not played: what `pgnkit check` would report for it. */
typedef struct pgnkit_move_error {
    pgnkit_error error;      /* code EINVAL; message: the diagnostic's message */
    const char *code;        /* "SYNTAX" (no move in any notation), "ILLEGAL", "AMBIGUOUS",
                              * "MOVE_AFTER_END" (the game is over): NUL-terminated, static */
    size_t candidate_count;  /* AMBIGUOUS: the legal moves the SAN fits (the first 16);
                              * 0 for the other codes, as pgnkit check's candidates */
    char candidates[PGNKIT_CANDIDATES_MAX][PGNKIT_UCI_MAX]; /* UCI, NUL-terminated */
} pgnkit_move_error;

/**
 * A board set to fen (NULL: the variant's start position) played by the rules variant
 * names (NULL or "standard": standard chess; "chess960" (or "fischerandom", "960", ...);
 * the lichess names --variant accepts: "crazyhouse", "atomic", "antichess",
 * "kingOfTheHill"/"king of the hill", "threeCheck", "racingKings", "horde", case-
 * insensitive).  A FEN whose castling field only makes sense in Chess960 switches to
 * Chess960 rules, as a FEN tag does.  NULL and *err (EINVAL, the reason: the FEN field
 * and column at fault, or the unknown variant) on failure.
 */
PGNKIT_API pgnkit_board *pgnkit_board_new(const char *fen, const char *variant,
                                          pgnkit_error *err);
/** Free a board; NULL is a no-op. */
PGNKIT_API void pgnkit_board_free(pgnkit_board *b);
/** An independent copy of b; NULL only when out of memory. */
PGNKIT_API pgnkit_board *pgnkit_board_copy(const pgnkit_board *b);

/**
 * The FEN of the position into dst (cap bytes, NUL-terminated when cap > 0;
 * PGNKIT_BOARD_FEN_MAX is always enough).  ep_legal 0: the PGN standard's e.p. field (the
 * square after every double push); 1: only when a legal e.p. capture exists (python-
 * chess's board.fen()).  Returns the FEN's length; when that is cap or more, dst holds a
 * prefix.
 */
PGNKIT_API size_t pgnkit_board_fen(const pgnkit_board *b, int ep_legal, char *dst, size_t cap);
/** The rules' name, which pgnkit_board_new accepts: "Standard", "Chess960", "Crazyhouse",
 * "King of the Hill", ... (static, NUL-terminated). */
PGNKIT_API const char *pgnkit_board_variant(const pgnkit_board *b);

/**
 * The legal moves as UCI (e2e4, e7e8q, castling e1g1 in standard chess and e1h1 in
 * Chess960, Crazyhouse drops P@e4), in the generator's order: the first min(count, cap)
 * into dst; returns the count (none when the game is over, by a variant's rule too).
 */
PGNKIT_API size_t pgnkit_board_legal_moves(const pgnkit_board *b,
                                           char (*dst)[PGNKIT_UCI_MAX], size_t cap);

/**
 * Play the move san names (any notation `pgnkit check` accepts: SAN, long algebraic,
 * Crazyhouse drops P@e4, "--" for a null move; wrong +/# and x marks are accepted as the
 * reader accepts them).  0, and the move as UCI in uci (PGNKIT_UCI_MAX bytes; may be
 * NULL); -1 and *err (may be NULL) when it names no legal move: SYNTAX, ILLEGAL,
 * AMBIGUOUS (with the candidates) or MOVE_AFTER_END.  san NULL is a SYNTAX error.
 */
PGNKIT_API int pgnkit_board_push_san(pgnkit_board *b, const char *san, char *uci,
                                     pgnkit_move_error *err);
/**
 * Play the move uci names (as pgnkit_board_legal_moves writes it; standard castling as
 * e1h1 too; 0000, a null move, when the side to move is not in check: SAN "--").  0, and its canonical SAN (with + or #) in san (PGNKIT_SAN_MAX bytes; may
 * be NULL); -1 and *err: SYNTAX when uci is no UCI move (or NULL), ILLEGAL when the move
 * is not legal here.
 */
PGNKIT_API int pgnkit_board_push_uci(pgnkit_board *b, const char *uci, char *san,
                                     pgnkit_move_error *err);
/** The canonical SAN of the move uci names, without playing it: as pgnkit_board_push_uci. */
PGNKIT_API int pgnkit_board_san(const pgnkit_board *b, const char *uci, char *san,
                                pgnkit_move_error *err);

/** A square's number from its name: "a1" 0, "b1" 1, ... "h8" 63; -1 for anything else
 * (NULL included). */
PGNKIT_API int pgnkit_board_square(const char *name);
/** The piece on square (0..63) as its FEN letter ('P' a white pawn, 'n' a black knight),
 * 0 when the square is empty, -1 when square is out of range. */
PGNKIT_API int pgnkit_board_piece_at(const pgnkit_board *b, int square);

/** 'w' or 'b': the side to move. */
PGNKIT_API char pgnkit_board_turn(const pgnkit_board *b);
/** 1 when the side to move is in check, else 0. */
PGNKIT_API int pgnkit_board_is_check(const pgnkit_board *b);
/** 1 when the side to move is checkmated (as pgnkit_game_ending says), else 0. */
PGNKIT_API int pgnkit_board_is_checkmate(const pgnkit_board *b);
/** 1 when the side to move is stalemated (a draw: Antichess's stalemate win is not one),
 * else 0. */
PGNKIT_API int pgnkit_board_is_stalemate(const pgnkit_board *b);

#ifdef __cplusplus
}
#endif

#endif
