/*
 * moves.c - pgnkit.Move: one move of a game with its SAN, UCI, position after it,
 * comment, NAGs, clock, eval and variations, from the C API's move tree
 * (pgnkit_game_node*).
 *
 * A Move is light: a reference to its game's handle (which owns the pgnkit_game once
 * Game.moves was asked, and frees it when the Game and the last of its Moves are gone,
 * so that moves outlive their game), its node number and its comment (None or a str,
 * made with it: a plain slot that Python's loops read without a call); each other
 * attribute is made on its first use and kept.  Game.moves for a game of N plies is N
 * small objects and their comments (a batch of comments a call: a one-line comment is
 * its place in the game's bytes, no copy): python-chess's loop that reads a comment or two per
 * move pays for those alone (the FEN, a move played on a cursor, only when asked).  A mainline move's UCI and FEN
 * come from the mainline (pgnkit_game_uci/fen), the rest from the tree, which a
 * detached game builds on the first question about it.  Moves still
 * compare by value (every attribute, variations included): == makes what it compares.
 */
#include "moves.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <structmember.h>

/* ---- the handle: who owns the game ---- */

typedef struct {
    PyObject_HEAD
    pgnkit_game *game;
} HandleObject;

static void handle_dealloc(HandleObject *self)
{
    pgnkit_game_free(self->game);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject HandleType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pgnkit._GameHandle",
    .tp_doc = "a game shared by its Game and its Moves (internal)",
    .tp_basicsize = sizeof(HandleObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)handle_dealloc,
};

/* ---- Move ---- */

/* A Move's attributes made on first use (NULL before), in a block of their own made
 * with the first of them: a Move of a loop that reads its comment alone is four fields
 * to fill and free. */
struct move_more {
    PyObject *san, *uci, *fen, *starting_comment, *nags, *clock, *eval;
    PyObject *promotion, *variations;
};

typedef struct {
    PyObject_HEAD
    HandleObject *handle;
    size_t node;
    /* Made with the Move: a plain slot, which CPython reads without a call (a loop over
     * every move's comment is the common one). */
    PyObject *comment;
    struct move_more *more; /* NULL until an attribute of it is asked */
} MoveObject;

/* Freed Moves kept for the next game's (chained through handle), as CPython keeps its
 * floats and tuples: a game's Moves are made together and freed together, and a Move
 * from the list costs a few stores instead of the allocator's round trip.  The GIL
 * guards it; a build without one makes and frees them as usual. */
#ifdef Py_GIL_DISABLED
enum { FREE_MOVES_MAX = 0 };
#else
enum { FREE_MOVES_MAX = 4096 };
#endif
static MoveObject *free_moves;
static int free_move_count;

static void more_free(struct move_more *more)
{
    Py_XDECREF(more->san);
    Py_XDECREF(more->uci);
    Py_XDECREF(more->fen);
    Py_XDECREF(more->starting_comment);
    Py_XDECREF(more->nags);
    Py_XDECREF(more->clock);
    Py_XDECREF(more->eval);
    Py_XDECREF(more->promotion);
    Py_XDECREF(more->variations);
    PyMem_Free(more);
}

static void move_dealloc(MoveObject *self)
{
    Py_XDECREF(self->comment);
    if (self->more)
        more_free(self->more);
    Py_DECREF(self->handle);
    if (free_move_count < FREE_MOVES_MAX) {
        self->handle = (HandleObject *)free_moves;
        free_moves = self;
        free_move_count++;
        return;
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject MoveType;

static PyObject *text_or_none(pgnkit_str s);

/* Short comments' strs, kept for the next move with the same text: a lichess game has a
 * [%clk] comment after every move, and its clocks repeat from move to move and game to
 * game (lichess sample: 81% of them found in 1024 slots, 89% in 4096), so most cost a
 * hash and a compare instead of a str made and freed.  A str is immutable: sharing it changes
 * nothing but identity.  Direct-mapped by a hash of the bytes; the GIL guards it, as the
 * free Moves. */
#ifdef Py_GIL_DISABLED
enum { COMMENT_CACHE_BITS = 0, COMMENT_CACHE_MAX_LEN = 0 };
#else
enum { COMMENT_CACHE_BITS = 12, COMMENT_CACHE_MAX_LEN = 32 };
#endif
static PyObject *comment_cache[1 << COMMENT_CACHE_BITS];

/* The loop over a game's plies makes a Move a ply: the hits' path inline, the rest not. */
#if defined(__GNUC__)
#define MOVES_INLINE inline __attribute__((always_inline))
#define MOVES_NOINLINE __attribute__((noinline))
#else
#define MOVES_INLINE inline
#define MOVES_NOINLINE
#endif

static MOVES_INLINE uint64_t load8(const char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

/* Texts of 8 to 32 bytes: their first and last 8 bytes make the slot (and, up to 16
 * bytes, cover them all). */
static MOVES_INLINE int same_text(const char *a, const char *b, size_t len)
{
    return load8(a) == load8(b) && load8(a + len - 8) == load8(b + len - 8) &&
           (len <= 16 || memcmp(a + 8, b + 8, len - 16) == 0);
}

/* s's str (s.len >= 8) when it is ASCII (8 bytes at a time, the last word overlapping):
 * its bytes copied, no decoder's walk; else the decoder's. */
static PyObject *ascii_text(pgnkit_str s)
{
    uint64_t high = load8(s.ptr + s.len - 8);
    for (size_t i = 0; i + 8 <= s.len; i += 8)
        high |= load8(s.ptr + i);
    if (high & 0x8080808080808080u)
        return text_or_none(s);
    PyObject *c = PyUnicode_New((Py_ssize_t)s.len, 127);
    if (c)
        memcpy(PyUnicode_DATA(c), s.ptr, s.len);
    return c;
}

/* s's str missing from the cache: made, and kept in *slot when compact ASCII.  Out of
 * line: the hits' path saves no registers for it. */
static MOVES_NOINLINE PyObject *comment_miss(pgnkit_str s, PyObject **slot)
{
    PyObject *c = ascii_text(s);
    if (c && PyUnicode_IS_COMPACT_ASCII(c))
        Py_XSETREF(*slot, Py_NewRef(c));
    return c;
}

static MOVES_INLINE PyObject *comment_text(pgnkit_str s)
{
    if (!s.ptr || s.len < 8 || s.len > COMMENT_CACHE_MAX_LEN)
        return text_or_none(s);
    uint64_t h = (load8(s.ptr) * 0x9E3779B97F4A7C15u) ^
                 ((load8(s.ptr + s.len - 8) + s.len) * 0xFF51AFD7ED558CCDu);
    /* The top bits: the only ones every input bit reaches. */
    PyObject **slot = &comment_cache[COMMENT_CACHE_BITS ? h >> (64 - COMMENT_CACHE_BITS) : 0];
    PyObject *c = *slot;
    /* A cached str is compact ASCII (comment_miss): its characters are its UTF-8 bytes,
     * right after its header (what PyUnicode_DATA finds after testing its kind). */
    if (c && PyUnicode_GET_LENGTH(c) == (Py_ssize_t)s.len &&
        same_text((const char *)((PyASCIIObject *)c + 1), s.ptr, s.len))
        return Py_NewRef(c);
    return comment_miss(s, slot);
}

/* Node's Move, given its comment (pgnkit_game_node_comments: not NUL-terminated).
 * Inline: made for every ply of a game in one loop. */
static MOVES_INLINE PyObject *new_move(HandleObject *handle, size_t node, pgnkit_str text)
{
    PyObject *comment = text.ptr ? comment_text(text) : Py_NewRef(Py_None);
    if (!comment)
        return NULL;
    MoveObject *m = free_moves;
    if (m) {
        free_moves = (MoveObject *)m->handle;
        free_move_count--;
#ifdef Py_TRACE_REFS
        PyObject_Init((PyObject *)m, &MoveType);
#else
        /* Its type is still MoveType, a static type (no reference to it taken): a new
         * reference is a count of 1.  PyObject_Init, a call, would also tell tracemalloc
         * where the object is made again; it keeps the place it was first made. */
        Py_SET_REFCNT(m, 1);
#endif
    } else if (!(m = PyObject_New(MoveObject, &MoveType))) {
        Py_DECREF(comment);
        return NULL;
    }
    m->handle = (HandleObject *)Py_NewRef((PyObject *)handle);
    m->node = node;
    m->comment = comment;
    m->more = NULL;
    return (PyObject *)m;
}

/* Node numbers 1 .. ply_count are the mainline's plies (pgnkit.h). */
static int on_mainline(const MoveObject *m)
{
    return m->node <= pgnkit_game_ply_count(m->handle->game);
}

static pgnkit_node node_info(const MoveObject *m)
{
    pgnkit_node n;
    pgnkit_game_node(m->handle->game, m->node, &n);
    return n;
}

static PyObject *text_or_none(pgnkit_str s)
{
    if (!s.ptr)
        Py_RETURN_NONE;
    /* The library hands out UTF-8 (a game that is not is read as CP1252). */
    return PyUnicode_DecodeUTF8(s.ptr, (Py_ssize_t)s.len, "replace");
}

static PyObject *nag_list(const pgnkit_node *n)
{
    PyObject *list = PyList_New((Py_ssize_t)n->nag_count);
    for (size_t i = 0; list && i < n->nag_count; i++) {
        PyObject *v = PyLong_FromLong(n->nags[i]);
        if (!v) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, v);
    }
    return list;
}

static PyObject *eval_value(const pgnkit_node *n)
{
    if (!n->has_eval)
        Py_RETURN_NONE;
    if (n->eval.is_mate)
        return PyUnicode_FromFormat("#%d", n->eval.mate_in);
    return PyFloat_FromDouble(n->eval.pawns);
}

static PyObject *make_line(HandleObject *handle, size_t first);

/* The alternatives to node n: one line per variation. */
static PyObject *variation_lines(HandleObject *handle, const pgnkit_node *n)
{
    PyObject *lines = PyList_New(0);
    pgnkit_node alt;
    for (size_t v = n->variation; lines && v; v = alt.next_variation) {
        pgnkit_game_node(handle->game, v, &alt);
        PyObject *line = make_line(handle, v);
        if (!line || PyList_Append(lines, line) < 0)
            Py_CLEAR(lines);
        Py_XDECREF(line);
    }
    return lines;
}

/* The attributes made from text, by the mainline's own calls where there are some: the
 * SAN from the tree's cursor (pgnkit_game_node_san: one move from the last SAN's
 * position), the FEN from the mainline's (pgnkit_game_fen), so that asking a move for
 * both in either order costs a move each, not a replay from the start. */
static PyObject *make_san(MoveObject *m)
{
    char san[PGNKIT_SAN_MAX];
    size_t len = pgnkit_game_node_san(m->handle->game, m->node, san);
    return PyUnicode_FromStringAndSize(san, (Py_ssize_t)len);
}

static PyObject *make_uci(MoveObject *m)
{
    char uci[PGNKIT_UCI_MAX];
    pgnkit_game *g = m->handle->game;
    size_t len = on_mainline(m) ? pgnkit_game_uci(g, m->node, uci)
                                : pgnkit_game_node_uci(g, m->node, uci);
    return PyUnicode_FromStringAndSize(uci, (Py_ssize_t)len);
}

static PyObject *make_fen(MoveObject *m)
{
    char fen[PGNKIT_FEN_MAX];
    pgnkit_game *g = m->handle->game;
    size_t len = on_mainline(m) ? pgnkit_game_fen(g, m->node, fen)
                                : pgnkit_game_node_fen(g, m->node, fen);
    return PyUnicode_FromStringAndSize(fen, (Py_ssize_t)len);
}

/* The attributes made from the node's info. */
static PyObject *make_starting_comment(MoveObject *m)
{
    pgnkit_node n = node_info(m);
    return text_or_none(n.starting_comment);
}

static PyObject *make_nags(MoveObject *m)
{
    pgnkit_node n = node_info(m);
    return nag_list(&n);
}

static PyObject *make_clock(MoveObject *m)
{
    pgnkit_node n = node_info(m);
    return n.has_clock ? PyFloat_FromDouble(n.clock) : Py_NewRef(Py_None);
}

static PyObject *make_eval(MoveObject *m)
{
    pgnkit_node n = node_info(m);
    return eval_value(&n);
}

static PyObject *make_promotion(MoveObject *m)
{
    pgnkit_node n = node_info(m);
    return n.promotion ? PyUnicode_FromStringAndSize(&n.promotion, 1) : Py_NewRef(Py_None);
}

static PyObject *make_variations(MoveObject *m)
{
    pgnkit_node n = node_info(m);
    return n.variation ? variation_lines(m->handle, &n) : PyList_New(0);
}

/* The attribute at offset `at` of m->more, made by make on first use. */
static PyObject *cached(MoveObject *m, size_t at, PyObject *(*make)(MoveObject *))
{
    if (!m->more && !(m->more = PyMem_Calloc(1, sizeof *m->more)))
        return PyErr_NoMemory();
    PyObject **slot = (PyObject **)((char *)m->more + at);
    if (!*slot)
        *slot = make(m);
    return Py_XNewRef(*slot);
}

#define MOVE_GETTER(field)                                                                     \
    static PyObject *move_get_##field(MoveObject *self, void *closure)                        \
    {                                                                                          \
        (void)closure;                                                                         \
        return cached(self, offsetof(struct move_more, field), make_##field);                 \
    }
MOVE_GETTER(san)
MOVE_GETTER(uci)
MOVE_GETTER(fen)
MOVE_GETTER(starting_comment)
MOVE_GETTER(nags)
MOVE_GETTER(clock)
MOVE_GETTER(eval)
MOVE_GETTER(promotion)
MOVE_GETTER(variations)

static Py_ssize_t move_ply(MoveObject *self)
{
    return on_mainline(self) ? (Py_ssize_t)self->node : (Py_ssize_t)node_info(self).ply;
}

static PyObject *move_get_ply(MoveObject *self, void *c)
{
    (void)c;
    return PyLong_FromSsize_t(move_ply(self));
}

static PyObject *move_get_is_check(MoveObject *self, void *c)
{
    (void)c;
    return PyBool_FromLong(node_info(self).is_check);
}

static PyObject *move_get_is_checkmate(MoveObject *self, void *c)
{
    (void)c;
    return PyBool_FromLong(node_info(self).is_checkmate);
}

static PyObject *move_get_is_capture(MoveObject *self, void *c)
{
    (void)c;
    return PyBool_FromLong(node_info(self).is_capture);
}

/* Every field, in one tuple: what == compares. */
static PyObject *move_fields(MoveObject *m)
{
    PyObject *san = move_get_san(m, NULL), *uci = move_get_uci(m, NULL);
    PyObject *fen = move_get_fen(m, NULL), *comment = Py_NewRef(m->comment);
    PyObject *starting = move_get_starting_comment(m, NULL), *nags = move_get_nags(m, NULL);
    PyObject *clock = move_get_clock(m, NULL), *eval = move_get_eval(m, NULL);
    PyObject *promotion = move_get_promotion(m, NULL);
    PyObject *variations = move_get_variations(m, NULL);
    pgnkit_node n = node_info(m);
    PyObject *fields = NULL;
    if (san && uci && fen && comment && starting && nags && clock && eval && promotion &&
        variations)
        fields = Py_BuildValue("(OOnOOOOOOOOiii)", san, uci, move_ply(m), fen, comment,
                               starting, nags, clock, eval, promotion, variations,
                               n.is_check, n.is_checkmate, n.is_capture);
    Py_XDECREF(san);
    Py_XDECREF(uci);
    Py_XDECREF(fen);
    Py_XDECREF(comment);
    Py_XDECREF(starting);
    Py_XDECREF(nags);
    Py_XDECREF(clock);
    Py_XDECREF(eval);
    Py_XDECREF(promotion);
    Py_XDECREF(variations);
    return fields;
}

static PyObject *move_richcompare(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(a, &MoveType) ||
        !PyObject_TypeCheck(b, &MoveType))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *fa = move_fields((MoveObject *)a), *fb = fa ? move_fields((MoveObject *)b) : NULL;
    PyObject *result = fb ? PyObject_RichCompare(fa, fb, op) : NULL;
    Py_XDECREF(fa);
    Py_XDECREF(fb);
    return result;
}

static PyObject *move_repr(MoveObject *self)
{
    PyObject *san = move_get_san(self, NULL), *uci = san ? move_get_uci(self, NULL) : NULL;
    PyObject *repr = uci ? PyUnicode_FromFormat("Move(ply=%zd, san=%R, uci=%R)",
                                                move_ply(self), san, uci)
                         : NULL;
    Py_XDECREF(san);
    Py_XDECREF(uci);
    return repr;
}

static PyMemberDef move_members[] = {
    {"comment", T_OBJECT_EX, offsetof(MoveObject, comment), READONLY,
     "the comments after it, joined by a space ([%clk]/[%eval] kept), or None"},
    {NULL, 0, 0, 0, NULL},
};

#define GETTER(name, doc) {#name, (getter)move_get_##name, NULL, doc, NULL}
static PyGetSetDef move_getset[] = {
    GETTER(san, "canonical SAN ('Nf3', 'exd8=Q#')"),
    GETTER(uci, "UCI ('g1f3', 'e7e8q')"),
    GETTER(ply, "plies from the game's start to after this move (the mainline's first move "
                "is 1)"),
    GETTER(fen, "the FEN of the position after it"),
    GETTER(starting_comment,
           "a variation's first move: the comments between '(' and it, or None"),
    GETTER(nags, "NAGs as ints in file order ($1 and e4! are 1, ?! is 6)"),
    GETTER(clock, "seconds from the first [%clk] of its comments, or None"),
    GETTER(eval, "the first [%eval] of its comments: pawns (float), '#N' for a mate, or None"),
    GETTER(is_check, "gives check (or mate)"),
    GETTER(is_checkmate, "gives checkmate"),
    GETTER(is_capture, "takes a piece (en passant too)"),
    GETTER(promotion, "the piece promoted to, 'q' 'r' 'b' 'n' (as UCI writes it), or None"),
    GETTER(variations, "the alternatives to this move: a list of lines, each a list of Move"),
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject MoveType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pgnkit.Move",
    .tp_doc = "One move of a game (Game.moves): its SAN, UCI, the position after it, what is\n"
              "written about it and the variations that replace it.",
    .tp_basicsize = sizeof(MoveObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)move_dealloc,
    .tp_repr = (reprfunc)move_repr,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_richcompare = move_richcompare,
    .tp_members = move_members,
    .tp_getset = move_getset,
};

/* The line that starts at node first, followed by next to its end. */
static PyObject *make_line(HandleObject *handle, size_t first)
{
    PyObject *line = PyList_New(0);
    pgnkit_node n;
    for (size_t id = first; line && id; id = n.next) {
        pgnkit_game_node(handle->game, id, &n);
        pgnkit_str text = {NULL, 0};
        pgnkit_game_node_comments(handle->game, id, 1, &text);
        PyObject *move = new_move(handle, id, text);
        if (!move || PyList_Append(line, move) < 0)
            Py_CLEAR(line);
        Py_XDECREF(move);
    }
    return line;
}

PyObject *pgnkit_py_moves(pgnkit_game *g, PyObject **handle)
{
    if (!*handle) {
        HandleObject *h = PyObject_New(HandleObject, &HandleType);
        if (!h)
            return NULL;
        h->game = g;
        *handle = (PyObject *)h;
    }
    /* The mainline's nodes are 1 .. ply_count: no tree needed to list them.  Their
     * comments come a batch at a time, a call each. */
    size_t plies = pgnkit_game_ply_count(g);
    PyObject *list = PyList_New((Py_ssize_t)plies);
    enum { BATCH = 64 };
    pgnkit_str texts[BATCH];
    for (size_t ply = 1; list && ply <= plies; ply++) {
        size_t k = (ply - 1) % BATCH;
        if (k == 0) {
            size_t want = plies - ply + 1 < BATCH ? plies - ply + 1 : BATCH;
            size_t got = pgnkit_game_node_comments(g, ply, want, texts);
            for (size_t i = got; i < want; i++) /* a tree shorter than the mainline */
                texts[i] = (pgnkit_str){NULL, 0};
        }
        PyObject *move = new_move((HandleObject *)*handle, ply, texts[k]);
        if (!move)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)ply - 1, move);
    }
    return list;
}

PyObject *pgnkit_py_game_comment(pgnkit_game *g) { return text_or_none(pgnkit_game_comment(g)); }

int pgnkit_py_moves_init(PyObject *m)
{
    if (PyType_Ready(&HandleType) < 0 || PyType_Ready(&MoveType) < 0)
        return -1;
    return PyModule_AddObjectRef(m, "Move", (PyObject *)&MoveType);
}
