"""pip install . -- the Python module `pgnkit`, built from the library's sources.

Offline with Debian's setuptools (pyproject.toml names the backend): pip install
--no-build-isolation . or pip wheel --no-build-isolation --no-deps . (the build needs
python3-dev, pkg-config and the -dev packages the Makefile's PKGS names).  `make python`
builds the same module with make.
"""
import glob
import os
import re
import subprocess

from setuptools import Extension, setup


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
            sources=["python/pgnkitmodule.c", "python/moves.c", "python/board.c", "python/columns.c"] + sorted(glob.glob("src/*.c") + [
                f for d in ("base", "board", "san", "pgn", "io", "game", "write")
                for f in glob.glob(f"src/{d}/*.c")]),
            include_dirs=["src", "include"],
            define_macros=[("_POSIX_C_SOURCE", "200809L"), ("_DEFAULT_SOURCE", "1"),
                           ("NDEBUG", "1")],
            extra_compile_args=["-std=c11", "-O2", "-fvisibility=hidden", "-pthread"]
            + pkg_config("--cflags"),
            extra_link_args=pkg_config("--libs") + ["-lm", "-pthread"],
        )
    ],
    # The library's ~50 sources compile in parallel (one build_ext job per core).
    options={"build_ext": {"parallel": os.cpu_count() or 1}},
)
