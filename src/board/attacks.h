/**
 * attacks.h - attack lookups for every piece type.
 *
 * The tables are built once by attacks_init() (idempotent, thread-safe through
 * pthread_once) and are read-only afterwards, so any thread may call the lookups.
 * Every lookup below requires attacks_init() to have run.
 */
#ifndef PGNKIT_ATTACKS_H
#define PGNKIT_ATTACKS_H

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

#endif
