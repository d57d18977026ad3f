/*
 * fuzz_writer.c - every writer over every game of arbitrary bytes, and the pgn round trip.
 *
 * Each game read is replayed and written by every command's every format (uci text, json,
 * pgn, tsv with every --with; fen final, --ply, --every, --comments; pgn), which must not
 * crash or read out of bounds.  The oracle: `pgn` output read back gives the same games
 * and moves.  The input's games, written as PGN, are read again; the uci lines (the
 * mainline of every game, in order) of the two reads must be equal, and so must the move
 * tokens of the games copied as written (bad FEN: no uci line shows them).
 * A second oracle for games in parts (pgn_reader.h): every writer's every format, and
 * every diagnostic, of the input read with parts of 1 to 8 tokens (from the first byte)
 * equal those of the input read whole.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "base/buf.h"
#include "base/ctrl.h"
#include "game/game.h"
#include "pgn/pgn_reader.h"
#include "write/writer.h"

/* Every format of every writer over one record, appended to out. */
static void fw_all_formats(struct buf *out, const struct game_record *rec)
{
    static const enum output_format formats[] = {FORMAT_TEXT, FORMAT_JSON, FORMAT_PGN,
                                                 FORMAT_TSV};
    static const enum fen_mode modes[] = {FEN_MODE_FINAL, FEN_MODE_PLY, FEN_MODE_EVERY,
                                          FEN_MODE_COMMENTS};
    for (size_t f = 0; f < sizeof formats / sizeof *formats; f++) {
        struct writer_options o = {.format = formats[f],
                                   .with = WRITER_WITH_CLK | WRITER_WITH_EVAL | WRITER_WITH_EMT};
        writer_uci(out, rec, &o);
        for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
            o.fen_mode = modes[m];
            o.fen_ply = 3;
            if (o.fen_mode == FEN_MODE_COMMENTS && o.format != FORMAT_JSON)
                writer_pgn(out, rec, &o); /* fen --comments (writer.h) */
            else
                writer_fen(out, rec, &o);
        }
    }
    struct writer_options o = {.format = FORMAT_PGN};
    struct buf fixes;
    buf_init(&fixes);
    writer_pgn_fixes(out, &fixes, rec, &o);
    buf_append(out, fixes.data ? fixes.data : "", fixes.len);
    buf_release(&fixes);
    for (size_t i = 0; i < rec->diags.count; i++)
        writer_diag_text(out, rec->game, &rec->diags.items[i]);
}

/* A game whose start position is not set up (a bad FEN) is written as read: its move
 * tokens, which no uci line shows, must come back too (a '%' word at a line's start
 * would make an escape line of them) -- as text output writes them: a C1 control
 * character in a token (C2 80-9F is no delimiter) comes back as U+FFFD (ctrl.h). */
static void fw_raw_moves(struct buf *out, const struct pgn_game *g)
{
    buf_puts(out, "raw:");
    for (size_t k = 0; k < g->token_count; k++)
        if (g->tokens[k].kind == PGN_TOK_MOVE) {
            buf_putc(out, ' ');
            ctrl_put_clean(out, g->tokens[k].text, g->tokens[k].len);
        }
    buf_puts(out, "\n");
}

/*
 * Read data; append each game's uci text line to uci, its pgn output to pgn (when not
 * NULL), and run every writer over it when all is set.
 */
static void fw_read(struct game_replayer *rp, const char *data, size_t size, struct buf *uci,
                    struct buf *pgn, bool all)
{
    struct pgn_limits whole = {.part_tokens = SIZE_MAX};
    struct pgn_reader *r = pgn_reader_from_memory(data, size, "fuzz", &whole);
    FUZZ_ASSERT(r);
    struct buf scratch;
    buf_init(&scratch);
    struct pgn_game g;
    struct diag err;
    struct writer_options text = {.format = FORMAT_TEXT}, pgn_opts = {.format = FORMAT_PGN};
    while (pgn_reader_next(r, &g, &err) == 1) {
        const struct game_record *rec = game_replay(rp, &g);
        if (rec->status == GAME_SKIPPED)
            continue; /* not written as a game */
        writer_uci(uci, rec, &text);
        if (!rec->started)
            fw_raw_moves(uci, &g);
        if (pgn)
            writer_pgn(pgn, rec, &pgn_opts);
        if (all) {
            buf_clear(&scratch);
            fw_all_formats(&scratch, rec);
        }
    }
    buf_release(&scratch);
    pgn_reader_free(r);
}

/* Every writer's output of every game of data read with lim, into out. */
static void fw_collect(struct game_replayer *rp, const char *data, size_t size,
                       const struct pgn_limits *lim, struct buf *out)
{
    struct pgn_reader *r = pgn_reader_from_memory(data, size, "fuzz", lim);
    FUZZ_ASSERT(r);
    struct pgn_game g;
    struct diag err;
    while (pgn_reader_next(r, &g, &err) == 1)
        fw_all_formats(out, game_replay(rp, &g));
    pgn_reader_free(r);
}

/* The input read whole and in parts of 1 to 8 tokens: the same outputs. */
static void fw_parts(struct game_replayer *rp, const uint8_t *data, size_t size)
{
    struct pgn_limits whole = {.part_tokens = SIZE_MAX};
    struct pgn_limits parts = {.part_tokens = size ? 1 + data[0] % 8 : 1};
    struct buf a, b;
    buf_init(&a);
    buf_init(&b);
    fw_collect(rp, (const char *)data, size, &whole, &a);
    fw_collect(rp, (const char *)data, size, &parts, &b);
    if (a.len != b.len || (a.len && memcmp(a.data, b.data, a.len) != 0)) {
        size_t k = 0;
        while (k < a.len && k < b.len && a.data[k] == b.data[k])
            k++;
        fprintf(stderr, "parts of %zu tokens write otherwise than whole games, from byte "
                "%zu:\n--- whole:\n%.600s\n--- parts:\n%.600s\n", parts.part_tokens, k,
                a.data ? a.data + k : "", b.data ? b.data + k : "");
        abort();
    }
    buf_release(&a);
    buf_release(&b);
}

int FUZZ_ENTRY(const uint8_t *data, size_t size);
int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    static struct game_replayer *rp;
    if (!rp) {
        struct game_options opts = {0};
        struct diag err;
        rp = game_replayer_new(&opts, &err); /* kept for the process: the regex is costly */
        FUZZ_ASSERT(rp);
    }
    struct buf uci1, uci2, pgn1, pgn2;
    buf_init(&uci1);
    buf_init(&uci2);
    buf_init(&pgn1);
    buf_init(&pgn2);
    fw_read(rp, (const char *)data, size, &uci1, &pgn1, true);
    fw_read(rp, pgn1.data ? pgn1.data : "", pgn1.len, &uci2, &pgn2, false);
    if (uci1.len != uci2.len || (uci1.len && memcmp(uci1.data, uci2.data, uci1.len) != 0)) {
        fprintf(stderr, "pgn output read back gives other moves\n--- input moves:\n%.2000s\n"
                "--- moves of its pgn output:\n%.2000s\n--- pgn output:\n%.4000s\n",
                uci1.data ? uci1.data : "", uci2.data ? uci2.data : "",
                pgn1.data ? pgn1.data : "");
        abort();
    }
    buf_release(&uci1);
    buf_release(&uci2);
    buf_release(&pgn1);
    buf_release(&pgn2);
    fw_parts(rp, data, size);
    return 0;
}
