/*
 * reader_buffer.c - the reader's storage: the input buffer and what moves with it.
 *
 * Owns the one growing input buffer (it holds the current game and is compacted between
 * games; it grows in place, to no more than a game within max_game_bytes needs; a read
 * asks at least READ_CHUNK bytes and at most READ_MAX) or, for a file read by mapping it,
 * the window mapped over the file (map_window); the pointers into it that must move when
 * it does (tokens, tag names and values), the growth of the per-game token and tag
 * arrays, the diagnostics list, and the streaming skips that read on without keeping
 * anything (a line, a token run, a game over its limits).  Knows nothing of PGN beyond
 * where a line and a token end.
 *
 * Owns r->in (reader_input.h); moves r->scan.pos and ls, game_start, the tokens, tags
 * and r->parts.cut_last with the data; grows r->tok and r->tag.  Offers reader_buffer.h.
 */
#include "pgn/reader_buffer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "pgn/pgn_bytes.h"

enum {
    READ_CHUNK = 1 << 20, /* bytes asked of the source per read, at least */
    /* and at most: a buffer grown for one large game is not filled (so made resident)
     * whole by every later read: memory stays the live game plus this. */
    READ_MAX = 4 << 20,
    /* A mapped file's bytes mapped ahead of the scan, at least (map_window): what a
     * window costs (an mmap, a munmap, an fstat: ~25 us) is 1.5% of lichess's time at
     * 1 MiB and lost in the noise from 4 MiB on; the window is resident set. */
    MAP_STEP = 4 << 20,
};

void add_diag(struct pgn_reader *r, enum diag_code code, uint64_t line, uint64_t col,
              const char *fmt, ...)
{
    if (r->parts.relex)
        return; /* a part read again: its diagnostics were given with the game */
    struct diag d;
    va_list ap;
    va_start(ap, fmt);
    diag_vset(&d, code, line, col, fmt, ap);
    va_end(ap);
    diag_list_push(&r->diags, &d);
}

/* ---- the game's arrays ------------------------------------------------------------------ */

READER_COLD void grow_tokens(struct pgn_reader *r)
{
    void *p = r->tok.toks;
    xgrow(&p, &r->tok.tok_cap, r->tok.ntok + 1, sizeof *r->tok.toks);
    r->tok.toks = p;
}

READER_COLD void grow_tags(struct pgn_reader *r)
{
    void *p = r->tag.tags;
    xgrow(&p, &r->tag.tag_cap, r->tag.ntag + 1, sizeof *r->tag.tags);
    r->tag.tags = p;
}

/*
 * The names of the tags kept are hashed only when a duplicate check needs them (rarely:
 * a tag line after a blank line in a tag section); those seen while the game is skipped,
 * when the buffer does not keep them, at once (commit_tag).
 */
void name_set_catch_up(struct pgn_reader *r)
{
    for (; r->tag.tags_in_set < r->tag.ntag; r->tag.tags_in_set++) {
        const struct pgn_tag *t = &r->tag.tags[r->tag.tags_in_set];
        name_set_put(&r->tag.names, name_set_hash(t->name.ptr, t->name.len));
    }
}

READER_COLD void tokens_over_limit(struct pgn_reader *r)
{
    if (r->parts.relex) {
        /* More tokens than the first reading found in the part: drop the rest. */
        r->parts.relex_broken = true;
        r->skipping = true;
        return;
    }
    r->too_many_tokens = true;
    start_skipping(r);
}

/* ---- the input buffer ------------------------------------------------------------------- */

void start_skipping(struct pgn_reader *r)
{
    name_set_catch_up(r);
    r->tag.tags_in_set = 0; /* the tags go; their names stay in the set */
    r->skipping = true;
    r->tok.ntok = r->parts.win = r->tok.tok0; /* and no parts */
    r->parts.ncut = 0;
    r->parts.cut_waits = false;
    r->tag.ntag = 0;
    r->tag.scratch_len = 0;
}

/* The buffer's address as a number: its pointers are moved by how far it moved, with
 * no arithmetic on (nor comparison with) the block realloc may have freed. */
static inline uintptr_t addr(const void *p) { return (uintptr_t)p; }

/* Move the game's pointers into the buffer by the difference between their offset from
 * old (the address the bytes were at) and nb (where they are now): p becomes
 * nb + (p - old). */
static void rebase_game(struct pgn_reader *r, uintptr_t old, char *nb)
{
    for (size_t k = 0; k < r->tok.ntok; k++)
        r->tok.toks[k].text = nb + (addr(r->tok.toks[k].text) - old);
    for (size_t k = 0; k < r->tag.ntag; k++) {
        struct pgn_tag *t = &r->tag.tags[k];
        t->name.ptr = nb + (addr(t->name.ptr) - old);
        if (t->value.ptr)
            t->value.ptr = nb + (addr(t->value.ptr) - old);
    }
    if (r->parts.ncut) /* its text is the game's too (only its place is used) */
        r->parts.cut_last.text = nb + (addr(r->parts.cut_last.text) - old);
}

/*
 * The capacity for `live` bytes and a read after them.  Doubling, so that a game read a
 * chunk at a time is moved O(log n) times; but no more than a game kept whole can need
 * (max_game_bytes, and two reads: one past the byte that puts it over the limit, after
 * which it is skipped and only the scan's place is kept), so that a game near or over the
 * limit does not double the buffer to twice the limit.  More only for the one case that
 * needs it: bytes kept past the limit (a construct cut by the end of the data, a long
 * tag line or ';' comment at the game's end, read on until it ends).
 */
static size_t grown_cap(const struct pgn_reader *r, size_t live)
{
    size_t ncap = r->in.cap ? r->in.cap : 2 * (size_t)READ_CHUNK;
    while (ncap - live < READ_CHUNK)
        ncap *= 2;
    size_t most = add_sat(r->lim.max_game_bytes, 2 * (size_t)READ_CHUNK);
    if (ncap > most && live <= most && most - live >= READ_CHUNK)
        ncap = most;
    return ncap;
}

/* The current line started before data[keep]: its bytes there may go with the fill, what
 * they held stays known (struct dropped_head). */
static void note_dropped_head(struct pgn_reader *r, size_t keep)
{
    uint64_t line_off = r->in.base_off + (uint64_t)(int64_t)r->scan.ls;
    ptrdiff_t from = r->scan.ls > 0 ? r->scan.ls : 0;
    bool before = r->in.head.line_off == line_off && r->in.head.nonblank;
    r->in.head = (struct dropped_head){
        line_off, before || !only_blanks(r->in.data, from, (ptrdiff_t)keep)};
}

/* The data now starts at what was data[keep]: the indices into it move with it. */
static void drop_front(struct pgn_reader *r, size_t keep)
{
    r->in.shift = keep;
    r->scan.pos -= keep;
    if (r->started && !r->skipping)
        r->game_start -= keep;
    r->scan.ls -= (ptrdiff_t)keep;
    r->in.base_off += keep;
}

/*
 * Make room for a read by moving [keep, len) to the front, then growing the buffer when
 * that is not room enough.  Growth is a realloc after the move: glibc moves a large block
 * by remapping its pages (mremap), so the bytes are neither copied nor resident twice,
 * where a new buffer filled with a copy holds both while it copies (a game of n bytes
 * would peak at 2n).
 */
static void make_room(struct pgn_reader *r, size_t keep)
{
    size_t live = r->in.len - keep;
    if (keep > 0) {
        memmove(r->in.buf, r->in.buf + keep, live);
        rebase_game(r, addr(r->in.buf + keep), r->in.buf);
    }
    if (r->in.cap - live < READ_CHUNK) {
        size_t ncap = grown_cap(r, live);
        uintptr_t old = addr(r->in.buf);
        char *nb = xrealloc(r->in.buf, ncap);
        /* Tokens and tags point into the old block (there are none before the first
         * fill, when old is 0). */
        if (addr(nb) != old)
            rebase_game(r, old, nb);
        r->in.buf = nb;
        r->in.cap = ncap;
    }
    r->in.data = r->in.buf;
    r->in.len = live;
    drop_front(r, keep);
}

void reader_unmap(struct pgn_reader *r)
{
    if (r->in.map.base)
        munmap(r->in.map.base, r->in.map.len);
    r->in.map.base = NULL;
}

/*
 * The window's pages put in at once, in the kernel, rather than by a page fault per
 * 64 KiB as the scan reaches them.  After the old window is gone, so that two are never
 * resident together (the peak resident set is what the memory bounds count).  Where the
 * kernel does not know the advice (before Linux 5.14), the pages come by faults.
 */
static void prefault(void *p, size_t len)
{
#ifdef MADV_POPULATE_READ
    (void)madvise(p, len, MADV_POPULATE_READ);
#else
    (void)p;
    (void)len;
#endif
}

/*
 * A mapped file's next window: from the page of data[keep] to m->step bytes (or, for a
 * game already longer, as many as it has: doubling, as the buffer grows) past the bytes
 * mapped so far.  A new mapping replaces the old one rather than growing it: only the
 * current game's few pages are mapped twice, and nothing before keep stays resident.
 * The size is asked again first, so that a file that grew is read to its new end, like
 * read(2) would, and a file that shrank is not mapped past its end (touching a page
 * wholly past the end raises SIGBUS).
 */
static int map_window(struct pgn_reader *r, size_t keep)
{
    struct reader_map *m = &r->in.map;
    uint64_t from = r->in.base_off + keep, have = r->in.base_off + r->in.len;
    struct stat st;
    if (fstat(m->fd, &st) == 0 && st.st_size >= 0)
        m->size = (uint64_t)st.st_size;
    if (have >= m->size) {
        r->in.eof = true;
        return 0;
    }
    uint64_t step = have - from > m->step ? have - from : m->step;
    uint64_t end = m->size - have > step ? have + step : m->size;
    uint64_t start = from - from % m->page;
    size_t len = (size_t)(end - start);
    void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, m->fd, (off_t)start);
    if (p == MAP_FAILED) {
        r->in.err_no = errno;
        r->in.failed = true;
        r->in.eof = true;
        return -1;
    }
    char *nd = (char *)p + (from - start);
    rebase_game(r, addr(r->in.data + keep), nd);
    reader_unmap(r);
    prefault(p, len);
    m->base = p;
    m->len = len;
    r->in.data = nd;
    r->in.len = (size_t)(end - from);
    drop_front(r, keep);
    if (m->mapped)
        m->mapped(m->ctx, end);
    return 1;
}

/* Hand back every block held but the newest `keep` (0 or 1). */
static void release_blocks(struct pgn_reader *r, unsigned keep)
{
    struct reader_blocks *b = &r->in.blocks;
    for (; b->held > keep; b->held--)
        b->src.release(b->src.ctx);
}

/*
 * The bytes kept, [keep, len), and a whole block after them, in the owned buffer: for a
 * game longer than a block's room (or one already there).  The buffer at least doubles
 * when it grows, so a game read a block at a time is copied O(log n) times over.
 */
static char *gather(struct pgn_reader *r, size_t keep, const char *block, size_t block_len)
{
    size_t live = r->in.len - keep;
    const char *kept = r->in.data + keep; /* in a block, or in buf itself */
    if (r->in.cap < live + block_len) {
        size_t ncap = r->in.cap ? r->in.cap : (size_t)READ_CHUNK;
        while (ncap < live + block_len)
            ncap *= 2;
        char *nb = xmalloc(ncap);
        memcpy(nb, kept, live);
        free(r->in.buf);
        r->in.buf = nb;
        r->in.cap = ncap;
    } else {
        memmove(r->in.buf, kept, live);
    }
    memcpy(r->in.buf + live, block, block_len);
    return r->in.buf;
}

/*
 * The next block: the bytes kept of the data so far, [keep, len), are put in the room
 * before it (a few KiB: the current game's start), so that the game is contiguous and
 * nothing else is copied; the block before is then handed back.  A game longer than the
 * room goes to the owned buffer with the block after it (gather) until it ends.
 */
static int block_window(struct pgn_reader *r, size_t keep)
{
    struct reader_blocks *b = &r->in.blocks;
    char *block;
    size_t block_len, room;
    int st = b->src.take(b->src.ctx, &block, &block_len, &room);
    if (st <= 0) {
        if (st < 0) {
            r->in.err_no = errno;
            r->in.failed = true;
        }
        r->in.eof = true;
        return st;
    }
    b->held++;
    size_t live = r->in.len - keep;
    uintptr_t old = addr(r->in.data + keep);
    char *nd;
    if (live <= room) {
        nd = block - live;
        memcpy(nd, r->in.data + keep, live);
        release_blocks(r, 1);
    } else {
        nd = gather(r, keep, block, block_len);
        release_blocks(r, 0);
    }
    rebase_game(r, old, nd);
    r->in.data = nd;
    r->in.len = live + block_len;
    drop_front(r, keep);
    return 1;
}

void reader_blocks_start(struct pgn_reader *r, const struct pgn_block_source *src)
{
    r->in.blocks = (struct reader_blocks){.on = true, .held = 0, .src = *src};
}

void reader_blocks_end(struct pgn_reader *r)
{
    if (r->in.blocks.on)
        release_blocks(r, 0);
}

bool reader_map_start(struct pgn_reader *r, const struct pgn_file_map *map)
{
    struct stat st;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0 || fstat(map->fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
        return false;
    /* Some regular files cannot be mapped (a filesystem without mmap): found now, while
     * the caller can still read the file otherwise. */
    void *probe = mmap(NULL, (size_t)page, PROT_READ, MAP_PRIVATE, map->fd, 0);
    if (probe == MAP_FAILED)
        return false;
    munmap(probe, (size_t)page);
    r->in.map = (struct reader_map){.on = true, .fd = map->fd, .page = (size_t)page,
                                    .step = map->step ? map->step : MAP_STEP,
                                    .size = (uint64_t)st.st_size, .mapped = map->mapped,
                                    .ctx = map->ctx};
    return true;
}

int reader_fill(struct pgn_reader *r, size_t mark)
{
    r->in.shift = 0;
    if (r->in.eof)
        return 0;
    if (r->started && !r->skipping && mark - r->game_start > r->lim.max_game_bytes)
        start_skipping(r);
    size_t keep = (r->started && !r->skipping) ? r->game_start : r->scan.pos;
    if (r->scan.ls < (ptrdiff_t)keep)
        note_dropped_head(r, keep); /* before any mode moves the data */
    if (r->in.map.on)
        return map_window(r, keep);
    if (r->in.blocks.on)
        return block_window(r, keep);
    if (r->in.cap - r->in.len < READ_CHUNK)
        make_room(r, keep);
    size_t ask = r->in.cap - r->in.len < READ_MAX ? r->in.cap - r->in.len : READ_MAX;
    ssize_t got = r->in.src.read(r->in.src.ctx, r->in.buf + r->in.len, ask);
    if (got < 0) {
        r->in.err_no = errno;
        r->in.failed = true;
        r->in.eof = true;
        return -1;
    }
    if (got == 0) {
        r->in.eof = true;
        return 0;
    }
    r->in.len += (size_t)got > ask ? ask : (size_t)got;
    return 1;
}

/* Rescanning the construct at i after every short read (64 KiB from a pipe) would be
 * quadratic: its bytes at least double before it is scanned again. */
size_t reader_read_more(struct pgn_reader *r, size_t i)
{
    size_t pending = r->in.len - i;
    int st;
    do {
        r->scan.pos = i;
        st = reader_fill(r, i);
        i = r->scan.pos;
    } while (st > 0 && r->in.len - i < 2 * pending);
    return st < 0 ? SIZE_MAX : i;
}

void skip_bom(struct pgn_reader *r)
{
    r->in.bom_done = true;
    if (r->lim.mid_line)
        return; /* byte 0 is inside a line of the file the data came from */
    while (r->in.len < 3 && !r->in.eof) {
        r->scan.pos = 0;
        if (reader_fill(r, r->scan.pos) < 0)
            return;
    }
    if (r->in.len >= 3 && memcmp(r->in.data, "\xef\xbb\xbf", 3) == 0) {
        r->scan.pos = 3;
        r->scan.ls = 3;
    }
}

/* ---- streaming skips -------------------------------------------------------------------- */

size_t skip_line(struct pgn_reader *r, size_t i)
{
    for (;;) {
        size_t e = next_eol(r->in.data, i, r->in.len);
        if (e < r->in.len || r->in.eof)
            return e;
        r->scan.pos = e;
        if (reader_fill(r, r->scan.pos) < 0)
            return SIZE_MAX;
        i = r->scan.pos;
    }
}

size_t skip_run(struct pgn_reader *r, size_t i)
{
    for (;;) {
        const char *d = r->in.data;
        size_t n = r->in.len;
        while (i < n && !is_delim(d[i]))
            i++;
        if (i < n || r->in.eof)
            return i;
        r->scan.pos = i;
        if (reader_fill(r, r->scan.pos) < 0)
            return SIZE_MAX;
        i = r->scan.pos;
    }
}
