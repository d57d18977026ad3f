/* version.h - the release version as a string, printed by --version; the numbers live in
 * the public header pgnkit.h (one place to change). */
#ifndef PGNKIT_VERSION_H
#define PGNKIT_VERSION_H

#include "pgnkit/pgnkit.h"

#define PGNKIT_STRINGIFY_(x) #x
#define PGNKIT_STRINGIFY(x) PGNKIT_STRINGIFY_(x)
#define PGNKIT_VERSION                                                                            \
    PGNKIT_STRINGIFY(PGNKIT_VERSION_MAJOR) "." PGNKIT_STRINGIFY(PGNKIT_VERSION_MINOR) "."        \
        PGNKIT_STRINGIFY(PGNKIT_VERSION_PATCH)

#endif
