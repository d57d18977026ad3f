/*
 * movegen_internal.h - standard chess's generator for the variants that keep chess's
 * king safety (variant.c adds drops or filters to it).  Private to src/.
 */
#ifndef PGNKIT_MOVEGEN_INTERNAL_H
#define PGNKIT_MOVEGEN_INTERNAL_H

#include "pgnkit/movegen.h"

/** movegen_legal() by standard rules, whatever pos->variant says (one king per side). */
int movegen_standard_legal(const struct position *pos, struct move *out);
/** movegen_castle() by standard rules. */
bool movegen_standard_castle(const struct position *pos, enum castle_side side, struct move *m,
                             const char **why);

#endif
