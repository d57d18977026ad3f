/*
 * qemu_execve.c - lets Criterion's workers start under qemu-user without binfmt_misc.
 *
 * Linked only into the aarch64 unit tests of make test-cross (scripts/test-cross.sh).
 * Criterion runs every test in a worker process that BoxFort starts by fork() and then
 * execve("/proc/self/exe", {"boxfort-worker"}, env).  Under qemu-user that execve goes to
 * the host kernel, which cannot run an aarch64 program unless binfmt_misc hands it to
 * qemu — a kernel-wide setting a container (CI) may not have and a test should not make.
 * So this execve, which the executable's definition puts ahead of libc's for
 * libcriterion's call, does what binfmt_misc would: when $PGNKIT_CROSS_QEMU names the
 * emulator and the program is an aarch64 ELF, it executes the emulator on the program
 * (with -0 to keep argv[0], which BoxFort reads).  Everything else — and every exec when
 * the variable is unset — is the plain system call.  The environment goes through
 * unchanged: BoxFort's BXFI_MAP, and QEMU_LD_PREFIX when the script sets one.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int execve(const char *path, char *const argv[], char *const envp[]);

enum { MAX_ARGS = 256 };

static int is_aarch64_elf(const char *path)
{
    Elf64_Ehdr eh;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, &eh, sizeof eh);
    close(fd);
    return n == (ssize_t)sizeof eh && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
           eh.e_machine == EM_AARCH64;
}

int execve(const char *path, char *const argv[], char *const envp[])
{
    const char *qemu = getenv("PGNKIT_CROSS_QEMU");
    char exe[PATH_MAX];
    /* qemu-user answers readlink("/proc/self/exe") with the guest program's path. */
    if (qemu && *qemu && strcmp(path, "/proc/self/exe") == 0) {
        ssize_t n = readlink(path, exe, sizeof exe - 1);
        if (n > 0) {
            exe[n] = '\0';
            path = exe;
        }
    }
    if (!qemu || !*qemu || !is_aarch64_elf(path))
        return (int)syscall(SYS_execve, path, argv, envp);
    char *args[MAX_ARGS];
    int k = 0;
    args[k++] = (char *)qemu;
    args[k++] = (char *)"-0";
    args[k++] = argv[0] ? argv[0] : (char *)path;
    args[k++] = (char *)path;
    for (int i = 1; argv[0] && argv[i]; i++) {
        if (k == MAX_ARGS - 1) {
            errno = E2BIG;
            return -1;
        }
        args[k++] = argv[i];
    }
    args[k] = NULL;
    return (int)syscall(SYS_execve, qemu, args, envp);
}
