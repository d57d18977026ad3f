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

#include "base/diag.h"
#include "board/position.h"

/**
 * Parse s[0..len) into *pos.  chess960 says the game is Chess960 (castling rooks may
 * stand anywhere).  When false, castling rights of a king off the e-file switch the
 * position to Chess960 notation (pos->chess960 = true: castling written king takes rook)
 * rather than being rejected; with the king on e1/e8, rooks off the a/h corners castle
 * as in Chess960 but keep standard notation (O-O-O is e1c1, as UCI writes it).
 * (Shredder letters that name the a/h corner rooks of a king on e1/e8, such as HAha on
 * the standard array, keep standard rules: they mean the same castling there.)
 * Castling rights without a king and rook on the squares they name are rejected.
 * Fields 5 and 6 (clocks) may be missing (then 0 and 1).
 * Returns 0, or -1 with *err filled (code DIAG_BAD_FEN, col = 1-based column in s).
 */
int fen_parse(struct position *pos, const char *s, size_t len, bool chess960, struct diag *err)
    __attribute__((warn_unused_result));

/* Options of fen_parse_ex(). */
enum fen_parse_flags {
    /* A castling right whose king is off its back rank or that has no rook (KQkq: none on
     * that side; a file letter: none on that file) is dropped instead of rejected: the
     * first such reason goes to *dropped as a DIAG_CASTLING_DROPPED warning. */
    FEN_DROP_BAD_CASTLING = 1 << 0,
};

/**
 * fen_parse() with enum fen_parse_flags.  dropped may be NULL; otherwise its code is
 * DIAG_OK when nothing was dropped.
 */
int fen_parse_ex(struct position *pos, const char *s, size_t len, bool chess960, unsigned flags,
                 struct diag *err, struct diag *dropped) __attribute__((warn_unused_result));

/**
 * fen_parse_ex() for a variant: Crazyhouse pockets in brackets or as a 9th rank and '~'
 * marks, Three-check counters ("3+3" as the 5th field or lichess's "+0+0" suffix), the
 * kings each variant allows (none or several), Horde pawns on White's 1st rank.
 */
int fen_parse_variant_ex(struct position *pos, const char *s, size_t len, bool chess960,
                         enum variant variant, unsigned flags, struct diag *err,
                         struct diag *dropped) __attribute__((warn_unused_result));
/** fen_parse_variant_ex() without flags. */
int fen_parse_variant(struct position *pos, const char *s, size_t len, bool chess960,
                      enum variant variant, struct diag *err) __attribute__((warn_unused_result));

enum fen_flags {
    FEN_EP_LEGAL = 1 << 0, /* write the e.p. square only when a legal capture exists */
    FEN_SHREDDER = 1 << 1, /* castling rights as rook files (HAha) even for standard games */
};

enum { FEN_MAX = 192 }; /* enough for any FEN fen_write produces, with its NUL */

/** Write the FEN of pos into dst (cap bytes, NUL-terminated); return its length (< 100 in
 * standard chess, < FEN_MAX with Crazyhouse pockets and marks). */
size_t fen_write(const struct position *pos, char *dst, size_t cap, unsigned flags);

/** One rank (0 = rank 1) of the board field, without '/': 1 to 16 bytes ('~' marks), no NUL.  Lets a
 * writer that prints every ply rebuild only the ranks a move touched. */
size_t fen_write_rank(const struct position *pos, int rank, char *dst);

/** The fields after the board, with a leading space (" w KQkq - 0 1"): at most 48 bytes,
 * no NUL; Crazyhouse's pockets ("[Pq]") come first, Three-check's "3+3" after the e.p.
 * square (at most 120 bytes then). */
size_t fen_write_fields(const struct position *pos, char *dst, unsigned flags);

#endif
