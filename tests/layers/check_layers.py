#!/usr/bin/env python3
"""Fails when a file of the renderer includes a layer above its own.

    check_layers.py SOURCE_ROOT

The layers of src/, lowest first (docs/architecture.md): each file may include its own layer
and those below it, never one above. A file directly in src/ (main.cpp) is the top layer. Also
fails when a folder of src/ is not in the list, so a new layer is placed on purpose.
"""
import os
import re
import sys

LAYERS = ["core", "scene", "geometry", "materials", "lights", "film", "integrator", "io",
          "stats", "cli", ""]  # "": src/ itself (main.cpp)
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/')


def main():
    src = os.path.join(sys.argv[1], "src")
    rank = {name: i for i, name in enumerate(LAYERS)}
    problems = []
    for folder in sorted(os.listdir(src)):
        path = os.path.join(src, folder)
        # A folder left empty (its files moved) is no layer; one with files must be placed.
        if os.path.isdir(path) and folder not in rank and any(
                files for _, _, files in os.walk(path)):
            problems.append(f"src/{folder}/: not a layer of check_layers.py (place it)")
    for root, _, files in os.walk(src):
        relative = os.path.relpath(root, src)
        layer = "" if relative == "." else relative.split(os.sep)[0]
        if layer not in rank:
            continue
        for name in sorted(files):
            if not name.endswith((".h", ".cpp", ".cu", ".cuh")):
                continue
            path = os.path.join(root, name)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                m = INCLUDE.match(line)
                if not m or m.group(1) not in rank:
                    continue  # a library's header (glm/, primitives/, stb/...)
                if rank[m.group(1)] > rank[layer]:
                    problems.append(f"{os.path.relpath(path, sys.argv[1])}:{number}: layer "
                                    f"'{layer or 'src'}' includes '{m.group(1)}/', a layer above it")
    for p in problems:
        print(p)
    print(f"check_layers: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
