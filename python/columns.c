/*
 * columns.c - pgnkit.columns(): every game of a reader as columns (columns.h).
 *
 * The cost is the reading and replaying, as for `pgnkit uci`: so that it runs at the
 * CLI's speed, games are read with the GIL released into a batch (numbers, and the text
 * of the tags asked for and of the UCI line in one growing block), and only then, with
 * the GIL, turned into Python objects and appended to the columns.  A batch ends after
 * BATCH_GAMES games or BATCH_TEXT bytes of text, so memory stays bounded by the columns
 * themselves.  No Game object is made.
 */
#include "columns.h"

#include <stdint.h>
#include <string.h>

PyObject *pgnkit_py_decode_text(const char *s, size_t len);

enum { BATCH_GAMES = 2048, BATCH_TEXT = 4 << 20, FIXED_COLUMNS = 6 };

/* Where a string is in the batch's text; at SIZE_MAX when absent (a tag not there). */
struct span {
    size_t at, len;
};

struct row {
    uint64_t index, offset;
    size_t plies;
    pgnkit_status status;
    struct span file, uci;
};

struct batch {
    struct row *rows;
    struct span *tags; /* tag_count per row */
    size_t count, tag_count;
    char *text;
    size_t len, cap;
    const char *const *tag_names;
};

/* Room for n more bytes of text: 0, or -1 when out of memory. */
static int reserve(struct batch *b, size_t n)
{
    if (b->len + n <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 1 << 16;
    while (cap < b->len + n)
        cap *= 2;
    char *text = PyMem_RawRealloc(b->text, cap);
    if (!text)
        return -1;
    b->text = text;
    b->cap = cap;
    return 0;
}

static int put_text(struct batch *b, const char *s, size_t len, struct span *at)
{
    if (reserve(b, len) != 0)
        return -1;
    memcpy(b->text + b->len, s, len);
    *at = (struct span){b->len, len};
    b->len += len;
    return 0;
}

/* The mainline as `pgnkit uci` writes it: UCI moves joined by one space. */
static int put_uci(struct batch *b, pgnkit_game *g, size_t plies, struct span *at)
{
    if (reserve(b, plies * (PGNKIT_UCI_MAX)) != 0)
        return -1;
    char *start = b->text + b->len, *p = start;
    for (size_t ply = 1; ply <= plies; ply++) {
        if (ply > 1)
            *p++ = ' ';
        p += pgnkit_game_uci(g, ply, p); /* writes its NUL too, within PGNKIT_UCI_MAX */
    }
    *at = (struct span){b->len, (size_t)(p - start)};
    b->len += (size_t)(p - start);
    return 0;
}

/* The reader's current game into the batch's next row: 0, or -1 when out of memory. */
static int take_game(struct batch *b, pgnkit_game *g)
{
    struct row *row = &b->rows[b->count];
    row->index = pgnkit_game_index(g);
    row->offset = pgnkit_game_offset(g);
    row->plies = pgnkit_game_ply_count(g);
    row->status = pgnkit_game_status(g);
    const char *file = pgnkit_game_file(g);
    if (put_text(b, file, strlen(file), &row->file) != 0 ||
        put_uci(b, g, row->plies, &row->uci) != 0)
        return -1;
    for (size_t t = 0; t < b->tag_count; t++) {
        struct span *at = &b->tags[b->count * b->tag_count + t];
        pgnkit_str v = pgnkit_game_tag_value(g, b->tag_names[t]);
        *at = (struct span){SIZE_MAX, 0};
        if (v.ptr && put_text(b, v.ptr, v.len, at) != 0)
            return -1;
    }
    b->count++;
    return 0;
}

/* Read games into an empty batch until it is full or the input ends, without the GIL:
 * 1 (more to read), 0 (the end), -1 (*err: the input broke off), -2 (out of memory). */
static int fill(struct batch *b, pgnkit_reader *r, pgnkit_error *err)
{
    int rc = 1;
    b->count = 0;
    b->len = 0;
    Py_BEGIN_ALLOW_THREADS
    while (b->count < BATCH_GAMES && b->len < BATCH_TEXT) {
        pgnkit_game *g;
        rc = pgnkit_next(r, &g, err);
        if (rc != 1)
            break;
        if (take_game(b, g) != 0) {
            rc = -2;
            break;
        }
    }
    Py_END_ALLOW_THREADS
    return rc;
}

/* Append a new reference to list (stolen; NULL: an error already set): 0 or -1. */
static int append(PyObject *list, PyObject *item)
{
    if (!item)
        return -1;
    int rc = PyList_Append(list, item);
    Py_DECREF(item);
    return rc;
}

static PyObject *span_text(const struct batch *b, struct span s)
{
    if (s.at == SIZE_MAX)
        Py_RETURN_NONE;
    return pgnkit_py_decode_text(b->text + s.at, s.len);
}

/* The batch's rows appended to the columns (cols: file, index, offset, plies, uci,
 * status, then the tags'); a file name is one str shared by the rows that have it. */
static int flush(const struct batch *b, PyObject **cols, PyObject *const *status_names,
                 PyObject **file_name, char **file_text, size_t *file_len)
{
    for (size_t i = 0; i < b->count; i++) {
        const struct row *row = &b->rows[i];
        const char *file = b->text + row->file.at;
        if (!*file_name || *file_len != row->file.len || memcmp(*file_text, file, row->file.len)) {
            char *copy = PyMem_RawRealloc(*file_text, row->file.len + 1);
            if (!copy) {
                PyErr_NoMemory();
                return -1;
            }
            memcpy(copy, file, row->file.len);
            *file_text = copy;
            *file_len = row->file.len;
            Py_XSETREF(*file_name, pgnkit_py_decode_text(file, row->file.len));
            if (!*file_name)
                return -1;
        }
        if (append(cols[0], Py_NewRef(*file_name)) < 0 ||
            append(cols[1], PyLong_FromUnsignedLongLong(row->index)) < 0 ||
            append(cols[2], PyLong_FromUnsignedLongLong(row->offset)) < 0 ||
            append(cols[3], PyLong_FromSize_t(row->plies)) < 0 ||
            append(cols[4], span_text(b, row->uci)) < 0 ||
            append(cols[5], Py_NewRef(status_names[row->status])) < 0)
            return -1;
        for (size_t t = 0; t < b->tag_count; t++)
            if (append(cols[FIXED_COLUMNS + t], span_text(b, b->tags[i * b->tag_count + t])) < 0)
                return -1;
    }
    return 0;
}

/* The int columns as numpy int64 arrays when numpy imports (it is no dependency). */
static int numpy_columns(PyObject *result)
{
    PyObject *numpy = PyImport_ImportModule("numpy");
    if (!numpy) {
        if (!PyErr_ExceptionMatches(PyExc_ImportError))
            return -1;
        PyErr_Clear();
        return 0;
    }
    static const char *const ints[] = {"index", "offset", "plies"};
    int rc = 0;
    PyObject *dtype = PyObject_GetAttrString(numpy, "int64");
    for (size_t i = 0; dtype && rc == 0 && i < sizeof ints / sizeof *ints; i++) {
        PyObject *list = PyDict_GetItemString(result, ints[i]); /* borrowed */
        PyObject *array = PyObject_CallMethod(numpy, "asarray", "OO", list, dtype);
        rc = array ? PyDict_SetItemString(result, ints[i], array) : -1;
        Py_XDECREF(array);
    }
    rc = dtype ? rc : -1;
    Py_XDECREF(dtype);
    Py_DECREF(numpy);
    return rc;
}

/* The tag names as C strings (borrowed from the str objects in names, a new tuple). */
static const char **tag_names(PyObject *tags, PyObject **names, size_t *count)
{
    *names = PySequence_Tuple(tags);
    if (!*names)
        return NULL;
    *count = (size_t)PyTuple_GET_SIZE(*names);
    const char **out = PyMem_Malloc((*count + 1) * sizeof *out);
    if (!out) {
        PyErr_NoMemory();
        return NULL;
    }
    for (size_t i = 0; i < *count; i++) {
        PyObject *name = PyTuple_GET_ITEM(*names, (Py_ssize_t)i);
        out[i] = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
        if (!out[i]) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "columns: tags must be str");
            PyMem_Free(out);
            return NULL;
        }
    }
    return out;
}

/* The result dict, its columns' lists in cols (borrowed), in flush's order. */
static PyObject *new_result(PyObject *names, size_t tag_count, PyObject **cols)
{
    static const char *const fixed[FIXED_COLUMNS] = {"file", "index", "offset",
                                                     "plies", "uci", "status"};
    PyObject *result = PyDict_New();
    for (size_t i = 0; result && i < FIXED_COLUMNS + tag_count; i++) {
        cols[i] = PyList_New(0);
        int rc = !cols[i] ? -1
                 : i < FIXED_COLUMNS
                     ? PyDict_SetItemString(result, fixed[i], cols[i])
                     : PyDict_SetItem(result, PyTuple_GET_ITEM(names, (Py_ssize_t)(i - FIXED_COLUMNS)),
                                      cols[i]);
        Py_XDECREF(cols[i]);
        if (rc < 0)
            Py_CLEAR(result);
    }
    return result;
}

PyObject *pgnkit_py_columns(pgnkit_reader *r, PyObject *tags)
{
    PyObject *names = NULL, *result = NULL, *file_name = NULL;
    PyObject *status_names[4] = {NULL, NULL, NULL, NULL};
    char *file_text = NULL;
    size_t file_len = 0, tag_count = 0;
    struct batch b = {0};
    const char **tnames = tag_names(tags, &names, &tag_count);
    PyObject **cols = tnames ? PyMem_Calloc(FIXED_COLUMNS + tag_count, sizeof *cols) : NULL;
    b.rows = PyMem_RawMalloc(BATCH_GAMES * sizeof *b.rows);
    b.tags = PyMem_RawMalloc((BATCH_GAMES * tag_count + 1) * sizeof *b.tags);
    b.tag_count = tag_count;
    b.tag_names = tnames;
    if (!tnames || !cols || !b.rows || !b.tags) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto done;
    }
    for (int s = 0; s < 4; s++)
        if (!(status_names[s] = PyUnicode_InternFromString(pgnkit_status_name(s))))
            goto done;
    result = new_result(names, tag_count, cols);
    for (int rc = 1; result && rc == 1;) {
        pgnkit_error err = {0, ""};
        rc = fill(&b, r, &err);
        if (flush(&b, cols, status_names, &file_name, &file_text, &file_len) < 0) {
            Py_CLEAR(result);
        } else if (rc == -2) {
            PyErr_NoMemory();
            Py_CLEAR(result);
        } else if (rc == -1) {
            PyObject *exc = PyObject_CallFunction(PyExc_OSError, "is", err.code ? err.code : 5,
                                                  err.message);
            if (exc) {
                PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
                Py_DECREF(exc);
            }
            Py_CLEAR(result);
        }
    }
    if (result && numpy_columns(result) < 0)
        Py_CLEAR(result);
done:
    for (int s = 0; s < 4; s++)
        Py_XDECREF(status_names[s]);
    Py_XDECREF(file_name);
    PyMem_RawFree(file_text);
    PyMem_RawFree(b.rows);
    PyMem_RawFree(b.tags);
    PyMem_RawFree(b.text);
    PyMem_Free(cols);
    PyMem_Free(tnames);
    Py_XDECREF(names);
    return result;
}
