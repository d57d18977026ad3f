/*
 * moves.h - pgnkit.Move, the moves of a game as python-chess users know them (moves.c):
 * what pgnkitmodule.c's Game asks for its moves and comment attributes.
 */
#ifndef PGNKIT_PYTHON_MOVES_H
#define PGNKIT_PYTHON_MOVES_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "pgnkit/pgnkit.h"

/** Game.moves: the mainline as a list of pgnkit.Move, each with its variations.  The
 * Moves share g with their Game through *handle, made here on the first call: from then
 * on *handle owns g (the Game drops its reference instead of freeing g). */
PyObject *pgnkit_py_moves(pgnkit_game *g, PyObject **handle);
/** Game.comment: the comment before the first move, or None. */
PyObject *pgnkit_py_game_comment(pgnkit_game *g);
/** Ready pgnkit.Move and add it to module m: 0, or -1 with an exception set. */
int pgnkit_py_moves_init(PyObject *m);

#endif
