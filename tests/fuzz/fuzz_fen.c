/*
 * fuzz_fen.c - fen_parse over arbitrary bytes.
 *
 * An accepted position must be consistent (position_ok), its FEN must parse again to
 * the same FEN (both castling notations), and perft to depth 2 must run on it.  The
 * first byte chooses standard or Chess960 rules; the rest is the FEN.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "board/fen.h"
#include "board/movegen.h"

static void round_trip(const struct position *pos, unsigned flags)
{
    char a[128], b[128];
    struct position again;
    struct diag err;
    size_t n = fen_write(pos, a, sizeof a, flags);
    FUZZ_ASSERT(n < 100 && strlen(a) == n);
    if (fen_parse(&again, a, n, pos->chess960, &err) != 0) {
        fprintf(stderr, "written FEN rejected: %s (%s)\n", a, err.message);
        abort();
    }
    FUZZ_ASSERT(again.chess960 == pos->chess960);
    size_t m = fen_write(&again, b, sizeof b, flags);
    if (m != n || memcmp(a, b, n) != 0) {
        fprintf(stderr, "FEN round trip differs:\n  %s\n  %s\n", a, b);
        abort();
    }
}

int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    bool chess960 = data[0] & 1;
    struct position pos;
    struct diag err;
    if (fen_parse(&pos, (const char *)data + 1, size - 1, chess960, &err) != 0) {
        FUZZ_ASSERT(err.code == DIAG_BAD_FEN);
        return 0;
    }
    FUZZ_ASSERT(position_ok(&pos));
    round_trip(&pos, 0);
    round_trip(&pos, FEN_SHREDDER);
    round_trip(&pos, FEN_EP_LEGAL);
    struct move moves[MAX_MOVES];
    int n = movegen_legal(&pos, moves);
    FUZZ_ASSERT(n >= 0 && n <= MAX_MOVES);
    FUZZ_ASSERT((uint64_t)n == movegen_perft(&pos, 1));
    (void)movegen_perft(&pos, 2);
    return 0;
}
