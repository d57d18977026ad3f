/* encoding_note.c - the first ENCODING diagnostic of a file, said once with a count. */
#include "cli/encoding_note.h"

#include <stdio.h>
#include <string.h>

#include "write/writer.h"

void encoding_note_keep(struct encoding_note *n, const struct game_record *rec)
{
    if (n->set)
        return;
    for (size_t i = 0; i < rec->diags.count; i++) {
        if (rec->diags.items[i].code != DIAG_ENCODING)
            continue;
        n->set = true;
        n->diag = rec->diags.items[i];
        n->file = rec->game->file;
        n->index = rec->game->index;
        n->offset = rec->game->offset;
        return;
    }
}

void encoding_note_merge(struct encoding_note *to, const struct encoding_note *from)
{
    if (!to->set && from->set)
        *to = *from;
}

void encoding_note_put(struct encoding_note *n, uint64_t games, bool json, struct buf *out)
{
    if (!n->set)
        return;
    struct diag d = n->diag;
    size_t len = strlen(d.message);
    if (games > 1)
        snprintf(d.message + len, sizeof d.message - len,
                 "; so %s %llu more game%s of this file (said once per file)",
                 games == 2 ? "was" : "were", (unsigned long long)(games - 1),
                 games == 2 ? "" : "s");
    /* The writer needs only these of the game: its file, index and offset. */
    struct pgn_game g;
    memset(&g, 0, sizeof g);
    g.file = n->file;
    g.index = n->index;
    g.offset = n->offset;
    if (json) {
        writer_diag_json_line(out, &g, &d);
    } else {
        writer_diag_text(out, &g, &d);
    }
    memset(n, 0, sizeof *n);
}
