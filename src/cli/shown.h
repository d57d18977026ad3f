/*
 * shown.h - the user's strings as messages show them.
 *
 * File names and option arguments are bytes the user (or a download) chose: a name can
 * hold a terminal escape (ESC, or the C1 control U+009B) or a line end that would forge a
 * line of its own in a log.  Messages on stderr show each such character as U+FFFD, as the
 * diagnostics already do with the file names they carry (ctrl.h); the file is still
 * opened by its real name.
 */
#ifndef PGNKIT_CLI_SHOWN_H
#define PGNKIT_CLI_SHOWN_H

#include <stdarg.h>
#include <stdio.h>

/** s as a message shows it: s itself when it holds no control character (C0, tab and line
 * ends included; DEL; C1), else a cleaned copy kept until the process ends.  Thread-safe. */
const char *shown(const char *s);

/** vfprintf(f, fmt, ap) of a one-line message, every control character of the formatted
 * text shown as U+FFFD (the caller writes the line end). */
void shown_vprint(FILE *f, const char *fmt, va_list ap);

#endif
