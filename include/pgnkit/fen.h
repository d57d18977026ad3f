/**
 * fen.h - Forsyth-Edwards Notation in and out.
 *
 * fen_parse validates everything SPEC §5 asks (one king each, no pawns on ranks 1
 * and 8, side not to move not in check, castling rights that match king and rook
 * squares, en passant square consistent with a double push, sane counters) and on
 * failure fills a diagnostic naming the field and the byte column in the FEN.
 * Castling field: KQkq (X-FEN: outermost rook, or the letter of the rook's file when
 * the outermost rook is not the castling one), Shredder-FEN (HAha), or '-'.
 */
#ifndef PGNKIT_FEN_H
#define PGNKIT_FEN_H

#include <stdbool.h>

#include "pgnkit/diag.h"
#include "pgnkit/position.h"

/**
 * Parse s[0..len) into *pos.  chess960 says the game is Chess960 (castling rooks may
 * stand anywhere).  When false, a castling field that only makes sense in Chess960
 * (Shredder letters, king off the e-file, a castling rook off the a/h corner) switches
 * the position to Chess960 rules (pos->chess960 = true) rather than being rejected.
 * (Shredder letters that name the a/h corner rooks of a king on e1/e8, such as HAha on
 * the standard array, keep standard rules: they mean the same castling there.)
 * Castling rights without a king and rook on the squares they name are rejected.
 * Fields 5 and 6 (clocks) may be missing (then 0 and 1).
 * Returns 0, or -1 with *err filled (code DIAG_BAD_FEN, col = 1-based column in s).
 */
int fen_parse(struct position *pos, const char *s, size_t len, bool chess960, struct diag *err)
    __attribute__((warn_unused_result));

enum fen_flags {
    FEN_EP_LEGAL = 1 << 0, /* write the e.p. square only when a legal capture exists */
    FEN_SHREDDER = 1 << 1, /* castling rights as rook files (HAha) even for standard games */
};

/** Write the FEN of pos into dst (cap bytes, NUL-terminated); return its length (< 100). */
size_t fen_write(const struct position *pos, char *dst, size_t cap, unsigned flags);

#endif
