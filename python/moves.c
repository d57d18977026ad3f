/*
 * moves.c - pgnkit.Move: one move of a game with its SAN, UCI, position after it,
 * comment, NAGs, clock, eval and variations, built from the C API's move tree
 * (pgnkit_game_node*).  A Move holds plain values only (no reference to its game), so it
 * outlives the game and compares by value.
 */
#include "moves.h"

#include <structmember.h>

typedef struct {
    PyObject_HEAD
    PyObject *san, *uci, *fen, *comment, *starting_comment, *nags, *clock, *eval;
    PyObject *promotion, *variations;
    Py_ssize_t ply;
    char is_check, is_checkmate, is_capture;
} MoveObject;

static void move_dealloc(MoveObject *self)
{
    Py_XDECREF(self->san);
    Py_XDECREF(self->uci);
    Py_XDECREF(self->fen);
    Py_XDECREF(self->comment);
    Py_XDECREF(self->starting_comment);
    Py_XDECREF(self->nags);
    Py_XDECREF(self->clock);
    Py_XDECREF(self->eval);
    Py_XDECREF(self->promotion);
    Py_XDECREF(self->variations);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Every field, in one tuple: what == compares. */
static PyObject *move_fields(MoveObject *m)
{
    return Py_BuildValue("(OOnOOOOOOOOiii)", m->san, m->uci, m->ply, m->fen, m->comment,
                         m->starting_comment, m->nags, m->clock, m->eval, m->promotion,
                         m->variations, m->is_check, m->is_checkmate, m->is_capture);
}

static PyTypeObject MoveType;

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
    return PyUnicode_FromFormat("Move(ply=%zd, san=%R, uci=%R)", self->ply, self->san,
                                self->uci);
}

static PyMemberDef move_members[] = {
    {"san", T_OBJECT, offsetof(MoveObject, san), READONLY, "canonical SAN ('Nf3', 'exd8=Q#')"},
    {"uci", T_OBJECT, offsetof(MoveObject, uci), READONLY, "UCI ('g1f3', 'e7e8q')"},
    {"ply", T_PYSSIZET, offsetof(MoveObject, ply), READONLY,
     "plies from the game's start to after this move (the mainline's first move is 1)"},
    {"fen", T_OBJECT, offsetof(MoveObject, fen), READONLY, "the FEN of the position after it"},
    {"comment", T_OBJECT, offsetof(MoveObject, comment), READONLY,
     "the comments after it, joined by a space ([%clk]/[%eval] kept), or None"},
    {"starting_comment", T_OBJECT, offsetof(MoveObject, starting_comment), READONLY,
     "a variation's first move: the comments between '(' and it, or None"},
    {"nags", T_OBJECT, offsetof(MoveObject, nags), READONLY,
     "NAGs as ints in file order ($1 and e4! are 1, ?! is 6)"},
    {"clock", T_OBJECT, offsetof(MoveObject, clock), READONLY,
     "seconds from the first [%clk] of its comments, or None"},
    {"eval", T_OBJECT, offsetof(MoveObject, eval), READONLY,
     "the first [%eval] of its comments: pawns (float), '#N' for a mate, or None"},
    {"is_check", T_BOOL, offsetof(MoveObject, is_check), READONLY, "gives check (or mate)"},
    {"is_checkmate", T_BOOL, offsetof(MoveObject, is_checkmate), READONLY, "gives checkmate"},
    {"is_capture", T_BOOL, offsetof(MoveObject, is_capture), READONLY,
     "takes a piece (en passant too)"},
    {"promotion", T_OBJECT, offsetof(MoveObject, promotion), READONLY,
     "the piece promoted to, 'q' 'r' 'b' 'n' (as UCI writes it), or None"},
    {"variations", T_OBJECT, offsetof(MoveObject, variations), READONLY,
     "the alternatives to this move: a list of lines, each a list of Move"},
    {NULL, 0, 0, 0, NULL},
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
};

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

static PyObject *make_line(pgnkit_game *g, size_t first);

/* The alternatives to node n: one line per variation. */
static PyObject *variation_lines(pgnkit_game *g, const pgnkit_node *n)
{
    PyObject *lines = PyList_New(0);
    pgnkit_node alt;
    for (size_t v = n->variation; lines && v; v = alt.next_variation) {
        pgnkit_game_node(g, v, &alt);
        PyObject *line = make_line(g, v);
        if (!line || PyList_Append(lines, line) < 0)
            Py_CLEAR(lines);
        Py_XDECREF(line);
    }
    return lines;
}

static PyObject *make_move(pgnkit_game *g, size_t id, const pgnkit_node *n)
{
    MoveObject *m = PyObject_New(MoveObject, &MoveType);
    if (!m)
        return NULL;
    char san[PGNKIT_SAN_MAX], uci[PGNKIT_UCI_MAX], fen[PGNKIT_FEN_MAX];
    size_t san_len = pgnkit_game_node_san(g, id, san);
    size_t fen_len = pgnkit_game_node_fen(g, id, fen);
    size_t uci_len = pgnkit_game_node_uci(g, id, uci);
    m->ply = (Py_ssize_t)n->ply;
    m->is_check = (char)n->is_check;
    m->is_checkmate = (char)n->is_checkmate;
    m->is_capture = (char)n->is_capture;
    m->san = PyUnicode_FromStringAndSize(san, (Py_ssize_t)san_len);
    m->uci = PyUnicode_FromStringAndSize(uci, (Py_ssize_t)uci_len);
    m->fen = PyUnicode_FromStringAndSize(fen, (Py_ssize_t)fen_len);
    m->comment = text_or_none(n->comment);
    m->starting_comment = text_or_none(n->starting_comment);
    m->nags = nag_list(n);
    m->clock = n->has_clock ? PyFloat_FromDouble(n->clock) : Py_NewRef(Py_None);
    m->eval = eval_value(n);
    m->promotion = n->promotion ? PyUnicode_FromStringAndSize(&n->promotion, 1)
                                : Py_NewRef(Py_None);
    m->variations = n->variation ? variation_lines(g, n) : PyList_New(0);
    if (!m->san || !m->uci || !m->fen || !m->comment || !m->starting_comment || !m->nags ||
        !m->clock || !m->eval || !m->promotion || !m->variations) {
        Py_DECREF(m);
        return NULL;
    }
    return (PyObject *)m;
}

/* The line that starts at node first, followed by next to its end. */
static PyObject *make_line(pgnkit_game *g, size_t first)
{
    PyObject *line = PyList_New(0);
    pgnkit_node n;
    for (size_t id = first; line && id; id = n.next) {
        pgnkit_game_node(g, id, &n);
        PyObject *move = make_move(g, id, &n);
        if (!move || PyList_Append(line, move) < 0)
            Py_CLEAR(line);
        Py_XDECREF(move);
    }
    return line;
}

PyObject *pgnkit_py_moves(pgnkit_game *g)
{
    if (!pgnkit_game_ply_count(g))
        return PyList_New(0);
    return make_line(g, 1);
}

PyObject *pgnkit_py_game_comment(pgnkit_game *g) { return text_or_none(pgnkit_game_comment(g)); }

int pgnkit_py_moves_init(PyObject *m)
{
    if (PyType_Ready(&MoveType) < 0)
        return -1;
    return PyModule_AddObjectRef(m, "Move", (PyObject *)&MoveType);
}
