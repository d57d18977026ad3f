/*
 * board.h - pgnkit.Board, one position to play moves on and ask questions of, over the
 * C API's pgnkit_board_* (board.c); and pgnkit.MoveError, what a move that cannot be
 * played raises.
 */
#ifndef PGNKIT_PYTHON_BOARD_H
#define PGNKIT_PYTHON_BOARD_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/** Ready pgnkit.Board and pgnkit.MoveError and add them to module m: 0, or -1 with an
 * exception set. */
int pgnkit_py_board_init(PyObject *m);

#endif
