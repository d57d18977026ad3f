/* output.c - standard output, or -o PATH replaced atomically or written directly
 * (see output.h for which and why), and the signal handlers that remove a temporary
 * file on the way out. */
#include "cli/output.h"
#include "cli/shown.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "base/xalloc.h"

/* ---- standard descriptors ---- */

void output_guard_std_fds(void)
{
    /* As gnulib's stdopen: 0 opened write-only and 1, 2 read-only, so a program that
     * uses a descriptor its caller closed gets an error, not /dev/null's silence. */
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
            continue;
        int got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
        if (got != fd) /* open returns the lowest free descriptor: fd */
            _exit(2);
    }
}

/* ---- signals: remove the temporary file, then die of the signal ---- */

/* Every signal whose default action ends the process, but those of a fault in pgnkit
 * itself (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS: a bug, left to the default
 * action and the sanitizers), SIGKILL and SIGSTOP (no handler can run) and SIGPIPE and
 * SIGXFSZ (ignored: main.c).  The real-time signals, SIGRTMIN to SIGRTMAX, too. */
static const int cleanup_signals[] = {
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
    SIGPROF, SIGXCPU,
#ifdef SIGPOLL
    SIGPOLL,
#endif
#ifdef SIGPWR
    SIGPWR,
#endif
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
};
enum { CLEANUP_SIGNAL_COUNT = sizeof cleanup_signals / sizeof *cleanup_signals };

/* The i-th signal to handle, for i from 0 while it is positive: the list, then the
 * real-time ones (SIGRTMIN is no constant: the C library keeps the first few). */
static int cleanup_signal(int i)
{
    if (i < CLEANUP_SIGNAL_COUNT)
        return cleanup_signals[i];
#ifdef SIGRTMIN
    if (SIGRTMIN + (i - CLEANUP_SIGNAL_COUNT) <= SIGRTMAX)
        return SIGRTMIN + (i - CLEANUP_SIGNAL_COUNT);
#endif
    return 0;
}

/* The temporary files that exist now (-o, --invalid-to, --split files, ...): the paths
 * the handler unlinks.  The CLI's own state, changed only with the signals blocked on
 * the main thread, the one thread that takes them (output_block_signals), so the
 * handler never sees it half changed. */
static const char **volatile cleanup_paths;
static volatile size_t cleanup_count;
static size_t cleanup_cap;

static void remove_temp_and_die(int sig)
{
    /* Async-signal-safe only: unlink, signal, raise.  The signal is blocked while the
     * handler runs, so the raise is delivered, with the default action, on return. */
    for (size_t i = 0; i < cleanup_count; i++)
        unlink(cleanup_paths[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void cleanup_signal_set(sigset_t *set)
{
    sigemptyset(set);
    for (int i = 0; cleanup_signal(i) > 0; i++)
        sigaddset(set, cleanup_signal(i));
}

void output_block_signals(sigset_t *saved)
{
    sigset_t set;
    cleanup_signal_set(&set);
    pthread_sigmask(SIG_BLOCK, &set, saved);
}

void output_restore_signals(const sigset_t *saved)
{
    pthread_sigmask(SIG_SETMASK, saved, NULL);
}

static void install_cleanup_handlers(void)
{
    static bool installed;
    if (installed)
        return;
    installed = true;
    for (int i = 0; cleanup_signal(i) > 0; i++) {
        int sig = cleanup_signal(i);
        struct sigaction old, sa;
        /* A signal ignored by whoever started us (nohup, `cmd &` in a script) stays so;
         * one with a handler already (none of ours installs one) keeps it. */
        if (sigaction(sig, NULL, &old) != 0 || old.sa_handler != SIG_DFL)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_temp_and_die;
        sigemptyset(&sa.sa_mask);
        sigaction(sig, &sa, NULL);
    }
}

/* Out of memory on any thread (xalloc_on_failure), or a fatal signal that the CLI
 * reports itself (a mapped input that shrank: input.c): the temporary files removed and
 * exit status 2 at once, the other threads not waited for (they may want memory too) and
 * nothing flushed: an abort was a death by SIGABRT, which scripts take for a crash.  The
 * cleanup signals are blocked first, so that their handler does not race this one. */
_Noreturn void output_die(void)
{
    sigset_t set;
    cleanup_signal_set(&set);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    for (size_t i = 0; i < cleanup_count; i++)
        unlink(cleanup_paths[i]);
    _exit(2);
}

void output_exit_on_out_of_memory(void)
{
    xalloc_on_failure(output_die);
}

/* With the signals blocked: path is now a temporary file to remove on a signal. */
static void arm_cleanup(const char *path)
{
    if (cleanup_count == cleanup_cap) {
        const char **grown = (const char **)cleanup_paths;
        xgrow((void **)&grown, &cleanup_cap, cleanup_count + 1, sizeof *grown);
        cleanup_paths = grown;
    }
    cleanup_paths[cleanup_count] = path;
    cleanup_count = cleanup_count + 1;
}

/* With the signals blocked: path is renamed or removed. */
static void disarm_cleanup(const char *path)
{
    for (size_t i = 0; i < cleanup_count; i++) {
        if (cleanup_paths[i] == path) {
            cleanup_paths[i] = cleanup_paths[cleanup_count - 1];
            cleanup_count = cleanup_count - 1;
            return;
        }
    }
}

/* ---- where -o PATH goes ---- */

char *output_final_target(const char *path, bool *magic)
{
    char *cur = xstrndup(path, strlen(path));
    *magic = false;
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        if (strncmp(cur, "/proc/", 6) == 0 || strncmp(cur, "/dev/fd/", 8) == 0)
            *magic = true;
        char link[PATH_MAX];
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            return cur;
        link[n] = '\0';
        const char *slash = strrchr(cur, '/');
        size_t dir_len = link[0] != '/' && slash ? (size_t)(slash - cur) + 1 : 0;
        char *next = xmalloc(dir_len + (size_t)n + 1);
        memcpy(next, cur, dir_len);
        memcpy(next + dir_len, link, (size_t)n + 1);
        free(cur);
        cur = next;
    }
    free(cur);
    errno = ELOOP;
    return NULL;
}

static int open_error(const char *what, const char *path)
{
    fprintf(stderr, "pgnkit: cannot %s %s: %s\n", what, shown(path), strerror(errno));
    return 2;
}

/* A socket at path: connect to it as a stream. */
static int connect_socket(const char *path)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof addr.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(addr.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        fd = -1;
    }
    return fd;
}

/* A FIFO, a device, a socket, or a descriptor named through /proc: written in place. */
static int open_direct(struct output *out, const struct stat *st)
{
    if (S_ISSOCK(st->st_mode))
        out->fd = connect_socket(out->path);
    else /* a regular file behind /dev/stdout: appended to, as the shell's >> or > left it */
        out->fd = open(out->path, O_WRONLY | O_CLOEXEC | (S_ISREG(st->st_mode) ? O_APPEND : 0));
    return out->fd < 0 ? open_error("open", out->path) : 0;
}

/* A regular file or nothing at out->target: a temporary file beside it, with the old
 * file's mode (or the mode a new file would get). */
static int open_temporary(struct output *out, const struct stat *old)
{
    size_t len = strlen(out->target);
    out->tmp_path = xmalloc(len + 16);
    snprintf(out->tmp_path, len + 16, "%s.tmp.XXXXXX", out->target);
    mode_t mask = umask(0);
    umask(mask);
    install_cleanup_handlers();
    sigset_t saved;
    output_block_signals(&saved); /* no signal between creating and arming */
    out->fd = mkstemp(out->tmp_path);
    if (out->fd >= 0)
        arm_cleanup(out->tmp_path);
    output_restore_signals(&saved);
    if (out->fd < 0) {
        int rc = open_error("create", out->tmp_path);
        free(out->tmp_path);
        out->tmp_path = NULL;
        return rc;
    }
    if (old) {
        if (fchown(out->fd, old->st_uid, old->st_gid) != 0) {
            /* Not ours to give away: the file becomes the caller's, like any new one. */
        }
        fchmod(out->fd, old->st_mode & 07777);
    } else {
        fchmod(out->fd, 0666 & ~mask);
    }
    return 0;
}

/* Done with out: a second commit or abort (split_finish() after a --split file was
 * committed) is then a no-op, as for standard output, and closes no reused descriptor. */
static void release(struct output *out)
{
    free(out->tmp_path);
    free(out->target);
    out->tmp_path = out->target = NULL;
    out->path = NULL;
    out->fd = -1;
}

/* A file its owner made read-only (no write bit at all: root is no exception) or that
 * this user may not write: replacing it by a rename would bypass what its mode says,
 * as cp and the shell's > refuse to. */
static bool read_only(const char *path, const struct stat *st)
{
    return (st->st_mode & 0222) == 0 || access(path, W_OK) != 0;
}

/* What output_open() does; on failure out may hold its target still. */
static int open_path(struct output *out, const char *path)
{
    out->path = path;
    bool magic;
    out->target = output_final_target(path, &magic);
    if (!out->target)
        return open_error("follow", path);
    struct stat st;
    bool exists = stat(out->target, &st) == 0;
    if (magic) {
        /* /dev/stdout and friends: what the descriptor is, not where its link points. */
        if (stat(path, &st) != 0)
            return open_error("open", path);
        exists = true;
    }
    if (exists && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "pgnkit: -o %s: it is a directory (try 'pgnkit --help')\n", shown(path));
        return 2;
    }
    if (magic || (exists && !S_ISREG(st.st_mode)))
        return open_direct(out, &st);
    if (exists && read_only(out->target, &st)) {
        fprintf(stderr, "pgnkit: %s is read-only (mode %04o): not replaced; make it writable "
                        "or remove it first\n", shown(out->target), (unsigned)(st.st_mode & 07777));
        return 2;
    }
    return open_temporary(out, exists ? &st : NULL);
}

int output_open(struct output *out, const char *path)
{
    memset(out, 0, sizeof *out);
    out->fd = STDOUT_FILENO;
    if (!path || strcmp(path, "-") == 0)
        return 0;
    int rc = open_path(out, path);
    if (rc)
        release(out);
    return rc;
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static const char *output_name(const struct output *out)
{
    return out->path ? out->path : "standard output";
}

int output_write(struct output *out, const char *bytes, size_t len)
{
    if (out->failed)
        return -1;
    if (len && write_all(out->fd, bytes, len) != 0) {
        out->failed = true;
        if (errno == EPIPE || errno == ECONNRESET)
            out->reader_gone = true;
        else
            fprintf(stderr, "pgnkit: cannot write to %s: %s\n", shown(output_name(out)),
                    strerror(errno));
        return -1;
    }
    return 0;
}

int output_flush(struct output *out, struct buf *b)
{
    int rc = output_write(out, b->data, b->len);
    buf_clear(b);
    return rc;
}

int output_park(struct output *out)
{
    if (!out->tmp_path || out->fd < 0)
        return 0;
    int rc = close(out->fd);
    out->fd = -1;
    if (rc != 0 && !out->failed) {
        out->failed = true;
        fprintf(stderr, "pgnkit: cannot write to %s: %s\n", shown(out->path), strerror(errno));
        return -1;
    }
    return 0;
}

int output_resume(struct output *out)
{
    if (!out->tmp_path || out->fd >= 0)
        return out->failed ? -1 : 0;
    out->fd = open(out->tmp_path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (out->fd < 0) {
        out->failed = true;
        fprintf(stderr, "pgnkit: cannot reopen %s: %s\n", shown(out->tmp_path), strerror(errno));
        return -1;
    }
    return out->failed ? -1 : 0;
}

/* fsync, but a file system that cannot (EINVAL: some FUSE and special ones) is no error:
 * there is nothing more to do there. */
static int sync_fd(int fd)
{
    return fsync(fd) == 0 || errno == EINVAL || errno == ENOTSUP ? 0 : -1;
}

int output_sync_dir(const char *target)
{
    const char *slash = strrchr(target, '/');
    char *dir = slash ? xstrndup(target, slash == target ? 1 : (size_t)(slash - target))
                      : xstrndup(".", 1);
    int rc = 0;
    /* A directory we may not read (mode 0300) cannot be opened to sync: nothing to do. */
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        if (sync_fd(fd) != 0) {
            fprintf(stderr, "pgnkit: cannot sync directory %s: %s\n", shown(dir),
                    strerror(errno));
            rc = -1;
        }
        close(fd);
    }
    free(dir);
    return rc;
}

int output_commit(struct output *out)
{
    int rc = 0;
    if (!out->path) {
        release(out);
        return 0;
    }
    /* A parked file is reopened to be synced.  The data reaches the disk before the
     * rename makes it the file's contents: a crash then leaves the old file or the new
     * one, never a new name with no data in it (as editors and databases do). */
    if (out->tmp_path && (output_resume(out) != 0 || sync_fd(out->fd) != 0)) {
        if (!out->failed)
            fprintf(stderr, "pgnkit: cannot write to %s: %s\n", shown(out->path),
                    strerror(errno));
        rc = -1;
    }
    if (out->fd >= 0 && close(out->fd) != 0 && rc == 0) { /* NFS and quotas may only tell here */
        fprintf(stderr, "pgnkit: cannot write to %s: %s\n", shown(out->path), strerror(errno));
        rc = -1;
    }
    out->fd = -1;
    if (out->tmp_path) {
        sigset_t saved;
        output_block_signals(&saved); /* renamed and disarmed, or neither */
        if (rc == 0 && rename(out->tmp_path, out->target) != 0) {
            fprintf(stderr, "pgnkit: cannot write %s: %s\n", shown(out->target), strerror(errno));
            rc = -1;
        }
        if (rc != 0)
            unlink(out->tmp_path);
        disarm_cleanup(out->tmp_path);
        output_restore_signals(&saved);
        /* The rename itself is on the disk once the directory is. */
        if (rc == 0 && !out->defer_dir_sync && output_sync_dir(out->target) != 0)
            rc = -1;
    }
    release(out);
    return rc;
}

void output_abort(struct output *out)
{
    if (out->path && out->fd >= 0)
        close(out->fd);
    if (out->tmp_path) {
        sigset_t saved;
        output_block_signals(&saved);
        unlink(out->tmp_path);
        disarm_cleanup(out->tmp_path);
        output_restore_signals(&saved);
    }
    release(out);
}

void output_flush_stderr(struct buf *b)
{
    if (b->len)
        (void)write_all(STDERR_FILENO, b->data, b->len);
    buf_clear(b);
}
