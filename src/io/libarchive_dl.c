/*
 * libarchive_dl.c - libarchive opened at the first archive (libarchive_dl.h says why).
 *
 * The one piece of process-wide state in the library besides attacks.c's tables: the
 * function table, written once under pthread_once and only read after that.
 */
#include "io/libarchive_dl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* libarchive 3.x's soname, stable since 2012 (3.0). */
#ifndef LIBARCHIVE_SONAME
#define LIBARCHIVE_SONAME "libarchive.so.13"
#endif

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static struct libarchive_api api;
static const char *load_error; /* NULL once every function was found */
static char load_error_buf[160];

static void load(void)
{
    /* RTLD_LOCAL: its symbols (and its dependencies') stay out of the global scope. */
    void *h = dlopen(LIBARCHIVE_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        load_error = "libarchive (" LIBARCHIVE_SONAME ") cannot be loaded: is it installed?";
        return;
    }
    /* POSIX's way to take a function pointer from dlsym (a void * cast is not ISO C). */
#define LIBARCHIVE_LOAD(f)                                                                     \
    *(void **)&api.f = dlsym(h, #f);                                                           \
    if (!api.f) {                                                                              \
        snprintf(load_error_buf, sizeof load_error_buf,                                        \
                 LIBARCHIVE_SONAME " has no %s: too old a libarchive", #f);                    \
        load_error = load_error_buf;                                                           \
        return;                                                                                \
    }
    LIBARCHIVE_FUNCS(LIBARCHIVE_LOAD)
#undef LIBARCHIVE_LOAD
    /* h stays open for the process's life: the functions are used until it ends. */
}

const struct libarchive_api *libarchive_dl(const char **why)
{
    pthread_once(&load_once, load);
    if (load_error) {
        *why = load_error;
        return NULL;
    }
    return &api;
}
