/*
 * pgnkitmodule.c - the Python module `pgnkit`, a thin CPython extension over the public C
 * API (pgnkit.h): every answer comes from the same reader and replayer as the CLI's.
 *
 *   for game in pgnkit.read("games.pgn.zst"):
 *       game.tags, game.uci, game.san, game.fens(), game.diagnostics, game.clocks, ...
 *   for verdict in pgnkit.check("games.pgn"): verdict.status, verdict.diagnostics
 *
 * Parsing and replaying run with the GIL released; a Game owns a detached copy of its
 * game (pgnkit_game_detach) and builds each attribute on first use.  I/O errors raise
 * OSError; problems in games are data (Game.diagnostics), never exceptions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "pgnkit/pgnkit.h"
#include "moves.h"
#include "board.h"
#include "columns.h"

static PyObject *diagnostic_type; /* collections.namedtuple, made at import */
static PyObject *verdict_type;

/* ---- Game ---- */

typedef struct {
    PyObject_HEAD
    pgnkit_game *game;
    int ep_legal; /* the reader's ep convention, for fens() without ep= */
    PyObject *tags, *uci, *san, *diagnostics, *clocks, *evals; /* built on first use */
    PyObject *moves;                                           /* moves.c, on first use */
    PyObject *handle; /* with moves: owns game, shared with the Moves (moves.h) */
} GameObject;

static void game_dealloc(GameObject *self)
{
    Py_XDECREF(self->tags);
    Py_XDECREF(self->uci);
    Py_XDECREF(self->san);
    Py_XDECREF(self->diagnostics);
    Py_XDECREF(self->clocks);
    Py_XDECREF(self->evals);
    Py_XDECREF(self->moves);
    if (self->handle) /* the game is its Moves' too: freed with the last of them */
        Py_DECREF(self->handle);
    else
        pgnkit_game_free(self->game);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Length of the valid UTF-8 sequence at p[0..n), or 0 when none starts there. */
static size_t utf8_sequence(const unsigned char *p, size_t n)
{
    size_t len = p[0] < 0x80 ? 1 : p[0] >= 0xc2 && p[0] <= 0xdf ? 2
               : p[0] >= 0xe0 && p[0] <= 0xef ? 3 : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
    if (!len || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f) ||
        (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] > 0x8f))
        return 0; /* overlong, surrogate, past U+10FFFF */
    return len;
}

/* Text as the CLI's JSON reads it: valid UTF-8 as it is, any other byte as Latin-1. */
static PyObject *decode_text(const char *s, size_t len)
{
    PyObject *fast = PyUnicode_DecodeUTF8(s, (Py_ssize_t)len, NULL);
    if (fast || !PyErr_ExceptionMatches(PyExc_UnicodeDecodeError))
        return fast;
    PyErr_Clear();
    Py_UCS4 *chars = PyMem_Malloc((len + 1) * sizeof *chars);
    if (!chars)
        return PyErr_NoMemory();
    const unsigned char *p = (const unsigned char *)s;
    size_t count = 0;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_sequence(p + i, len - i);
        if (!n) {
            chars[count++] = p[i++];
            continue;
        }
        Py_UCS4 c = n == 1 ? p[i] : (Py_UCS4)(p[i] & (0x7f >> n));
        for (size_t k = 1; k < n; k++)
            c = (c << 6) | (p[i + k] & 0x3f);
        chars[count++] = c;
        i += n;
    }
    PyObject *str = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, chars, (Py_ssize_t)count);
    PyMem_Free(chars);
    return str;
}

/* decode_text for columns.c (game.tags and the columns decode alike). */
PyObject *pgnkit_py_decode_text(const char *s, size_t len);
PyObject *pgnkit_py_decode_text(const char *s, size_t len) { return decode_text(s, len); }

static PyObject *str_or_none(pgnkit_str s)
{
    if (!s.ptr)
        Py_RETURN_NONE;
    return decode_text(s.ptr, s.len);
}

/* A cached attribute: built once by make(), then shared.  Building calls into Python,
 * where another thread may build it too: the first one stored is kept. */
static PyObject *cached(PyObject **slot, PyObject *(*make)(pgnkit_game *), pgnkit_game *g)
{
    if (!*slot) {
        PyObject *made = make(g);
        if (!made || *slot)
            return made;
        *slot = made;
    }
    return Py_NewRef(*slot);
}

static PyObject *make_tags(pgnkit_game *g)
{
    PyObject *dict = PyDict_New();
    for (size_t i = 0; dict && i < pgnkit_game_tag_count(g); i++) {
        pgnkit_str name, value;
        pgnkit_game_tag(g, i, &name, &value);
        PyObject *k = str_or_none(name), *v = str_or_none(value);
        int rc = k && v ? PyDict_SetItem(dict, k, v) : -1;
        Py_XDECREF(k);
        Py_XDECREF(v);
        if (rc < 0)
            Py_CLEAR(dict);
    }
    return dict;
}

/* A list of n items, item i made by item(g, i); NULL (exception set) when one fails. */
typedef PyObject *(*item_maker)(pgnkit_game *g, size_t i);

static PyObject *list_of(pgnkit_game *g, size_t n, item_maker item)
{
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *v = item(g, i);
        if (!v) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, v);
    }
    return list;
}

static PyObject *uci_item(pgnkit_game *g, size_t i)
{
    char text[PGNKIT_UCI_MAX];
    size_t len = pgnkit_game_uci(g, i + 1, text);
    return PyUnicode_FromStringAndSize(text, (Py_ssize_t)len);
}

static PyObject *san_item(pgnkit_game *g, size_t i)
{
    char text[PGNKIT_SAN_MAX];
    size_t len = pgnkit_game_san(g, i + 1, text);
    return PyUnicode_FromStringAndSize(text, (Py_ssize_t)len);
}

/* The FEN after ply i (0: the start position), in one e.p. convention or the other. */
static PyObject *fen_text(pgnkit_game *g, size_t i, int ep_legal)
{
    char fen[PGNKIT_FEN_MAX];
    size_t len = pgnkit_game_fen_ep(g, i, fen, ep_legal);
    return PyUnicode_FromStringAndSize(fen, (Py_ssize_t)len);
}
static PyObject *fen_item_standard(pgnkit_game *g, size_t i) { return fen_text(g, i, 0); }
static PyObject *fen_item_legal(pgnkit_game *g, size_t i) { return fen_text(g, i, 1); }

/* ep=None (the default), "standard" or "legal" into *ep_legal; -1 and ValueError else. */
static int parse_ep(PyObject *ep, int *ep_legal)
{
    if (!ep || ep == Py_None)
        return 0;
    if (PyUnicode_Check(ep) && PyUnicode_CompareWithASCIIString(ep, "standard") == 0)
        *ep_legal = 0;
    else if (PyUnicode_Check(ep) && PyUnicode_CompareWithASCIIString(ep, "legal") == 0)
        *ep_legal = 1;
    else {
        PyErr_Format(PyExc_ValueError, "ep must be \"standard\" or \"legal\", not %R", ep);
        return -1;
    }
    return 0;
}

static PyObject *clock_item(pgnkit_game *g, size_t i)
{
    double seconds;
    if (pgnkit_game_clock(g, i + 1, &seconds))
        return PyFloat_FromDouble(seconds);
    return Py_NewRef(Py_None);
}

/* An eval as a float in pawns, or a str "#3" / "#-2" for a mate. */
static PyObject *eval_item(pgnkit_game *g, size_t i)
{
    pgnkit_eval e;
    if (!pgnkit_game_eval(g, i + 1, &e))
        return Py_NewRef(Py_None);
    if (e.is_mate)
        return PyUnicode_FromFormat("#%d", e.mate_in);
    return PyFloat_FromDouble(e.pawns);
}

/* "e2e4 e7e5" -> ["e2e4", "e7e5"] */
static PyObject *candidate_list(const char *text)
{
    PyObject *s = PyUnicode_FromString(text);
    if (!s)
        return NULL;
    PyObject *list = PyUnicode_Split(s, NULL, -1);
    Py_DECREF(s);
    return list;
}

static PyObject *diagnostic_item(pgnkit_game *g, size_t i)
{
    pgnkit_diagnostic d;
    pgnkit_game_diagnostic(g, i, &d);
    PyObject *candidates = candidate_list(d.candidates);
    if (!candidates)
        return NULL;
    return PyObject_CallFunction(diagnostic_type, "KKIssNNNs", (unsigned long long)d.line,
                                 (unsigned long long)d.col, (unsigned)d.ply, d.code,
                                 d.is_error ? "error" : "warning",
                                 decode_text(d.message, strlen(d.message)), candidates,
                                 decode_text(d.san, strlen(d.san)), d.fen);
}

static PyObject *make_uci(pgnkit_game *g) { return list_of(g, pgnkit_game_ply_count(g), uci_item); }
static PyObject *make_san(pgnkit_game *g) { return list_of(g, pgnkit_game_ply_count(g), san_item); }
static PyObject *make_clocks(pgnkit_game *g)
{
    return list_of(g, pgnkit_game_ply_count(g), clock_item);
}
static PyObject *make_evals(pgnkit_game *g)
{
    return list_of(g, pgnkit_game_ply_count(g), eval_item);
}
static PyObject *make_diagnostics(pgnkit_game *g)
{
    return list_of(g, pgnkit_game_diagnostic_count(g), diagnostic_item);
}

#define CACHED_GETTER(field)                                                                   \
    static PyObject *game_get_##field(GameObject *self, void *closure)                        \
    {                                                                                          \
        (void)closure;                                                                         \
        return cached(&self->field, make_##field, self->game);                                \
    }
CACHED_GETTER(tags)
CACHED_GETTER(uci)
CACHED_GETTER(san)
CACHED_GETTER(diagnostics)
CACHED_GETTER(clocks)
CACHED_GETTER(evals)

static PyObject *game_get_moves(GameObject *self, void *c)
{
    (void)c;
    if (!self->moves)
        self->moves = pgnkit_py_moves(self->game, &self->handle);
    return Py_XNewRef(self->moves);
}
static PyObject *game_get_comment(GameObject *self, void *c)
{
    (void)c;
    return pgnkit_py_game_comment(self->game);
}
static PyObject *game_get_result(GameObject *self, void *c)
{
    (void)c;
    return str_or_none(pgnkit_game_result(self->game));
}
static PyObject *game_get_ending(GameObject *self, void *c)
{
    (void)c;
    return PyUnicode_FromString(pgnkit_ending_name(pgnkit_game_ending(self->game)));
}
static PyObject *game_get_status(GameObject *self, void *c)
{
    (void)c;
    return PyUnicode_FromString(pgnkit_status_name(pgnkit_game_status(self->game)));
}
static PyObject *game_get_file(GameObject *self, void *c)
{
    (void)c;
    return PyUnicode_DecodeFSDefault(pgnkit_game_file(self->game));
}
static PyObject *game_get_member(GameObject *self, void *c)
{
    (void)c;
    const char *member = pgnkit_game_member(self->game);
    if (!member)
        Py_RETURN_NONE;
    return PyUnicode_DecodeFSDefault(member);
}
#define U64_GETTER(name, fn)                                                                   \
    static PyObject *game_get_##name(GameObject *self, void *c)                               \
    {                                                                                          \
        (void)c;                                                                               \
        return PyLong_FromUnsignedLongLong((unsigned long long)fn(self->game));               \
    }
U64_GETTER(index, pgnkit_game_index)
U64_GETTER(offset, pgnkit_game_offset)
U64_GETTER(bytes, pgnkit_game_bytes)
U64_GETTER(line, pgnkit_game_line)
U64_GETTER(error_ply, pgnkit_game_error_ply)

static PyObject *game_fens(GameObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {(char *)"ep", NULL};
    PyObject *ep = NULL;
    int ep_legal = self->ep_legal;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$O", keywords, &ep) ||
        parse_ep(ep, &ep_legal) < 0)
        return NULL;
    char fen[PGNKIT_FEN_MAX];
    if (!pgnkit_game_fen(self->game, 0, fen))
        return PyList_New(0); /* no start position (bad FEN, unsupported variant) */
    return list_of(self->game, pgnkit_game_ply_count(self->game) + 1,
                   ep_legal ? fen_item_legal : fen_item_standard);
}

/* The bytes of pgnkit_game_pgn: a detached game replays its input again on each call,
 * without the GIL (it reads only what the game never changes); one call when the first
 * guess of room is enough, a second with the size the first gave otherwise. */
static PyObject *game_to_pgn(GameObject *self, PyObject *unused)
{
    (void)unused;
    size_t cap = 16384, len;
    char *text = PyMem_RawMalloc(cap);
    if (!text)
        return PyErr_NoMemory();
    Py_BEGIN_ALLOW_THREADS
    len = pgnkit_game_pgn(self->game, text, cap);
    if (len > cap) {
        char *more = PyMem_RawRealloc(text, len);
        if (more) {
            text = more;
            cap = len;
            pgnkit_game_pgn(self->game, text, cap);
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *str = len > cap ? PyErr_NoMemory() : decode_text(text, len);
    PyMem_RawFree(text);
    return str;
}

static Py_ssize_t game_len(GameObject *self) { return (Py_ssize_t)pgnkit_game_ply_count(self->game); }

static PyObject *game_repr(GameObject *self)
{
    return PyUnicode_FromFormat("<pgnkit.Game %llu of %s: %zu plies, %s>",
                                (unsigned long long)pgnkit_game_index(self->game),
                                pgnkit_game_file(self->game), pgnkit_game_ply_count(self->game),
                                pgnkit_status_name(pgnkit_game_status(self->game)));
}

/* ---- pickling and equality ---- */

static PyObject *load_game_function; /* pgnkit._load_game, what pickles name */
static PyObject *new_game(pgnkit_game *g, int ep_legal);

/* pickle: (pgnkit._load_game, (the bytes of pgnkit_game_save, the ep convention)). */
static PyObject *game_reduce(GameObject *self, PyObject *unused)
{
    (void)unused;
    size_t len = pgnkit_game_save(self->game, NULL, 0);
    PyObject *data = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len);
    if (!data)
        return NULL;
    pgnkit_game_save(self->game, PyBytes_AS_STRING(data), len);
    return Py_BuildValue("O(Ni)", load_game_function, data, self->ep_legal);
}

static PyObject *module_load_game(PyObject *module, PyObject *args)
{
    (void)module;
    Py_buffer data;
    int ep_legal;
    if (!PyArg_ParseTuple(args, "y*p", &data, &ep_legal))
        return NULL;
    pgnkit_error err = {0, ""};
    pgnkit_game *g = pgnkit_game_load(data.buf, (size_t)data.len, &err);
    PyBuffer_Release(&data);
    if (!g) {
        PyErr_SetString(PyExc_ValueError, err.message);
        return NULL;
    }
    return new_game(g, ep_legal);
}

/* What two equal games share: every attribute, and the FENs in the game's convention. */
static PyObject *game_key(PyObject *self)
{
    static const char *const names[] = {"tags", "uci", "san", "diagnostics", "clocks",
                                        "evals", "result", "ending", "status", "file",
                                        "member", "index", "offset", "bytes", "line",
                                        "error_ply"};
    size_t n = sizeof names / sizeof *names;
    PyObject *key = PyTuple_New((Py_ssize_t)n + 1);
    for (size_t i = 0; key && i <= n; i++) {
        PyObject *v = i < n ? PyObject_GetAttrString(self, names[i])
                            : PyObject_CallMethod(self, "fens", NULL);
        if (!v)
            Py_CLEAR(key);
        else
            PyTuple_SET_ITEM(key, (Py_ssize_t)i, v);
    }
    return key;
}

static PyObject *game_richcompare(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, Py_TYPE(a)))
        Py_RETURN_NOTIMPLEMENTED;
    if (a == b)
        return PyBool_FromLong(op == Py_EQ);
    PyObject *ka = game_key(a), *kb = ka ? game_key(b) : NULL;
    PyObject *result = kb ? PyObject_RichCompare(ka, kb, op) : NULL;
    Py_XDECREF(ka);
    Py_XDECREF(kb);
    return result;
}

/* Equal games are at the same place of the same input with the same moves. */
static Py_hash_t game_hash(GameObject *self)
{
    PyObject *uci = game_get_uci(self, NULL);
    PyObject *key = uci ? Py_BuildValue("(sKKN)", pgnkit_game_file(self->game),
                                        (unsigned long long)pgnkit_game_index(self->game),
                                        (unsigned long long)pgnkit_game_offset(self->game),
                                        PyList_AsTuple(uci))
                        : NULL;
    Py_XDECREF(uci);
    Py_hash_t h = key ? PyObject_Hash(key) : -1;
    Py_XDECREF(key);
    return h;
}

static PyGetSetDef game_getset[] = {
    {"tags", (getter)game_get_tags, NULL, "the tag pairs, a dict in file order", NULL},
    {"uci", (getter)game_get_uci, NULL, "the mainline as UCI moves (list of str)", NULL},
    {"san", (getter)game_get_san, NULL, "the mainline as canonical SAN (list of str)", NULL},
    {"diagnostics", (getter)game_get_diagnostics, NULL, "list of pgnkit.Diagnostic", NULL},
    {"clocks", (getter)game_get_clocks, NULL, "seconds from [%clk] per ply, or None", NULL},
    {"evals", (getter)game_get_evals, NULL, "[%eval] per ply: pawns (float), '#N', or None",
     NULL},
    {"moves", (getter)game_get_moves, NULL,
     "the mainline as pgnkit.Move objects (comments, NAGs, variations: see pgnkit.Move)",
     NULL},
    {"comment", (getter)game_get_comment, NULL, "the comment before the first move, or None",
     NULL},
    {"result", (getter)game_get_result, NULL, "the termination marker written, or None", NULL},
    {"ending", (getter)game_get_ending, NULL,
     "'none', 'checkmate', 'stalemate', or a variant's own: 'king-exploded', 'king-of-the-hill',"
     " 'three-checks', 'racing-kings', 'horde-wiped-out', 'antichess', 'insufficient'",
     NULL},
    {"status", (getter)game_get_status, NULL, "'ok', 'warnings', 'errors' or 'skipped'", NULL},
    {"file", (getter)game_get_file, NULL,
     "the input's name; in an archive, \"archive:member\" as the CLI says", NULL},
    {"member", (getter)game_get_member, NULL, "the archive member it is in, or None", NULL},
    {"index", (getter)game_get_index, NULL, "1-based index of the game in its input", NULL},
    {"offset", (getter)game_get_offset, NULL, "byte offset of the game in its input", NULL},
    {"bytes", (getter)game_get_bytes, NULL, "bytes the game spans", NULL},
    {"line", (getter)game_get_line, NULL, "line of the game's first byte", NULL},
    {"error_ply", (getter)game_get_error_ply, NULL, "ply of the error that stopped it, or 0",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef game_methods[] = {
    {"fens", (PyCFunction)(void (*)(void))game_fens, METH_VARARGS | METH_KEYWORDS,
     "fens(*, ep=None) -> list of str: the start position's FEN, then the FEN after each\n"
     "ply.  ep: \"standard\" (the square after every double push) or \"legal\" (only when\n"
     "a legal e.p. capture exists, as python-chess's board.fen()); None: the reader's."},
    {"to_pgn", (PyCFunction)game_to_pgn, METH_NOARGS,
     "to_pgn() -> str: the game as `pgnkit pgn` writes it (the same bytes, its blank\n"
     "line after it; \"\" for a game skipped unread); read(variations=False) drops\n"
     "variations as `pgnkit pgn --no-variations` does."},
    {"__reduce__", (PyCFunction)game_reduce, METH_NOARGS,
     "pickle support: a game pickles as the bytes of pgnkit_game_save (same pgnkit version)"},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods game_as_sequence = {.sq_length = (lenfunc)game_len};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pgnkit.Game",
    .tp_doc = "One game as read and replayed (pgnkit.read yields them).",
    .tp_basicsize = sizeof(GameObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)game_dealloc,
    .tp_repr = (reprfunc)game_repr,
    .tp_richcompare = game_richcompare,
    .tp_hash = (hashfunc)game_hash,
    .tp_getset = game_getset,
    .tp_methods = game_methods,
    .tp_as_sequence = &game_as_sequence,
};

/* A Game owning g (freed with it, also when this fails). */
static PyObject *new_game(pgnkit_game *g, int ep_legal)
{
    GameObject *obj = PyObject_New(GameObject, &GameType);
    if (!obj) {
        pgnkit_game_free(g);
        return NULL;
    }
    obj->game = g;
    obj->ep_legal = ep_legal;
    obj->tags = obj->uci = obj->san = obj->diagnostics = obj->clocks = obj->evals = NULL;
    obj->moves = obj->handle = NULL;
    return (PyObject *)obj;
}

/* ---- Reader: the iterator pgnkit.read and pgnkit.check return ---- */

typedef struct {
    PyObject_HEAD
    pgnkit_reader *reader;
    int owned_fd;      /* a dup of a file object's descriptor, closed with the reader */
    PyObject *data;    /* the bytes a memory reader reads, kept alive */
    int verdicts_only; /* pgnkit.check: yield Verdicts, not Games */
    int busy;          /* a thread is inside __next__ (reading the reader's state) */
    int ep_legal;       /* ep="legal": PGNKIT_EP_LEGAL */
} ReaderObject;

static void reader_release(ReaderObject *self)
{
    pgnkit_close(self->reader);
    self->reader = NULL;
    if (self->owned_fd >= 0)
        close(self->owned_fd);
    self->owned_fd = -1;
    Py_CLEAR(self->data);
}

static void reader_dealloc(ReaderObject *self)
{
    reader_release(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *raise_error(const pgnkit_error *err)
{
    int code = err->code ? err->code : EIO;
    PyObject *exc = PyObject_CallFunction(PyExc_OSError, "is", code, err->message);
    if (exc) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
    return NULL;
}

static PyObject *make_verdict(pgnkit_game *g)
{
    PyObject *diags = make_diagnostics(g);
    if (!diags)
        return NULL;
    return PyObject_CallFunction(verdict_type, "NKKKsKN", PyUnicode_DecodeFSDefault(pgnkit_game_file(g)),
                                 (unsigned long long)pgnkit_game_index(g),
                                 (unsigned long long)pgnkit_game_offset(g),
                                 (unsigned long long)pgnkit_game_line(g),
                                 pgnkit_status_name(pgnkit_game_status(g)),
                                 (unsigned long long)pgnkit_game_ply_count(g), diags);
}

/* The item for the reader's current game: a Verdict built from the reader's own game,
 * or a Game owning the detached copy.  Called with the reader still marked busy: both
 * call into Python, which may pass the GIL to another thread. */
static PyObject *reader_item(ReaderObject *self, pgnkit_game *game, pgnkit_game *owned)
{
    if (self->verdicts_only)
        return make_verdict(game);
    return new_game(owned, self->ep_legal);
}

/*
 * The reader is marked busy from the moment next() starts until the item is built: the
 * reader's game is read while Python code runs (namedtuple, allocations), and the GIL
 * can pass to a thread calling next() or close() on the same reader, which then raise
 * RuntimeError rather than replacing or freeing the game being read.
 */
static PyObject *reader_next(ReaderObject *self)
{
    if (!self->reader)
        return NULL; /* closed or finished: StopIteration */
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this pgnkit reader is in use by another thread");
        return NULL;
    }
    self->busy = 1;
    pgnkit_game *game = NULL, *owned = NULL;
    pgnkit_error err = {0, ""};
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = pgnkit_next(self->reader, &game, &err);
    if (rc == 1 && !self->verdicts_only)
        owned = pgnkit_game_detach(game);
    Py_END_ALLOW_THREADS
    PyObject *item = NULL;
    if (rc <= 0) {
        reader_release(self);
        if (rc < 0)
            raise_error(&err);
    } else {
        item = reader_item(self, game, owned);
    }
    self->busy = 0;
    return item;
}

static PyObject *reader_close(ReaderObject *self, PyObject *unused)
{
    (void)unused;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this pgnkit reader is in use by another thread");
        return NULL;
    }
    reader_release(self);
    Py_RETURN_NONE;
}

static PyObject *reader_enter(ReaderObject *self, PyObject *unused)
{
    (void)unused;
    return Py_NewRef(self);
}

static PyObject *reader_exit(ReaderObject *self, PyObject *args)
{
    (void)args;
    return reader_close(self, NULL);
}

static PyMethodDef reader_methods[] = {
    {"close", (PyCFunction)reader_close, METH_NOARGS, "close the input"},
    {"__enter__", (PyCFunction)reader_enter, METH_NOARGS, NULL},
    {"__exit__", (PyCFunction)reader_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ReaderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pgnkit.Reader",
    .tp_doc = "An iterator over the games of one input (see pgnkit.read).",
    .tp_basicsize = sizeof(ReaderObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = (destructor)reader_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)reader_next,
    .tp_methods = reader_methods,
};

/* ---- pgnkit.read / pgnkit.check ---- */

/* Open source: a path (str, bytes, os.PathLike), a file object with fileno(), or any
 * object with read() returning bytes (read whole). */
static int open_source(ReaderObject *r, PyObject *source, const pgnkit_options *opts)
{
    pgnkit_error err = {0, ""};
    if (PyUnicode_Check(source) || PyBytes_Check(source) || PyObject_HasAttrString(source, "__fspath__")) {
        PyObject *path = NULL;
        if (!PyUnicode_FSConverter(source, &path))
            return -1;
        Py_BEGIN_ALLOW_THREADS
        r->reader = pgnkit_open_path(PyBytes_AS_STRING(path), opts, &err);
        Py_END_ALLOW_THREADS
        if (!r->reader) {
            errno = err.code;
            PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, source);
        }
        Py_DECREF(path);
        return r->reader ? 0 : -1;
    }
    PyObject *name = PyObject_GetAttrString(source, "name");
    PyErr_Clear();
    PyObject *name_str = name ? PyObject_Str(name) : PyUnicode_FromString("<file>");
    Py_XDECREF(name);
    if (!name_str)
        return -1;
    const char *cname = PyUnicode_AsUTF8(name_str);
    int rc = -1;
    if (PyObject_HasAttrString(source, "fileno")) {
        PyObject *fd_obj = PyObject_CallMethod(source, "fileno", NULL);
        int fd = fd_obj ? PyObject_AsFileDescriptor(fd_obj) : -1;
        Py_XDECREF(fd_obj);
        if (fd >= 0 && (r->owned_fd = dup(fd)) >= 0)
            r->reader = pgnkit_open_fd(r->owned_fd, cname, opts, &err);
        else if (fd >= 0)
            PyErr_SetFromErrno(PyExc_OSError);
        else
            PyErr_Clear(); /* io.BytesIO has fileno() but no descriptor: read it */
        if (r->reader || PyErr_Occurred()) {
            rc = r->reader ? 0 : -1;
            Py_DECREF(name_str);
            return rc;
        }
    }
    r->data = PyObject_CallMethod(source, "read", NULL);
    if (r->data && !PyBytes_Check(r->data)) {
        PyErr_SetString(PyExc_TypeError, "pgnkit.read wants a path or a binary file");
        Py_CLEAR(r->data);
    }
    if (r->data) {
        r->reader = pgnkit_open_memory(PyBytes_AS_STRING(r->data),
                                       (size_t)PyBytes_GET_SIZE(r->data), cname, opts, &err);
        rc = r->reader ? 0 : (raise_error(&err), -1);
    }
    Py_DECREF(name_str);
    return rc;
}

/* ---- the selection options: the CLI's, through pgnkit_reader_option ---- */

/* The keyword arguments naming a selection option (the flags last, from FIRST_FLAG). */
enum { SELECT_KEYWORDS = 16, FIRST_FLAG = 11 };
static const char *const select_names[SELECT_KEYWORDS] = {
    "encoding", "where", "player", "result", "ending", "plies", "has", "reaches",
    "occurs", "material", "moves", "invert", "classify", "dedupe", "skip-invalid",
    "in-variations",
};

static int value_error(const pgnkit_error *err)
{
    PyErr_SetString(PyExc_ValueError, err->message);
    return -1;
}

/* An option's error: its whole message (err->message may be cut). */
static int option_error(pgnkit_reader *r)
{
    PyErr_SetString(PyExc_ValueError, pgnkit_reader_message(r));
    return -1;
}

/* One option's str value. */
static int set_option(pgnkit_reader *r, const char *name, PyObject *value)
{
    if (!PyUnicode_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s= wants a str, not %.80s", name,
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    const char *text = PyUnicode_AsUTF8(value);
    pgnkit_error err = {0, ""};
    if (!text)
        return -1;
    return pgnkit_reader_option(r, name, text, &err) != 0 ? option_error(r) : 0;
}

/* A str, or a list or tuple of str: each item once (where=) or joined by commas. */
static int set_option_list(pgnkit_reader *r, const char *name, PyObject *value, int each)
{
    if (PyUnicode_Check(value))
        return set_option(r, name, value);
    if (!PyList_Check(value) && !PyTuple_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s= wants a str or a list of str, not %.80s", name,
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    int rc = 0;
    Py_ssize_t n = PySequence_Size(value);
    if (each) {
        for (Py_ssize_t i = 0; i < n && rc == 0; i++)
            rc = set_option(r, name, PySequence_Fast_GET_ITEM(value, i));
        return rc;
    }
    PyObject *comma = PyUnicode_FromString(",");
    PyObject *joined = comma ? PyUnicode_Join(comma, value) : NULL;
    rc = joined ? set_option(r, name, joined) : -1;
    Py_XDECREF(joined);
    Py_XDECREF(comma);
    return rc;
}

/* values[i] is select_names[i]'s keyword argument (NULL or None when not given). */
static int set_options(pgnkit_reader *r, PyObject *const *values)
{
    pgnkit_error err = {0, ""};
    for (int i = 0; i < SELECT_KEYWORDS; i++) {
        PyObject *v = values[i];
        const char *name = select_names[i];
        if (!v || v == Py_None)
            continue;
        if (i >= FIRST_FLAG) {
            int on = PyObject_IsTrue(v);
            if (on < 0)
                return -1;
            if (on && pgnkit_reader_option(r, name, "1", &err) != 0)
                return option_error(r);
            continue;
        }
        int each = !strcmp(name, "where");
        int listed = each || !strcmp(name, "result") || !strcmp(name, "ending") ||
                     !strcmp(name, "has") || !strcmp(name, "occurs") ||
                     !strcmp(name, "material");
        if ((listed ? set_option_list(r, name, v, each) : set_option(r, name, v)) != 0)
            return -1;
    }
    return pgnkit_reader_check_options(r, &err) != 0 ? option_error(r) : 0;
}

/* range=(start, end): a reader over those bytes of the file at source (a path). */
static int open_range(ReaderObject *r, PyObject *source, PyObject *range,
                      const pgnkit_options *opts)
{
    unsigned long long start = 0, end = UINT64_MAX;
    PyObject *start_obj, *end_obj;
    if (!PyTuple_Check(range) || PyTuple_GET_SIZE(range) != 2) {
        PyErr_SetString(PyExc_TypeError,
                        "range= wants (start, end): byte offsets, end None for the file's end");
        return -1;
    }
    start_obj = PyTuple_GET_ITEM(range, 0);
    end_obj = PyTuple_GET_ITEM(range, 1);
    start = PyLong_AsUnsignedLongLong(start_obj);
    if (PyErr_Occurred())
        return -1;
    if (end_obj != Py_None && (end = PyLong_AsUnsignedLongLong(end_obj), PyErr_Occurred()))
        return -1;
    if (!PyUnicode_Check(source) && !PyBytes_Check(source) &&
        !PyObject_HasAttrString(source, "__fspath__")) {
        PyErr_SetString(PyExc_TypeError, "range= needs a path: only a file can be cut at bytes");
        return -1;
    }
    PyObject *path = NULL;
    if (!PyUnicode_FSConverter(source, &path))
        return -1;
    pgnkit_error err = {0, ""};
    Py_BEGIN_ALLOW_THREADS
    r->reader = pgnkit_open_range(PyBytes_AS_STRING(path), start, end, opts, &err);
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (r->reader)
        return 0;
    if (err.code == EINVAL)
        return value_error(&err);
    raise_error(&err);
    return -1;
}

static PyObject *open_reader(PyObject *args, PyObject *kwargs, int verdicts_only)
{
    /* PyArg_ParseTupleAndKeywords takes char *[] before Python 3.13. */
    static char *keywords[] = {(char *)"source", (char *)"strict", (char *)"lenient",
                               (char *)"variations", (char *)"king_takes_rook",
                               (char *)"max_game_bytes", (char *)"ep", (char *)"range",
                               (char *)"encoding", (char *)"where", (char *)"player",
                               (char *)"result", (char *)"ending", (char *)"plies",
                               (char *)"has", (char *)"reaches", (char *)"occurs",
                               (char *)"material", (char *)"moves", (char *)"invert",
                               (char *)"classify", (char *)"dedupe", (char *)"skip_invalid",
                               (char *)"in_variations", NULL};
    PyObject *source, *ep = NULL, *range = NULL;
    PyObject *select[SELECT_KEYWORDS] = {NULL};
    int strict = 0, lenient = 0, variations = 1, ktr = 0;
    unsigned long long max_game_bytes = 0;
    int ep_legal = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$ppppKOOOOOOOOOOOOOOOOOO", keywords,
                                     &source, &strict, &lenient, &variations, &ktr,
                                     &max_game_bytes, &ep, &range, &select[0], &select[1],
                                     &select[2], &select[3], &select[4], &select[5],
                                     &select[6], &select[7], &select[8], &select[9],
                                     &select[10], &select[11], &select[12], &select[13],
                                     &select[14], &select[15]) ||
        parse_ep(ep, &ep_legal) < 0)
        return NULL;
    pgnkit_options opts;
    pgnkit_options_init(&opts);
    opts.flags = (strict ? PGNKIT_STRICT : 0) | (lenient ? PGNKIT_LENIENT : 0) |
                 (variations ? 0 : PGNKIT_NO_VARIATIONS) | (ktr ? PGNKIT_KING_TAKES_ROOK : 0) |
                 (ep_legal ? PGNKIT_EP_LEGAL : 0);
    opts.max_game_bytes = (size_t)max_game_bytes;
    ReaderObject *r = PyObject_New(ReaderObject, &ReaderType);
    if (!r)
        return NULL;
    r->reader = NULL;
    r->owned_fd = -1;
    r->data = NULL;
    r->busy = 0;
    r->ep_legal = ep_legal;
    r->verdicts_only = verdicts_only;
    int rc = range && range != Py_None ? open_range(r, source, range, &opts)
                                       : open_source(r, source, &opts);
    if (rc != 0 || set_options(r->reader, select) != 0) {
        Py_DECREF(r);
        return NULL;
    }
    return (PyObject *)r;
}

static PyObject *module_read(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    return open_reader(args, kwargs, 0);
}

static PyObject *module_check(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    return open_reader(args, kwargs, 1);
}

/* columns(source, tags=("White", "Black", "Result"), **read's options): tags is taken
 * out of the keywords, the rest opens the source as read() does (columns.c reads it). */
static PyObject *module_columns(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    PyObject *tags = NULL, *rest = kwargs ? PyDict_Copy(kwargs) : PyDict_New();
    if (!rest)
        return NULL;
    tags = PyDict_GetItemString(rest, "tags"); /* borrowed, kept by kwargs */
    Py_XINCREF(tags);
    if (tags && PyDict_DelItemString(rest, "tags") < 0) {
        Py_DECREF(tags);
        Py_DECREF(rest);
        return NULL;
    }
    if (!tags)
        tags = Py_BuildValue("(sss)", "White", "Black", "Result");
    ReaderObject *r = tags ? (ReaderObject *)open_reader(args, rest, 0) : NULL;
    PyObject *result = r ? pgnkit_py_columns(r->reader, tags) : NULL;
    Py_XDECREF(r);
    Py_XDECREF(tags);
    Py_DECREF(rest);
    return result;
}

static PyMethodDef module_methods[] = {
    {"read", (PyCFunction)(void (*)(void))module_read, METH_VARARGS | METH_KEYWORDS,
     "read(source, *, strict=False, lenient=False, variations=True, king_takes_rook=False,\n"
     "     max_game_bytes=0, ep=\"standard\", encoding=None, where=None, player=None,\n"
     "     result=None, ending=None, plies=None, has=None, reaches=None, occurs=None,\n"
     "     material=None, moves=None, invert=False, classify=False, dedupe=False,\n"
     "     skip_invalid=False, range=None)\n"
     "     -> iterator of pgnkit.Game\n\n"
     "source: a path (gzip/zstd found by content), a binary file object, or an object\n"
     "whose read() returns bytes.  Raises OSError when the input cannot be read.\n"
     "ep=\"legal\": FENs name the e.p. square only when a legal e.p. capture exists (the\n"
     "CLI's --ep legal, python-chess's board.fen()); \"standard\": after every double push.\n\n"
     "Selection, as the CLI's options of the same names (only the games selected are\n"
     "yielded; game.index stays the input's): encoding= auto|utf-8|latin1|cp1252;\n"
     "where= 'TAG OP VALUE' or a list of them (ANDed, as repeated --where); player= a\n"
     "regex on White or Black; result=, ending=, has= a comma list or a list; plies=\n"
     "\"MIN:MAX\"; reaches= a FEN; occurs= facts anywhere on the mainline and\n"
     "material= signatures (KRPvKR, KQ+vK+), each a comma list or a list; in_variations=True:\n"
     "reaches= and material= also look at the variations' positions; moves= 'e4 e5\n"
     "Nf3' from the start ('... ' first: anywhere); invert=True yields the games rejected instead;\n"
     "classify=True names openings from the built-in book (ECO/Opening criteria read\n"
     "it); dedupe=True yields only the first of games with the same start and mainline;\n"
     "skip_invalid=True only the games without errors.  range=(start, end): the games\n"
     "starting in those bytes of a regular uncompressed file (end None: to its end), as\n"
     "--range START:END.  A bad value raises ValueError with the CLI's message."},

    {"check", (PyCFunction)(void (*)(void))module_check, METH_VARARGS | METH_KEYWORDS,
     "check(source, ...) -> iterator of pgnkit.Verdict(file, index, offset, line, status,\n"
     "plies, diagnostics): the verdicts only, faster than read()."},
    {"columns", (PyCFunction)(void (*)(void))module_columns, METH_VARARGS | METH_KEYWORDS,
     "columns(source, tags=(\"White\", \"Black\", \"Result\"), **read's options) -> dict\n"
     "of lists, one item per game: file, index, offset (the game's key), each tag asked\n"
     "for (None where missing), plies, uci (the mainline space-joined, as `pgnkit uci`\n"
     "writes it), status.  Read in C, no Game objects: for dataframes\n"
     "(pandas.DataFrame(pgnkit.columns(path))).  With numpy importable, index, offset and\n"
     "plies are numpy int64 arrays."},
    {"_load_game", (PyCFunction)module_load_game, METH_VARARGS,
     "_load_game(data, ep_legal) -> pgnkit.Game: what unpickling a Game calls"},
    {NULL, NULL, 0, NULL},
};

/* help(pgnkit); its example is run as a doctest by python/test_pgnkit.py. */
static const char module_doc[] =
    "Read PGN chess games fast: moves, positions, tags, diagnostics (libpgnkit).\n"
    "\n"
    "pgnkit.read(source, ...) yields pgnkit.Game objects from a path (gzip, zstd, bzip2,\n"
    "xz, zip/7z/tar archives found by content), a binary file or bytes; pgnkit.check()\n"
    "yields only the verdicts.  Problems in games are data (game.diagnostics), never\n"
    "exceptions; only I/O raises OSError.  Example:\n"
    "\n"
    "    >>> import io, pgnkit\n"
    "    >>> pgn = io.BytesIO(b'[White \"Greco\"]\\n\\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\\n')\n"
    "    >>> game = next(pgnkit.read(pgn, ep=\"legal\"))\n"
    "    >>> game.tags[\"White\"], game.san[-1], game.uci[-1], game.ending, game.result\n"
    "    ('Greco', 'Qxf7#', 'h5f7', 'checkmate', '1-0')\n"
    "    >>> game.fens()[1]  # after 1. e4: no e.p. square, as python-chess's board.fen()\n"
    "    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'\n"
    "    >>> game.fens(ep=\"standard\")[1]  # the PGN standard's: after every double push\n"
    "    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1'\n"
    "    >>> bad = next(pgnkit.read(io.BytesIO(b'1. e4 e5 2. Ke3 *\\n')))\n"
    "    >>> bad.status, bad.uci, [(d.code, d.ply, d.san) for d in bad.diagnostics]\n"
    "    ('errors', ['e2e4', 'e7e5'], [('ILLEGAL', 3, 'Ke3')])\n"
    "    >>> import pickle\n"
    "    >>> pickle.loads(pickle.dumps(game)) == game  # multiprocessing can return games\n"
    "    True\n"
    "\n"
    "One reader is one thread's at a time: next() or close() from another thread while\n"
    "it reads raises RuntimeError (use one reader per thread).  The whole guide:\n"
    "docs/python.md, installed as PREFIX/share/doc/pgnkit/python.md.\n";

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "pgnkit", module_doc, -1,
    module_methods, NULL, NULL, NULL, NULL,
};

static PyObject *namedtuple(const char *name, const char *fields)
{
    PyObject *collections = PyImport_ImportModule("collections");
    if (!collections)
        return NULL;
    PyObject *t = PyObject_CallMethod(collections, "namedtuple", "ss", name, fields);
    Py_DECREF(collections);
    PyObject *module_name = PyUnicode_FromString("pgnkit");
    if (t && (!module_name || PyObject_SetAttrString(t, "__module__", module_name) < 0))
        Py_CLEAR(t);
    Py_XDECREF(module_name);
    return t;
}

PyMODINIT_FUNC PyInit_pgnkit(void)
{
    if (PyType_Ready(&GameType) < 0 || PyType_Ready(&ReaderType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    diagnostic_type = namedtuple("Diagnostic", "line col ply code severity message candidates san fen");
    verdict_type = namedtuple("Verdict", "file index offset line status plies diagnostics");
    if (!diagnostic_type || !verdict_type ||
        PyModule_AddObjectRef(m, "Diagnostic", diagnostic_type) < 0 ||
        PyModule_AddObjectRef(m, "Verdict", verdict_type) < 0 ||
        PyModule_AddObjectRef(m, "Game", (PyObject *)&GameType) < 0 ||
        PyModule_AddObjectRef(m, "Reader", (PyObject *)&ReaderType) < 0 ||
        pgnkit_py_moves_init(m) < 0 ||
        pgnkit_py_board_init(m) < 0 ||
        PyModule_AddStringConstant(m, "__version__", pgnkit_version()) < 0 ||
        !(load_game_function = PyObject_GetAttrString(m, "_load_game"))) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
