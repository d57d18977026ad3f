/* commands.h - the subcommands main.c dispatches to; each returns the exit status. */
#ifndef PGNKIT_CLI_COMMANDS_H
#define PGNKIT_CLI_COMMANDS_H

/** pgnkit perft FEN DEPTH [--divide]; argv[0] is "perft". */
int cmd_perft(int argc, char **argv);

/** pgnkit summary [--format text|json] [--fail-on LEVEL] FILE...; argv[0] is "summary". */
int cmd_summary(int argc, char **argv);

#endif
