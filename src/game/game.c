/*
 * game.c - replays one tokenized game: start position, mainline, variations, result.
 *
 * Owns: the tag-driven setup (Variant, SetUp, FEN), the walk over tokens with an
 * explicit stack of variation levels, turning SAN problems into positioned
 * diagnostics, and the end-of-game checks (SPEC §3.7).  Does not own: tokenizing
 * (pgn_reader.c), SAN grammar (san.c) or move choice (san_resolve.c).
 */
#include "game/game.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "board/attacks.h"
#include "board/fen.h"
#include "board/movegen.h"
#include "board/rules.h"
#include "board/uci.h"
#include "board/variant.h"
#include "base/xalloc.h"
#include "base/inline_hints.h"
#include "san/san_internal.h"
#include "san/san_resolve_internal.h"

/* One variation level: where its line stands and the position its next sibling
 * variation starts from (the position before the level's last move).  The two live in
 * a pair that swaps roles on each move, so a move costs one position copy, not three. */
struct level {
    struct position pair[2];
    uint8_t cur;    /* pair[cur] is the current position, pair[!cur] the one before */
    uint32_t ply;   /* plies played from the game's start to the current position */
    bool has_last;
    bool dead;      /* an error ended this line: skip its remaining moves */
};

/*
 * What hint_restart() needs of the tokens before an error: the mainline's last restart
 * at "1." after a blank line.  Kept from part to part of a game in parts.
 */
struct restart_scan {
    size_t depth;
    bool moved;            /* a mainline move was seen */
    bool any;              /* a token was seen (prev_line is set) */
    uint64_t prev_line;    /* the line of the token before */
    uint64_t restart_line; /* where the movetext last restarted at 1., or 0 */
};

struct game_replayer {
    struct game_options opts;
    struct san_matcher *san;
    /* san's cache, for keys and prefetches inline.  san_matcher_new() gives it a cache
     * always: its key_max is CACHE_KEY_MAX, which run_cache() makes a constant. */
    struct san_cache_ref san_cache;
    struct game_record record;
    struct level *levels;
    size_t level_cap;
    struct move *mainline;
    size_t mainline_cap;
    struct game_token_move *token_moves;
    size_t token_move_cap;
    /* The walk between two parts of a game (pgn_reader.h: games in parts). */
    size_t depth;
    struct restart_scan restart;
    /* Playing a part again for game_part_next(): the diagnostics go to `quiet` (thrown
     * away: game_replay has them), the mainline and the error ply are left alone. */
    bool silent;
    struct diag_list quiet;
    void (*between_parts)(void *ctx);
    void *between_ctx;
    /* The mate test of a mainline move of standard chess that gave check, made on the
     * quick path (settle_mate, quick_claims) or by its resolution (play_token): its
     * ply + 1 (0: none this game) and answer.  When it is the last move's, the ending
     * needs no test of its own (final_ending). */
    uint32_t mate_tested_ply1;
    bool mate_tested_mated;
    /* position_set_start()'s, made once: a game without a FEN copies it. */
    struct position standard_start;
};

struct game_replayer *game_replayer_new(const struct game_options *opts, struct diag *err)
{
    attacks_init();
    struct san_matcher *san = san_matcher_new(opts->letters, err);
    if (!san)
        return NULL;
    struct game_replayer *r = xcalloc(1, sizeof *r);
    r->opts = *opts;
    r->san = san;
    r->san_cache = san_matcher_cache_ref(san);
    position_set_start(&r->standard_start);
    assert(r->san_cache.key_max == CACHE_KEY_MAX); /* run_cache() */
    diag_list_init_capped(&r->record.diags, opts->max_diagnostics ? opts->max_diagnostics : 1000);
    diag_list_init_capped(&r->quiet, 1);
    return r;
}

void game_replayer_free(struct game_replayer *r)
{
    if (!r)
        return;
    san_matcher_free(r->san);
    diag_list_release(&r->record.diags);
    diag_list_release(&r->quiet);
    free(r->levels);
    free(r->mainline);
    free(r->token_moves);
    free(r);
}

static const struct pgn_tag *find_tag(const struct pgn_game *g, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < g->tag_count; i++) {
        const struct slice *n = &g->tags[i].name;
        if (n->len == len && memcmp(n->ptr, name, len) == 0)
            return &g->tags[i];
    }
    return NULL;
}

const struct slice *game_tag(const struct pgn_game *g, const char *name)
{
    const struct pgn_tag *t = find_tag(g, name);
    return t ? &t->value : NULL;
}

static inline bool slice_is_exactly(const struct slice *s, const char *text, size_t len)
{
    return s->len == len && memcmp(s->ptr, text, len) == 0;
}

static bool slice_is(const struct slice *s, const char *text)
{
    size_t len = strlen(text);
    return s->len == len && strncasecmp(s->ptr, text, len) == 0;
}

/* ---- setup ---- */

/* The tags the replay reads, each the first of its name (find_tag), found in one pass
 * over the game's tags rather than a pass each. */
struct replay_tags {
    const struct pgn_tag *variant, *fen, *result;
};

/* t, whose name has one of the three lengths, kept if it is the first of its name. */
static inline void note_replay_tag(struct replay_tags *rt, const struct pgn_tag *t)
{
    const struct pgn_tag **slot = NULL;
    if (t->name.len == 7 && memcmp(t->name.ptr, "Variant", 7) == 0)
        slot = &rt->variant;
    else if (t->name.len == 3 && memcmp(t->name.ptr, "FEN", 3) == 0)
        slot = &rt->fen;
    else if (t->name.len == 6 && memcmp(t->name.ptr, "Result", 6) == 0)
        slot = &rt->result;
    if (slot && !*slot)
        *slot = t;
}

static struct replay_tags replay_tags_of(const struct pgn_game *g)
{
    struct replay_tags rt = {NULL, NULL, NULL};
    /* A game without tags may have none (NULL + 0 is undefined behaviour, which UBSan
     * reports). */
    if (!g->tag_count)
        return rt;
    /* One bit test steps over most names, of none of the three lengths (a longer one
     * that aliases a bit is compared): a load and a test a tag, two tags a step. */
    const uint64_t lengths = UINT64_C(1) << 3 | UINT64_C(1) << 6 | UINT64_C(1) << 7;
    const struct pgn_tag *t = g->tags, *end = t + g->tag_count;
    if (g->tag_count & 1) {
        if (lengths >> (t->name.len & 63) & 1)
            note_replay_tag(&rt, t);
        t++;
    }
    for (; t != end; t += 2) {
        if (lengths >> (t[0].name.len & 63) & 1)
            note_replay_tag(&rt, &t[0]);
        if (lengths >> (t[1].name.len & 63) & 1)
            note_replay_tag(&rt, &t[1]);
    }
    return rt;
}

/* The rules the Variant tag names: a variant (standard chess included), Chess960
 * (standard chess with its castling), or -1 for rules pgnkit does not know. */
static int variant_of(const struct pgn_tag *tag, bool *chess960)
{
    const struct slice *v = tag ? &tag->value : NULL;
    *chess960 = false;
    if (!v || v->len == 0)
        return VARIANT_STANDARD;
    static const char *const c960[] = {"chess960",       "chess 960", "fischerandom",
                                       "fischer random", "fischerrandom", "960", "frc"};
    for (size_t i = 0; i < sizeof c960 / sizeof *c960; i++) {
        if (slice_is(v, c960[i])) {
            *chess960 = true;
            return VARIANT_STANDARD;
        }
    }
    return variant_from_name(v->ptr, v->len);
}

/* Returns false (with a diagnostic) when the game cannot be played at all.  Writes the
 * whole of rec->start (reset_record leaves it): the position, or zeros. */
static bool set_up(struct game_record *rec, const struct replay_tags *rt,
                   const struct position *standard_start)
{
    bool chess960;
    int variant = variant_of(rt->variant, &chess960);
    if (variant < 0) {
        memset(&rec->start, 0, sizeof rec->start);
        const struct pgn_tag *t = rt->variant;
        diag_list_add(&rec->diags, DIAG_UNSUPPORTED_VARIANT, t->line, t->col,
                      "variant \"%.*s\" is not supported (standard chess, Chess960 and the "
                      "lichess variants are)",
                      (int)(t->value.len > 60 ? 60 : t->value.len), t->value.ptr);
        rec->status = GAME_SKIPPED;
        return false;
    }
    rec->chess960 = chess960;
    const struct pgn_tag *fen = rt->fen;
    if (!fen) {
        if (variant)
            variant_set_start(&rec->start, (enum variant)variant);
        else
            rec->start = *standard_start;
        rec->start.chess960 = rec->chess960;
        return true;
    }
    struct diag err, dropped;
    memset(&rec->start, 0, sizeof rec->start); /* what a bad FEN leaves is kept */
    if (fen_parse_variant_ex(&rec->start, fen->value.ptr, fen->value.len, rec->chess960,
                             (enum variant)variant, FEN_DROP_BAD_CASTLING, &err, &dropped) != 0) {
        diag_list_add(&rec->diags, DIAG_BAD_FEN, fen->line, fen->col, "bad FEN tag: %s",
                      err.message);
        return false;
    }
    if (dropped.code != DIAG_OK)
        diag_list_add(&rec->diags, DIAG_CASTLING_DROPPED, fen->line, fen->col, "FEN tag: %s",
                      dropped.message);
    rec->chess960 = rec->start.chess960;
    return true;
}

/* ---- diagnostics about a move ---- */

/* The diagnostic paths run for few moves: PGNKIT_COLD keeps them out of the replay loop
 * (inlined there they cost a measured 5-8% in the PGO build). */

static PGNKIT_COLD void fill_move_context(struct diag *d, const struct position *before,
                                   const struct pgn_token *tok, uint32_t ply,
                                   const struct san_outcome *o, bool chess960)
{
    d->ply = ply;
    d->move_number = before->fullmove_number;
    d->side = before->side_to_move;
    size_t n = tok->len < sizeof d->san - 1 ? tok->len : sizeof d->san - 1;
    memcpy(d->san, tok->text, n);
    d->san[n] = '\0';
    fen_write(before, d->fen, sizeof d->fen, 0);
    size_t len = 0;
    for (int i = 0; o && i < o->candidate_count && len + 7 < sizeof d->candidates; i++) {
        if (len)
            d->candidates[len++] = ' ';
        len += uci_write_move(before, o->candidates[i], chess960, d->candidates + len);
    }
    d->candidates[len] = '\0';
}

static PGNKIT_COLD struct diag *move_diag(struct game_record *rec, enum diag_code code,
                                   const struct pgn_token *tok, uint32_t ply,
                                   const struct position *before, const char *message)
{
    struct diag *d = diag_list_add(&rec->diags, code, pgn_token_line(rec->game, tok), tok->col, "%s", message);
    if (d)
        fill_move_context(d, before, tok, ply, NULL, rec->chess960);
    return d;
}

/* Each problem san_resolve() found with the token, as a positioned diagnostic. */
static PGNKIT_COLD void report_problems(struct game_record *rec, const struct pgn_token *tok,
                                 uint32_t ply, const struct position *before,
                                 const struct san_outcome *o)
{
    for (int k = 0; k < o->problem_count; k++) {
        struct diag *d = diag_list_add(&rec->diags, o->problems[k].code, pgn_token_line(rec->game, tok), tok->col,
                                       "%s", o->problems[k].message);
        if (!d)
            continue;
        d->severity = o->problems[k].severity;
        fill_move_context(d, before, tok, ply, o, rec->chess960);
    }
}

/* ---- the walk ---- */

static inline struct position *current(struct level *lv) { return &lv->pair[lv->cur]; }
static inline struct position *before_last(struct level *lv) { return &lv->pair[!lv->cur]; }

static struct level *push_level(struct game_replayer *r, size_t depth)
{
    xgrow((void **)&r->levels, &r->level_cap, depth + 1, sizeof *r->levels);
    return &r->levels[depth];
}

/*
 * A token that is no move but an annotation glyph written as its own word (! +- ± N ...):
 * the NAG it stands for, with a NONSTANDARD warning; the line goes on.  Returns false
 * when the token is no glyph.  N alone is the novelty glyph, never a knight move (it has
 * no destination).
 */
static PGNKIT_COLD bool glyph_as_nag(struct game_record *rec, const struct pgn_token *tok)
{
    int nag = san_glyph_nag(tok->text, tok->len);
    if (!nag)
        return false;
    diag_list_add(&rec->diags, DIAG_NONSTANDARD, pgn_token_line(rec->game, tok), tok->col,
                  "non-standard notation accepted: the annotation glyph '%.*s' as its own "
                  "word, read as $%d",
                  (int)tok->len, tok->text, nag);
    return true;
}

/*
 * What play_run() keeps in locals while it plays a run: the move lists written during
 * resolution are byte stores, which C lets alias anything, so fields read through
 * pointers (g->tokens, lv->cur, rec->mainline_count) would be loaded again after each
 * of them.  Written back to the level and the record when the run ends.
 */
struct run {
    const struct pgn_token *tokens;
    const struct pgn_token *end; /* tokens + the part's token count */
    struct position *now;   /* current(lv) */
    struct position *prev;  /* before_last(lv) */
    uint32_t ply;           /* lv->ply */
    bool moved;             /* an odd number of moves was played: lv->cur flips */
    bool dead;              /* lv->dead: an error ended the line */
    /* Where the run's next move goes: the mainline's next place, or off the mainline (a
     * variation, a part played again) the same place as scratch, which the mainline's
     * later moves overwrite.  Never NULL: the per-ply store needs no test.  Room:
     * prepare_part() leaves a place per token of the part past the mainline's count, and
     * a run starts at that count as the part's moves before it left it, so it writes
     * no more places than the part has tokens up to the run's end. */
    struct move *mainline;
    bool on_mainline;       /* mainline is the mainline's */
    struct game_token_move *token_moves; /* r->token_moves, or NULL with skip_token_moves */
    const struct san_cache_slot *slots; /* r's SAN cache slots, at hand per ply: run_cache() */
    const struct pgn_token *keyed; /* the move token prefetch_next_move() found, */
    struct san_key key;            /* and its SAN cache key, for its decode */
    bool quick;             /* play_quick() may play: standard chess, not --strict */
    /* The last move was played in place (play_quick): prev is not the position before
     * it until san_unplay_quick() rebuilds it from undo, which only a diagnostic and the
     * end of the run (a variation may start from it) ask for. */
    bool in_place;
    struct quick_undo undo;
    /* The last move, when played in place, gives check (now->checkers) and its marks
     * are right unless it mates: its mate test waits (unmated_check, settle_mate), since
     * the next move, when play_quick() takes it, is a legal one and proves there was no
     * mate.  Its token, NULL once the test is made (a mate decodes it again). */
    const struct pgn_token *unmated;
};

/* r's SAN cache from the run's copy of its slots' address (a load a ply fewer than from
 * r), its longest key a constant: the per-ply key's bound test needs no load. */
static inline struct san_cache_ref run_cache(const struct run *run)
{
    return (struct san_cache_ref){run->slots, CACHE_KEY_MAX};
}

/* Tokens between moves that the walk steps over: numbers, NAGs, comments (the kinds
 * right after PGN_TOK_MOVE). */
static inline bool is_filler(uint8_t kind)
{
    _Static_assert(PGN_TOK_MOVE_NUMBER == 1 && PGN_TOK_NAG == 2 && PGN_TOK_COMMENT == 3 &&
                       PGN_TOK_LINE_COMMENT == 4,
                   "the filler kinds are 1 to 4");
    return (uint8_t)(kind - 1) < 4;
}

/*
 * The next move token's SAN cache slot starts loading while this move is resolved:
 * otherwise that load is a cache miss at the start of nearly every ply.  Between two
 * moves there is usually a number and perhaps a comment: look up to 3 tokens past tok,
 * over filler only.  The token and its cache key are kept in run (keyed, key): its
 * decode, a move later, does not build the key again (play_token calls this once its
 * own decode is done).  Returns where the walk goes on after tok: that move, the walk
 * stepping over the filler before it, or else tok + 1.
 */
static inline PGNKIT_HOT const struct pgn_token *
prefetch_next_move(struct run *run, const struct pgn_token *tok)
{
    const struct pgn_token *t = tok + 1, *end = run->end;
    if (t == end)
        return t;
    if (t->kind != PGN_TOK_MOVE) {
        if (!is_filler(t->kind) || ++t == end)
            return tok + 1;
        if (t->kind != PGN_TOK_MOVE &&
            (!is_filler(t->kind) || ++t == end || t->kind != PGN_TOK_MOVE))
            return tok + 1;
    }
    san_key_prefetch(run_cache(run), t->text, t->len, &run->key);
    run->keyed = t;
    return t;
}

/*
 * prefetch_next_move() for play_quick(), with its test of an e.p. mark right after tok
 * ("exd6 e.p." written as two tokens: play_token's, and NULL here, with nothing
 * changed).  The usual case, two tokens or more after tok, is read with one bounds test.
 */
static inline PGNKIT_HOT const struct pgn_token *
quick_next_move(struct run *run, const struct pgn_token *tok)
{
    const struct pgn_token *t = tok + 1, *end = run->end;
    bool ep_spelling;
    if (t + 1 < end) {
        if (t->kind == PGN_TOK_MOVE) {
            if (san_is_ep_mark(t->text, t->len, &ep_spelling))
                return NULL;
        } else {
            if (!is_filler(t->kind))
                return tok + 1;
            t++;
            if (t->kind != PGN_TOK_MOVE &&
                (!is_filler(t->kind) || ++t == end || t->kind != PGN_TOK_MOVE))
                return tok + 1;
        }
    } else {
        /* t is the last token, or none: a move, or no move to prefetch. */
        if (t == end)
            return t;
        if (t->kind != PGN_TOK_MOVE)
            return tok + 1;
        if (san_is_ep_mark(t->text, t->len, &ep_spelling))
            return NULL;
    }
    san_key_prefetch(run_cache(run), t->text, t->len, &run->key);
    run->keyed = t;
    return t;
}

/* The claims of the move play_quick() just played are not all right, or it mates (known
 * when mate, else asked here): their problems, in the context of the position before it
 * (rebuilt).  Returns whether the move mates. */
static PGNKIT_COLD bool quick_claims(struct game_replayer *r, struct position *prev,
                              const struct position *now, struct quick_undo undo,
                              const struct pgn_token *tok, uint32_t ply, const struct san *san,
                              struct move m, bool mate)
{
    struct quick_played p = {__builtin_popcountll(now->checkers), mate};
    if (p.checkers && !p.mate)
        p.mate = san_quick_mated(now);
    struct san_outcome o;
    san_quick_outcome(san, m, p, &o);
    if (o.problem_count) {
        san_unplay_quick(prev, now, &undo);
        report_problems(&r->record, tok, ply, prev, &o);
    }
    return p.mate;
}

/* The mate test of the move of `ply`, which gave check, made: kept for final_ending()
 * when on the mainline. */
static inline void note_mate_test(struct game_replayer *r, const struct run *run, uint32_t ply,
                                  bool mated)
{
    if (run->on_mainline) {
        r->mate_tested_ply1 = ply + 1;
        r->mate_tested_mated = mated;
    }
}

/* Whether the last move's mate test waits (struct run). */
static inline bool unmated_check(const struct run *run)
{
    return run->in_place && run->unmated && run->now->checkers;
}

/* The waiting mate test of run.unmated (see struct run), before anything else is read
 * after it: a move play_quick() does not take, or the end of the run.  A mate gets the
 * MATE_MISSING warning and the '#' mark it would have had at once.  The run is passed
 * by value: its address taken would keep play_run()'s copy out of registers. */
static PGNKIT_COLD void settle_mate(struct game_replayer *r, struct run run)
{
    bool mated = san_quick_mated(run.now);
    note_mate_test(r, &run, run.ply, mated);
    if (!mated)
        return;
    if (run.token_moves)
        run.token_moves[run.unmated - run.tokens].check_mark = '#';
    /* Decoded again rather than kept per ply: the same token, the same san. */
    struct san san;
    san_decode(r->san, run.unmated->text, run.unmated->len, &san);
    quick_claims(r, run.prev, run.now, run.undo, run.unmated, run.ply, &san,
                 run.undo.move, true);
}

/*
 * The usual move of standard chess (san_quick_move), start to end: its SAN read in the
 * cache slot its prefetch found, the move played in place, the next move's slot
 * prefetched, and nothing else (no SAN copied, no outcome filled: the general path's
 * stores and loads were a third of the ply).  Returns where the walk goes on
 * (prefetch_next_move); NULL with nothing changed for anything else, which
 * play_token() then takes from the start.  The token's key is known (run->keyed == tok).
 */
static inline PGNKIT_HOT const struct pgn_token *play_quick(struct game_replayer *r, struct run *run,
                                                         const struct pgn_token *tok)
{
    const struct san *san = san_cache_find(run_cache(run), &run->key);
    struct move m;
    if (!san || !san_quick_move(run->now, san, &m))
        return NULL;
    /* The slot stays as it is until the next decode: san is read in place. */
    const struct pgn_token *next = quick_next_move(run, tok);
    if (!next)
        return NULL;
    san_play_in_place_lazy(run->now, m, &run->undo);
    run->in_place = true;
    /* Legal, so the last move did not mate; this one's mate test waits (settle_mate). */
    bool check = run->now->checkers != 0, mate = false;
    run->unmated = tok;
    if (!san_quick_claims_exact(san, m, (struct quick_played){check, false})) {
        mate = quick_claims(r, run->prev, run->now, run->undo, tok, run->ply + 1, san, m,
                            false);
        run->unmated = NULL; /* asked */
        if (check)
            note_mate_test(r, run, run->ply + 1, mate);
    }
    run->ply++;
    if (run->token_moves)
        run->token_moves[tok - run->tokens] = (struct game_token_move){
            m, run->ply, true, san->suffix_len, (char)(mate ? '#' : check ? '+' : 0)};
    *run->mainline++ = m;
    return next;
}

/*
 * The move of tok (its SAN decoded) by san_resolve(), on a copy: whatever
 * play_quick() does not take.  Out of line: inlined, its general resolution's
 * locals took the registers of the per-ply path.  Returns false when the move ends the
 * line (run->dead set).
 */
static PGNKIT_NOINLINE bool play_resolved(struct game_replayer *r, const struct position *now,
                                   struct position *scratch, const struct pgn_token *tok,
                                   uint32_t ply, const struct san *san, struct san_outcome *o)
{
    o->after = scratch; /* no longer needed once this move is played */
    san_resolve(now, san, &r->opts.san, o);
    if (o->problem_count)
        report_problems(&r->record, tok, ply, now, o);
    return o->ok;
}

/* A token the SAN decoder refused: no move, or (never for user input) a matcher whose
 * pattern PCRE2 would not compile when first needed, which the message then names. */
static PGNKIT_COLD void refused_diag(struct game_record *rec, const struct san_matcher *san,
                                     const struct pgn_token *tok, uint32_t ply,
                                     const struct position *now)
{
    char msg[DIAG_MESSAGE_MAX];
    int shown = (int)(tok->len > 40 ? 40 : tok->len);
    const struct diag *broken = san_matcher_error(san);
    if (broken)
        snprintf(msg, sizeof msg, "'%.*s' could not be read: %s", shown, tok->text,
                 broken->message);
    else
        snprintf(msg, sizeof msg, "'%.*s' is not a move", shown, tok->text);
    move_diag(rec, DIAG_SYNTAX, tok, ply, now, msg);
}

/* Resolve the move token tok.  Returns the tokens consumed; sets run->dead when the
 * move ends the line.  Inlined into its one caller, play_run(), the loop over a run of
 * moves. */
static inline PGNKIT_HOT size_t play_token(struct game_replayer *r, struct run *run,
                             const struct pgn_token *tok)
{
    struct game_record *rec = &r->record;
    struct position *now = run->now;
    size_t used = 1;
    uint32_t ply = run->ply + 1;
    struct san san;
    if (unmated_check(run)) {
        settle_mate(r, *run);
        run->unmated = NULL;
    }
    /* The key the last prefetch found, unless this is the run's first move (or the one
     * after an e.p. mark, which that prefetch took for a move). */
    if (run->keyed != tok)
        san_key_of(run_cache(run), tok->text, tok->len, &run->key);
    if (san_decode_keyed(r->san, tok->text, tok->len, &run->key, &san) != 0) {
        if (glyph_as_nag(rec, tok))
            return used;
        refused_diag(rec, r->san, tok, ply, now);
        run->dead = true;
        return used;
    }
    /* The next move's key replaces this one's, which is no longer needed. */
    bool mark_next = prefetch_next_move(run, tok) == tok + 1 && run->keyed == tok + 1;
    /* "exd6 e.p." written as two tokens: the mark belongs to the move before it. */
    bool ep_spelling;
    if (mark_next && san_is_ep_mark(tok[1].text, tok[1].len, &ep_spelling)) {
        san.ep = 1;
        san.lenient |= SAN_LENIENT_EP_MARK | (ep_spelling ? SAN_LENIENT_EP_SPELLING : 0);
        used = 2;
    }
    struct san_outcome o;
    if (!play_resolved(r, now, run->prev, tok, ply, &san, &o)) {
        run->dead = true;
        return used;
    }
    /* Its resolution made the mate test of a check: final_ending() need not again (in
     * standard chess, where mate is the only ending a check can be). */
    if (o.gives_check && !now->variant)
        note_mate_test(r, run, ply, o.gives_mate);
    run->prev = now;
    run->now = o.after;
    run->moved = !run->moved;
    run->in_place = false;
    if (run->token_moves)
        run->token_moves[tok - run->tokens] = (struct game_token_move){
            o.move, ply, true, san.suffix_len,
            (char)(o.gives_mate ? '#' : o.gives_check ? '+' : 0)};
    run->ply = ply;
    *run->mainline++ = o.move;
    return used;
}

/*
 * Play the run of move tokens from i on level lv, stepping over the filler between
 * them; stop at any other token (variation, result), at the end, or when a move ends
 * the line.  Returns the index of the first token not consumed.  One call per run
 * rather than per move: play_token() is inlined here, and its frame set-up and the
 * walk's dispatch are paid once per run.
 */
static size_t play_run(struct game_replayer *r, const struct pgn_part *p, size_t i,
                       struct level *lv, bool mainline)
{
    struct game_record *rec = &r->record;
    mainline = mainline && !r->silent;
    struct run run = {p->tokens, p->tokens + p->count, current(lv), before_last(lv), lv->ply,
                      false, false, r->mainline + rec->mainline_count, mainline,
                      r->opts.skip_token_moves ? NULL : r->token_moves, r->san_cache.slots, NULL,
                      {{0, 0}, 0},
                      !r->opts.san.strict && !current(lv)->variant, false,
                      {{0, 0, 0}, {0, 0, 0, 0}, 0}, NULL};
    const struct pgn_token *t = p->tokens + i;
    while (t < run.end) {
        uint8_t kind = t->kind;
        if (kind == PGN_TOK_MOVE) {
            if (run.quick) {
                if (run.keyed != t) {
                    san_key_of(run_cache(&run), t->text, t->len, &run.key);
                    run.keyed = t;
                }
                /* A move the prefetch found is keyed: it is played at once, with no test
                 * of the loop's (t < end, its kind, run.quick, its key). */
                const struct pgn_token *next;
                while ((next = play_quick(r, &run, t)) != NULL) {
                    t = next;
                    if (run.keyed != t)
                        goto walk_on;
                }
            }
            t += play_token(r, &run, t);
            if (run.dead)
                break;
        } else if (is_filler(kind)) {
            t++;
        } else {
            break;
        }
    walk_on:;
    }
    i = (size_t)(t - p->tokens);
    if (unmated_check(&run))
        settle_mate(r, run);
    if (run.in_place)
        san_unplay_quick(run.prev, run.now, &run.undo);
    lv->dead = run.dead;
    if (run.ply != lv->ply) {
        lv->cur ^= run.moved;
        lv->has_last = true;
        lv->ply = run.ply;
    }
    if (mainline)
        rec->mainline_count = (size_t)(run.mainline - r->mainline);
    return i;
}

static void open_variation(struct game_replayer *r, size_t *depth)
{
    struct level *parent = &r->levels[*depth];
    struct level *child = push_level(r, *depth + 1);
    parent = &r->levels[*depth]; /* push_level may have moved the array */
    child->cur = 0;
    child->pair[0] = parent->has_last ? *before_last(parent) : *current(parent);
    child->ply = parent->has_last ? parent->ply - 1 : parent->ply;
    child->has_last = false;
    child->dead = parent->dead || r->opts.skip_variations;
    (*depth)++;
}

/*
 * The termination marker as the PGN standard spells it.  The reader also ends a game at
 * ½-½ and at results written with an en or em dash (1–0, 0—1, ½–½, 1/2–1/2): those are
 * read as the result they mean, with a NONSTANDARD warning, and written in ASCII.
 */
static struct slice result_as_written(struct game_record *rec, const struct pgn_token *tok)
{
    struct slice s = {tok->text, tok->len};
    if (tok->len == 1 || (tok->len == 3 && tok->text[1] == '-') ||
        (tok->len == 7 && memcmp(tok->text, "1/2-1/2", 7) == 0))
        return s;
    const char *ascii = tok->text[0] == '1' && tok->text[1] != '/' ? "1-0"
                        : tok->text[0] == '0'                      ? "0-1"
                                                                   : "1/2-1/2";
    diag_list_add(&rec->diags, DIAG_NONSTANDARD, pgn_token_line(rec->game, tok), tok->col,
                  "non-standard notation accepted: the result %.*s, read as %s", (int)tok->len,
                  tok->text, ascii);
    return (struct slice){ascii, strlen(ascii)};
}

static unsigned long move_number_of(const struct pgn_token *t)
{
    unsigned long n = 0;
    for (size_t k = 0; k < t->len && t->text[k] >= '0' && t->text[k] <= '9' && n < 100000; k++)
        n = n * 10 + (unsigned long)(t->text[k] - '0');
    return n;
}

/* Bring the scan over tokens t[0, n) of game g (restart_scan). */
static void restart_scan_tokens(struct restart_scan *s, const struct pgn_game *g,
                                const struct pgn_token *t, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        uint64_t line = pgn_token_line(g, &t[k]);
        if (t[k].kind == PGN_TOK_VARIATION_START)
            s->depth++;
        else if (t[k].kind == PGN_TOK_VARIATION_END && s->depth)
            s->depth--;
        else if (s->depth == 0 && t[k].kind == PGN_TOK_MOVE)
            s->moved = true;
        else if (s->depth == 0 && t[k].kind == PGN_TOK_MOVE_NUMBER && s->moved && s->any &&
                 move_number_of(&t[k]) == 1 && line >= s->prev_line + 2)
            s->restart_line = line;
        s->prev_line = line;
        s->any = true;
    }
}

/*
 * The mainline stopped at an error before token `end` of part p (s: the scan of the
 * parts before).  When its movetext restarted at move 1 after a blank line (two games
 * without tags or result run together), the PGN rule still makes it one game, but the
 * error's message says where the second one probably starts.
 */
static PGNKIT_COLD void hint_restart(struct game_record *rec, struct restart_scan s,
                              const struct pgn_part *p, size_t end)
{
    restart_scan_tokens(&s, rec->game, p->tokens, end < p->count ? end : p->count);
    struct diag *last = rec->diags.count ? &rec->diags.items[rec->diags.count - 1] : NULL;
    if (!s.restart_line || !last || last->severity != DIAG_ERROR)
        return;
    size_t len = strlen(last->message);
    snprintf(last->message + len, sizeof last->message - len,
             "; a new game probably starts at line %llu (the movetext restarts at 1.)",
             (unsigned long long)s.restart_line);
}

/* A result token's text kept in the record (a part's tokens do not outlive the part).
 * The lexer's results are at most 9 bytes (1/2–1/2), so dst always holds one. */
static struct slice keep_result_text(char *dst, size_t size, struct slice s)
{
    if (!s.ptr)
        return s;
    if (s.len >= size)
        s.len = size - 1;
    memcpy(dst, s.ptr, s.len);
    dst[s.len] = '\0';
    return (struct slice){dst, s.len};
}

/* The walk over one part of the game's tokens, from where the part before left it. */
static void walk_part(struct game_replayer *r, const struct pgn_part *p)
{
    struct game_record *rec = &r->record;
    size_t depth = r->depth;
    struct level *lv = &r->levels[depth]; /* refreshed where depth changes */
    for (size_t i = 0; i < p->count;) {
        const struct pgn_token *tok = &p->tokens[i];
        switch (tok->kind) {
        case PGN_TOK_MOVE:
            if (!lv->dead) {
                i = play_run(r, p, i, lv, depth == 0);
                if (depth == 0 && lv->dead && !r->silent) {
                    rec->error_ply = lv->ply + 1;
                    hint_restart(rec, r->restart, p, i);
                }
                continue;
            }
            break;
        case PGN_TOK_VARIATION_START:
            open_variation(r, &depth); /* may move r->levels */
            lv = &r->levels[depth];
            break;
        case PGN_TOK_VARIATION_END:
            if (depth > 0)
                depth--;
            lv = &r->levels[depth];
            break;
        case PGN_TOK_RESULT:
            if (depth == 0 && !r->silent)
                rec->result_token = keep_result_text(rec->result_text, sizeof rec->result_text,
                                                     result_as_written(rec, tok));
            break;
        default:
            break;
        }
        i++;
    }
    r->depth = depth;
}

/* The walk starts at the game's start position, on the mainline. */
static void begin_walk(struct game_replayer *r)
{
    struct level *root = push_level(r, 0);
    root->cur = 0;
    root->pair[0] = r->record.start;
    root->ply = 0;
    root->has_last = false;
    root->dead = false;
    r->depth = 0;
    r->restart = (struct restart_scan){0};
}

/* Room for part p: a move per token (cleared) and a mainline move per token. */
static void prepare_part(struct game_replayer *r, const struct pgn_part *p)
{
    struct game_record *rec = &r->record;
    /* Each move token plays at most one mainline move: grow once per part, not per move. */
    xgrow((void **)&r->mainline, &r->mainline_cap, rec->mainline_count + p->count + 1,
          sizeof *r->mainline);
    if (!r->opts.skip_token_moves) {
        xgrow((void **)&r->token_moves, &r->token_move_cap, p->count + 1,
              sizeof *r->token_moves);
        memset(r->token_moves, 0, p->count * sizeof *r->token_moves);
        rec->token_moves = r->token_moves;
    }
}

/* The number of parts of g's tokens (pgn_reader.h), at least 1. */
static size_t parts_of(const struct pgn_game *g) { return g->part_count > 1 ? g->part_count : 1; }

/* The game's last token, kept when it is a result (writers read it for the marker). */
static void note_ending(struct game_record *rec, const struct pgn_part *last)
{
    const struct pgn_token *t = last->count ? &last->tokens[last->count - 1] : NULL;
    struct slice s = {NULL, 0};
    if (t && t->kind == PGN_TOK_RESULT)
        s = (struct slice){t->text, t->len};
    rec->ending_result = keep_result_text(rec->ending_text, sizeof rec->ending_text, s);
}

static void walk_tokens(struct game_replayer *r, const struct pgn_game *g)
{
    struct game_record *rec = &r->record;
    begin_walk(r);
    size_t parts = parts_of(g);
    for (size_t k = 0; k < parts; k++) {
        struct pgn_part p = pgn_game_part(g, k);
        prepare_part(r, &p);
        walk_part(r, &p);
        if (k + 1 < parts && !r->levels[0].dead)
            restart_scan_tokens(&r->restart, g, p.tokens, p.count);
        if (k + 1 == parts)
            note_ending(rec, &p);
    }
    rec->final = *current(&r->levels[0]);
}

/* ---- the parts, again, for the writers ---- */

/* Part k loaded and, in a game that was set up, played again without a trace. */
static void load_part(struct game_replayer *r, size_t k, struct game_part *part)
{
    struct game_record *rec = &r->record;
    struct pgn_part p = pgn_game_part(rec->game, k);
    prepare_part(r, &p);
    if (rec->started) {
        struct diag_list real = rec->diags;
        rec->diags = r->quiet;
        diag_list_clear(&rec->diags);
        r->silent = true;
        walk_part(r, &p);
        r->silent = false;
        r->quiet = rec->diags;
        rec->diags = real;
    }
    *part = (struct game_part){p.tokens, r->opts.skip_token_moves ? NULL : r->token_moves,
                               p.count, k};
}

bool game_part_first(const struct game_record *rec, struct game_part *part)
{
    const struct pgn_game *g = rec->game;
    if (g->skipped || !g->token_count)
        return false;
    if (parts_of(g) == 1) {
        *part = (struct game_part){g->tokens, rec->token_moves, g->token_count, 0};
        return true;
    }
    struct game_replayer *r = rec->replayer;
    if (rec->started)
        begin_walk(r);
    load_part(r, 0, part);
    return true;
}

bool game_part_next(const struct game_record *rec, struct game_part *part)
{
    if (part->index + 1 >= parts_of(rec->game))
        return false;
    struct game_replayer *r = rec->replayer;
    if (r->between_parts)
        r->between_parts(r->between_ctx);
    load_part(r, part->index + 1, part);
    return true;
}

void game_replayer_between_parts(struct game_replayer *r, void (*fn)(void *ctx), void *ctx)
{
    r->between_parts = fn;
    r->between_ctx = ctx;
}

void game_record_output_point(const struct game_record *rec)
{
    const struct game_replayer *r = rec->replayer;
    if (r && r->between_parts)
        r->between_parts(r->between_ctx);
}

/* ---- the end of the game (SPEC §3.7) ---- */

/* A result as written: no letters, so no case to fold (slice_is's strncasecmp). */
static inline bool result_is(const struct slice *s, const char *text)
{
    return slice_is_exactly(s, text, strlen(text));
}

static bool is_result(const struct slice *s)
{
    return result_is(s, "1-0") || result_is(s, "0-1") || result_is(s, "1/2-1/2") ||
           result_is(s, "*");
}

/* Whether b spells the result a (is_result): a's three lengths, each a compare of its
 * own rather than a call of memcmp. */
static inline bool same_result(const struct slice *a, const struct slice *b)
{
    if (a->len != b->len)
        return false;
    switch (a->len) {
    case 1:
        return a->ptr[0] == b->ptr[0];
    case 3:
        return memcmp(a->ptr, b->ptr, 3) == 0;
    default:
        return memcmp(a->ptr, b->ptr, 7) == 0;
    }
}

/* A variant game that ended: the result its rule gives (Antichess: the side that lost
 * everything or cannot move wins; Atomic: the king that is left; ...). */
static void check_variant_result(struct game_record *rec, const struct slice *claimed,
                                 uint32_t line, uint32_t col)
{
    struct variant_end e = variant_end_of(&rec->final);
    const char *expect = e.winner < 0 ? "1/2-1/2" : e.winner == WHITE ? "1-0" : "0-1";
    if (!result_is(claimed, expect))
        diag_list_add(&rec->diags, DIAG_RESULT_CONTRADICTS, line, col,
                      "the game ends by %s (%s), so the result is %s, not %.*s", e.termination,
                      variant_name((enum variant)rec->final.variant), expect, (int)claimed->len,
                      claimed->ptr);
}

static void check_result(struct game_record *rec, const struct pgn_game *g,
                         const struct pgn_tag *tag)
{
    if (tag)
        rec->result_tag = tag->value;
    const struct slice *token = rec->result_token.ptr ? &rec->result_token : NULL;
    uint64_t line = tag ? tag->line : g->line, col = tag ? tag->col : 1;
    if (token && tag && is_result(&tag->value) && !same_result(&tag->value, token))
        diag_list_add(&rec->diags, DIAG_RESULT_MISMATCH, line, col,
                      "the Result tag says %.*s but the game ends with %.*s",
                      (int)tag->value.len, tag->value.ptr, (int)token->len, token->ptr);
    if (rec->error_ply || rec->end == ENDING_NONE)
        return;
    const struct slice *claimed = token ? token : (tag ? &tag->value : NULL);
    if (!claimed || result_is(claimed, "*"))
        return;
    if (rec->final.variant) {
        check_variant_result(rec, claimed, line, col);
        return;
    }
    const char *expect = rec->end == ENDING_STALEMATE ? "1/2-1/2"
                         : rec->final.side_to_move == WHITE ? "0-1" : "1-0";
    if (!result_is(claimed, expect))
        diag_list_add(&rec->diags, DIAG_RESULT_CONTRADICTS, line, col,
                      "the game ends in %s, so the result is %s, not %.*s",
                      rec->end == ENDING_STALEMATE ? "stalemate" : "checkmate", expect,
                      (int)claimed->len, claimed->ptr);
}

enum ending game_end_of(const struct position *pos)
{
    return rules_ending(pos, NULL);
}

static int by_position(const void *a, const void *b)
{
    const struct diag *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    return 0;
}

static void sort_diags(struct diag_list *list)
{
    /* Insertion sort keeps equal positions in the order they were found. */
    for (size_t i = 1; i < list->count; i++) {
        struct diag d = list->items[i];
        size_t j = i;
        while (j > 0 && by_position(&list->items[j - 1], &d) > 0) {
            list->items[j] = list->items[j - 1];
            j--;
        }
        list->items[j] = d;
    }
}

static enum game_status status_of(const struct diag_list *list)
{
    if (diag_list_errors(list))
        return GAME_ERRORS;
    return list->count ? GAME_WARNINGS : GAME_CLEAN;
}

/* The ending of the mainline's final position (game_end_of): the mate test of its last
 * move, when that gave check (note_mate_test), already says. */
static enum ending final_ending(const struct game_replayer *r)
{
    if (r->mate_tested_ply1 && r->mate_tested_ply1 == r->levels[0].ply + 1)
        return r->mate_tested_mated ? ENDING_CHECKMATE : ENDING_NONE;
    return game_end_of(&r->record.final);
}

static void reset_record(struct game_replayer *r, const struct pgn_game *g)
{
    r->mate_tested_ply1 = 0;
    struct game_record *rec = &r->record;
    struct diag_list diags = rec->diags;
    /* All but the two positions (two thirds of it): set_up() writes start, or clears it
     * for a FEN; walk_tokens() writes final, or game_replay() clears it. */
    _Static_assert(offsetof(struct game_record, final) ==
                       offsetof(struct game_record, start) + sizeof rec->start,
                   "start and final side by side");
    size_t from = offsetof(struct game_record, start);
    size_t to = offsetof(struct game_record, final) + sizeof rec->final;
    memset(rec, 0, from);
    memset((char *)rec + to, 0, sizeof *rec - to);
    rec->diags = diags;
    diag_list_clear(&rec->diags);
    rec->game = g;
    rec->replayer = r;
    for (size_t i = 0; i < g->diags.count; i++)
        diag_list_push(&rec->diags, &g->diags.items[i]);
    diag_list_count_more(&rec->diags, g->diags.more, g->diags.more_errors);
}

const struct game_record *game_replay(struct game_replayer *r, const struct pgn_game *g)
{
    struct game_record *rec = &r->record;
    reset_record(r, g);
    if (g->skipped) {
        memset(&rec->start, 0, sizeof rec->start);
        memset(&rec->final, 0, sizeof rec->final);
        diag_list_close(&rec->diags);
        rec->status = GAME_SKIPPED;
        return rec;
    }
    struct replay_tags rt = replay_tags_of(g);
    if (set_up(rec, &rt, &r->standard_start)) {
        rec->started = true;
        walk_tokens(r, g);
        rec->mainline = r->mainline;
        if (!rec->error_ply)
            rec->end = final_ending(r);
        check_result(rec, g, rt.result);
        if (r->opts.openings)
            rec->opening = opening_classify(r->opts.openings, &rec->start, rec->mainline,
                                            rec->mainline_count);
    }
    if (!rec->started) {
        memset(&rec->final, 0, sizeof rec->final);
        /* Not walked: the parts are still loaded for the writers (game_part_first), and
         * the last one for the marker. */
        struct pgn_part last = pgn_game_part(g, parts_of(g) - 1);
        prepare_part(r, &last);
        note_ending(rec, &last);
    }
    sort_diags(&rec->diags);
    diag_list_close(&rec->diags);
    if (rec->status != GAME_SKIPPED)
        rec->status = status_of(&rec->diags);
    return rec;
}

bool game_record_cut(const struct game_record *rec, size_t plies, struct game_record *out)
{
    if (!rec->started || plies >= rec->mainline_count)
        return false;
    *out = *rec;
    out->mainline_count = plies;
    out->final = rec->start;
    for (size_t i = 0; i < plies; i++)
        rules_do_move(&out->final, rec->mainline[i]);
    out->end = ENDING_NONE; /* a move follows: the game did not end there */
    out->error_ply = 0;       /* the first error, if any, lies past the cut */
    out->result_token = (struct slice){"*", 1};
    out->cut = true;
    return true;
}
