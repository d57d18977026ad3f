/**
 * attacks.h - attack lookups for every piece type.
 *
 * The tables are built once by attacks_init() (idempotent, thread-safe through
 * pthread_once) and are read-only afterwards, so any thread may call the lookups.
 * Every lookup below requires attacks_init() to have run.
 */
#ifndef PGNKIT_ATTACKS_H
#define PGNKIT_ATTACKS_H

#include <stdbool.h>

#include "board/types.h"

void attacks_init(void);

bitboard attacks_pawn(enum color c, int sq);
bitboard attacks_knight(int sq);
bitboard attacks_king(int sq);
bitboard attacks_bishop(int sq, bitboard occupied);
bitboard attacks_rook(int sq, bitboard occupied);
bitboard attacks_queen(int sq, bitboard occupied);
/** Attacks of a piece of type t (not PAWN: use attacks_pawn) standing on sq. */
bitboard attacks_piece(enum piece_type t, int sq, bitboard occupied);
/** Squares strictly between a and b on a line (rank, file, diagonal); 0 if not aligned. */
bitboard attacks_between(int a, int b);
/** The whole line through a and b (edge to edge); 0 if not aligned. */
bitboard attacks_line(int a, int b);

/** The two forms of the slider lookups (attacks_internal.h): the magic multiply, and
 * PEXT (BMI2) with packed tables.  The lookups above use one, chosen at attacks_init()
 * from the build and the CPU; these name either, so tests can hold them equal. */
enum attacks_form { ATTACKS_FORM_MAGIC, ATTACKS_FORM_PEXT };
/** Whether form f's tables are here (PEXT: only where the CPU runs it fast; magic:
 * except in builds with BMI2 in their baseline, which use PEXT alone).  Where PEXT
 * serves the lookups, the magic tables are filled at the first call asking for them,
 * this one or the two below (once, thread-safe), not by attacks_init(). */
bool attacks_form_built(enum attacks_form f);
/** attacks_rook() and attacks_bishop() by form f, which must be built. */
bitboard attacks_rook_at(enum attacks_form f, int sq, bitboard occupied);
bitboard attacks_bishop_at(enum attacks_form f, int sq, bitboard occupied);

#endif
