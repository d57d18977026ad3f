/**
 * game.h - replay one game read by pgn_reader on a real board.
 *
 * Sets up the start position (Variant, SetUp/FEN tags), resolves every move token of
 * the mainline and, unless told not to, of every recursive variation (from the
 * position before the move it replaces, with an explicit stack: any depth, no
 * recursion), and checks the result against the Result tag and the final position.
 * Every problem becomes a diagnostic with the file position, the ply and the move.
 *
 * A game_replayer owns its SAN matcher and scratch storage; the record it returns is
 * valid until its next game_replay().  One replayer per thread.
 */
#ifndef PGNKIT_GAME_H
#define PGNKIT_GAME_H

#include <stdbool.h>

#include "base/diag.h"
#include "game/opening.h"
#include "pgn/pgn_reader.h"
#include "board/position.h"
#include "board/variant.h"
#include "san/san.h"
#include "san/san_resolve.h"

struct game_options {
    struct san_options san;
    bool skip_variations;    /* do not replay (...) variations */
    /* Leave game_record.token_moves NULL: only writers that walk the tokens (PGN, TSV)
     * read it, and filling it costs a store per move and a clear per game. */
    bool skip_token_moves;
    enum san_letters letters;
    /* Diagnostics kept per game (the reader's included), then only counted and summed up
     * in one MORE_DIAGNOSTICS entry; 0 = 1000. */
    size_t max_diagnostics;
    /* Classify each game's opening in this book (game_record.opening); NULL: do not. */
    const struct opening_book *openings;
};

enum game_status {
    GAME_CLEAN = 0,    /* no diagnostic at all */
    GAME_WARNINGS,     /* warnings only */
    GAME_ERRORS,       /* at least one error */
    GAME_SKIPPED,      /* not replayed: too large, unsupported variant */
};

/* How pos stands: rules_ending() (board/rules.h) without the winner: checkmate, a drawn
 * stalemate, a variant's own ending or draw by material, or ENDING_NONE. */
enum ending game_end_of(const struct position *pos);

/** Per token of the game: the move it resolved to, for writers that walk the tokens. */
struct game_token_move {
    struct move move;
    uint32_t ply;     /* ply of this move from the game's start (1-based) */
    bool played;      /* false: not a move token, or not resolved (error, dead line) */
    uint8_t suffix_len; /* bytes of the token's trailing annotation glyph (e4!, e4+-) */
    char check_mark;  /* what the move gives, as SAN marks it: '+', '#' or 0 (san_write_marked) */
};

struct game_replayer;

struct game_record {
    const struct pgn_game *game;      /* borrowed from the reader */
    struct game_replayer *replayer;   /* its owner: game_part_first/next play parts again */
    enum game_status status;
    bool chess960;
    bool started;                     /* the start position was set up */
    struct position start;
    struct position final;            /* after the last mainline move played */
    const struct move *mainline;      /* the mainline moves played */
    size_t mainline_count;
    const struct game_token_move *token_moves; /* one per game->tokens[i] (a game in parts:
                                                * walk them with game_part_first/next); NULL
                                                * with game_options.skip_token_moves */
    uint32_t error_ply;               /* ply of the mainline error that stopped it, or 0 */
    enum ending end;                  /* of the final position, when no error stopped it */
    struct slice result_token;        /* the termination marker written, if any */
    /* The game's last token when it is a result token, as written, replayed or not. */
    struct slice ending_result;
    char result_text[12], ending_text[12]; /* the two slices' bytes */
    struct slice result_tag;          /* the Result tag's value, if any */
    struct diag_list diags;           /* reader's and replay's, in file order */
    /* With game_options.openings: the opening of the mainline played (opening.h), NULL
     * when no position of it is in the book or the game does not start from the
     * standard position. */
    const struct opening *opening;
    /* game_record_cut made this record: the mainline played goes on after
     * mainline_count plies, which are all that is written (result "*"). */
    bool cut;
};

/** A replayer with those options; NULL with *err on a failure to build the SAN matcher. */
struct game_replayer *game_replayer_new(const struct game_options *opts, struct diag *err);
void game_replayer_free(struct game_replayer *r);

/** Replay g; the record returned is owned by r and valid until the next call. */
const struct game_record *game_replay(struct game_replayer *r, const struct pgn_game *g);

/*
 * The tokens of a replayed game with the move each one resolved to, part by part (a game
 * of many tokens comes in parts: pgn_reader.h).  A whole game is one part, handed out
 * as it is.  For a game in parts the replayer plays each part again as it is loaded,
 * silently (the record's diagnostics and facts are those of game_replay and do not
 * change), so writers see the same moves as the replay did.  Walk the parts in order,
 * one walk at a time, before the replayer's next game_replay; a part is valid until the
 * next call.
 */
struct game_part {
    const struct pgn_token *tokens;
    const struct game_token_move *moves; /* one per token; NULL with skip_token_moves */
    size_t count;
    size_t index;                        /* which part of the game */
};

/** The game's first part; false when it has no tokens.  A game that could not be set up
 *  has its parts too, every move unplayed. */
bool game_part_first(const struct game_record *rec, struct game_part *part);
/** The part after *part; false after the last. */
bool game_part_next(const struct game_record *rec, struct game_part *part);

/**
 * Call fn(ctx) between two parts of a game in parts as a writer walks them, before the
 * next part is loaded (game_part_next): a caller that may write its output out in the
 * middle of a game does it there, so a game's output need not be held whole.  NULL: none.
 */
void game_replayer_between_parts(struct game_replayer *r, void (*fn)(void *ctx), void *ctx);

/**
 * The same fn(ctx), called by a writer whose output for one game grows with the game
 * (fen --every, uci's move lists): every few thousand moves, so that a long game's
 * output is not held whole even where the writer walks no parts.  The writer keeps no
 * pointer into its output buffer across the call: the output so far may be gone.
 */
void game_record_output_point(const struct game_record *rec);

/**
 * --first-plies: *out becomes rec with only its first `plies` mainline plies (final the
 * position after them, no ending, result token "*", cut set) and true; false (out
 * untouched) when the mainline played is no longer, or the game was not set up.  The
 * tokens and diagnostics stay the game's (the PGN writer stops at the first mainline
 * move past the cut).  out borrows from rec: valid while rec is.
 */
bool game_record_cut(const struct game_record *rec, size_t plies, struct game_record *out);

/** A tag's value by name (case-sensitive), or NULL. */
const struct slice *game_tag(const struct pgn_game *g, const char *name);

#endif
