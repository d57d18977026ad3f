/*
 * test_fuzz_replay.c - every file of testdata/fuzz-corpus/<target>/ through its fuzz
 * harness, in the ordinary test build (gcc, asan): the fuzzers' findings stay fixed.
 *
 * Each harness is included with its entry point renamed (fuzz.h's FUZZ_ENTRY), and
 * tests/fuzz/replay.c without its main().
 */
#include <criterion/criterion.h>

#define REPLAY_NO_MAIN
#include "fuzz/replay.c"

#define FUZZ_ENTRY fuzz_pgn_reader_one
#include "fuzz/fuzz_pgn_reader.c"
#undef FUZZ_ENTRY

#define FUZZ_ENTRY fuzz_san_one
#include "fuzz/fuzz_san.c"
#undef FUZZ_ENTRY

#define FUZZ_ENTRY fuzz_fen_one
#include "fuzz/fuzz_fen.c"
#undef FUZZ_ENTRY

#define FUZZ_ENTRY fuzz_source_one
#include "fuzz/fuzz_source.c"
#undef FUZZ_ENTRY

#define FUZZ_ENTRY fuzz_writer_one
#include "fuzz/fuzz_writer.c"
#undef FUZZ_ENTRY

#define FUZZ_ENTRY fuzz_variant_one
#include "fuzz/fuzz_variant.c"
#undef FUZZ_ENTRY

#define FUZZ_ENTRY fuzz_where_one
#include "fuzz/fuzz_where.c"
#undef FUZZ_ENTRY

#define FUZZ_ENTRY fuzz_api_one
#include "fuzz/fuzz_api.c"
#undef FUZZ_ENTRY

TestSuite(fuzz_replay, .timeout = 300);

static void replay_target(const char *dir, replay_fn fn)
{
    long n = replay_path(dir, fn);
    cr_assert_geq(n, 1, "%s: no corpus files could be run", dir);
}

Test(fuzz_replay, pgn_reader) { replay_target("testdata/fuzz-corpus/pgn_reader", fuzz_pgn_reader_one); }
Test(fuzz_replay, san) { replay_target("testdata/fuzz-corpus/san", fuzz_san_one); }
Test(fuzz_replay, writer) { replay_target("testdata/fuzz-corpus/writer", fuzz_writer_one); }
Test(fuzz_replay, fen) { replay_target("testdata/fuzz-corpus/fen", fuzz_fen_one); }
Test(fuzz_replay, source) { replay_target("testdata/fuzz-corpus/source", fuzz_source_one); }
Test(fuzz_replay, variant) { replay_target("testdata/fuzz-corpus/variant", fuzz_variant_one); }
Test(fuzz_replay, where) { replay_target("testdata/fuzz-corpus/where", fuzz_where_one); }
Test(fuzz_replay, api) { replay_target("testdata/fuzz-corpus/api", fuzz_api_one); }

/* The harnesses accept every byte string, including the empty one. */
Test(fuzz_replay, empty_inputs)
{
    static const uint8_t nothing[1];
    fuzz_pgn_reader_one(nothing, 0);
    fuzz_san_one(nothing, 0);
    fuzz_fen_one(nothing, 0);
    fuzz_source_one(nothing, 0);
    fuzz_writer_one(nothing, 0);
    fuzz_variant_one(nothing, 0);
    fuzz_where_one(nothing, 0);
    fuzz_api_one(nothing, 0);
}
