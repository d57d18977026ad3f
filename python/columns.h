/*
 * columns.h - pgnkit.columns(): a reader's games as columns for a dataframe (columns.c),
 * read in C with the GIL released and turned into Python objects a batch at a time.
 */
#ifndef PGNKIT_PYTHON_COLUMNS_H
#define PGNKIT_PYTHON_COLUMNS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "pgnkit/pgnkit.h"

/**
 * Every game of r as a dict of lists, one item per game: "file", "index", "offset", each
 * tag of tags (a sequence of str; None where a game has no such tag), "plies", "uci" (the
 * mainline, space-joined, as `pgnkit uci` writes it), "status".  When numpy imports, the
 * int columns are numpy int64 arrays.  NULL with an exception (OSError when the input
 * breaks off).  r is read to its end; the caller still closes it.
 */
PyObject *pgnkit_py_columns(pgnkit_reader *r, PyObject *tags);

#endif
