/* main.c - entry point: parse the command line, run the command, return its status. */
#include <signal.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli/commands.h"
#include "cli/complete.h"
#include "cli/config.h"
#include "cli/output.h"
#include "cli/run.h"

int main(int argc, char **argv)
{
    /* Before anything is opened: no input, output or temporary file may become fd 0, 1
     * or 2 (with 2>&- the diagnostics would go into it). */
    output_guard_std_fds();
    output_exit_on_out_of_memory();
    /* A closed standard output is a write error (EPIPE), handled quietly in output.c,
     * not a death by signal; a file past `ulimit -f` is one too (EFBIG), with a message
     * and the temporary file removed. */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
#if defined(__GLIBC__)
    /* One malloc arena for every thread.  glibc gives each new thread an arena of its own
     * (up to 8 per core), and memory freed in one is never reused by another: at --jobs 16
     * that was ~2 MB more peak RSS (30 MB of TWIC).  The threads allocate rarely (their
     * buffers are reused chunk after chunk: ~3 calls per game at most, pgn --add-tags), so
     * sharing the lock costs nothing measurable (CPU time at -j2 and -j8 within the VM's
     * noise; callgrind, -j2 pgn --add-tags on 5 MB: 548.6 -> 544.1 M instructions, with
     * libarchive's start-up saved: libarchive_dl.h). */
    mallopt(M_ARENA_MAX, 1);
#endif
    /* The shell completion scripts ask here what may go at a place of the command line
     * (complete.h); not in --help: people type <Tab>, not this. */
    if (argc >= 2 && strcmp(argv[1], "--complete") == 0)
        return cmd_complete(argc - 1, argv + 1);
    /* perft takes a FEN and a depth, not files: it has its own small parser. */
    if (argc >= 2 && strcmp(argv[1], "perft") == 0)
        return cmd_perft(argc - 1, argv + 1);
    /* summary adds up --summary-json files: no PGN input, its own small parser too. */
    if (argc >= 2 && strcmp(argv[1], "summary") == 0)
        return cmd_summary(argc - 1, argv + 1);
    struct config cfg;
    int rc = options_parse(argc, argv, &cfg);
    if (rc) {
        config_release(&cfg);
        return rc < 0 ? 0 : rc;
    }
    rc = run(&cfg);
    config_release(&cfg);
    return rc;
}
