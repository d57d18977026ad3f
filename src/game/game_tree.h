/**
 * game_tree.h - a replayed game's moves as a tree, with what is written about each one:
 * the comments after it, its NAGs, its clock and eval, and the variations that replace it.
 *
 * Nodes are numbered from 1; node i for i <= rec->mainline_count is mainline ply i, so
 * the mainline needs no links to walk; variation nodes follow in file order.  Node 0 is
 * the start position.  The tree owns copies of everything it holds (no token is kept),
 * but for a move's one-line comment, which it may give as a place in the game's bytes
 * (game_tree.source: a copy of rec->game's text, whose offsets it keeps), so it outlives
 * the game's tokens while the bytes it was given live.  A lichess game has a [%clk]
 * comment after every move: a copy of each cost more than the rest of its node.
 *
 * The rules, python-chess's where it has one (docs/python.md tells the differences):
 * - A comment belongs to the last move played before it in the same line (the comments
 *   at depth 0 after a mainline move up to the next one, as game_mainline.h pairs them:
 *   the ones after a closed variation too).  A comment before the first move of the
 *   game is the game's comment; one before the first move of a variation is that move's
 *   starting comment.  {...} and ;... alike; each one's text has its surrounding blanks
 *   removed, its line ends made '\n' and the blanks before them removed; empty ones are
 *   dropped and the rest joined by one space.
 * - NAGs: $n, a glyph suffix of the move (e4!, e4?!) and a glyph written as its own word
 *   (san_glyph_nag: ! ? !! ?? !? ?! and the others it knows), in file order, each once.
 * - The clock and eval of a move are the first [%clk] and [%eval] of its comments.
 * - A variation is the alternatives to the last move played before its '('; one opened
 *   before any move of its line, and the moves of a line after one that was not played
 *   (an error), are not in the tree.
 */
#ifndef PGNKIT_GAME_TREE_H
#define PGNKIT_GAME_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"
#include "pgn/comment.h"

struct game_tree_node {
    struct move move;
    uint32_t ply;            /* from the game's start, 1-based */
    uint32_t parent;         /* the node played before it; 0: the start position */
    uint32_t next;           /* the next move of its line, or 0 */
    uint32_t variation;      /* the first node of the first variation replacing it, or 0 */
    uint32_t next_variation; /* first node of a variation: the next one replacing the same
                              * move, or 0 */
    uint32_t comment_at, comment_len;      /* into game_tree.text, or comment_ref's */
    uint32_t starting_at, starting_len;    /* the starting comment, into game_tree.text */
    uint32_t nag_at;                       /* into game_tree.nags */
    uint16_t nag_count;
    char check_mark;         /* '+', '#' or 0, as the replay found it */
    bool comment_ref;        /* comment_at is into game_tree.source, not its text */
    bool notes_known;        /* notes is filled; else game_tree_notes parses its comment */
    struct comment_notes notes; /* its first [%clk] and [%eval]: read by game_tree_notes */
};

struct game_tree {
    struct game_tree_node *nodes; /* [0, count]: nodes[0] is the start position's */
    size_t count, cap;
    char *text;                   /* every comment's text, each NUL-terminated */
    size_t text_len, text_cap;
    /* The comments at places in the game's bytes (comment_ref): source is those bytes
     * (NULL until the tree's owner says where they live: game_tree_copy), not
     * NUL-terminated, or once game_tree_nul_terminate made them so, source_copy. */
    const char *source;
    char *source_copy;
    size_t ref_count;
    int *nags;
    size_t nag_len, nag_cap;
    uint32_t comment_at, comment_len; /* the game's comment (before its first move) */
    /* A light tree (is_light; nodes not made): a game whose movetext is its mainline,
     * each move played without a glyph, at most one one-line comment after each, in the
     * game's bytes (no game comment, NAG or variation: every tcec-moves game, and nearly
     * every lichess one), kept as an entry a ply, light[1 .. count]: the comment's place
     * (its offset, bits 0-31, and length, bits 32-55) and the check mark (bits 56-63).
     * Its nodes are made from them, the moves from the record's mainline, on the first
     * question that needs them (game_tree_expand); its comments are read without. */
    uint64_t *light;
    size_t light_cap;
    bool is_light;
};

enum { GAME_TREE_LIGHT_LEN = 0xFFFFFF }; /* the mask, and the longest comment, of an entry */

/** Fill t (its storage reused; new storage is sized to fit) with rec's tree: walks rec's
 *  parts (game_part_first: one walk at a time), which needs its token moves (not
 *  skip_token_moves).  With refs, a move's one-line comment inside rec->game's text is
 *  kept as its place there, and t->source is that text: valid as long as it is, or
 *  pointed by the caller at a copy of it (game_tree_copy gives a copy's); and a game
 *  that fits a light tree gets one (is_light: game_tree_expand before reading nodes). */
void game_tree_build(struct game_tree *t, const struct game_record *rec, bool refs);

/** A light tree's nodes (nothing for another), from rec: the record it was built from
 *  (or a copy of it: the same mainline). */
void game_tree_expand(struct game_tree *t, const struct game_record *rec);

/** A light entry's comment length (0: none; its offset is the low 32 bits). */
static inline uint32_t game_tree_light_len(uint64_t entry)
{
    return (uint32_t)(entry >> 32) & GAME_TREE_LIGHT_LEN;
}

/** A light tree's node id's comment: game_tree_comment's light half, for a loop that
 *  knows the tree is light. */
static inline struct slice game_tree_light_comment(const struct game_tree *t, size_t id)
{
    uint64_t e = t->light[id];
    uint32_t len = game_tree_light_len(e);
    return len ? (struct slice){t->source + (uint32_t)e, len} : (struct slice){NULL, 0};
}

/** Node id's comment (1 <= id <= t->count, a light tree's too): {NULL, 0} when none;
 *  NUL-terminated only once game_tree_nul_terminate was called (never in a light tree).
 *  Inline: a loop over every move's comment. */
static inline struct slice game_tree_comment(const struct game_tree *t, size_t id)
{
    if (t->is_light)
        return game_tree_light_comment(t, id);
    const struct game_tree_node *n = &t->nodes[id];
    if (!n->comment_len)
        return (struct slice){NULL, 0};
    return (struct slice){(n->comment_ref ? t->source : t->text) + n->comment_at,
                          n->comment_len};
}

/** Make every comment NUL-terminated (t not light): the ones in the game's bytes are copied, once, to a
 *  block of their own (t->text does not move: what was handed out from it stays). */
void game_tree_nul_terminate(struct game_tree *t);

/** Node id's clock and eval (id <= t->count, t not light): parsed from its comment on the first
 *  question and kept (a node with one comment), or taken while it was built (more than
 *  one: the first [%clk] and [%eval] comment by comment).  Its text is the comment's,
 *  normalized; only blanks differ, which the commands read alike (comment.h). */
const struct comment_notes *game_tree_notes(struct game_tree *t, size_t id);

/** *dst: an owned copy of src (a light one light too), sized to fit, whose comments in
 *  the game's bytes are in source (a copy of the bytes src's are in). */
void game_tree_copy(struct game_tree *dst, const struct game_tree *src, const char *source);

void game_tree_release(struct game_tree *t);

#endif
