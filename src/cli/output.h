/*
 * output.h - where stdout-bound bytes go: standard output, or -o PATH.
 *
 * What -o PATH does depends on what is there:
 *   nothing or a regular file  written under a temporary name in the same directory and
 *                              renamed over PATH at the end (an old file's mode kept), so
 *                              a failed or interrupted run never leaves a half file;
 *   a symbolic link            the same for the file the link finally points to: the
 *                              link stays a link;
 *   a FIFO, a character or     written directly (opened, or for a socket connected):
 *   block device, a socket     never renamed over, never replaced by a regular file;
 *   a directory                refused: output_open() returns 2 (a usage error);
 *   a read-only file           refused (2) too: no write bit in its mode, or not
 *                              writable by this user (root included).
 * The temporary file is fsync'ed before the rename and its directory after it, so a
 * crash leaves the old file or the whole new one.
 * Every signal that would end the process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT,
 * SIGUSR1/2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, the real-time ones...; not those of
 * a fault, SIGSEGV and the like) removes every temporary file that exists (one per open
 * output: -o, --invalid-to, --split files...) and the process then dies of the same
 * signal.  Outputs are opened and finished on the main thread; a thread
 * is started with output_block_signals() in force, so only the main thread takes them.  SIGXFSZ is ignored: a file over
 * `ulimit -f` is a write error (EFBIG) like a full disk.
 */
#ifndef PGNKIT_CLI_OUTPUT_H
#define PGNKIT_CLI_OUTPUT_H

#include <signal.h>
#include <stdbool.h>

#include "base/buf.h"

enum { OUTPUT_FLUSH_BYTES = 1 << 16 };

struct output {
    int fd;
    const char *path;  /* as given; NULL for standard output */
    char *target;      /* where the rename goes (path, or a symlink's final target) */
    char *tmp_path;    /* the temporary file, or NULL when written directly */
    bool failed;       /* a write failed (reported once): later flushes drop their bytes */
    bool reader_gone;  /* the write failed with EPIPE: the reader chose to stop */
    bool defer_dir_sync; /* output_commit leaves the directory's fsync to the caller */
};

/* The file a chain of symbolic links starting at path finally names (path itself when it
 * is no link; a new string); it need not exist.  NULL with errno set (ELOOP) when the
 * chain does not end.  *magic is set when a link goes through /proc or /dev/fd
 * (/dev/stdout): those name open descriptors, whose "targets" are no paths to rename
 * over. */
char *output_final_target(const char *path, bool *magic);

/* Make sure file descriptors 0, 1 and 2 are open (on /dev/null, the wrong way round so
 * that using them fails: read from 0 or write to 1 is EBADF, writes to 2 vanish), so
 * that no file the program opens later gets one of them.  Call first thing in main(). */
void output_guard_std_fds(void);

/* Open the output.  0, or 2 after printing why (a directory, a missing directory, no
 * permission, a socket nobody listens on). */
int output_open(struct output *out, const char *path);
/* Write and clear b; returns 0, or -1 after printing the error (then exit status 2).
 * The error is printed once; a closed pipe (EPIPE: pgnkit uci | head -1) is not
 * printed at all and sets reader_gone: the run stops with the status it had. */
int output_flush(struct output *out, struct buf *b);
/* Write len bytes (same errors as output_flush). */
int output_write(struct output *out, const char *bytes, size_t len);
/* Finish: close, and rename into place when written under a temporary name.  0 or -1
 * after printing the error (the temporary file is then removed). */
int output_commit(struct output *out);
/* Close the temporary file without renaming it (to spare a descriptor), and open it
 * again to append (output_resume) before the next write; output_commit and
 * output_abort take a parked output too.  0 or -1 after printing the error. */
int output_park(struct output *out);
int output_resume(struct output *out);
/* fsync the directory target is in (after renames into it with defer_dir_sync set).
 * 0 or -1 after printing the error. */
int output_sync_dir(const char *target);
/* Remove the temporary file after a failure (nothing to do for direct output). */
void output_abort(struct output *out);
/* Write b to standard error and clear it (errors there are ignored). */
void output_flush_stderr(struct buf *b);

/* Block (in *saved, the mask to restore) the signals that remove the temporary file,
 * around pthread_create: threads inherit the mask, so only the main thread takes them
 * and the rename in output_commit() cannot race with a handler on another thread. */
void output_block_signals(sigset_t *saved);
void output_restore_signals(const sigset_t *saved);

/** Out of memory, on any thread, ends the run with exit status 2 and the temporary
 *  files removed (xalloc_on_failure), not with SIGABRT.  Once, before any thread. */
void output_exit_on_out_of_memory(void);
/* The temporary files removed and exit status 2 at once, the other threads not waited
 * for and nothing flushed; async-signal-safe (a fatal signal's handler may call it). */
_Noreturn void output_die(void);

#endif
