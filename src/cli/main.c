/* main.c - minimal entry point: dispatches subcommands (the full CLI replaces this). */
#include <stdio.h>
#include <string.h>

#include "commands.h"

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "perft") == 0)
        return cmd_perft(argc - 1, argv + 1);
    fputs("pgnkit: usage: pgnkit perft FEN DEPTH [--divide]\n", stderr);
    return 2;
}
