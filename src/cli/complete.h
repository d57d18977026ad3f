/*
 * complete.h - shell completion from the option table: `pgnkit --complete N WORD...`
 * prints the words that may stand at WORD[N] of the command line WORD... (WORD[0] is the
 * program), one per line and starting with what WORD[N] holds, or the one line ":files"
 * when a file name goes there.  share/bash-completion and share/zsh call it at each
 * <Tab>, so what they offer is what this binary's parser accepts, never a copy.
 */
#ifndef PGNKIT_CLI_COMPLETE_H
#define PGNKIT_CLI_COMPLETE_H

/** argv[0] is "--complete", argv[1] the index N, argv[2..] the words.  Returns 0, or 2
 *  when N is missing or not a number. */
int cmd_complete(int argc, char **argv);

#endif
