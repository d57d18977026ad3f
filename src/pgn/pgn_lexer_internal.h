/*
 * pgn_lexer_internal.h - what pgn_lexer.c offers pgn_reader.c: the tokens the fast path
 * leaves, one at a time, each step's outcome as a struct step.
 */
#ifndef PGNKIT_PGN_LEXER_INTERNAL_H
#define PGNKIT_PGN_LEXER_INTERNAL_H

#include <stddef.h>

#include "pgn/reader_state.h"

/*
 * What one step of the scan found at an index: the lexer's token steps return it, and
 * pgn_reader.c's loop acts on it.  Errors and game ends flow back as values.
 */
enum step_kind {
    STEP_NEXT,     /* read on at .at */
    STEP_MORE,     /* the data ends inside the construct at .at: read more, scan it again */
    STEP_RESULT,   /* a result token ends at .at: the game's end, outside variations */
    STEP_BOUNDARY, /* the next game starts at .at: this one has ended */
    STEP_STOP,     /* no game starts at .at: the end of the input, or a restarted reader's stop */
    STEP_FAILED,   /* an I/O error */
};

struct step {
    enum step_kind kind;
    size_t at;
};

static inline struct step step_to(enum step_kind kind, size_t at)
{
    return (struct step){kind, at};
}

/* The index after the blank at i, i when no blank starts there, or NEED_MORE. */
size_t lex_blank(struct pgn_reader *r, size_t i, unsigned cl);
/* A '%' that begins its line: the escape line, skipped. */
struct step lex_escape_line(struct pgn_reader *r, size_t i);
/* The token at i, of class cl: anything but a blank and a '[' (the splitter's). */
struct step lex_token(struct pgn_reader *r, size_t i, unsigned cl);
/*
 * A '[' in movetext at d[i].  When it begins its line and a tag pair follows, the next
 * game's tag section starts here: returns 0.  Any other '[' is this game's (a comment
 * token or an error).  Returns the index after what was read, or NEED_MORE.
 */
size_t movetext_bracket(struct pgn_reader *r, size_t i);

#endif
