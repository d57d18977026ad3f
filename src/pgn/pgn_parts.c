/*
 * pgn_parts.c - a game in parts (pgn_reader.h, struct pgn_part): where its parts end, and
 * the state each one is read again from.
 *
 * The first reading (pgn_reader.c's scan_game) reads a game whole as always, diagnostics,
 * tags and end included, but holds only two stretches of its tokens: part 0, and the part
 * being read.  When that part has part_tokens tokens (scan_fast stops there), between two
 * steps of the scan, it is cut: the scan's state there is kept (struct
 * part_cut), its tokens are dropped (part 0's stay), and the next part's tokens go where
 * its went, after part 0.  Held: part 0 and one part, whatever the game's size.  Part
 * k >= 1 is read again from its cut to the next one (or the game's end) when it is asked
 * for (pgn_reader.c's load_part, by scan_game itself): relex_begin sets the reader to the
 * cut's state with the data ending at the part's end, and relex_end puts the reader back
 * as it was.
 *
 * Which cuts are safe.  The lexer reads each token on its own but for one: a '(' right
 * after a move may join it (e8(Q): promotion_paren_end looks back at the move token), and
 * game.c reads an en passant mark with the move before it.  So a cut after a move (itself
 * no en passant mark) waits for the next token kept: if that is no en passant mark and the
 * move did not grow, the cut is made where it waited, the new token starting the next
 * part; else the part goes on and the cut is decided again after the token.  Before the
 * movetext every token is a comment, which no reading looks back at: the cut is made at
 * once.  A part cut there is read again in the phase it was cut in (a '[' is a tag
 * pair's there, not the movetext's), stepping over tag pairs without keeping them (the
 * game's tags are handed out already, and pointers to them held) and taking no boundary
 * (the first reading found none inside the part), so that a game of millions of comments
 * before its first move holds two parts, not all of them.
 *
 * How large a part gets: the step that brings a part to part_tokens adds at most one token
 * more (scan_fast stops at part_stop; a token step reads one token); a cut there, or at
 * the move where a cut waits, leaves at most part_tokens + 1; an en passant mark after
 * that move, or the game's last token while the cut waits, one more: part_tokens + 2 at
 * most (a promotion piece joins its move and adds none; after a mark the cut is made at
 * once).  Before the movetext a cut is made at once: part_tokens + 1.  Part 0 included.
 *
 * Owns r->parts (reader_parts.h); moves r->tok's tokens behind part 0 and sets
 * r->tok.tok_limit; saves and restores r->scan at a cut.  Offers pgn_parts_internal.h.
 */
#include "pgn/pgn_parts_internal.h"

#include <assert.h>
#include <string.h>

#include "base/xalloc.h"
#include "san/san.h" /* ep_mark_spelling */

void parts_reset(struct pgn_reader *r)
{
    r->parts.win = r->tok.tok0;
    r->parts.part_base = 0;
    r->parts.part_stop = add_sat(r->tok.tok0, r->lim.part_tokens);
    r->tok.tok_limit = add_sat(r->tok.tok0, r->lim.max_game_tokens);
    r->parts.ncut = 0;
    r->parts.cut_waits = false;
    r->parts.result_off = UINT64_MAX;
    r->parts.result_len = 0;
    r->parts.part_count = 0; /* the last game's parts load no more */
}

static inline bool is_ep_mark(const struct pgn_token *t)
{
    return t->kind == PGN_TOK_MOVE && ep_mark_spelling(t->text, t->len) != 0;
}

/* The scan's state between two steps, at index i. */
static struct part_cut state_at(const struct pgn_reader *r, size_t i)
{
    return (struct part_cut){.off = r->in.base_off + i,
                             .ls_off = (uint64_t)((int64_t)r->in.base_off + (int64_t)r->scan.ls),
                             .line = r->scan.line,
                             .eols = r->scan.eols,
                             .depth = r->scan.depth,
                             .open_line = r->scan.open_line,
                             .open_col = r->scan.open_col,
                             .phase = r->scan.phase};
}

/* End the part being read before toks[at], where the scan's state was *c: its tokens
 * are dropped (part 0's kept), those from `at` on start the next part. */
static void cut_at(struct pgn_reader *r, struct part_cut c, size_t at)
{
    c.first = r->parts.part_base + (at - r->parts.win);
    if (r->parts.ncut == r->parts.cut_cap) {
        void *p = r->parts.cuts;
        xgrow(&p, &r->parts.cut_cap, r->parts.ncut + 1, sizeof *r->parts.cuts);
        r->parts.cuts = p;
    }
    r->parts.cuts[r->parts.ncut++] = c;
    r->parts.cut_last = r->tok.toks[at - 1];
    size_t next = r->tok.ntok - at;
    if (r->parts.ncut == 1)
        r->parts.win = at; /* part 0 is toks[tok0, at): the next parts go after it */
    else
        memmove(r->tok.toks + r->parts.win, r->tok.toks + at, next * sizeof *r->tok.toks);
    r->parts.part_base = c.first;
    r->tok.ntok = r->parts.win + next;
    r->parts.part_stop = add_sat(r->parts.win, r->lim.part_tokens);
    /* The game's tokens so far are part_base + ntok - win, under max_game_tokens. */
    r->tok.tok_limit = add_sat(r->parts.win, r->lim.max_game_tokens - r->parts.part_base);
}

READER_COLD void part_due(struct pgn_reader *r, size_t i)
{
    if (r->skipping || r->parts.relex)
        return;
    if (r->scan.phase != PHASE_MOVETEXT) {
        /* Before the movetext every token is a comment, which changes the reading of no
         * other token: cut at once. */
        assert(r->tok.toks[r->tok.ntok - 1].kind == PGN_TOK_COMMENT ||
               r->tok.toks[r->tok.ntok - 1].kind == PGN_TOK_LINE_COMMENT);
        cut_at(r, state_at(r, i), r->tok.ntok);
        return;
    }
    if (r->parts.cut_waits) {
        if (r->tok.ntok == r->parts.wait_ntok) {
            if (r->tok.toks[r->tok.ntok - 1].len == r->parts.wait_len)
                return; /* no token after the move yet */
            r->parts.cut_waits = false; /* a promotion piece joined the move: decide anew */
        } else {
            r->parts.cut_waits = false;
            if (!is_ep_mark(&r->tok.toks[r->parts.wait_ntok])) {
                cut_at(r, r->parts.wait_at, r->parts.wait_ntok);
                if (r->tok.ntok < r->parts.part_stop)
                    return;
            }
        }
    }
    const struct pgn_token *last = &r->tok.toks[r->tok.ntok - 1];
    if (last->kind == PGN_TOK_MOVE && !is_ep_mark(last)) {
        r->parts.cut_waits = true;
        r->parts.wait_len = last->len;
        r->parts.wait_ntok = r->tok.ntok;
        r->parts.wait_at = state_at(r, i);
        return;
    }
    cut_at(r, state_at(r, i), r->tok.ntok);
}

const struct pgn_token *parts_last_token(const struct pgn_reader *r)
{
    if (r->tok.ntok > r->parts.win)
        return &r->tok.toks[r->tok.ntok - 1];
    return r->parts.ncut ? &r->parts.cut_last : NULL;
}

/* Room for reading any part k >= 1 again after part 0 without moving part 0: the
 * largest part, one token more (relex_begin's limit) and scan_fast's margin of 64. */
static void reserve_relex_room(struct pgn_reader *r, size_t total)
{
    size_t most = 0;
    for (size_t k = 0; k < r->parts.ncut; k++) {
        size_t end = k + 1 < r->parts.ncut ? r->parts.cuts[k + 1].first : total;
        if (end - r->parts.cuts[k].first > most)
            most = end - r->parts.cuts[k].first;
    }
    void *p = r->tok.toks;
    xgrow(&p, &r->tok.tok_cap, r->parts.win + most + 1 + 64 + 1, sizeof *r->tok.toks);
    r->tok.toks = p;
}

void parts_finish(struct pgn_reader *r, struct pgn_game *game, uint64_t end)
{
    size_t total = r->skipping ? 0 : r->parts.part_base + (r->tok.ntok - r->parts.win);
    if (r->skipping)
        r->parts.ncut = 0;
    /* A cut after the game's last token leaves its last part empty: the part before it
     * runs on to the game's end instead (only the last cut can be so: a part has at least
     * part_tokens >= 1 tokens before it is cut). */
    if (r->parts.ncut && r->parts.cuts[r->parts.ncut - 1].first == total)
        r->parts.ncut--;
    if (r->parts.ncut)
        reserve_relex_room(r, total);
    r->parts.game_end = end;
    r->parts.part_count = total ? r->parts.ncut + 1 : 0;
    game->tokens = total ? r->tok.toks + r->tok.tok0 : NULL;
    game->token_count = r->parts.ncut ? r->parts.cuts[0].first : total;
    game->part_count = r->parts.part_count;
    game->parts = r->parts.ncut ? &r->parts.part_src : NULL;
    game->last_result = (struct slice){NULL, 0};
    if (!r->skipping && r->parts.result_off != UINT64_MAX)
        game->last_result =
            (struct slice){r->in.data + (r->parts.result_off - r->in.base_off),
                           r->parts.result_len};
}

/* Where part k ends: the next cut, or the game's end; *count: its tokens. */
static uint64_t part_end(const struct pgn_reader *r, size_t k, size_t total, size_t *count)
{
    size_t next = k < r->parts.ncut ? r->parts.cuts[k].first : total;
    *count = next - r->parts.cuts[k - 1].first;
    return k < r->parts.ncut ? r->parts.cuts[k].off : r->parts.game_end;
}

void relex_begin(struct pgn_reader *r, size_t k, struct pgn_reader *saved)
{
    *saved = *r;
    const struct part_cut *c = &r->parts.cuts[k - 1];
    size_t want;
    uint64_t end = part_end(r, k, r->parts.part_base + (r->tok.ntok - r->parts.win), &want);
    r->parts.relex = true;
    r->parts.relex_broken = false;
    /* The part's bytes and all that its tokens were decided on are in the buffer (the
     * game's text is, and a token is decided on bytes before its part's end): the data
     * ends at the part's end, and nothing more is read. */
    r->in.len = (size_t)(end - r->in.base_off);
    r->in.eof = true;
    r->stop_at = SIZE_MAX;
    r->started = true;
    r->skipping = false;
    r->scan.phase = c->phase;
    r->scan.line = c->line;
    r->scan.ls = (ptrdiff_t)((int64_t)c->ls_off - (int64_t)r->in.base_off);
    r->scan.eols = c->eols;
    r->scan.depth = c->depth;
    r->scan.open_line = c->open_line;
    r->scan.open_col = c->open_col;
    /* The tokens go after part 0; scan_fast stops at the part's count, emit one later. */
    r->tok.tok0 = r->tok.ntok = r->parts.win;
    r->parts.part_stop = r->parts.win + want;
    r->tok.tok_limit = r->parts.win + want + 1;
    r->scan.pos = (size_t)(c->off - r->in.base_off);
}

struct pgn_part relex_end(struct pgn_reader *r, size_t k, const struct pgn_reader *saved)
{
    size_t want;
    part_end(saved, k, saved->parts.part_base + (saved->tok.ntok - saved->parts.win), &want);
    struct pgn_part part = {r->tok.toks + r->parts.win, r->tok.ntok - r->parts.win};
    /* Read otherwise than the first time: a bug, which the tests and the fuzzer look for
     * (relex_broken, a game's end before the part's, or a count that differs); the part
     * is handed out as read. */
    bool broken = r->parts.relex_broken || r->scan.pos != r->in.len || part.count != want ||
                  r->tok.toks != saved->tok.toks;
    assert(!broken);
    struct pgn_token *toks = r->tok.toks;
    size_t tok_cap = r->tok.tok_cap;
    *r = *saved;
    r->tok.toks = toks;
    r->tok.tok_cap = tok_cap;
    r->parts.relex_broken = broken;
    return part;
}
