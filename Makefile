# pgnkit - one non-recursive GNU Makefile.
#
#   make            build build/$(BUILD)/pgnkit (BUILD=release by default)
#   make test       install missing packages, build, run every test (unit, CLI, corpus)
#   make test-generic the unit tests built without -march (the SSE2/scalar fallbacks)
#   make asan       the whole test suite under ASan + UBSan
#   make tsan       the threaded tests (--jobs, decoding thread) under ThreadSanitizer
#   make demo       build and run the main job on bundled sample data
#   make bench      throughput side by side with pgn-extract, perft vs stockfish
#   make check-slow every perft depth, large inputs
#   make deb        the Debian packages (debian/) from a clean clone of HEAD, in build/deb/
#   make test-deb   build them, dpkg -i, check the installed binary, man page, completion,
#                   Python module and C library, dpkg -r (root; scripts/test-deb.sh)
#   make test-cross gcc-aarch64-linux-gnu build under qemu-user: = native output, unit,
#                   golden and --jobs tests (root)
#   make test-scale Dask and GNU parallel over ssh on loopback: ranges and files merged = one run
#   make check-man  lint man/pgnkit.1
#   make fuzz       FUZZ_SECONDS=600: each libFuzzer target in turn (clang, build/fuzz/)
#   make check-leaks valgrind over the PGN corpus with every command (build/debug/)
#   make lib        the installable library: build/lib/libpgnkit.{a,so.N}
#   make python     the Python module build/python/pgnkit.so (Debian's python3-dev)
#   make install    PREFIX=/usr/local DESTDIR= (binary, man page, bash and zsh completion,
#                   library, headers,
#                   pgnkit.pc, docs/api.md and docs/python.md, and the Python module when
#                   it can be built, where PYTHON (Debian's python3) imports it)

BUILD ?= release
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
# Shell completion (completion/: both ask the binary, pgnkit --complete).  Debian's zsh
# reads /usr/share/zsh/vendor-completions for packages (debian/rules sets it).
BASH_COMPLETIONS ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETIONS ?= $(PREFIX)/share/zsh/site-functions
DESTDIR ?=
CC ?= cc

OUT := build/$(BUILD)

PKGS := libpcre2-8 libzstd zlib
# libarchive: its headers only; src/io/libarchive_dl.c opens it (dlopen) at the first input
# that needs it, since linking it loads libxml2, ICU and libstdc++ into every run (~2.5 MB).
PKGS_DLOPEN := libarchive
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) $(PKGS_DLOPEN) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CRITERION_CFLAGS = $(shell pkg-config --cflags criterion 2>/dev/null)
CRITERION_LIBS = $(shell pkg-config --libs criterion 2>/dev/null)

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wwrite-strings \
        -Wformat=2 -Wno-format-nonliteral
ifeq ($(WERROR),1)
WARN += -Werror
endif

# Release: the SAN hot path spans modules (reader, SAN, movegen), so LTO matters (~2x).
# ARCH: the CPUs the binary runs on.  On x86-64 the default is x86-64-v2 (SSE4.2, SSSE3,
# POPCNT: Nehalem and every x86-64 CPU since 2009), and the byte scanners' AVX2 paths are
# chosen at run time (src/base/cpu.h: DISPATCH_SRCS below are compiled twice), as are the
# PEXT slider lookups (inline asm).  ARCH=-march=native builds for this machine only (BMI2,
# AVX2 and AVX-512 everywhere the compiler finds use), ARCH= for the compiler's default.
# Override LTO= to disable LTO.
TARGET_X86_64 := $(filter x86_64-%,$(shell $(CC) -dumpmachine 2>/dev/null))
ifneq ($(TARGET_X86_64),)
ARCH ?= -march=x86-64-v2
else
ARCH ?=
endif
LTO ?= -flto=auto
PROFILE_CFLAGS_release = -O3 -g -DNDEBUG $(ARCH) $(LTO)
PROFILE_LDFLAGS_release = $(ARCH) $(LTO) -O3
# Release builds are profile-guided: build/pgo-gen (instrumented) replays testdata/pgn
# once (scripts/pgo-train.sh) and the release objects are compiled with that profile,
# worth 2-3% now that the hot paths are tuned by hand (15-25% before).  PGO=0: off.
PGO ?= 1
PROFILE_CFLAGS_pgo-gen = -O3 -g -DNDEBUG $(ARCH) $(LTO) -fprofile-generate -fprofile-update=prefer-atomic \
                          --param=profile-func-internal-id=1
PROFILE_LDFLAGS_pgo-gen = $(ARCH) $(LTO) -O3 -fprofile-generate
ifeq ($(BUILD)$(PGO),release1)
PROFILE_CFLAGS_release += -fprofile-use -fprofile-partial-training -fprofile-correction -Wno-missing-profile \
                          --param=profile-func-internal-id=1
endif
# callgrind: release code valgrind can run (no AVX-512), for instruction counts.
PROFILE_CFLAGS_callgrind = -O3 -g -DNDEBUG -march=x86-64-v3 $(LTO)
PROFILE_LDFLAGS_callgrind = -march=x86-64-v3 $(LTO) -O3
PROFILE_CFLAGS_debug := -O0 -g3
# generic: what a distribution's x86-64 (or any other) package compiles: no -march, so
# SSE2 at most on x86-64 — the lexer without its SSSE3 windows, the scalar FEN ranks,
# magic-bitboard sliders instead of PEXT (the AVX2 twins are still dispatched to) —
# with assertions on.  make
# test-generic runs the unit tests on it (in .ci/run), so the fallbacks that ship are
# tested, not only the vector paths of this machine.
PROFILE_CFLAGS_generic := -O2 -g
PROFILE_LDFLAGS_generic := -O2
# The sanitized builds (asan, tsan, fuzz) take $(ARCH) as the release build does, so they
# run what ships: the SSSE3 paths of the x86-64-v2 baseline (fen.c, the lexer's windows)
# and, through the run-time dispatch, the AVX2 ones (pgn_lexer_fast.c, ctrl.c,
# pgn_split.c, pgn_text.c).  The debug build (make check-leaks) keeps the SSE2
# fallbacks: no $(ARCH) there.
PROFILE_CFLAGS_asan := -O1 -g $(ARCH) -fsanitize=address,undefined -fno-sanitize-recover=all \
                       -fno-omit-frame-pointer
PROFILE_LDFLAGS_asan := $(ARCH) -fsanitize=address,undefined
PROFILE_CFLAGS_tsan := -O1 -g $(ARCH) -fsanitize=thread -fno-omit-frame-pointer
PROFILE_LDFLAGS_tsan := $(ARCH) -fsanitize=thread
# fuzz: clang only (make fuzz sets CC=clang); the library is instrumented for libFuzzer,
# which links only into build/fuzz/fuzz/fuzz_<target>.
PROFILE_CFLAGS_fuzz := -O1 -g $(ARCH) -fsanitize=fuzzer-no-link,address,undefined \
                       -fno-sanitize-recover=all -fno-omit-frame-pointer
PROFILE_LDFLAGS_fuzz := $(ARCH) -fsanitize=address,undefined

PGNKIT_CPPFLAGS := -Isrc -Iinclude -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
PGNKIT_CFLAGS = -std=c11 $(WARN) $(PROFILE_CFLAGS_$(BUILD)) -pthread -MMD -MP $(PKG_CFLAGS)
PGNKIT_LDFLAGS = $(PROFILE_LDFLAGS_$(BUILD)) -pthread
ALL_CFLAGS = $(PGNKIT_CPPFLAGS) $(CPPFLAGS) $(PGNKIT_CFLAGS) $(CFLAGS)

# The library: every module folder of src/ (base, board, san, pgn, io, game, write) and
# the API facade src/api.c; the CLI (src/cli/) links it.
LIB_DIRS := base board san pgn io game write
LIB_SRCS := $(sort $(foreach d,$(LIB_DIRS),$(wildcard src/$(d)/*.c))) src/api.c
CLI_SRCS := $(sort $(wildcard src/cli/*.c))
TEST_SRCS := $(sort $(wildcard tests/test_*.c))
TEST_HELPER_SRCS := $(sort $(wildcard tests/helpers/*.c))

LIB_OBJS := $(LIB_SRCS:%.c=$(OUT)/obj/%.o)
# Run-time CPU dispatch (src/base/cpu.h): on x86-64 these sources are compiled once more
# for AVX2 (obj/X.avx2.o, PGNKIT_VARIANT_AVX2 renames their entry points), and
# PGNKIT_DISPATCH_AVX2 tells their callers the copies are there.  Every build on x86-64
# has them (release, generic, the sanitizers, fuzz), so every build tests both.
DISPATCH_SRCS := src/pgn/pgn_lexer_fast.c
AVX2_FLAGS := -mavx2 -mbmi -mbmi2 -mpopcnt -DPGNKIT_VARIANT_AVX2
ifneq ($(TARGET_X86_64),)
PGNKIT_CPPFLAGS += -DPGNKIT_DISPATCH_AVX2
LIB_OBJS += $(DISPATCH_SRCS:%.c=$(OUT)/obj/%.avx2.o)
endif
CLI_OBJS := $(CLI_SRCS:%.c=$(OUT)/obj/%.o)
TEST_HELPER_OBJS := $(TEST_HELPER_SRCS:%.c=$(OUT)/obj/%.o)
TEST_BINS := $(TEST_SRCS:tests/%.c=$(OUT)/tests/%)

LIB := $(OUT)/libpgnkit.a
BIN := $(OUT)/pgnkit

.SECONDARY:

.PHONY: lib python test-python install-lib install-python install-docs deb test-deb test-cross
.PHONY: all deps test check check-update test-unit test-generic test-cli asan tsan demo bench check-slow install uninstall test-scale \
        clean check-man fuzz check-leaks

all: $(BIN)

$(OUT)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(OUT)/obj/%.avx2.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(AVX2_FLAGS) -c $< -o $@

ifeq ($(BUILD)$(PGO),release1)
# Every release object is compiled from the profile, so any source change retrains.
$(LIB_OBJS) $(CLI_OBJS): $(OUT)/pgo.stamp
$(OUT)/pgo.stamp: $(LIB_SRCS) $(CLI_SRCS) $(wildcard include/pgnkit/*.h src/*.h src/*/*.h) \
                  scripts/pgo-train.sh
	@$(MAKE) --no-print-directory BUILD=pgo-gen PGO=0 build/pgo-gen/pgnkit
	@mkdir -p $(@D)
	sh scripts/pgo-train.sh build/pgo-gen $(OUT)
	@touch $@
endif

$(LIB): $(LIB_OBJS) $(OUT)/obj/gen/opening_book.o
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(CLI_OBJS) $(LIB)
	$(CC) $(PGNKIT_LDFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJS) $(LIB) $(PKG_LIBS) -lm
	@echo '$(filter -march=%,$(PGNKIT_CFLAGS) $(CFLAGS))' >$(OUT)/march

# The opening book is compiled in: tools/gen_openings (linked with the library's modules,
# not the API, which classifies with the book) replays every line of data/openings/*.tsv
# and writes the tables as C source, so neither the program nor the library (which holds
# the book: the API's classify option) needs a data file at run time.
OPENING_TSVS := $(sort $(wildcard data/openings/*.tsv))
BOOK_TOOL_OBJS := $(filter-out $(OUT)/obj/src/api.o,$(LIB_OBJS))

# It runs on the build machine, so CC_FOR_BUILD compiles it: a cross build's CC makes
# programs this machine may not run.  When CC_FOR_BUILD is CC (a native build with the
# default compiler) it links this build's library objects; otherwise those are compiled
# once more for the build machine, in $(OUT)/host/ (plain -O2: no -march, LTO or
# profile).  Either way without src/api.c, which needs the book this tool makes.
CC_FOR_BUILD ?= cc
PKG_CONFIG_FOR_BUILD ?= pkg-config
ifeq ($(CC_FOR_BUILD),$(CC))
HOST_OBJ := $(OUT)/obj
HOST_TOOL_OBJS := $(BOOK_TOOL_OBJS)
HOST_LDFLAGS = $(PGNKIT_LDFLAGS) $(LDFLAGS)
HOST_LIBS = $(PKG_LIBS)
else
HOST_OBJ := $(OUT)/host/obj
HOST_TOOL_OBJS := $(filter-out $(OUT)/host/obj/src/api.o,$(LIB_SRCS:%.c=$(OUT)/host/obj/%.o))
# No run-time dispatch here: the host objects have no AVX2 copy of DISPATCH_SRCS.
HOST_CFLAGS = $(filter-out -DPGNKIT_DISPATCH_AVX2,$(PGNKIT_CPPFLAGS)) -std=c11 $(WARN) -O2 -g -pthread -MMD -MP \
              $(shell $(PKG_CONFIG_FOR_BUILD) --cflags $(PKGS) $(PKGS_DLOPEN) 2>/dev/null)
HOST_LDFLAGS = -pthread
HOST_LIBS = $(shell $(PKG_CONFIG_FOR_BUILD) --libs $(PKGS) 2>/dev/null)

$(OUT)/host/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC_FOR_BUILD) $(HOST_CFLAGS) -c $< -o $@
endif

$(OUT)/tools/gen_openings: $(HOST_OBJ)/tools/gen_openings.o $(HOST_TOOL_OBJS)
	@mkdir -p $(@D)
	$(CC_FOR_BUILD) $(HOST_LDFLAGS) -o $@ $^ $(HOST_LIBS) -lm

$(OUT)/gen/opening_book.c: $(OUT)/tools/gen_openings $(OPENING_TSVS)
	@mkdir -p $(@D)
	$(OUT)/tools/gen_openings $(OPENING_TSVS) >$@.tmp && mv $@.tmp $@

$(OUT)/obj/gen/opening_book.o: $(OUT)/gen/opening_book.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(OUT)/tests/%: $(OUT)/obj/tests/%.o $(TEST_HELPER_OBJS) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(PGNKIT_LDFLAGS) $(LDFLAGS) -o $@ $< $(TEST_HELPER_OBJS) $(LIB) $(CRITERION_LIBS) \
	    $(PKG_LIBS) -lm

# Criterion registers tests (and parameter tables) in ELF sections that LTO would drop.
$(OUT)/obj/tests/%.o: ALL_CFLAGS += $(CRITERION_CFLAGS) -Itests -fno-lto

# Fuzzing (tests/fuzz/): libFuzzer binaries, and replay_<target> (a plain main() over
# corpus files, any profile) to reproduce a crash with gcc, gdb or valgrind.
FUZZ_TARGETS := pgn_reader san fen source writer variant where api
FUZZ_SECONDS ?= 60
# FUZZ_SEED=N: libFuzzer from a fixed seed (empty: a new seed each run)
FUZZ_SEED ?=

$(OUT)/fuzz/fuzz_%: $(OUT)/obj/tests/fuzz/fuzz_%.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(PGNKIT_LDFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $< $(LIB) $(PKG_LIBS) -lm

$(OUT)/fuzz/replay_%: $(OUT)/obj/tests/fuzz/replay.o $(OUT)/obj/tests/fuzz/fuzz_%.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(PGNKIT_LDFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

# On a fresh Debian machine: apt-get install of libpcre2-dev, libcriterion-dev, pkg-config,
# libzstd-dev, zlib1g-dev, libarchive-dev, libacl1-dev, liblz4-dev (and mandoc, zstd, parallel, python3, zip,
# bzip2, xz-utils, p7zip-full, tar for the tests), only what is missing, done by
# scripts/ensure-deps.sh.
deps:
	@sh scripts/ensure-deps.sh test

# The README's test command.  Installs what is missing, then builds and runs everything.
test: deps
	@$(MAKE) --no-print-directory check

check: $(BIN) $(TEST_BINS)
	@sh scripts/run-tests.sh $(OUT)

# Rewrite the golden CLI expectations (tests/cli/cases/*.std{out,err}, *.exit) from the
# current binary; review the diff before committing.
check-update: $(BIN)
	@PGNKIT=$(BIN) sh tests/cli/golden.sh --update

test-unit: $(TEST_BINS)
	@sh scripts/run-tests.sh $(OUT) unit

# The unit tests on the generic build (no -march: the fallback paths; see above).
test-generic:
	@sh scripts/ensure-deps.sh test
	@$(MAKE) --no-print-directory BUILD=generic test-unit

asan:
	@sh scripts/ensure-deps.sh test
	@$(MAKE) --no-print-directory BUILD=asan check

# The pipeline's threads and the decoding thread (compressed input, archives, at -j1
# and -j2) under ThreadSanitizer: a race report changes stderr and the exit status,
# which the tests compare with --jobs 1 or the plain file.
TSAN_TESTS := tests/cli/jobs.sh tests/cli/chunks.sh tests/cli/route.sh tests/cli/compressed.sh \
              tests/cli/archives.sh
tsan:
	@sh scripts/ensure-deps.sh test
	@$(MAKE) --no-print-directory BUILD=tsan build/tsan/pgnkit
	@for t in $(TSAN_TESTS); do \
	    PGNKIT=build/tsan/pgnkit TSAN_OPTIONS=halt_on_error=1:exitcode=66 CHUNKS_QUICK=1 sh $$t \
	        >build/tsan/$$(basename $$t .sh).log 2>&1 || { tail -n 30 build/tsan/$$(basename $$t .sh).log; exit 1; }; \
	    echo "tsan $$(basename $$t .sh): $$(tail -n 1 build/tsan/$$(basename $$t .sh).log)"; done

demo:
	@sh scripts/ensure-deps.sh build
	@$(MAKE) --no-print-directory all
	@sh scripts/demo.sh $(BIN)

fuzz:
	@sh scripts/ensure-deps.sh fuzz
	@$(MAKE) --no-print-directory BUILD=fuzz CC=clang \
	    $(FUZZ_TARGETS:%=build/fuzz/fuzz/fuzz_%)
	@for t in $(FUZZ_TARGETS); do \
	    FUZZ_SEED=$(FUZZ_SEED) sh scripts/fuzz.sh build/fuzz $$t $(FUZZ_SECONDS) || exit 1; done

check-leaks:
	@$(MAKE) --no-print-directory BUILD=debug all $(FUZZ_TARGETS:%=build/debug/fuzz/replay_%)
	@sh scripts/check-leaks.sh build/debug/pgnkit

check-slow: $(BIN) $(TEST_BINS)
	@PGNKIT_SLOW=1 sh scripts/run-tests.sh $(OUT)

bench:
	@sh scripts/ensure-deps.sh bench
	@$(MAKE) --no-print-directory BUILD=release all
	@$(MAKE) --no-print-directory python || echo "bench: no Python module (python3-dev)"
	@if [ -n "$(TARGET_X86_64)" ]; then \
	    $(MAKE) --no-print-directory BUILD=release PGO=0 OUT=build/bench-default build/bench-default/pgnkit && \
	    $(MAKE) --no-print-directory BUILD=release PGO=0 ARCH=-march=native OUT=build/bench-native \
	        build/bench-native/pgnkit; fi
	@DISPATCH_BINS="$(if $(TARGET_X86_64),build/bench-default/pgnkit build/bench-native/pgnkit)" \
	    sh scripts/bench.sh build/release/pgnkit

# The man page must lint clean (mandoc comes with "make deps"); tests/cli/man.sh runs this
# and also checks the page against --help and the diagnostic codes.
check-man:
	mandoc -Tlint -W warning man/pgnkit.1


# ---- The installable library (pgnkit.h) ----
# Objects of their own: position-independent, without LTO (so clang, any linker and a
# static link can read them; LTO and PGO stay in the CLI's build), and only the
# pgnkit_* functions of pgnkit.h exported from the shared object.
VERSION_PART = $(shell sed -n 's/^\#define PGNKIT_VERSION_$(1) //p' include/pgnkit/pgnkit.h)
LIB_VERSION := $(call VERSION_PART,MAJOR).$(call VERSION_PART,MINOR).$(call VERSION_PART,PATCH)
LIB_SONAME := libpgnkit.so.$(call VERSION_PART,MAJOR)
LIB_ARCH ?= $(ARCH)
LIBRARY_CFLAGS = -std=c11 $(WARN) -O2 -g -DNDEBUG $(LIB_ARCH) -fPIC -fvisibility=hidden -pthread \
                 -MMD -MP $(PKG_CFLAGS)
LIBRARY_OBJS := $(LIB_SRCS:%.c=build/lib/obj/%.o) build/lib/obj/gen/opening_book.o
ifneq ($(TARGET_X86_64),)
LIBRARY_OBJS += $(DISPATCH_SRCS:%.c=build/lib/obj/%.avx2.o)
endif
LIBRARY_FILES := build/lib/libpgnkit.a build/lib/libpgnkit.so.$(LIB_VERSION)

# library_objects DIR FLAGS: the rules compiling the library's objects into DIR with FLAGS
# (the installable library's here, the Python module's below): sources, their AVX2
# copies, and the book's tables, generated by this profile's tools/gen_openings.
define library_objects
$(1)/%.o: %.c
	@mkdir -p $$(@D)
	$$(CC) $$(PGNKIT_CPPFLAGS) $$(CPPFLAGS) $(2) $$(CFLAGS) -c $$< -o $$@

$(1)/%.avx2.o: %.c
	@mkdir -p $$(@D)
	$$(CC) $$(PGNKIT_CPPFLAGS) $$(CPPFLAGS) $(2) $$(CFLAGS) $$(AVX2_FLAGS) -c $$< -o $$@

$(1)/gen/opening_book.o: $$(OUT)/gen/opening_book.c
	@mkdir -p $$(@D)
	$$(CC) $$(PGNKIT_CPPFLAGS) $$(CPPFLAGS) $(2) $$(CFLAGS) -c $$< -o $$@
endef
$(eval $(call library_objects,build/lib/obj,$$(LIBRARY_CFLAGS)))

# The archive holds one object: every library object linked by ld -r, then every symbol
# that is not pgnkit.h's (compiled -fvisibility=hidden, so all but PGNKIT_API) made local,
# so that xmalloc, parse_tag and the like cannot clash with the program that links it.
build/lib/libpgnkit.a: $(LIBRARY_OBJS)
	rm -f $@ build/lib/pgnkit.o
	$(LD) -r -o build/lib/pgnkit.o $^
	objcopy --localize-hidden build/lib/pgnkit.o
	ar rcs $@ build/lib/pgnkit.o

build/lib/libpgnkit.so.$(LIB_VERSION): $(LIBRARY_OBJS)
	$(CC) -shared -Wl,-soname,$(LIB_SONAME) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm -pthread

lib: $(LIBRARY_FILES)

# The Python module: pgnkit.so (a name every CPython accepts) linked with the library's
# position-independent archive, for Debian's python3 (python3-dev has its headers).
PYTHON ?= /usr/bin/python3
PY_INCLUDE = $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
# Where make install puts it: the interpreter's own install scheme under PREFIX that is on
# its sys.path (Debian: /usr/local/lib/python3.X/dist-packages for PREFIX=/usr/local),
# else PREFIX/lib/python3.X/site-packages (scripts/python-site.py).
PY_SITE = $(shell env -u PYTHONPATH $(PYTHON) scripts/python-site.py '$(PREFIX)')

# The module's own copy of the library's objects, with link-time optimization: the
# replay's per-ply calls (the move played in place, the SAN cache probe) are inlined
# across modules as in the CLI; the installable libpgnkit.a keeps its LTO-free objects.
PY_CFLAGS = $(LIBRARY_CFLAGS) -flto=auto
PY_LIB_OBJS := $(LIBRARY_OBJS:build/lib/obj/%=build/python/obj/%)
$(eval $(call library_objects,build/python/obj,$$(PY_CFLAGS)))

build/python/pgnkit.so: python/pgnkitmodule.c python/moves.c python/moves.h python/board.c \
    python/board.h python/columns.c python/columns.h include/pgnkit/pgnkit.h $(PY_LIB_OBJS)
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) -Wno-missing-prototypes -Wno-cast-function-type -O2 -g -fPIC -shared \
	    -flto=auto $(LIB_ARCH) -fvisibility=hidden -Iinclude -I$(PY_INCLUDE) $(CFLAGS) -o $@ \
	    $(filter %.c,$^) $(PY_LIB_OBJS) $(PKG_LIBS) -lm -pthread

python: build/python/pgnkit.so

# Runs python/test_pgnkit.py against the CLI's JSON (make check runs it as a CLI test).
test-python: build/python/pgnkit.so $(BIN)
	PGNKIT=$(BIN) PYTHONPATH=build/python $(PYTHON) -m unittest discover -s python -p 'test_*.py' -v

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/pgnkit
	sed 's|@VERSION@|$(LIB_VERSION)|' man/pgnkit.1 >$(DESTDIR)$(PREFIX)/share/man/man1/pgnkit.1
	chmod 644 $(DESTDIR)$(PREFIX)/share/man/man1/pgnkit.1
	install -d $(DESTDIR)$(BASH_COMPLETIONS) $(DESTDIR)$(ZSH_COMPLETIONS)
	install -m 644 completion/pgnkit.bash $(DESTDIR)$(BASH_COMPLETIONS)/pgnkit
	install -m 644 completion/_pgnkit $(DESTDIR)$(ZSH_COMPLETIONS)/_pgnkit
	@$(MAKE) --no-print-directory install-lib
	@if [ -f "$(PY_INCLUDE)/Python.h" ]; then $(MAKE) --no-print-directory install-python; \
	else echo "make install: no Python.h for $(PYTHON) (python3-dev): the Python module is not installed"; fi

install-lib: lib install-docs
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(PREFIX)/include/pgnkit \
	    $(DESTDIR)$(PREFIX)/share/doc/pgnkit
	install -m 644 build/lib/libpgnkit.a $(DESTDIR)$(LIBDIR)/libpgnkit.a
	install -m 755 build/lib/libpgnkit.so.$(LIB_VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libpgnkit.so.$(LIB_VERSION) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libpgnkit.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@VERSION@|$(LIB_VERSION)|' \
	    -e 's|@REQUIRES@|$(PKGS)|' pkgconfig/pgnkit.pc.in >$(DESTDIR)$(LIBDIR)/pkgconfig/pgnkit.pc
	install -m 644 include/pgnkit/pgnkit.h $(DESTDIR)$(PREFIX)/include/pgnkit/pgnkit.h

# The C API's and the Python module's guides (install-lib installs them too).
install-docs:
	install -d $(DESTDIR)$(PREFIX)/share/doc/pgnkit
	install -m 644 docs/api.md docs/python.md $(DESTDIR)$(PREFIX)/share/doc/pgnkit/

# Says where the module went, and whether $(PYTHON) finds it there without PYTHONPATH.
install-python: python
	install -d $(DESTDIR)$(PY_SITE)
	install -m 755 build/python/pgnkit.so $(DESTDIR)$(PY_SITE)/pgnkit.so
	@if env -u PYTHONPATH $(PYTHON) -c 'import sys; sys.exit(sys.argv[1] not in sys.path)' '$(PY_SITE)'; \
	then echo "make install: the Python module is $(DESTDIR)$(PY_SITE)/pgnkit.so (on $(PYTHON)'s sys.path)"; \
	else echo "make install: the Python module is $(DESTDIR)$(PY_SITE)/pgnkit.so (not on $(PYTHON)'s sys.path: PYTHONPATH=$(PY_SITE))"; fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/pgnkit $(DESTDIR)$(PREFIX)/share/man/man1/pgnkit.1
	rm -f $(DESTDIR)$(BASH_COMPLETIONS)/pgnkit $(DESTDIR)$(ZSH_COMPLETIONS)/_pgnkit
	rm -f $(DESTDIR)$(LIBDIR)/libpgnkit.a $(DESTDIR)$(LIBDIR)/libpgnkit.so* \
	    $(DESTDIR)$(LIBDIR)/pkgconfig/pgnkit.pc $(DESTDIR)$(PREFIX)/include/pgnkit/pgnkit.h \
	    $(DESTDIR)$(PREFIX)/share/doc/pgnkit/api.md $(DESTDIR)$(PREFIX)/share/doc/pgnkit/python.md
	-rmdir $(DESTDIR)$(PREFIX)/include/pgnkit $(DESTDIR)$(PREFIX)/share/doc/pgnkit 2>/dev/null
	@if [ -f "$(PY_INCLUDE)/Python.h" ]; then rm -f $(DESTDIR)$(PY_SITE)/pgnkit.so; fi

clean:
	rm -rf build

-include $(LIBRARY_OBJS:.o=.d) $(PY_LIB_OBJS:.o=.d)
-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(TEST_SRCS:tests/%.c=$(OUT)/obj/tests/%.d) \
         $(TEST_HELPER_OBJS:.o=.d) $(wildcard $(OUT)/obj/tests/fuzz/*.d) $(wildcard $(OUT)/obj/tools/*.d) \
         $(wildcard $(OUT)/host/obj/*/*.d $(OUT)/host/obj/*/*/*.d)

# Past one machine, for real: Dask distributed (a scheduler and 2 workers) and GNU parallel
# --sshlogin to a throw-away sshd, all on 127.0.0.1, over a 100 MB file in 8 ranges and 4
# files (one .zst); merged outputs and summaries must equal one run (scripts/test-scale.sh).
# SCALE_MB=, SCALE_RANGES= change the size and the number of ranges.
test-scale:
	@sh scripts/ensure-deps.sh scale
	@$(MAKE) --no-print-directory BUILD=release all
	@sh scripts/test-scale.sh build/release/pgnkit

# Debian packages: pgnkit, libpgnkit0, libpgnkit-dev, python3-pgnkit, built by
# dpkg-buildpackage from a clean clone of HEAD (so committed work only, and never this
# checkout's build/), without -march=native (debian/rules).  test-deb installs them with
# dpkg -i, checks what they installed against this checkout's build, and removes them.
deb:
	@sh scripts/ensure-deps.sh deb
	@sh scripts/test-deb.sh --build-only

test-deb:
	@sh scripts/ensure-deps.sh deb
	@$(MAKE) --no-print-directory BUILD=release all
	@PGNKIT=$(CURDIR)/build/release/pgnkit sh scripts/test-deb.sh

# A cross build (aarch64, BUILD=generic, build/cross-aarch64/) run under qemu-user writes
# what this machine's build writes and passes the unit tests, the golden cases and the
# --jobs tests (scripts/test-cross.sh; installs the toolchain).
test-cross:
	@$(MAKE) --no-print-directory BUILD=release all
	@PGNKIT=$(CURDIR)/build/release/pgnkit sh scripts/test-cross.sh
