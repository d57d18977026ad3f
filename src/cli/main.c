/* main.c - entry point: parse the command line, run the command, return its status. */
#include <signal.h>
#include <string.h>

#include "commands.h"
#include "config.h"
#include "output.h"
#include "run.h"

int main(int argc, char **argv)
{
    /* Before anything is opened: no input, output or temporary file may become fd 0, 1
     * or 2 (with 2>&- the diagnostics would go into it). */
    output_guard_std_fds();
    /* A closed standard output is a write error (EPIPE), handled quietly in output.c,
     * not a death by signal; a file past `ulimit -f` is one too (EFBIG), with a message
     * and the temporary file removed. */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
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
