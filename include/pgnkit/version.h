/* version.h - the release version, printed by --version. */
#ifndef PGNKIT_VERSION_H
#define PGNKIT_VERSION_H

#define PGNKIT_VERSION "0.1.0"

#endif
