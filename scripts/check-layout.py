#!/usr/bin/env python3
"""check-layout.py - the source tree keeps the shape the README's map promises.

Reads every #include "..." of src/ and include/ (no compiler: the layout is text) and
fails, naming the files, when:
  - a .c file sits loose in src/ (only the API facade src/api.c may);
  - a folder includes a folder later in the one-way order
        base -> board -> san -> pgn -> io -> game -> write -> api -> cli
    (a folder may include itself and any folder before it; the facade src/api.c and
    src/version.h form the "api" layer; include/pgnkit/pgnkit.h is the API's header);
  - the include graph between modules has a cycle.  A module is x.c with its x.h and
    x_internal.h, in one folder: board/position.c, board/position.h and
    board/position_internal.h are the module board/position.
  - an include names a file that is not there.

Prints one line per problem, then "N passed, N failed" (one check per rule).
"""
import os
import re
import sys

ORDER = ["base", "board", "san", "pgn", "io", "game", "write", "api", "cli"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer(path):
    """The layer of a file given relative to the repository root."""
    if path.startswith("include/pgnkit/") or path in ("src/api.c", "src/version.h"):
        return "api"
    parts = path.split("/")
    return parts[1] if len(parts) == 3 and parts[0] == "src" else None


def module(path):
    """board/position_internal.h -> src/board/position (one name per module)."""
    stem, _ = os.path.splitext(path)
    return re.sub(r"_internal$", "", stem)


def resolve(name, including):
    """The repository path an include names: its own folder first, then -Isrc, -Iinclude."""
    for base in (os.path.dirname(including), "src", "include"):
        candidate = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(candidate):
            return candidate
    return None


def source_files():
    for top in ("src", "include"):
        for folder, _, names in os.walk(top):
            for name in sorted(names):
                if name.endswith((".c", ".h")):
                    yield os.path.join(folder, name)


def cycles(graph):
    """The strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph.get(node, ())):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    problems = {"loose": [], "order": [], "cycle": [], "missing": []}
    modules = {}
    for path in source_files():
        if path.startswith("src/") and path.count("/") == 1 and path.endswith(".c") \
                and path != "src/api.c":
            problems["loose"].append(f"{path}: a .c file loose in src/ (only api.c may be)")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for name in INCLUDE.findall(text):
            target = resolve(name, path)
            if target is None:
                problems["missing"].append(f'{path}: #include "{name}" names no file')
                continue
            src_layer, dst_layer = layer(path), layer(target)
            if src_layer and dst_layer and ORDER.index(dst_layer) > ORDER.index(src_layer):
                problems["order"].append(
                    f"{path} ({src_layer}) includes {target} ({dst_layer}): against the order "
                    + " -> ".join(ORDER))
            if module(target) != module(path):
                modules.setdefault(module(path), set()).add(module(target))
    for component in cycles(modules):
        problems["cycle"].append("modules include each other: " + ", ".join(component))

    failed = 0
    for rule, found in problems.items():
        for line in found:
            print(f"not ok - {line}")
        failed += bool(found)
    print(f"{len(problems) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
