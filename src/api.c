/*
 * api.c - the public API (pgnkit.h) over the modules the command line uses: source
 * (compression by content), pgn_reader (games), game (replay), san_resolve/uci/fen
 * (move and position text), comment ([%clk], [%eval]).  No logic of its own beyond
 * walking a game: the answers are the same as the CLI's because the code is the same.
 */
#define PGNKIT_BUILDING_LIBRARY 1
#include "pgnkit/pgnkit.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pgn/comment.h"
#include "board/fen.h"
#include "game/game.h"
#include "san/san_resolve.h"
#include "pgn/pgn_text.h"
#include "io/source.h"
#include "board/uci.h"
#include "board/rules.h"
#include "board/attacks.h"
#include "san/san.h"
#include "version.h"
#include "base/xalloc.h"

#include "game/game_mainline.h"
#include "game/game_tree.h"
#include "game/game_key.h"
#include "game/opening_book.h"
#include "game/select.h"
#include "io/file_range.h"
#include "pgn/pgn_reader.h"
#include "write/writer.h"

/* The replayer a reader's detached games share to read their bytes again (a tree asked
 * for, pgnkit_game_pgn): made on the first replay, warm from game to game (its SAN cache:
 * a replayer of its own per game would clear 128 KiB and miss on every first token), and
 * freed with the last of the reader and its detached games.  Detached games may be used
 * on different threads: a replay holds the lock; the count is atomic. */
struct replay_share {
    unsigned long refs;
    pthread_mutex_t lock;
    struct game_replayer *replayer; /* NULL before the first replay */
    /* Whether the caller asks for the trees of the games it detaches: set when a
     * detached game's tree had to be built by a replay, cleared when a tree built at
     * detach went unasked.  While set, pgnkit_game_detach builds the tree from the
     * reader's tokens (a walk, not a second parse and replay).  Atomic: a hint. */
    bool wants_tree;
};

static bool share_wants_tree(const struct replay_share *s)
{
    return s && __atomic_load_n(&s->wants_tree, __ATOMIC_RELAXED);
}

static void share_want_tree(struct replay_share *s, bool want)
{
    if (s && share_wants_tree(s) != want)
        __atomic_store_n(&s->wants_tree, want, __ATOMIC_RELAXED);
}

static struct replay_share *share_new(void)
{
    struct replay_share *s = xcalloc(1, sizeof *s);
    s->refs = 1;
    pthread_mutex_init(&s->lock, NULL);
    return s;
}

static struct replay_share *share_ref(struct replay_share *s)
{
    if (s)
        __atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
    return s;
}

static void share_release(struct replay_share *s)
{
    if (!s || __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    game_replayer_free(s->replayer);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

struct pgnkit_game {
    const struct game_record *rec;
    bool ktr;
    bool ep_legal;            /* PGNKIT_EP_LEGAL: pgnkit_game_fen's e.p. convention */
    unsigned flags;           /* the reader's enum pgnkit_flags: how to replay it again */
    enum pgn_encoding encoding; /* the reader's encoding option: how to decode it again */
    /* A cursor for walking positions in order: pos is the position after cursor_ply. */
    struct position pos;
    size_t cursor_ply;
    struct comment_notes *notes;  /* ply_count + 1 entries once filled, index = ply */
    size_t notes_cap;
    bool notes_filled;
    const char *member;       /* the archive member it is in, or NULL */
    /* A detached game owns copies of what rec points to (pgnkit_game_detach). */
    bool owned;
    struct game_record own_rec;
    struct pgn_game own_game;
    char *own_text;
    /* The move tree (pgnkit_game_node), built on first use; a detached game has it. */
    struct game_tree tree;
    bool tree_built;
    bool tree_eager;  /* a detached game's tree built at detach (replay_share.wants_tree) */
    bool tree_asked;  /* something asked for the tree (build_tree was called) */
    /* A detached game's input bytes as read (NULL when skipped unread): what
     * pgnkit_game_pgn reads and replays again, since the writer needs the tokens. */
    char *source;
    size_t source_len;
    struct replay_share *share; /* the reader's and its detached games' (NULL: loaded) */
    struct position node_pos; /* the position after node_cursor (0: the start) */
    size_t node_cursor;
};

/* Bytes from memory, for the source (which may find them compressed). */
struct memory_source {
    const char *data;
    size_t len, pos;
};

struct pgnkit_reader {
    int fd;                /* an owned descriptor (pgnkit_open_path), or -1 */
    int *borrowed_fd;      /* what the fd source reads */
    int fd_storage;
    struct memory_source mem;
    struct source *src;
    struct pgn_reader *reader; /* of the current archive member (NULL before the first) */
    struct pgn_limits limits;
    struct game_replayer *replayer;
    char *name;
    char *member_name;         /* "name:member" for an archive's member, as the CLI says */
    bool at_end;               /* the last member's end was reached */
    struct pgn_game current;
    struct pgn_text text;  /* current decoded to UTF-8 when it is not (pgn_text.h) */
    struct pgnkit_game game;
    /* Game selection (pgnkit_reader_option): the CLI's options of the same names, fixed
     * by the first pgnkit_next (started). */
    struct game_options game_opts;
    enum pgn_encoding encoding;
    struct select *select;             /* NULL: no criterion nor --invert */
    struct select_scratch *select_scratch;
    bool invert, classify, skip_invalid, dedupe, started;
    bool in_variations;                /* --in-variations: given to select when checked */
    struct game_key_set seen;          /* dedupe: the keys of the games yielded */
    char *message;                     /* the last option error, whole (pgnkit_reader_message) */
    /* pgnkit_open_range: the reader resumes at a sync point; games outside [start, end)
     * are read but not yielded. */
    bool ranged;
    struct pgn_resume resume;
    uint64_t range_start, range_end;
};

const char *pgnkit_version(void) { return PGNKIT_VERSION; }

int pgnkit_version_number(void) { return PGNKIT_VERSION_NUMBER; }

void pgnkit_options_init(pgnkit_options *opts) { memset(opts, 0, sizeof *opts); }

static void set_error(pgnkit_error *err, int code, const char *fmt, const char *a,
                      const char *b)
{
    if (!err)
        return;
    err->code = code;
    snprintf(err->message, sizeof err->message, fmt, a, b);
}

static void set_errorf(pgnkit_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_errorf(pgnkit_error *err, int code, const char *fmt, ...)
{
    if (!err)
        return;
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

static ssize_t memory_read(void *ctx, char *buf, size_t cap)
{
    struct memory_source *m = ctx;
    size_t n = m->len - m->pos < cap ? m->len - m->pos : cap;
    memcpy(buf, m->data + m->pos, n);
    m->pos += n;
    return (ssize_t)n;
}

static ssize_t source_pgn_read(void *ctx, char *buf, size_t cap)
{
    return source_read(ctx, buf, cap);
}

static int64_t fd_seek(void *ctx, int64_t offset, int whence)
{
    return (int64_t)lseek(*(int *)ctx, (off_t)offset, whence);
}

/*
 * A pgn_reader for the source's current member: every .pgn member of an archive in turn,
 * each an input of its own named "name:member" (game index, offset and line start again),
 * as the command line reads them (src/cli/input.c).
 */
static void start_member(pgnkit_reader *r)
{
    pgn_reader_free(r->reader);
    free(r->member_name);
    r->member_name = NULL;
    const char *member = source_member(r->src);
    if (member) {
        size_t len = strlen(r->name) + 1 + strlen(member);
        r->member_name = xmalloc(len + 1);
        snprintf(r->member_name, len + 1, "%s:%s", r->name, member);
    }
    struct pgn_source in = {source_pgn_read, r->src};
    const char *name = r->member_name ? r->member_name : r->name;
    r->reader = r->ranged ? pgn_reader_new_at(in, name, &r->limits, &r->resume)
                          : pgn_reader_new(in, name, &r->limits);
    r->game.member = member;
}

/* The replay the flags ask for, as the command line's options of the same names. */
static struct game_options game_options_of(unsigned flags)
{
    return (struct game_options){
        .san = {.strict = flags & PGNKIT_STRICT, .lenient = flags & PGNKIT_LENIENT},
        .skip_variations = flags & PGNKIT_NO_VARIATIONS,
        .letters = SAN_LETTERS_ENGLISH,
    };
}

/* The reader's common part once its raw bytes are known. */
static pgnkit_reader *finish_open(pgnkit_reader *r, struct pgn_source raw,
                                  const pgnkit_options *opts, pgnkit_error *err)
{
    pgnkit_options defaults;
    if (!opts) {
        pgnkit_options_init(&defaults);
        opts = &defaults;
    }
    r->game_opts = game_options_of(opts->flags);
    r->encoding = PGN_ENCODING_AUTO;
    struct diag d;
    r->replayer = game_replayer_new(&r->game_opts, &d);
    if (!r->replayer) {
        set_error(err, EINVAL, "cannot build the SAN matcher: %s%s", d.message, "");
        pgnkit_close(r);
        return NULL;
    }
    r->limits = (struct pgn_limits){.max_game_bytes = opts->max_game_bytes};
    r->src = source_new(raw);
    if (r->fd_storage >= 0 && lseek(r->fd_storage, 0, SEEK_CUR) >= 0)
        source_set_seek(r->src, fd_seek); /* a 7z archive's index is at its end */
    r->game.ktr = opts->flags & PGNKIT_KING_TAKES_ROOK;
    r->game.ep_legal = opts->flags & PGNKIT_EP_LEGAL;
    r->game.flags = opts->flags;
    r->game.encoding = PGN_ENCODING_AUTO;
    r->game.share = share_new();
    return r;
}

static pgnkit_reader *new_reader(const char *name)
{
    pgnkit_reader *r = xcalloc(1, sizeof *r);
    r->fd = -1;
    r->fd_storage = -1;
    r->name = xstrndup(name ? name : "<memory>", strlen(name ? name : "<memory>"));
    return r;
}

pgnkit_reader *pgnkit_open_path(const char *path, const pgnkit_options *opts, pgnkit_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        set_error(err, errno, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        set_error(err, EISDIR, "cannot read %s: %s", path, "it is a directory");
        return NULL;
    }
    pgnkit_reader *r = new_reader(path);
    r->fd = fd;
    r->fd_storage = fd;
    return finish_open(r, pgn_source_fd(&r->fd_storage), opts, err);
}

pgnkit_reader *pgnkit_open_fd(int fd, const char *name, const pgnkit_options *opts,
                              pgnkit_error *err)
{
    pgnkit_reader *r = new_reader(name ? name : "<fd>");
    r->fd_storage = fd;
    return finish_open(r, pgn_source_fd(&r->fd_storage), opts, err);
}

pgnkit_reader *pgnkit_open_memory(const void *data, size_t len, const char *name,
                                  const pgnkit_options *opts, pgnkit_error *err)
{
    pgnkit_reader *r = new_reader(name);
    r->mem = (struct memory_source){data, len, 0};
    return finish_open(r, (struct pgn_source){memory_read, &r->mem}, opts, err);
}

/* What a file is when its bytes are not the text's ("zstd-compressed", "a zip archive",
 * "UTF-16LE text"), as the CLI's --range says it. */
static void describe_container(struct source *src, char *kind, size_t cap)
{
    const char *what = source_container(src);
    if (!what)
        snprintf(kind, cap, "%s text", source_text_encoding(src));
    else if (strstr(what, "archive"))
        snprintf(kind, cap, "a %s", what);
    else
        snprintf(kind, cap, "%s-compressed", what);
}

pgnkit_reader *pgnkit_open_range(const char *path, uint64_t start, uint64_t end,
                                 const pgnkit_options *opts, pgnkit_error *err)
{
    if (end < start) {
        set_errorf(err, EINVAL, "--range %llu:%llu is reversed: END is before START",
                   (unsigned long long)start, (unsigned long long)end);
        return NULL;
    }
    pgnkit_reader *r = pgnkit_open_path(path, opts, err);
    if (!r)
        return NULL;
    struct stat st = {0};
    char kind[64];
    if (fstat(r->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        set_errorf(err, EINVAL, "--range needs a regular file it can seek in; %s is %s", path,
                   S_ISFIFO(st.st_mode) ? "a pipe" : "not a regular file");
        goto fail;
    }
    if (source_sniff(r->src) != SOURCE_FORMAT_PLAIN || source_text_encoding(r->src)) {
        describe_container(r->src, kind, sizeof kind);
        set_errorf(err, EINVAL, "--range cannot split %s: it is %s, whose bytes are not the "
                   "text's, so it cannot be cut at byte offsets (run it whole)", path, kind);
        goto fail;
    }
    uint64_t size = (uint64_t)st.st_size;
    if (start > size) {
        set_errorf(err, EINVAL, "--range START %llu is past the end of %s (%llu bytes)",
                   (unsigned long long)start, path, (unsigned long long)size);
        goto fail;
    }
    enum file_range_status got = file_range_resume(r->fd, start, size, &r->resume);
    if (got != FILE_RANGE_OK || lseek(r->fd, (off_t)r->resume.offset, SEEK_SET) < 0) {
        int code = got == FILE_RANGE_TOO_MANY_LINES ? EFBIG : errno;
        set_errorf(err, code, "cannot read %s: %s", path,
                   got == FILE_RANGE_TOO_MANY_LINES ? "too many lines" : strerror(code));
        goto fail;
    }
    /* A fresh source from the sync point on (the sniff above read the file's start). */
    source_free(r->src);
    r->src = source_new(pgn_source_fd(&r->fd_storage));
    r->ranged = true;
    r->range_start = start;
    r->range_end = end;
    return r;
fail:
    pgnkit_close(r);
    return NULL;
}

void pgnkit_close(pgnkit_reader *r)
{
    if (!r)
        return;
    pgn_reader_free(r->reader);
    source_free(r->src);
    free(r->member_name);
    game_replayer_free(r->replayer);
    pgn_text_release(&r->text);
    if (r->fd >= 0)
        close(r->fd);
    free(r->game.notes);
    game_tree_release(&r->game.tree);
    share_release(r->game.share);
    select_scratch_free(r->select_scratch);
    select_free(r->select);
    game_key_set_release(&r->seen);
    free(r->message);
    free(r->name);
    free(r);
}

/* ---- game selection: the CLI's options, by their long names ---- */

typedef int (*select_adder)(struct select *s, const char *arg, char *why, size_t cap);

/* An option's error: whole in r->message (a --has list of codes outgrows err->message),
 * as much as fits in *err.  Returns -1. */
static int option_error(pgnkit_reader *r, pgnkit_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int option_error(pgnkit_reader *r, pgnkit_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    free(r->message);
    r->message = xmalloc((size_t)(n > 0 ? n : 0) + 1);
    va_start(ap, fmt);
    vsnprintf(r->message, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
    va_end(ap);
    set_errorf(err, EINVAL, "%s", r->message);
    return -1;
}

const char *pgnkit_reader_message(const pgnkit_reader *r)
{
    return r && r->message ? r->message : "";
}

static const struct {
    const char *name;
    select_adder add;
} select_options[] = {
    {"where", select_add_where},     {"player", select_add_player},
    {"result", select_add_result},   {"ending", select_add_ending},
    {"plies", select_add_plies},     {"has", select_add_has},
    {"reaches", select_add_reaches}, {"occurs", select_add_occurs},
    {"material", select_add_material}, {"moves", select_add_moves},
};

/* A flag's value: NULL, "1", "true" or "yes" set it, "0", "false" or "no" clear it. */
static int flag_value(pgnkit_reader *r, const char *name, const char *value, bool *out,
                      pgnkit_error *err)
{
    if (!value || !strcmp(value, "1") || !strcmp(value, "true") || !strcmp(value, "yes")) {
        *out = true;
        return 0;
    }
    if (!strcmp(value, "0") || !strcmp(value, "false") || !strcmp(value, "no")) {
        *out = false;
        return 0;
    }
    return option_error(r, err, "--%s is a flag: 1 or 0, not '%s'", name, value);
}

static struct select *selection(pgnkit_reader *r)
{
    if (!r->select)
        r->select = select_new();
    return r->select;
}

int pgnkit_reader_option(pgnkit_reader *r, const char *name, const char *value,
                         pgnkit_error *err)
{
    if (!r || !name) {
        set_errorf(err, EINVAL, "no reader or no option name");
        return -1;
    }
    if (r->started)
        return option_error(r, err, "--%s: options are set before the first pgnkit_next",
                            name);
    for (size_t i = 0; i < sizeof select_options / sizeof *select_options; i++) {
        if (strcmp(name, select_options[i].name) != 0)
            continue;
        char why[1024];
        if (!value)
            return option_error(r, err, "--%s wants a value", name);
        if (select_options[i].add(selection(r), value, why, sizeof why) != 0)
            return option_error(r, err, "%s", why);
        return 0;
    }
    if (!strcmp(name, "encoding")) {
        if (!value || !pgn_text_encoding_by_name(value, &r->encoding))
            return option_error(r, err, "--encoding is auto, utf-8, latin1 or cp1252, not '%s'",
                                value ? value : "");
        r->game.encoding = r->encoding;
        return 0;
    }
    if (!strcmp(name, "invert"))
        return flag_value(r, name, value, &r->invert, err);
    if (!strcmp(name, "classify"))
        return flag_value(r, name, value, &r->classify, err);
    if (!strcmp(name, "skip-invalid"))
        return flag_value(r, name, value, &r->skip_invalid, err);
    if (!strcmp(name, "dedupe"))
        return flag_value(r, name, value, &r->dedupe, err);
    if (!strcmp(name, "in-variations"))
        return flag_value(r, name, value, &r->in_variations, err);
    return option_error(r, err, "unknown option '--%s' (encoding, where, player, result, "
                        "ending, plies, has, reaches, occurs, material, moves, in-variations, "
                        "invert, classify, dedupe, skip-invalid)",
                        name);
}

/* --invert alone inverts nothing, --in-variations needs --reaches or --material and the
 * variations replayed: usage errors, as in the CLI. */
static int check_invert(pgnkit_reader *r, pgnkit_error *err)
{
    if (r->invert && (!r->select || !select_has_criteria(r->select)))
        return option_error(r, err, "%s", SELECT_INVERT_ALONE);
    if (r->select)
        select_set_in_variations(r->select, r->in_variations);
    if (r->in_variations && (!r->select || !select_reads_variations(r->select)))
        return option_error(r, err, "%s", SELECT_IN_VARIATIONS_ALONE);
    if (r->in_variations && r->game_opts.skip_variations)
        return option_error(r, err, "%s", SELECT_IN_VARIATIONS_SKIPPED);
    return 0;
}

/* Fix the options, as the CLI does once all are read (options.c, check_combinations). */
static int start_reading(pgnkit_reader *r, pgnkit_error *err)
{
    r->started = true;
    if (check_invert(r, err) != 0)
        return -1;
    if (r->select) {
        select_set_invert(r->select, r->invert);
        if (!select_has_criteria(r->select)) {
            select_free(r->select); /* no criterion: every game is selected */
            r->select = NULL;
        }
    }
    if (r->classify) {
        /* The replayer names each game's opening; criteria on ECO and Opening read it. */
        r->game_opts.openings = &opening_book_lichess;
        struct diag d;
        struct game_replayer *replayer = game_replayer_new(&r->game_opts, &d);
        if (!replayer) {
            set_errorf(err, EINVAL, "cannot build the SAN matcher: %s", d.message);
            return -1;
        }
        game_replayer_free(r->replayer);
        r->replayer = replayer;
        if (r->select)
            select_use_openings(r->select);
    }
    if (r->select)
        r->select_scratch = select_scratch_new(r->select);
    return 0;
}

int pgnkit_reader_check_options(pgnkit_reader *r, pgnkit_error *err)
{
    if (r->started)
        return option_error(r, err, "the options are fixed: pgnkit_next was called");
    if (check_invert(r, err) != 0)
        return -1;
    return 0;
}

/* The next game of the input, not replayed: 1, 0 at the end, -1 and *err. */
static int next_raw(pgnkit_reader *r, pgnkit_error *err)
{
    struct diag d;
    if (!r->reader) {
        source_sniff(r->src); /* an archive's first member is known from here on */
        start_member(r);
    }
    int rc;
    while ((rc = pgn_reader_next(r->reader, &r->current, &d)) == 0) {
        int next = source_next_member(r->src);
        if (next == 0)
            return 0;
        if (next < 0) {
            set_error(err, EIO, "%s: %s", r->name, source_error(r->src));
            return -1;
        }
        start_member(r);
    }
    if (rc < 0) {
        const char *why = source_error(r->src);
        set_error(err, errno ? errno : EIO, "%s: %s", r->name, why ? why : d.message);
        return -1;
    }
    return 1;
}

/*
 * The replayed game when the options select it, else NULL: the order of the CLI's
 * process_game and route (src/cli/work.c, route.c): the tags decide first (a game they
 * reject is not replayed), then the facts; then a game with errors is dropped
 * (skip-invalid), then a duplicate of a game kept before (dedupe).
 */
static const struct game_record *selected(pgnkit_reader *r)
{
    /* As the CLI: a game that is not UTF-8 is read as CP1252, with an ENCODING warning. */
    const struct pgn_game *g = pgn_text_utf8(&r->text, &r->current, r->encoding);
    enum select_verdict verdict =
        r->select ? select_by_tags(r->select, r->select_scratch, g) : SELECT_KEEP;
    if (verdict == SELECT_DROP)
        return NULL;
    const struct game_record *rec = game_replay(r->replayer, g);
    if (verdict == SELECT_REPLAY && !select_by_facts(r->select, r->select_scratch, rec))
        return NULL;
    if (r->skip_invalid && rec->status >= GAME_ERRORS)
        return NULL;
    struct game_key key;
    if (r->dedupe && game_key_of(rec, &key) && !game_key_set_add(&r->seen, key))
        return NULL;
    return rec;
}

int pgnkit_next(pgnkit_reader *r, pgnkit_game **game, pgnkit_error *err)
{
    if (r->at_end)
        return 0;
    if (!r->started && start_reading(r, err) != 0) {
        r->at_end = true;
        return -1;
    }
    const struct game_record *rec = NULL;
    while (!rec) {
        int rc = next_raw(r, err);
        if (rc <= 0) {
            r->at_end = rc == 0;
            return rc;
        }
        /* A range: the games before its start are read, not yielded; the first game at
         * or after its end ends it (as the CLI's run_serial). */
        if (r->ranged && r->current.offset < r->range_start)
            continue;
        if (r->ranged && r->current.offset >= r->range_end) {
            r->at_end = true;
            return 0;
        }
        rec = selected(r);
    }
    struct pgnkit_game *g = &r->game;
    g->rec = rec;
    g->pos = g->rec->start;
    g->cursor_ply = 0;
    g->notes_filled = false;
    g->tree_built = false;
    g->node_pos = g->rec->start;
    g->node_cursor = 0;
    *game = g;
    return 1;
}

static void fill_notes(pgnkit_game *g);
static void fill_notes_by_walk(pgnkit_game *g);
static void build_tree(pgnkit_game *g);

/* ---- detached games ---- */

static size_t text_bytes(const struct game_record *rec)
{
    const struct pgn_game *pg = rec->game;
    size_t n = strlen(pg->file) + 1 + rec->result_token.len + rec->result_tag.len;
    for (size_t i = 0; i < pg->tag_count; i++)
        n += pg->tags[i].name.len + pg->tags[i].value.len;
    return n;
}

/* Copy s into *p (advancing it) and return the copy. */
static struct slice copy_slice(char **p, struct slice s)
{
    if (!s.ptr)
        return s;
    memcpy(*p, s.ptr, s.len);
    struct slice c = {*p, s.len};
    *p += s.len;
    return c;
}

/* The tree and the clocks a detached game is given: copies of what its reader's game has
 * built already; the rest is built on first use from its input bytes (build_tree), which
 * most games read in a loop never need (a lichess game's tree, with a [%clk] comment
 * after every move, cost a third of reading it). */
static void detach_notes(pgnkit_game *g, pgnkit_game *game)
{
    if (!game->tree_built && !game->owned && share_wants_tree(g->share) && g->source) {
        /* From the reader's tokens, as the reader's own game builds it (build_tree), in
         * storage of its size: its one-line comments are places in the game's bytes, at
         * the same places in g's copy of them, so its text is empty unless a comment
         * spans lines or a move has two (a copy of a tree built in the reader's storage,
         * and a text grown by reallocs, cost more). */
        game_tree_build(&g->tree, game->rec, true);
        g->tree.source = g->source;
        g->tree_built = g->tree_eager = true;
    } else if (game->tree_built) {
        /* Its comments in the game's bytes are at the same places in g's copy of them. */
        game_tree_copy(&g->tree, &game->tree, g->source);
        g->tree_built = true;
    }
    if (game->notes_filled) {
        g->notes_cap = game->rec->mainline_count + 1;
        g->notes = xmalloc(g->notes_cap * sizeof *g->notes);
        memcpy(g->notes, game->notes, g->notes_cap * sizeof *g->notes);
        g->notes_filled = true;
    }
}

pgnkit_game *pgnkit_game_detach(pgnkit_game *game)
{
    const struct game_record *rec = game->rec;
    const struct pgn_game *pg = rec->game;
    pgnkit_game *g = xcalloc(1, sizeof *g);
    g->owned = true;
    g->ktr = game->ktr;
    g->ep_legal = game->ep_legal;
    g->flags = game->flags;
    g->encoding = game->encoding;
    g->share = share_ref(game->share);
    if (!pg->skipped && pg->text && pg->bytes) {
        g->source = xmalloc(pg->bytes);
        memcpy(g->source, pg->text, pg->bytes);
        g->source_len = pg->bytes;
    }
    g->own_rec = *rec;
    g->own_game = *pg;
    g->own_game.tokens = NULL;
    g->own_game.token_count = 0;
    g->own_game.part_count = 0;
    g->own_game.parts = NULL;
    g->own_game.last_result = (struct slice){NULL, 0};
    g->own_rec.replayer = NULL;
    g->own_rec.ending_result = (struct slice){NULL, 0};
    g->own_game.text = NULL;
    g->own_game.diags = (struct diag_list){.items = NULL};
    g->own_rec.game = &g->own_game;
    g->own_rec.token_moves = NULL;
    size_t member_len = game->member ? strlen(game->member) + 1 : 0;
    char *p = g->own_text = xmalloc(text_bytes(rec) + member_len);
    size_t file_len = strlen(pg->file) + 1;
    g->own_game.file = memcpy(p, pg->file, file_len);
    p += file_len;
    if (game->member) {
        g->member = memcpy(p, game->member, member_len);
        p += member_len;
    }
    struct pgn_tag *tags = xmalloc((pg->tag_count + 1) * sizeof *tags);
    for (size_t i = 0; i < pg->tag_count; i++) {
        tags[i] = pg->tags[i];
        tags[i].name = copy_slice(&p, pg->tags[i].name);
        tags[i].value = copy_slice(&p, pg->tags[i].value);
    }
    g->own_game.tags = tags;
    g->own_rec.result_token = copy_slice(&p, rec->result_token);
    g->own_rec.result_tag = copy_slice(&p, rec->result_tag);
    struct move *moves = xmalloc((rec->mainline_count + 1) * sizeof *moves);
    if (rec->mainline_count) /* a game with no moves may have no array: no memcpy from NULL */
        memcpy(moves, rec->mainline, rec->mainline_count * sizeof *moves);
    g->own_rec.mainline = moves;
    g->own_rec.diags = (struct diag_list){.items = NULL};
    for (size_t i = 0; i < rec->diags.count; i++)
        diag_list_push(&g->own_rec.diags, &rec->diags.items[i]);
    detach_notes(g, game);
    g->rec = &g->own_rec;
    g->pos = rec->start;
    g->node_pos = rec->start;
    return g;
}

void pgnkit_game_free(pgnkit_game *g)
{
    if (!g || !g->owned)
        return;
    if (g->tree_eager && !g->tree_asked) /* built for nothing: stop building them */
        share_want_tree(g->share, false);
    free(g->own_text);
    free(g->source);
    free((void *)g->own_game.tags);
    free((void *)g->own_rec.mainline);
    diag_list_release(&g->own_rec.diags);
    free(g->notes);
    game_tree_release(&g->tree);
    share_release(g->share);
    free(g);
}

/* ---- the game as `pgnkit pgn` writes it ---- */

/* buf's bytes into dst as pgnkit_game_save gives them: a prefix of at most cap bytes,
 * and the whole size. */
static size_t copy_out(const struct buf *b, char *dst, size_t cap)
{
    size_t n = b->len < cap ? b->len : cap;
    if (n)
        memcpy(dst, b->data, n);
    return b->len;
}

/* The writer's options of `pgnkit pgn` with the reader's flags: --no-variations drops
 * them from the output too, as on the command line. */
static void write_pgn(struct buf *out, const struct game_record *rec, unsigned flags)
{
    struct writer_options o = {.format = FORMAT_PGN,
                               .drop_variations = flags & PGNKIT_NO_VARIATIONS};
    writer_pgn(out, rec, &o);
}

/* A detached game has no tokens: its input bytes are read and replayed again, alone, as
 * its reader did (same flags, same encoding; its own size is within the limit), and the
 * record handed to use(rec, ctx), whose tokens live until it returns.  Nothing for a
 * game skipped unread.  With its reader's replayer (replay_share), else (a loaded game)
 * one of its own: a few microseconds (san.h: the SAN pattern is compiled once). */
static void replay_detached(const pgnkit_game *g,
                            void (*use)(const struct game_record *rec, void *ctx), void *ctx)
{
    if (!g->source)
        return;
    struct pgn_limits lim = {.max_game_bytes = g->source_len, .mid_line = g->own_game.mid_line};
    struct pgn_reader *reader =
        pgn_reader_from_memory(g->source, g->source_len, g->own_game.file, &lim);
    struct game_options opts = game_options_of(g->flags);
    struct diag d;
    struct replay_share *share = g->share;
    struct game_replayer *replayer;
    if (share) {
        pthread_mutex_lock(&share->lock);
        if (!share->replayer)
            share->replayer = game_replayer_new(&opts, &d);
        replayer = share->replayer;
    } else {
        replayer = game_replayer_new(&opts, &d);
    }
    struct pgn_text text;
    memset(&text, 0, sizeof text);
    struct pgn_game game;
    if (replayer && pgn_reader_next(reader, &game, &d) == 1)
        use(game_replay(replayer, pgn_text_utf8(&text, &game, g->encoding)), ctx);
    pgn_text_release(&text);
    if (share)
        pthread_mutex_unlock(&share->lock);
    else
        game_replayer_free(replayer);
    pgn_reader_free(reader);
}

struct detached_pgn {
    struct buf *out;
    unsigned flags;
};

static void write_replayed_pgn(const struct game_record *rec, void *ctx)
{
    const struct detached_pgn *d = ctx;
    write_pgn(d->out, rec, d->flags);
}

size_t pgnkit_game_pgn(pgnkit_game *g, char *dst, size_t cap)
{
    struct buf out;
    buf_init(&out);
    if (g->owned) /* skipped unread: the command line writes nothing either */
        replay_detached(g, write_replayed_pgn, &(struct detached_pgn){&out, g->flags});
    else
        write_pgn(&out, g->rec, g->flags);
    size_t len = copy_out(&out, dst, cap);
    buf_release(&out);
    return len;
}

/* ---- saved games (pgnkit_game_save / pgnkit_game_load): a detached game's fields in
 * order, native byte order, behind a header naming the library version and the sizes of
 * the structures copied whole (a move, a position), which must match to load ---- */

struct save_out {
    char *dst;
    size_t cap, len; /* len counts every byte, also those past cap (not written) */
};

static void put(struct save_out *o, const void *p, size_t n)
{
    if (n && o->len + n <= o->cap)
        memcpy(o->dst + o->len, p, n);
    o->len += n;
}

static void put_u64(struct save_out *o, uint64_t v) { put(o, &v, sizeof v); }

/* A string: its length (UINT64_MAX when absent), then its bytes. */
static void put_str(struct save_out *o, const char *p, size_t len)
{
    put_u64(o, p ? (uint64_t)len : UINT64_MAX);
    put(o, p, p ? len : 0);
}

static void put_cstr(struct save_out *o, const char *s) { put_str(o, s, s ? strlen(s) : 0); }

static void put_header(struct save_out *o)
{
    put(o, "PGNKITG", 8); /* with its NUL */
    put_u64(o, PGNKIT_VERSION_NUMBER);
    put_u64(o, sizeof(struct move));
    put_u64(o, sizeof(struct position));
}

static void put_diag(struct save_out *o, const struct diag *d)
{
    put_u64(o, d->code);
    put_u64(o, d->severity);
    put_u64(o, d->line);
    put_u64(o, d->col);
    put_u64(o, d->ply);
    put_u64(o, d->move_number);
    put_u64(o, d->side);
    put_cstr(o, d->message);
    put_cstr(o, d->san);
    put_cstr(o, d->fen);
    put_cstr(o, d->candidates);
}

static void put_notes(struct save_out *o, const struct comment_notes *n)
{
    uint8_t flags = (uint8_t)(n->has_clock | n->has_eval << 1 | n->eval_mate << 2);
    put(o, &flags, 1);
    put_u64(o, (uint64_t)(int64_t)n->mate_in);
    put(o, &n->clock, sizeof n->clock);
    put(o, &n->pawns, sizeof n->pawns);
}

/* Node n with its comment at comment_at of the saved text. */
static void put_tree_node(struct save_out *o, const struct game_tree_node *n,
                          uint32_t comment_at, const struct comment_notes *notes)
{
    put(o, &n->move, sizeof n->move);
    uint32_t links[] = {n->ply,        n->parent,      n->next,        n->variation,
                        n->next_variation, comment_at, n->comment_len, n->starting_at,
                        n->starting_len,   n->nag_at,     n->nag_count};
    for (size_t i = 0; i < sizeof links / sizeof *links; i++)
        put_u64(o, links[i]);
    put(o, &n->check_mark, 1);
    put_notes(o, notes);
}

/* The move tree (comments, NAGs, variations): a saved game has no tokens to build it from. */
static void put_tree(struct save_out *o, struct game_tree *t)
{
    /* One text, as a loaded tree has it: the tree's, then the comments it keeps in the
     * game's bytes, each NUL-terminated after it. */
    game_tree_nul_terminate(t);
    size_t text_len = t->text_len;
    put_u64(o, t->count);
    for (size_t i = 0; i <= t->count && t->nodes; i++) {
        const struct game_tree_node *n = &t->nodes[i];
        uint32_t at = n->comment_at;
        if (n->comment_ref) {
            at = (uint32_t)text_len;
            text_len += n->comment_len + 1;
        }
        put_tree_node(o, n, at, game_tree_notes(t, i));
    }
    char *text = xmalloc(text_len + 1);
    if (t->text_len)
        memcpy(text, t->text, t->text_len);
    for (size_t i = 0, at = t->text_len; i <= t->count && t->nodes; i++) {
        const struct game_tree_node *n = &t->nodes[i];
        if (n->comment_ref) {
            memcpy(text + at, t->source + n->comment_at, n->comment_len + 1);
            at += n->comment_len + 1;
        }
    }
    put_str(o, text, text_len);
    free(text);
    put_u64(o, t->nag_len);
    for (size_t i = 0; i < t->nag_len; i++)
        put_u64(o, (uint64_t)(int64_t)t->nags[i]);
    put_u64(o, t->comment_at);
    put_u64(o, t->comment_len);
}

size_t pgnkit_game_save(pgnkit_game *g, void *dst, size_t cap)
{
    build_tree(g);
    if (!g->notes_filled)
        fill_notes(g);
    const struct game_record *rec = g->rec;
    const struct pgn_game *pg = rec->game;
    struct save_out o = {dst, cap, 0};
    put_header(&o);
    put_u64(&o, (uint64_t)g->ktr | (uint64_t)g->ep_legal << 1 | (uint64_t)rec->chess960 << 2 |
                    (uint64_t)rec->started << 3 | (uint64_t)pg->skipped << 4 |
                    (uint64_t)pg->ascii << 5 | (uint64_t)pg->mid_line << 6);
    put_u64(&o, g->flags);
    put_u64(&o, g->encoding);
    put_cstr(&o, pg->file);
    put_cstr(&o, g->member);
    put_u64(&o, pg->index);
    put_u64(&o, pg->line);
    put_u64(&o, pg->offset);
    put_u64(&o, pg->bytes);
    put_u64(&o, rec->status);
    put_u64(&o, rec->end);
    put_u64(&o, rec->error_ply);
    put(&o, &rec->start, sizeof rec->start);
    put(&o, &rec->final, sizeof rec->final);
    put_str(&o, rec->result_token.ptr, rec->result_token.len);
    put_str(&o, rec->result_tag.ptr, rec->result_tag.len);
    put_u64(&o, pg->tag_count);
    for (size_t i = 0; i < pg->tag_count; i++) {
        put_str(&o, pg->tags[i].name.ptr, pg->tags[i].name.len);
        put_str(&o, pg->tags[i].value.ptr, pg->tags[i].value.len);
        put_u64(&o, pg->tags[i].line);
        put_u64(&o, pg->tags[i].col);
    }
    put_u64(&o, rec->mainline_count);
    put(&o, rec->mainline, rec->mainline_count * sizeof *rec->mainline);
    for (size_t ply = 0; ply <= rec->mainline_count; ply++)
        put_notes(&o, &g->notes[ply]);
    put_u64(&o, rec->diags.count);
    for (size_t i = 0; i < rec->diags.count; i++)
        put_diag(&o, &rec->diags.items[i]);
    put_tree(&o, &g->tree);
    if (g->owned)
        put_str(&o, g->source, g->source_len);
    else
        put_str(&o, pg->skipped ? NULL : pg->text, pg->skipped || !pg->text ? 0 : pg->bytes);
    return o.len;
}

struct save_in {
    const char *p;
    size_t left;
    bool bad;  /* short, or a value out of range: everything after reads as zero */
    char *text; /* where the next string is copied (the game's own_text) */
};

static void get(struct save_in *in, void *dst, size_t n)
{
    if (in->bad || n > in->left) {
        in->bad = true;
        memset(dst, 0, n);
        return;
    }
    memcpy(dst, in->p, n);
    in->p += n;
    in->left -= n;
}

static uint64_t get_u64(struct save_in *in)
{
    uint64_t v;
    get(in, &v, sizeof v);
    return v;
}

/* A count of items of at least min_bytes each still to read: 0 (and bad) when more
 * than the bytes left could hold, so that no allocation trusts the data. */
static size_t get_count(struct save_in *in, size_t min_bytes)
{
    uint64_t n = get_u64(in);
    if (n > in->left / min_bytes) {
        in->bad = true;
        return 0;
    }
    return (size_t)n;
}

/* A string copied NUL-terminated into in->text; {NULL, 0} when absent. */
static struct slice get_str(struct save_in *in)
{
    uint64_t len = get_u64(in);
    if (len == UINT64_MAX || in->bad)
        return (struct slice){NULL, 0};
    if (len > in->left) {
        in->bad = true;
        return (struct slice){NULL, 0};
    }
    struct slice s = {in->text, (size_t)len};
    get(in, in->text, (size_t)len);
    in->text[len] = '\0';
    in->text += len + 1;
    return s;
}

/* A string into a fixed array of cap bytes (a diagnostic's), truncated to fit. */
static void get_fixed(struct save_in *in, char *dst, size_t cap)
{
    struct slice s = get_str(in);
    size_t n = s.len < cap ? s.len : cap - 1;
    memcpy(dst, s.ptr ? s.ptr : "", n);
    dst[n] = '\0';
}

static void get_diag(struct save_in *in, struct diag *d)
{
    memset(d, 0, sizeof *d);
    uint64_t code = get_u64(in), severity = get_u64(in);
    in->bad |= code >= DIAG_CODE_COUNT || severity > DIAG_ERROR;
    d->code = in->bad ? 0 : (enum diag_code)code;
    d->severity = in->bad ? 0 : (enum diag_severity)severity;
    d->line = get_u64(in);
    d->col = get_u64(in);
    d->ply = (uint32_t)get_u64(in);
    d->move_number = (uint32_t)get_u64(in);
    d->side = (uint8_t)get_u64(in);
    get_fixed(in, d->message, sizeof d->message);
    get_fixed(in, d->san, sizeof d->san);
    get_fixed(in, d->fen, sizeof d->fen);
    get_fixed(in, d->candidates, sizeof d->candidates);
}

static void get_notes(struct save_in *in, struct comment_notes *n)
{
    uint8_t flags;
    get(in, &flags, 1);
    n->has_clock = flags & 1;
    n->has_eval = flags & 2;
    n->eval_mate = flags & 4;
    n->mate_in = (int)(int64_t)get_u64(in);
    get(in, &n->clock, sizeof n->clock);
    get(in, &n->pawns, sizeof n->pawns);
}

static bool move_in_range(struct move m)
{
    return m.from < SQUARE_COUNT && m.to < SQUARE_COUNT && m.promo < PIECE_TYPE_COUNT;
}

static bool position_in_range(const struct position *pos)
{
    return pos->side_to_move < COLOR_COUNT && pos->variant < VARIANT_COUNT &&
           (pos->ep_square < SQUARE_COUNT || pos->ep_square == SQ_NONE);
}

/* The header put_header wrote, for this library and these structures. */
static bool get_header(struct save_in *in)
{
    char magic[8];
    get(in, magic, sizeof magic);
    return memcmp(magic, "PGNKITG", 8) == 0 && get_u64(in) == PGNKIT_VERSION_NUMBER &&
           get_u64(in) == sizeof(struct move) && get_u64(in) == sizeof(struct position) &&
           !in->bad;
}

static void load_tags(struct save_in *in, pgnkit_game *g)
{
    size_t count = get_count(in, 4 * sizeof(uint64_t));
    struct pgn_tag *tags = xcalloc(count + 1, sizeof *tags);
    for (size_t i = 0; i < count; i++) {
        tags[i].name = get_str(in);
        tags[i].value = get_str(in);
        tags[i].line = get_u64(in);
        tags[i].col = get_u64(in);
    }
    g->own_game.tags = tags;
    g->own_game.tag_count = count;
}

/* A comment's place in the tree's text: inside it and NUL-terminated (or empty). */
static bool text_span_ok(const struct game_tree *t, uint32_t at, uint32_t len)
{
    return len == 0 || ((uint64_t)at + len < t->text_len && t->text[at + len] == '\0');
}

/* Node i's links only point forward (children, next moves and variations come later in
 * the file) and its parent back, so no walk of a loaded tree can loop. */
static bool tree_node_ok(const struct game_tree *t, size_t i)
{
    const struct game_tree_node *n = &t->nodes[i];
    bool forward = (!n->next || n->next > i) && (!n->variation || n->variation > i) &&
                   (!n->next_variation || n->next_variation > i) && n->next <= t->count &&
                   n->variation <= t->count && n->next_variation <= t->count;
    return forward && (i == 0 ? n->parent == 0 : n->parent < i) && move_in_range(n->move) &&
           (n->check_mark == 0 || n->check_mark == '+' || n->check_mark == '#') &&
           text_span_ok(t, n->comment_at, n->comment_len) &&
           text_span_ok(t, n->starting_at, n->starting_len) &&
           (uint64_t)n->nag_at + n->nag_count <= t->nag_len;
}

static void get_tree_node(struct save_in *in, struct game_tree_node *n)
{
    get(in, &n->move, sizeof n->move);
    uint32_t *links[] = {&n->ply,          &n->parent,     &n->next,        &n->variation,
                         &n->next_variation, &n->comment_at, &n->comment_len, &n->starting_at,
                         &n->starting_len,   &n->nag_at};
    for (size_t i = 0; i < sizeof links / sizeof *links; i++) {
        uint64_t v = get_u64(in);
        in->bad |= v > UINT32_MAX;
        *links[i] = (uint32_t)v;
    }
    uint64_t nags = get_u64(in);
    in->bad |= nags > UINT16_MAX;
    n->nag_count = (uint16_t)nags;
    get(in, &n->check_mark, 1);
    get_notes(in, &n->notes);
    n->notes_known = true;
}

static void load_tree(struct save_in *in, pgnkit_game *g)
{
    struct game_tree *t = &g->tree;
    memset(t, 0, sizeof *t);
    size_t count = get_count(in, 13 * sizeof(uint64_t));
    t->cap = count + 1;
    t->nodes = xcalloc(t->cap, sizeof *t->nodes);
    t->count = count;
    for (size_t i = 0; i <= count && !in->bad; i++)
        get_tree_node(in, &t->nodes[i]);
    struct slice text = get_str(in); /* NUL-terminated in own_text: copied to the tree's */
    t->text_len = t->text_cap = text.len + 1;
    t->text = xmalloc(t->text_cap);
    memcpy(t->text, text.ptr ? text.ptr : "", text.len);
    t->text[text.len] = '\0';
    t->text_len = text.len;
    t->nag_len = t->nag_cap = get_count(in, sizeof(uint64_t));
    t->nags = xcalloc(t->nag_cap + 1, sizeof *t->nags);
    for (size_t i = 0; i < t->nag_len; i++)
        t->nags[i] = (int)(int64_t)get_u64(in);
    uint64_t at = get_u64(in), len = get_u64(in);
    in->bad |= at > UINT32_MAX || len > UINT32_MAX;
    t->comment_at = (uint32_t)at;
    t->comment_len = (uint32_t)len;
    in->bad |= !text_span_ok(t, t->comment_at, t->comment_len);
    for (size_t i = 0; i <= count && !in->bad; i++)
        in->bad |= !tree_node_ok(t, i);
    g->tree_built = true;
}

static void load_moves(struct save_in *in, pgnkit_game *g)
{
    size_t count = get_count(in, sizeof(struct move));
    struct move *moves = xcalloc(count + 1, sizeof *moves);
    get(in, moves, count * sizeof *moves);
    for (size_t i = 0; i < count; i++)
        in->bad |= !move_in_range(moves[i]);
    g->own_rec.mainline = moves;
    g->own_rec.mainline_count = count;
    g->notes_cap = count + 1;
    g->notes = xcalloc(g->notes_cap, sizeof *g->notes);
    for (size_t ply = 0; ply <= count; ply++)
        get_notes(in, &g->notes[ply]);
    g->notes_filled = true;
}

pgnkit_game *pgnkit_game_load(const void *data, size_t len, pgnkit_error *err)
{
    struct save_in in = {data, len, false, NULL};
    if (!get_header(&in)) {
        set_error(err, EINVAL, "not a game saved by pgnkit %s%s", PGNKIT_VERSION, "");
        return NULL;
    }
    pgnkit_game *g = xcalloc(1, sizeof *g);
    g->owned = true;
    g->rec = &g->own_rec;
    g->own_rec.game = &g->own_game;
    /* Every string is shorter than the data and has a NUL added: 2 * len bounds them. */
    in.text = g->own_text = xmalloc(2 * len + 1);
    uint64_t flags = get_u64(&in);
    g->ktr = flags & 1;
    g->ep_legal = flags & 2;
    g->own_rec.chess960 = flags & 4;
    g->own_rec.started = flags & 8;
    g->own_game.skipped = flags & 16;
    g->own_game.ascii = flags & 32;
    g->own_game.mid_line = flags & 64;
    g->flags = (unsigned)get_u64(&in);
    uint64_t encoding = get_u64(&in);
    if (encoding > PGN_ENCODING_CP1252)
        in.bad = true;
    g->encoding = (enum pgn_encoding)(in.bad ? PGN_ENCODING_AUTO : encoding);
    g->own_game.file = get_str(&in).ptr;
    g->member = get_str(&in).ptr;
    g->own_game.index = get_u64(&in);
    g->own_game.line = get_u64(&in);
    g->own_game.offset = get_u64(&in);
    g->own_game.bytes = get_u64(&in);
    uint64_t status = get_u64(&in), end = get_u64(&in);
    in.bad |= status > GAME_SKIPPED || end >= ENDING_COUNT || !g->own_game.file;
    g->own_rec.status = in.bad ? 0 : (enum game_status)status;
    g->own_rec.end = in.bad ? 0 : (enum ending)end;
    g->own_rec.error_ply = (uint32_t)get_u64(&in);
    get(&in, &g->own_rec.start, sizeof g->own_rec.start);
    get(&in, &g->own_rec.final, sizeof g->own_rec.final);
    in.bad |= !position_in_range(&g->own_rec.start) || !position_in_range(&g->own_rec.final);
    g->own_rec.result_token = get_str(&in);
    g->own_rec.result_tag = get_str(&in);
    load_tags(&in, g);
    load_moves(&in, g);
    size_t diag_count = get_count(&in, 11 * sizeof(uint64_t));
    for (size_t i = 0; i < diag_count && !in.bad; i++) {
        struct diag d;
        get_diag(&in, &d);
        diag_list_push(&g->own_rec.diags, &d);
    }
    load_tree(&in, g);
    struct slice source = get_str(&in); /* in own_text: copied to its own block */
    if (source.ptr && source.len) {
        g->source = xmalloc(source.len);
        memcpy(g->source, source.ptr, source.len);
        g->source_len = source.len;
    }
    if (in.bad || in.left) {
        pgnkit_game_free(g);
        set_error(err, EINVAL, "not a game saved by pgnkit %s%s (damaged)", PGNKIT_VERSION, "");
        return NULL;
    }
    g->pos = g->own_rec.start;
    g->node_pos = g->own_rec.start;
    g->node_cursor = 0;
    return g;
}

/* ---- where and what ---- */

const char *pgnkit_game_file(const pgnkit_game *g) { return g->rec->game->file; }
const char *pgnkit_game_member(const pgnkit_game *g) { return g->member; }
uint64_t pgnkit_game_index(const pgnkit_game *g) { return g->rec->game->index; }
uint64_t pgnkit_game_offset(const pgnkit_game *g) { return g->rec->game->offset; }
uint64_t pgnkit_game_bytes(const pgnkit_game *g) { return g->rec->game->bytes; }
uint64_t pgnkit_game_line(const pgnkit_game *g) { return g->rec->game->line; }

pgnkit_status pgnkit_game_status(const pgnkit_game *g) { return (pgnkit_status)g->rec->status; }

const char *pgnkit_status_name(pgnkit_status s)
{
    static const char *const names[] = {"ok", "warnings", "errors", "skipped"};
    return (unsigned)s < 4 ? names[s] : "unknown";
}

_Static_assert((int)PGNKIT_ENDING_INSUFFICIENT == (int)ENDING_INSUFFICIENT &&
               (int)PGNKIT_ENDING_KING_EXPLODED == (int)ENDING_KING_EXPLODED &&
               (int)PGNKIT_ENDING_ANTICHESS == (int)ENDING_ANTICHESS, "pgnkit_ending is enum ending");

pgnkit_ending pgnkit_game_ending(const pgnkit_game *g) { return (pgnkit_ending)g->rec->end; }

const char *pgnkit_ending_name(pgnkit_ending e)
{
    const char *name = ending_name((enum ending)e);
    return name ? name : "unknown";
}

pgnkit_str pgnkit_game_result(const pgnkit_game *g)
{
    return (pgnkit_str){g->rec->result_token.ptr, g->rec->result_token.len};
}

uint32_t pgnkit_game_error_ply(const pgnkit_game *g) { return g->rec->error_ply; }

size_t pgnkit_game_tag_count(const pgnkit_game *g) { return g->rec->game->tag_count; }

int pgnkit_game_tag(const pgnkit_game *g, size_t i, pgnkit_str *name, pgnkit_str *value)
{
    const struct pgn_game *pg = g->rec->game;
    if (i >= pg->tag_count)
        return -1;
    if (name)
        *name = (pgnkit_str){pg->tags[i].name.ptr, pg->tags[i].name.len};
    if (value)
        *value = (pgnkit_str){pg->tags[i].value.ptr, pg->tags[i].value.len};
    return 0;
}

pgnkit_str pgnkit_game_tag_value(const pgnkit_game *g, const char *name)
{
    const struct slice *v = game_tag(g->rec->game, name);
    return v ? (pgnkit_str){v->ptr, v->len} : (pgnkit_str){NULL, 0};
}

/* ---- moves and positions ---- */

size_t pgnkit_game_ply_count(const pgnkit_game *g) { return g->rec->mainline_count; }

/* Move g's cursor to the position after ply (0..ply_count): forward from where it is,
 * or from the start when ply is behind it. */
static void seek_ply(pgnkit_game *g, size_t ply)
{
    if (ply < g->cursor_ply) {
        g->pos = g->rec->start;
        g->cursor_ply = 0;
    }
    while (g->cursor_ply < ply)
        rules_do_move(&g->pos, g->rec->mainline[g->cursor_ply++]);
}

size_t pgnkit_game_uci(pgnkit_game *g, size_t ply, char *dst)
{
    if (ply == 0 || ply > g->rec->mainline_count) {
        dst[0] = '\0';
        return 0;
    }
    /* Only the chess960 flag of the position is read: the start position will do. */
    return uci_write_move(&g->rec->start, g->rec->mainline[ply - 1], g->ktr, dst);
}

size_t pgnkit_game_san(pgnkit_game *g, size_t ply, char *dst)
{
    if (ply == 0 || ply > g->rec->mainline_count) {
        dst[0] = '\0';
        return 0;
    }
    seek_ply(g, ply - 1);
    size_t n = san_write(&g->pos, g->rec->mainline[ply - 1], dst);
    dst[n] = '\0';
    return n;
}

size_t pgnkit_game_fen(pgnkit_game *g, size_t ply, char *dst)
{
    return pgnkit_game_fen_ep(g, ply, dst, g->ep_legal);
}

size_t pgnkit_game_fen_ep(pgnkit_game *g, size_t ply, char *dst, int ep_legal)
{
    if (!g->rec->started || ply > g->rec->mainline_count) {
        dst[0] = '\0';
        return 0;
    }
    seek_ply(g, ply);
    return fen_write(&g->pos, dst, PGNKIT_FEN_MAX, ep_legal ? FEN_EP_LEGAL : 0);
}

/* ---- clocks and evals ---- */

/* A mainline move's clock and eval come from its comments (game_mainline.h: the rule of
 * uci --format tsv --with clk,eval). */
static void fill_notes_by_walk(pgnkit_game *g)
{
    const struct game_record *rec = g->rec;
    xgrow((void **)&g->notes, &g->notes_cap, rec->mainline_count + 1, sizeof *g->notes);
    memset(g->notes, 0, (rec->mainline_count + 1) * sizeof *g->notes);
    g->notes_filled = true;
    size_t ply = 0;
    struct mainline_walk walk;
    mainline_walk_start(&walk, rec);
    for (enum mainline_step step; (step = mainline_walk_next(&walk)) != MAINLINE_END;) {
        if (step == MAINLINE_MOVE)
            ply = walk.move->ply;
        else if (step == MAINLINE_COMMENT && ply <= rec->mainline_count)
            comment_notes_take(&g->notes[ply], walk.tok->text, walk.tok->len);
    }
}

int pgnkit_game_clock(pgnkit_game *g, size_t ply, double *seconds)
{
    if (ply == 0 || ply > g->rec->mainline_count)
        return 0;
    if (!g->notes_filled)
        fill_notes(g);
    if (!g->notes[ply].has_clock)
        return 0;
    *seconds = g->notes[ply].clock;
    return 1;
}

int pgnkit_game_eval(pgnkit_game *g, size_t ply, pgnkit_eval *eval)
{
    if (ply == 0 || ply > g->rec->mainline_count)
        return 0;
    if (!g->notes_filled)
        fill_notes(g);
    const struct comment_notes *n = &g->notes[ply];
    if (!n->has_eval)
        return 0;
    *eval = (pgnkit_eval){.is_mate = n->eval_mate, .pawns = n->pawns, .mate_in = n->mate_in};
    return 1;
}

/* ---- diagnostics ---- */

size_t pgnkit_game_diagnostic_count(const pgnkit_game *g) { return g->rec->diags.count; }

int pgnkit_game_diagnostic(const pgnkit_game *g, size_t i, pgnkit_diagnostic *out)
{
    if (i >= g->rec->diags.count)
        return -1;
    const struct diag *d = &g->rec->diags.items[i];
    *out = (pgnkit_diagnostic){
        .code = diag_code_name(d->code),
        .is_error = d->severity == DIAG_ERROR,
        .line = d->line,
        .col = d->col,
        .ply = d->ply,
        .message = d->message,
        .san = d->san,
        .fen = d->fen,
        .candidates = d->candidates,
    };
    return 0;
}

/* ---- the move tree ---- */

static void build_replayed_tree(const struct game_record *rec, void *tree)
{
    game_tree_build(tree, rec, false); /* rec's bytes go with the replay: copied */
}

/* Whether t's mainline nodes are rec's mainline: a detached game's bytes replay to the
 * moves they gave, with the same flags and encoding. */
static bool tree_has_mainline(const struct game_tree *t, const struct game_record *rec)
{
    if (!t->nodes || t->count < rec->mainline_count)
        return false;
    for (size_t i = 0; i < rec->mainline_count; i++)
        if (memcmp(&t->nodes[i + 1].move, &rec->mainline[i], sizeof rec->mainline[i]) != 0)
            return false;
    return true;
}

/* The mainline alone, without its comments, NAGs or check marks: what a detached game's
 * tree is if its bytes did not replay to its moves (never seen; a safe answer rather
 * than nodes that are not its moves), or when it was skipped unread (no moves). */
static void build_mainline_tree(struct game_tree *t, const struct game_record *rec)
{
    game_tree_build(t, rec, false); /* no tokens: the nodes, zeroed */
    for (size_t ply = 1; ply <= rec->mainline_count; ply++)
        t->nodes[ply] = (struct game_tree_node){
            .move = rec->mainline[ply - 1],
            .ply = (uint32_t)ply,
            .parent = (uint32_t)(ply - 1),
            .next = ply < rec->mainline_count ? (uint32_t)(ply + 1) : 0,
        };
}

/* A detached game's tree is built from its input bytes replayed again (it has no
 * tokens).  It may be light (game_tree.h): what only reads comments needs no more. */
static void build_light_tree(pgnkit_game *g)
{
    g->tree_asked = true;
    if (g->tree_built)
        return;
    if (!g->owned) {
        game_tree_build(&g->tree, g->rec, true); /* the game's bytes live as long as it */
    } else {
        share_want_tree(g->share, true); /* the next games' are built at detach */
        replay_detached(g, build_replayed_tree, &g->tree);
        if (!tree_has_mainline(&g->tree, g->rec))
            build_mainline_tree(&g->tree, g->rec);
    }
    g->tree_built = true;
}

/* The tree with its nodes. */
static void build_tree(pgnkit_game *g)
{
    build_light_tree(g);
    game_tree_expand(&g->tree, g->rec);
}

/* A mainline move's clock and eval from the tree, which pairs comments with mainline
 * moves by fill_notes' rule (game_tree.h): one pass over the tokens instead of two. */
static void fill_notes(pgnkit_game *g)
{
    const struct game_record *rec = g->rec;
    if (!g->tree_built && !g->owned) {
        fill_notes_by_walk(g);
        return;
    }
    build_tree(g); /* a detached game's: from its bytes */
    xgrow((void **)&g->notes, &g->notes_cap, rec->mainline_count + 1, sizeof *g->notes);
    memset(g->notes, 0, (rec->mainline_count + 1) * sizeof *g->notes);
    for (size_t ply = 1; ply <= rec->mainline_count && ply <= g->tree.count; ply++)
        g->notes[ply] = *game_tree_notes(&g->tree, ply);
    g->notes_filled = true;
}

pgnkit_str pgnkit_game_comment(pgnkit_game *g)
{
    build_light_tree(g); /* a light tree has none */
    if (!g->tree.comment_len)
        return (pgnkit_str){NULL, 0};
    return (pgnkit_str){g->tree.text + g->tree.comment_at, g->tree.comment_len};
}

size_t pgnkit_game_node_count(pgnkit_game *g)
{
    build_tree(g);
    return g->tree.count;
}

static pgnkit_str tree_text(const struct game_tree *t, uint32_t at, uint32_t len)
{
    return len ? (pgnkit_str){t->text + at, len} : (pgnkit_str){NULL, 0};
}

/* Node's comment, NUL-terminated as pgnkit.h promises (the tree's may be in the game's
 * bytes until asked so). */
static pgnkit_str node_comment_nul(struct game_tree *t, size_t node)
{
    game_tree_nul_terminate(t);
    struct slice c = game_tree_comment(t, node);
    return (pgnkit_str){c.ptr, c.len};
}

static char promotion_letter(struct move m)
{
    if (!m.promo || (m.flags & MOVE_DROP))
        return 0;
    return "pnbrqk"[m.promo % 6];
}

int pgnkit_game_node(pgnkit_game *g, size_t node, pgnkit_node *out)
{
    build_tree(g);
    if (node == 0 || node > g->tree.count)
        return -1;
    const struct comment_notes *notes = game_tree_notes(&g->tree, node);
    const struct game_tree *t = &g->tree;
    const struct game_tree_node *n = &t->nodes[node];
    *out = (pgnkit_node){
        .ply = n->ply,
        .parent = n->parent,
        .next = n->next,
        .variation = n->variation,
        .next_variation = n->next_variation,
        .comment = node_comment_nul(&g->tree, node),
        .starting_comment = tree_text(t, n->starting_at, n->starting_len),
        .nags = n->nag_count ? t->nags + n->nag_at : NULL,
        .nag_count = n->nag_count,
        .is_check = n->check_mark != 0,
        .is_checkmate = n->check_mark == '#',
        .is_capture = (n->move.flags & MOVE_CAPTURE) != 0,
        .promotion = promotion_letter(n->move),
        .has_clock = notes->has_clock,
        .clock = notes->clock,
        .has_eval = notes->has_eval,
        .eval = {.is_mate = notes->eval_mate, .pawns = notes->pawns,
                 .mate_in = notes->mate_in},
    };
    return 0;
}

pgnkit_str pgnkit_game_node_comment(pgnkit_game *g, size_t node)
{
    build_tree(g);
    if (node == 0 || node > g->tree.count)
        return (pgnkit_str){NULL, 0};
    return node_comment_nul(&g->tree, node);
}

size_t pgnkit_game_node_comments(pgnkit_game *g, size_t first, size_t count, pgnkit_str *out)
{
    build_light_tree(g);
    if (first == 0 || first > g->tree.count)
        return 0;
    size_t n = g->tree.count - first + 1 < count ? g->tree.count - first + 1 : count;
    if (g->tree.is_light) { /* game_tree_comment's loop, unswitched */
        for (size_t i = 0; i < n; i++) {
            struct slice c = game_tree_light_comment(&g->tree, first + i);
            out[i] = (pgnkit_str){c.ptr, c.len};
        }
        return n;
    }
    for (size_t i = 0; i < n; i++) {
        struct slice c = game_tree_comment(&g->tree, first + i);
        out[i] = (pgnkit_str){c.ptr, c.len};
    }
    return n;
}

size_t pgnkit_game_node_uci(pgnkit_game *g, size_t node, char *dst)
{
    build_tree(g);
    if (node == 0 || node > g->tree.count) {
        dst[0] = '\0';
        return 0;
    }
    return uci_write_move(&g->rec->start, g->tree.nodes[node].move, g->ktr, dst);
}

/* Move the node cursor to the position after node: one move from its parent, forward
 * along the mainline, or from the mainline's cursor (seek_ply) at the ply its line
 * branches off, then the line's own moves. */
static void seek_node(pgnkit_game *g, size_t node)
{
    const struct game_tree_node *nodes = g->tree.nodes;
    size_t mainline = g->rec->mainline_count;
    if (node == g->node_cursor)
        return;
    if (node <= mainline && g->node_cursor < node) {
        while (g->node_cursor < node)
            rules_do_move(&g->node_pos, nodes[++g->node_cursor].move);
        return;
    }
    if (nodes[node].parent == g->node_cursor) {
        rules_do_move(&g->node_pos, nodes[node].move);
        g->node_cursor = node;
        return;
    }
    size_t depth = 0, branch = node;
    for (; branch > mainline; branch = nodes[branch].parent)
        depth++;
    uint32_t *path = xmalloc((depth + 1) * sizeof *path);
    size_t i = depth;
    for (size_t k = node; k > mainline; k = nodes[k].parent)
        path[--i] = (uint32_t)k;
    seek_ply(g, branch);
    g->node_pos = g->pos;
    for (i = 0; i < depth; i++)
        rules_do_move(&g->node_pos, nodes[path[i]].move);
    free(path);
    g->node_cursor = node;
}

size_t pgnkit_game_node_san(pgnkit_game *g, size_t node, char *dst)
{
    build_tree(g);
    if (node == 0 || node > g->tree.count) {
        dst[0] = '\0';
        return 0;
    }
    const struct game_tree_node *n = &g->tree.nodes[node];
    seek_node(g, n->parent);
    size_t len = san_write_marked(&g->node_pos, n->move, n->check_mark, dst);
    dst[len] = '\0';
    return len;
}

size_t pgnkit_game_node_fen(pgnkit_game *g, size_t node, char *dst)
{
    build_tree(g);
    if (!g->rec->started || node > g->tree.count) {
        dst[0] = '\0';
        return 0;
    }
    seek_node(g, node);
    return fen_write(&g->node_pos, dst, PGNKIT_FEN_MAX, g->ep_legal ? FEN_EP_LEGAL : 0);
}

/* ---- the board ---- */

struct pgnkit_board {
    struct position pos;
    /* The SAN grammar's matcher, made on the first push_san (compiling the pattern is
     * the one cost a board has; most boards never read SAN).  Not copied. */
    struct san_matcher *matcher;
};

/* The rules a variant name gives: a variant, with *chess960 for Chess960's names (the
 * Variant tag's spellings, game.c), or -1. */
static int board_variant(const char *name, bool *chess960)
{
    static const char *const c960[] = {"chess960",       "chess 960",     "fischerandom",
                                       "fischer random", "fischerrandom", "960",
                                       "frc"};
    *chess960 = false;
    if (!name)
        return VARIANT_STANDARD;
    for (size_t i = 0; i < sizeof c960 / sizeof *c960; i++) {
        if (strcasecmp(name, c960[i]) == 0) {
            *chess960 = true;
            return VARIANT_STANDARD;
        }
    }
    return variant_from_name(name, strlen(name));
}

pgnkit_board *pgnkit_board_new(const char *fen, const char *variant, pgnkit_error *err)
{
    attacks_init();
    bool chess960;
    int v = board_variant(variant, &chess960);
    if (v < 0) {
        set_error(err, EINVAL, "unknown variant '%.100s'%s", variant,
                  " (standard, chess960, crazyhouse, atomic, antichess, kingOfTheHill, "
                  "threeCheck, racingKings, horde)");
        return NULL;
    }
    struct position pos;
    if (fen) {
        struct diag d;
        if (fen_parse_variant(&pos, fen, strlen(fen), chess960, (enum variant)v, &d) != 0) {
            set_error(err, EINVAL, "invalid FEN: %s%s", d.message, "");
            return NULL;
        }
    } else {
        variant_set_start(&pos, (enum variant)v);
        pos.chess960 = chess960;
    }
    pgnkit_board *b = calloc(1, sizeof *b);
    if (!b) {
        set_error(err, ENOMEM, "%s%s", "out of memory", "");
        return NULL;
    }
    b->pos = pos;
    return b;
}

void pgnkit_board_free(pgnkit_board *b)
{
    if (!b)
        return;
    san_matcher_free(b->matcher);
    free(b);
}

pgnkit_board *pgnkit_board_copy(const pgnkit_board *b)
{
    pgnkit_board *c = calloc(1, sizeof *c);
    if (c)
        c->pos = b->pos;
    return c;
}

size_t pgnkit_board_fen(const pgnkit_board *b, int ep_legal, char *dst, size_t cap)
{
    char fen[FEN_MAX];
    size_t len = fen_write(&b->pos, fen, sizeof fen, ep_legal ? FEN_EP_LEGAL : 0);
    if (cap) {
        size_t n = len < cap ? len : cap - 1;
        memcpy(dst, fen, n);
        dst[n] = '\0';
    }
    return len;
}

const char *pgnkit_board_variant(const pgnkit_board *b)
{
    if (b->pos.variant == VARIANT_STANDARD && b->pos.chess960)
        return "Chess960";
    return variant_name((enum variant)b->pos.variant);
}

size_t pgnkit_board_legal_moves(const pgnkit_board *b, char (*dst)[PGNKIT_UCI_MAX], size_t cap)
{
    struct move moves[MAX_MOVES];
    int n = rules_legal_moves(&b->pos, moves);
    for (int i = 0; i < n && (size_t)i < cap; i++)
        uci_write_move(&b->pos, moves[i], false, dst[i]);
    return (size_t)n;
}

static void move_error(pgnkit_move_error *err, enum diag_code code, const char *message)
{
    if (!err)
        return;
    err->error.code = EINVAL;
    snprintf(err->error.message, sizeof err->error.message, "%s", message);
    err->code = diag_code_name(code);
    err->candidate_count = 0;
}

/* Whether s looks like a UCI move: e2e4, e7e8q, P@e4, 0000 (legal or not). */
static bool uci_shaped(const char *s)
{
    size_t len = strlen(s);
    bool sq1 = len >= 2 && s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8';
    bool sq2 = len >= 4 && s[2] >= 'a' && s[2] <= 'h' && s[3] >= '1' && s[3] <= '8';
    if (len == 4 && (strcmp(s, "0000") == 0 || (strchr("PNBRQK", s[0]) && s[0] && s[1] == '@' &&
                                                 s[2] >= 'a' && s[2] <= 'h' && s[3] >= '1' &&
                                                 s[3] <= '8')))
        return true;
    return sq1 && sq2 && (len == 4 || (len == 5 && s[4] && strchr("nbrqk", s[4])));
}

/* The legal move uci names into *m: 0, or -1 with *err (SYNTAX or ILLEGAL).  Standard
 * castling is accepted king-takes-rook (e1h1) too, and 0000 is a null move when the side
 * to move is not in check, as python-chess accepts them. */
static int find_uci(const struct position *pos, const char *uci, struct move *m,
                    pgnkit_move_error *err)
{
    char msg[256];
    if (!uci || !uci_shaped(uci)) {
        snprintf(msg, sizeof msg, "'%.40s' is not a UCI move", uci ? uci : "(null)");
        move_error(err, DIAG_SYNTAX, msg);
        return -1;
    }
    if (strcmp(uci, "0000") == 0) { /* a null move, as python-chess's push_uci plays it */
        *m = (struct move){0, 0, 0, MOVE_NULL};
        if (rules_is_legal(pos, *m))
            return 0;
        move_error(err, DIAG_ILLEGAL, "a null move is not possible while in check");
        return -1;
    }
    struct move moves[MAX_MOVES];
    int n = rules_legal_moves(pos, moves);
    for (int i = 0; i < n; i++) {
        char text[PGNKIT_UCI_MAX], ktr[PGNKIT_UCI_MAX];
        uci_write_move(pos, moves[i], false, text);
        uci_write_move(pos, moves[i], true, ktr);
        if (strcmp(text, uci) == 0 || strcmp(ktr, uci) == 0) {
            *m = moves[i];
            return 0;
        }
    }
    snprintf(msg, sizeof msg, "%s is not a legal move in %s", uci,
             n ? "this position" : "a position where the game is over");
    move_error(err, n ? DIAG_ILLEGAL : DIAG_MOVE_AFTER_END, msg);
    return -1;
}

int pgnkit_board_san(const pgnkit_board *b, const char *uci, char *san, pgnkit_move_error *err)
{
    struct move m;
    if (find_uci(&b->pos, uci, &m, err) != 0)
        return -1;
    if (san)
        san[san_write(&b->pos, m, san)] = '\0';
    return 0;
}

int pgnkit_board_push_uci(pgnkit_board *b, const char *uci, char *san, pgnkit_move_error *err)
{
    struct move m;
    if (find_uci(&b->pos, uci, &m, err) != 0)
        return -1;
    if (san)
        san[san_write(&b->pos, m, san)] = '\0';
    rules_do_move(&b->pos, m);
    return 0;
}

/* The first problem of an outcome that played no move, with its candidates. */
static void san_error(const struct position *pos, const struct san_outcome *o,
                      pgnkit_move_error *err)
{
    if (!err)
        return;
    move_error(err, o->problems[0].code, o->problems[0].message);
    for (int i = 0; i < o->candidate_count && i < PGNKIT_CANDIDATES_MAX; i++)
        uci_write_move(pos, o->candidates[i], false, err->candidates[i]);
    err->candidate_count = o->candidate_count < PGNKIT_CANDIDATES_MAX ? o->candidate_count
                                                                      : PGNKIT_CANDIDATES_MAX;
}

int pgnkit_board_push_san(pgnkit_board *b, const char *san, char *uci, pgnkit_move_error *err)
{
    enum { SAN_TOKEN_MAX = 64 }; /* longer than any move in any notation */
    char msg[256];
    size_t len = san ? strnlen(san, SAN_TOKEN_MAX + 1) : 0;
    if (!b->matcher) {
        struct diag d;
        b->matcher = san_matcher_new(SAN_LETTERS_ENGLISH, &d);
        if (!b->matcher) {
            move_error(err, DIAG_SYNTAX, d.message);
            return -1;
        }
    }
    struct san parts;
    if (len == 0 || len > SAN_TOKEN_MAX || san_decode(b->matcher, san, len, &parts) != 0) {
        snprintf(msg, sizeof msg, "'%.40s' is not a move", san ? san : "(null)");
        move_error(err, DIAG_SYNTAX, msg);
        return -1;
    }
    struct position after;
    struct san_outcome o;
    o.after = &after;
    san_resolve(&b->pos, &parts, &(struct san_options){0}, &o);
    if (!o.ok) {
        san_error(&b->pos, &o, err);
        return -1;
    }
    if (uci)
        uci_write_move(&b->pos, o.move, false, uci);
    b->pos = after;
    return 0;
}

int pgnkit_board_square(const char *name)
{
    if (!name || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8' || name[2])
        return -1;
    return square_make(name[0] - 'a', name[1] - '1');
}

int pgnkit_board_piece_at(const pgnkit_board *b, int square)
{
    if (square < 0 || square >= SQUARE_COUNT)
        return -1;
    uint8_t p = b->pos.board[square];
    if (p == PIECE_NONE)
        return 0;
    char letter = "PNBRQK"[piece_type_of(p)];
    return piece_color_of(p) == BLACK ? letter | 0x20 : letter;
}

char pgnkit_board_turn(const pgnkit_board *b)
{
    return b->pos.side_to_move == WHITE ? 'w' : 'b';
}

int pgnkit_board_is_check(const pgnkit_board *b) { return b->pos.checkers != 0; }

int pgnkit_board_is_checkmate(const pgnkit_board *b)
{
    return game_end_of(&b->pos) == ENDING_CHECKMATE;
}

int pgnkit_board_is_stalemate(const pgnkit_board *b)
{
    return game_end_of(&b->pos) == ENDING_STALEMATE;
}
