/* writer_pgn.c - placeholder: normalized PGN output is being written (issue 4). */
#include "pgnkit/writer.h"

void writer_pgn(struct buf *out, const struct game_record *rec, const struct writer_options *o)
{
    (void)out;
    (void)rec;
    (void)o;
}
