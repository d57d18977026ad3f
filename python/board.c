/*
 * board.c - pgnkit.Board: a position (FEN or the start, standard chess, Chess960 or a
 * lichess variant) that plays SAN and UCI moves and answers python-chess's questions:
 * legal moves, FEN, piece on a square, check, mate, stalemate.  A thin layer over the C
 * API's pgnkit_board_*: every answer is the library's.  A move that cannot be played
 * raises pgnkit.MoveError (a ValueError) with the diagnostic code and the candidates.
 */
#include "board.h"

#include <errno.h>

#include "pgnkit/pgnkit.h"

typedef struct {
    PyObject_HEAD
    pgnkit_board *board;
} BoardObject;

static PyTypeObject BoardType;
static PyObject *move_error_type; /* pgnkit.MoveError */

/* Text from the library, which may hold a user's bytes (a garbage SAN in a message). */
static PyObject *text(const char *s)
{
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

/* Raise pgnkit.MoveError(message) with .code and .candidates (list of UCI) set. */
static PyObject *raise_move_error(const pgnkit_move_error *err)
{
    PyObject *candidates = PyList_New(0);
    for (size_t i = 0; candidates && i < err->candidate_count; i++) {
        PyObject *uci = PyUnicode_FromString(err->candidates[i]);
        if (!uci || PyList_Append(candidates, uci) < 0)
            Py_CLEAR(candidates);
        Py_XDECREF(uci);
    }
    PyObject *message = text(err->error.message);
    PyObject *code = PyUnicode_FromString(err->code);
    PyObject *exc = candidates && message && code
                        ? PyObject_CallFunctionObjArgs(move_error_type, message, NULL)
                        : NULL;
    if (exc && PyObject_SetAttrString(exc, "code", code) == 0 &&
        PyObject_SetAttrString(exc, "candidates", candidates) == 0)
        PyErr_SetObject(move_error_type, exc);
    Py_XDECREF(exc);
    Py_XDECREF(candidates);
    Py_XDECREF(message);
    Py_XDECREF(code);
    return NULL;
}

static PyObject *wrap(pgnkit_board *b)
{
    if (!b)
        return PyErr_NoMemory();
    BoardObject *self = PyObject_New(BoardObject, &BoardType);
    if (!self) {
        pgnkit_board_free(b);
        return NULL;
    }
    self->board = b;
    return (PyObject *)self;
}

static PyObject *board_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {(char *)"fen", (char *)"variant", NULL};
    const char *fen = NULL, *variant = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|zz:Board", keywords, &fen, &variant))
        return NULL;
    pgnkit_error err;
    pgnkit_board *b = pgnkit_board_new(fen, variant, &err);
    if (!b) {
        PyObject *message = text(err.message);
        if (message)
            PyErr_SetObject(PyExc_ValueError, message);
        Py_XDECREF(message);
        return NULL;
    }
    BoardObject *self = (BoardObject *)type->tp_alloc(type, 0);
    if (!self) {
        pgnkit_board_free(b);
        return NULL;
    }
    self->board = b;
    return (PyObject *)self;
}

static void board_dealloc(BoardObject *self)
{
    pgnkit_board_free(self->board);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* ep="standard" (the default) or "legal" into *ep_legal; -1 and ValueError else. */
static int ep_argument(PyObject *args, PyObject *kwargs, int *ep_legal)
{
    static char *keywords[] = {(char *)"ep", NULL};
    const char *ep = "standard";
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$s:fen", keywords, &ep))
        return -1;
    if (strcmp(ep, "standard") != 0 && strcmp(ep, "legal") != 0) {
        PyErr_Format(PyExc_ValueError, "ep must be \"standard\" or \"legal\", not '%s'", ep);
        return -1;
    }
    *ep_legal = ep[0] == 'l';
    return 0;
}

static PyObject *fen_of(BoardObject *self, int ep_legal)
{
    char fen[PGNKIT_BOARD_FEN_MAX];
    size_t len = pgnkit_board_fen(self->board, ep_legal, fen, sizeof fen);
    return PyUnicode_FromStringAndSize(fen, (Py_ssize_t)len);
}

static PyObject *board_fen(BoardObject *self, PyObject *args, PyObject *kwargs)
{
    int ep_legal;
    if (ep_argument(args, kwargs, &ep_legal) < 0)
        return NULL;
    return fen_of(self, ep_legal);
}

static PyObject *board_legal_moves(BoardObject *self, PyObject *unused)
{
    (void)unused;
    char moves[PGNKIT_BOARD_MOVES_MAX][PGNKIT_UCI_MAX];
    size_t n = pgnkit_board_legal_moves(self->board, moves, PGNKIT_BOARD_MOVES_MAX);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        PyObject *uci = PyUnicode_FromString(moves[i]);
        if (!uci)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, (Py_ssize_t)i, uci);
    }
    return list;
}

/* The UTF-8 of a move argument: NULL with TypeError when arg is no str, or with
 * MoveError SYNTAX when it holds a NUL (the C API would see only its start). */
static const char *move_text(PyObject *arg)
{
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "a move is a str, not %.100s", Py_TYPE(arg)->tp_name);
        return NULL;
    }
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(arg, &len);
    if (s && strlen(s) != (size_t)len) {
        pgnkit_move_error err = {.code = "SYNTAX", .error.code = EINVAL};
        snprintf(err.error.message, sizeof err.error.message, "a move holds no NUL character");
        raise_move_error(&err);
        return NULL;
    }
    return s;
}

static PyObject *board_push_san(BoardObject *self, PyObject *arg)
{
    const char *san = move_text(arg);
    if (!san)
        return NULL;
    char uci[PGNKIT_UCI_MAX];
    pgnkit_move_error err;
    if (pgnkit_board_push_san(self->board, san, uci, &err) != 0)
        return raise_move_error(&err);
    return PyUnicode_FromString(uci);
}

/* push_uci (play != 0) or san: the SAN of the move uci names. */
static PyObject *uci_to_san(BoardObject *self, PyObject *arg, int play)
{
    const char *uci = move_text(arg);
    if (!uci)
        return NULL;
    char san[PGNKIT_SAN_MAX];
    pgnkit_move_error err;
    int rc = play ? pgnkit_board_push_uci(self->board, uci, san, &err)
                  : pgnkit_board_san(self->board, uci, san, &err);
    if (rc != 0)
        return raise_move_error(&err);
    return PyUnicode_FromString(san);
}

static PyObject *board_push_uci(BoardObject *self, PyObject *arg) { return uci_to_san(self, arg, 1); }
static PyObject *board_san(BoardObject *self, PyObject *arg) { return uci_to_san(self, arg, 0); }

static PyObject *board_piece_at(BoardObject *self, PyObject *arg)
{
    long square = -1;
    if (PyUnicode_Check(arg)) {
        const char *name = PyUnicode_AsUTF8(arg);
        if (!name)
            return NULL;
        square = pgnkit_board_square(name);
    } else if (PyLong_Check(arg)) {
        square = PyLong_AsLong(arg);
        if (square == -1 && PyErr_Occurred())
            PyErr_Clear();
    } else {
        return PyErr_Format(PyExc_TypeError, "a square is a name (\"e4\") or 0..63, not %.100s",
                            Py_TYPE(arg)->tp_name);
    }
    int piece = square >= 0 && square < 64 ? pgnkit_board_piece_at(self->board, (int)square) : -1;
    if (piece < 0)
        return PyErr_Format(PyExc_ValueError, "no square %R (a1..h8 or 0..63)", arg);
    if (piece == 0)
        Py_RETURN_NONE;
    char letter = (char)piece;
    return PyUnicode_FromStringAndSize(&letter, 1);
}

static PyObject *board_is_check(BoardObject *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(pgnkit_board_is_check(self->board));
}

static PyObject *board_is_checkmate(BoardObject *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(pgnkit_board_is_checkmate(self->board));
}

static PyObject *board_is_stalemate(BoardObject *self, PyObject *unused)
{
    (void)unused;
    return PyBool_FromLong(pgnkit_board_is_stalemate(self->board));
}

static PyObject *board_copy(BoardObject *self, PyObject *unused)
{
    (void)unused;
    return wrap(pgnkit_board_copy(self->board));
}

static PyObject *board_turn(BoardObject *self, void *closure)
{
    (void)closure;
    char turn = pgnkit_board_turn(self->board);
    return PyUnicode_FromStringAndSize(&turn, 1);
}

static PyObject *board_variant(BoardObject *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(pgnkit_board_variant(self->board));
}

/* pickle: Board(fen, variant), the FEN in the PGN standard's e.p. convention (it keeps
 * the square, which the other convention may drop). */
static PyObject *board_reduce(BoardObject *self, PyObject *unused)
{
    (void)unused;
    PyObject *fen = fen_of(self, 0);
    if (!fen)
        return NULL;
    PyObject *result = Py_BuildValue("(O(Ns))", (PyObject *)&BoardType, fen,
                                     pgnkit_board_variant(self->board));
    return result;
}

static PyObject *board_repr(BoardObject *self)
{
    PyObject *fen = fen_of(self, 0);
    if (!fen)
        return NULL;
    const char *variant = pgnkit_board_variant(self->board);
    PyObject *r = strcmp(variant, "Standard") == 0
                      ? PyUnicode_FromFormat("pgnkit.Board(%R)", fen)
                      : PyUnicode_FromFormat("pgnkit.Board(%R, variant='%s')", fen, variant);
    Py_DECREF(fen);
    return r;
}

/* Equal boards: the same FEN (standard e.p. convention) and the same rules. */
static PyObject *board_richcompare(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(a, &BoardType) ||
        !PyObject_TypeCheck(b, &BoardType))
        Py_RETURN_NOTIMPLEMENTED;
    const pgnkit_board *x = ((BoardObject *)a)->board, *y = ((BoardObject *)b)->board;
    char fx[PGNKIT_BOARD_FEN_MAX], fy[PGNKIT_BOARD_FEN_MAX];
    pgnkit_board_fen(x, 0, fx, sizeof fx);
    pgnkit_board_fen(y, 0, fy, sizeof fy);
    int equal = strcmp(fx, fy) == 0 &&
                strcmp(pgnkit_board_variant(x), pgnkit_board_variant(y)) == 0;
    return PyBool_FromLong(op == Py_EQ ? equal : !equal);
}

static PyMethodDef board_methods[] = {
    {"fen", (PyCFunction)(void (*)(void))board_fen, METH_VARARGS | METH_KEYWORDS,
     "fen(*, ep=\"standard\") -> str: the position; ep=\"legal\" names the e.p. square only "
     "when a legal e.p. capture exists (python-chess's board.fen())"},
    {"legal_moves", (PyCFunction)board_legal_moves, METH_NOARGS,
     "legal_moves() -> list of str: every legal move as UCI (e1g1 castling; e1h1 in Chess960; "
     "Crazyhouse drops P@e4)"},
    {"push_san", (PyCFunction)board_push_san, METH_O,
     "push_san(san) -> str: play the move san names and return it as UCI; pgnkit.MoveError "
     "(a ValueError with .code and .candidates) when it names no legal move"},
    {"push_uci", (PyCFunction)board_push_uci, METH_O,
     "push_uci(uci) -> str: play the move and return its canonical SAN (with + or #); "
     "pgnkit.MoveError when it is not legal"},
    {"san", (PyCFunction)board_san, METH_O,
     "san(uci) -> str: the canonical SAN of a legal move, without playing it"},
    {"piece_at", (PyCFunction)board_piece_at, METH_O,
     "piece_at(square) -> str or None: the piece on square (\"e4\" or 0..63, a1 = 0) as its "
     "FEN letter (\"P\", \"n\", ...), None when empty"},
    {"is_check", (PyCFunction)board_is_check, METH_NOARGS, "is_check() -> bool"},
    {"is_checkmate", (PyCFunction)board_is_checkmate, METH_NOARGS, "is_checkmate() -> bool"},
    {"is_stalemate", (PyCFunction)board_is_stalemate, METH_NOARGS,
     "is_stalemate() -> bool: the side to move has no move and is not in check (a draw)"},
    {"copy", (PyCFunction)board_copy, METH_NOARGS, "copy() -> Board: an independent copy"},
    {"__copy__", (PyCFunction)board_copy, METH_NOARGS, NULL},
    {"__reduce__", (PyCFunction)board_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef board_getset[] = {
    {"turn", (getter)board_turn, NULL, "\"w\" or \"b\": the side to move", NULL},
    {"variant", (getter)board_variant, NULL,
     "the rules: \"Standard\", \"Chess960\", \"Crazyhouse\", ... (Board(variant=) takes it)",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pgnkit.Board",
    .tp_basicsize = sizeof(BoardObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Board(fen=None, variant=None): a position to play moves on and ask questions "
              "of.\n\nfen: a FEN (None: the variant's start position); variant: None or "
              "\"standard\", \"chess960\", or a lichess variant (\"crazyhouse\", \"atomic\", "
              "\"antichess\", \"kingOfTheHill\", \"threeCheck\", \"racingKings\", \"horde\").  "
              "ValueError with the reason for a bad FEN or variant.\n\n"
              ">>> import pgnkit\n>>> b = pgnkit.Board()\n>>> b.push_san(\"e4\")\n'e2e4'\n"
              ">>> b.fen(ep=\"legal\")\n"
              "'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'",
    .tp_new = board_new,
    .tp_dealloc = (destructor)board_dealloc,
    .tp_repr = (reprfunc)board_repr,
    .tp_richcompare = board_richcompare,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_methods = board_methods,
    .tp_getset = board_getset,
};

int pgnkit_py_board_init(PyObject *m)
{
    if (PyType_Ready(&BoardType) < 0)
        return -1;
    move_error_type = PyErr_NewExceptionWithDoc(
        "pgnkit.MoveError",
        "A move a Board cannot play (a ValueError): .code is the diagnostic code (\"SYNTAX\", "
        "\"ILLEGAL\", \"AMBIGUOUS\", \"MOVE_AFTER_END\"), .candidates the legal moves an "
        "ambiguous SAN fits (UCI; empty for the other codes)",
        PyExc_ValueError, NULL);
    if (!move_error_type)
        return -1;
    if (PyModule_AddObjectRef(m, "MoveError", move_error_type) < 0)
        return -1;
    return PyModule_AddObjectRef(m, "Board", (PyObject *)&BoardType);
}
