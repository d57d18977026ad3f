"""pip install . -- the Python module `pgnkit`, built from the library's sources.

Offline with Debian's setuptools (pyproject.toml names the backend): pip install
--no-build-isolation . or pip wheel --no-build-isolation --no-deps . (the build needs
python3-dev, pkg-config and the -dev packages the Makefile's PKGS names).  `make python`
builds the same module with make.
"""
import glob
import os
import platform
import re
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def version():
    header = read("include/pgnkit/pgnkit.h")
    parts = [re.search(rf"#define PGNKIT_VERSION_{p} (\d+)", header).group(1)
             for p in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


def pkg_config(flag):
    # The same packages as the Makefile's PKGS, read from it: one list to keep.
    pkgs = re.search(r"^PKGS := (.*)$", read("Makefile"), re.M).group(1).split()
    return subprocess.check_output(["pkg-config", flag, *pkgs], text=True).split()


LIB_DIRS = ("base", "board", "san", "pgn", "io", "game", "write")
MACROS = [("_POSIX_C_SOURCE", "200809L"), ("_DEFAULT_SOURCE", "1"), ("NDEBUG", "1")]
CFLAGS = ["-std=c11", "-O2", "-fvisibility=hidden", "-pthread"]
# As `make python`: link-time optimization, so the replay's per-ply calls are inlined
# across modules; and on x86-64 the lexer's AVX2 copy, chosen at run time (src/base/cpu.h).
LTO = ["-flto=auto"]  # plain -flto: gcc warns that it runs its LTRANS jobs serially
DISPATCH_SOURCES = ["src/pgn/pgn_lexer_fast.c"]
AVX2_FLAGS = ["-mavx2", "-mbmi", "-mbmi2", "-mpopcnt"]


def x86_64():
    return platform.machine().lower() in ("x86_64", "amd64")


def library_sources():
    return sorted(f for d in LIB_DIRS for f in glob.glob(f"src/{d}/*.c"))


class BuildWithBook(build_ext):
    """The library holds the opening book (the classify option): generated, as the
    Makefile does, by tools/gen_openings (the library's modules) over data/openings/."""

    def build_extensions(self):
        book = os.path.join(self.build_temp, "gen", "opening_book.c")
        if not os.path.exists(book):
            tool_dir = os.path.join(self.build_temp, "gen_openings")
            objs = self.compiler.compile(
                library_sources() + ["tools/gen_openings.c"], output_dir=tool_dir,
                include_dirs=["src", "include"], macros=MACROS,
                extra_postargs=CFLAGS + pkg_config("--cflags"))
            self.compiler.link_executable(objs, "gen_openings", output_dir=tool_dir,
                                          extra_postargs=pkg_config("--libs") + ["-lm", "-pthread"])
            os.makedirs(os.path.dirname(book), exist_ok=True)
            with open(book + ".tmp", "w", encoding="utf-8") as out:
                subprocess.check_call([os.path.join(tool_dir, "gen_openings"),
                                       *sorted(glob.glob("data/openings/*.tsv"))], stdout=out)
            os.replace(book + ".tmp", book)
        for ext in self.extensions:
            if book not in ext.sources:
                ext.sources.append(book)
            if x86_64() and not ext.extra_objects:
                ext.extra_objects = self.compiler.compile(
                    DISPATCH_SOURCES, output_dir=os.path.join(self.build_temp, "avx2"),
                    include_dirs=["src", "include"],
                    macros=MACROS + [("PGNKIT_DISPATCH_AVX2", "1"), ("PGNKIT_VARIANT_AVX2", "1")],
                    extra_postargs=CFLAGS + LTO + AVX2_FLAGS + pkg_config("--cflags"))
                ext.define_macros.append(("PGNKIT_DISPATCH_AVX2", "1"))
        super().build_extensions()


setup(
    name="pgnkit",
    version=version(),
    description="Read PGN chess games fast: moves, positions, tags, diagnostics",
    long_description=read("docs/python.md"),
    long_description_content_type="text/markdown",
    python_requires=">=3.8",
    ext_modules=[
        Extension(
            "pgnkit",
            sources=["python/pgnkitmodule.c", "python/moves.c", "python/board.c",
                     "python/columns.c"]
            + sorted(glob.glob("src/*.c") + library_sources()),
            include_dirs=["src", "include"],
            define_macros=list(MACROS),
            extra_compile_args=CFLAGS + LTO + pkg_config("--cflags"),
            extra_link_args=["-O2"] + LTO + pkg_config("--libs") + ["-lm", "-pthread"],
        )
    ],
    cmdclass={"build_ext": BuildWithBook},
    # The library's ~50 sources compile in parallel (one build_ext job per core).
    options={"build_ext": {"parallel": os.cpu_count() or 1}},
)
