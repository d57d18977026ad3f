/* commands.h - the subcommands main.c dispatches to; each returns the exit status. */
#ifndef PGNKIT_CLI_COMMANDS_H
#define PGNKIT_CLI_COMMANDS_H

/** pgnkit perft FEN DEPTH [--divide]; argv[0] is "perft". */
int cmd_perft(int argc, char **argv);

#endif
