/* main.c - placeholder entry point until the CLI lands (see issue 3). */
#include <stdio.h>

int main(void)
{
    fputs("pgnkit: not yet built\n", stderr);
    return 2;
}
