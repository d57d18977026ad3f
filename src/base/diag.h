/**
 * diag.h - diagnostics as values.
 *
 * Library code never prints: it fills a struct diag (one problem) or appends to a
 * struct diag_list (many).  Only src/cli renders them and picks the exit status.
 * Codes are stable and append-only: their names are part of the user interface
 * (printed as error[ILLEGAL], matched by scripts, listed in the man page).
 */
#ifndef PGNKIT_DIAG_H
#define PGNKIT_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

enum diag_severity { DIAG_WARNING = 0, DIAG_ERROR = 1 };

/* X(code, NAME, default severity, one-line description).  Append only. */
#define PGNKIT_DIAG_CODES(X)                                                                      \
    X(DIAG_OK, "OK", DIAG_WARNING, "no problem")                                                  \
    X(DIAG_IO, "IO", DIAG_ERROR, "the input could not be read")                                   \
    X(DIAG_CONTROL_BYTE, "CONTROL_BYTE", DIAG_WARNING, "a NUL or control byte in the input")      \
    X(DIAG_BAD_TAG, "BAD_TAG", DIAG_ERROR, "a malformed tag pair")                                \
    X(DIAG_UNTERMINATED_STRING, "UNTERMINATED_STRING", DIAG_ERROR, "a tag value never closes")    \
    X(DIAG_UNTERMINATED_COMMENT, "UNTERMINATED_COMMENT", DIAG_ERROR, "a {comment} never closes") \
    X(DIAG_UNTERMINATED_VARIATION, "UNTERMINATED_VARIATION", DIAG_ERROR,                          \
      "a (variation) never closes")                                                               \
    X(DIAG_UNBALANCED_VARIATION, "UNBALANCED_VARIATION", DIAG_ERROR, "a ')' with no '('")         \
    X(DIAG_UNEXPECTED_CHAR, "UNEXPECTED_CHAR", DIAG_ERROR, "a character that starts no token")    \
    X(DIAG_GAME_TOO_LARGE, "GAME_TOO_LARGE", DIAG_ERROR, "a game over the size limit")            \
    X(DIAG_TOKEN_TOO_LONG, "TOKEN_TOO_LONG", DIAG_ERROR, "a token over the size limit")           \
    X(DIAG_NESTING_TOO_DEEP, "NESTING_TOO_DEEP", DIAG_ERROR, "variations nested past the limit")  \
    X(DIAG_COMMENT_TOO_LONG, "COMMENT_TOO_LONG", DIAG_ERROR, "a comment over the size limit")     \
    X(DIAG_NO_MOVETEXT, "NO_MOVETEXT", DIAG_ERROR, "a tag section with no movetext")              \
    X(DIAG_NO_RESULT, "NO_RESULT", DIAG_WARNING, "a game without a termination marker")           \
    X(DIAG_BAD_FEN, "BAD_FEN", DIAG_ERROR, "the FEN tag is not a valid position")                 \
    X(DIAG_CASTLING_DROPPED, "CASTLING_DROPPED", DIAG_WARNING,                                    \
      "a FEN castling right with no rook for it, dropped")                                       \
    X(DIAG_UNSUPPORTED_VARIANT, "UNSUPPORTED_VARIANT", DIAG_ERROR, "a variant pgnkit cannot play")\
    X(DIAG_SYNTAX, "SYNTAX", DIAG_ERROR, "a token that is no move")                               \
    X(DIAG_ILLEGAL, "ILLEGAL", DIAG_ERROR, "a move no piece can legally make")                    \
    X(DIAG_AMBIGUOUS, "AMBIGUOUS", DIAG_ERROR, "a SAN that fits several legal moves")             \
    X(DIAG_MOVE_AFTER_END, "MOVE_AFTER_END", DIAG_ERROR, "a move after checkmate or stalemate")   \
    X(DIAG_UNDER_DISAMBIGUATED, "UNDER_DISAMBIGUATED", DIAG_WARNING,                              \
      "several moves fit; only the +/#/x marks decided")                                         \
    X(DIAG_OVER_DISAMBIGUATED, "OVER_DISAMBIGUATED", DIAG_WARNING, "an origin hint not needed")   \
    X(DIAG_CAPTURE_MISSING, "CAPTURE_MISSING", DIAG_WARNING, "a capture written without x")       \
    X(DIAG_CAPTURE_SPURIOUS, "CAPTURE_SPURIOUS", DIAG_WARNING, "x on a move that captures nothing")\
    X(DIAG_CHECK_MISSING, "CHECK_MISSING", DIAG_WARNING, "a check written without +")             \
    X(DIAG_CHECK_SPURIOUS, "CHECK_SPURIOUS", DIAG_WARNING, "+ on a move that gives no check")     \
    X(DIAG_MATE_MISSING, "MATE_MISSING", DIAG_WARNING, "a checkmate written without #")           \
    X(DIAG_MATE_SPURIOUS, "MATE_SPURIOUS", DIAG_WARNING, "# on a move that does not mate")        \
    X(DIAG_DOUBLE_CHECK_WRONG, "DOUBLE_CHECK_WRONG", DIAG_WARNING, "++ count differs from checkers")\
    X(DIAG_EP_SPURIOUS, "EP_SPURIOUS", DIAG_WARNING, "e.p. on a move that is not en passant")     \
    X(DIAG_NONSTANDARD, "NONSTANDARD", DIAG_WARNING, "a non-standard notation, accepted")         \
    X(DIAG_RESULT_MISMATCH, "RESULT_MISMATCH", DIAG_WARNING, "result token and Result tag differ")\
    X(DIAG_RESULT_CONTRADICTS, "RESULT_CONTRADICTS", DIAG_WARNING,                                \
      "the result contradicts checkmate or stalemate on the board")                               \
    X(DIAG_ENCODING, "ENCODING", DIAG_WARNING, "a game that is not UTF-8, read as CP1252")        \
    X(DIAG_PLY_PAST_END, "PLY_PAST_END", DIAG_WARNING, "fen --ply N: the game ends before ply N") \
    X(DIAG_MORE_DIAGNOSTICS, "MORE_DIAGNOSTICS", DIAG_WARNING,                                    \
      "diagnostics of a game past --max-diagnostics, counted not kept")

#define PGNKIT_DIAG_ENUM(code, name, sev, text) code,
enum diag_code { PGNKIT_DIAG_CODES(PGNKIT_DIAG_ENUM) DIAG_CODE_COUNT };
#undef PGNKIT_DIAG_ENUM

enum { DIAG_MESSAGE_MAX = 200 };

/**
 * One problem.  line/col are 1-based byte positions in the input file (0 = not
 * known); ply is the 1-based half-move the problem is about (0 = not about a move).
 */
struct diag {
    enum diag_code code;
    enum diag_severity severity;
    uint64_t line;
    uint64_t col;
    uint32_t ply;
    char message[DIAG_MESSAGE_MAX];
    /* About a move (ply > 0) only; empty strings otherwise. */
    uint32_t move_number;    /* the full-move number of that ply */
    uint8_t side;            /* enum color of the side that made it */
    char san[32];            /* the token as written (truncated) */
    char fen[96];            /* the position before the move */
    char candidates[96];     /* space-separated UCI moves the SAN could mean */
};

/**
 * A growable list of diagnostics; diag_list_init() gives an empty one (no allocation).
 * With max > 0 it keeps at most max entries: later ones are only counted (more, and
 * more_errors of them errors), so a game of a million bad bytes holds max entries, not a
 * million.  diag_list_close() then appends one MORE_DIAGNOSTICS entry saying how many.
 */
struct diag_list {
    struct diag *items;
    size_t count;
    size_t cap;
    size_t max;         /* most entries kept; 0 = no cap */
    size_t more;        /* entries past max, not kept */
    size_t more_errors; /* how many of those were errors */
};

/** The stable printed name of a code, e.g. "ILLEGAL". */
const char *diag_code_name(enum diag_code code);
/** The default severity and the one-line description of a code. */
enum diag_severity diag_code_severity(enum diag_code code);
const char *diag_code_description(enum diag_code code);

/** Fill *d with code, its default severity, position and a printf-formatted message. */
void diag_set(struct diag *d, enum diag_code code, uint64_t line, uint64_t col, const char *fmt,
              ...) __attribute__((format(printf, 5, 6)));
void diag_vset(struct diag *d, enum diag_code code, uint64_t line, uint64_t col, const char *fmt,
               va_list ap) __attribute__((format(printf, 5, 0)));

/** An empty list that keeps at most max entries (0 = no cap). */
void diag_list_init(struct diag_list *list);
void diag_list_init_capped(struct diag_list *list, size_t max);
void diag_list_release(struct diag_list *list);
/** Forget the entries (and the count past the cap) but keep the storage and the cap. */
void diag_list_clear(struct diag_list *list);
/** Append a copy of *d; returns the stored entry, or NULL when past the cap (counted). */
struct diag *diag_list_push(struct diag_list *list, const struct diag *d);
/** Count n entries (e of them errors) past the cap that another list did not keep. */
void diag_list_count_more(struct diag_list *list, size_t n, size_t e);
/**
 * When entries were dropped past the cap: append the one MORE_DIAGNOSTICS entry that says
 * how many (an error when any of them was), over the cap.  Call once, after the last push.
 */
void diag_list_close(struct diag_list *list);
/** Append a new entry with diag_set() semantics; returns it, or NULL past the cap. */
struct diag *diag_list_add(struct diag_list *list, enum diag_code code, uint64_t line,
                           uint64_t col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/** Number of entries of severity DIAG_ERROR. */
size_t diag_list_errors(const struct diag_list *list);

#endif
