#!/usr/bin/env python3
"""Fails when a file of the renderer includes a layer its own layer does not link.

    check_layers.py SOURCE_ROOT LAYERS_FILE

Every folder of src/ is a layer, a library of its own (src/CMakeLists.txt, which writes
LAYERS_FILE: each layer's folder and the layers it links). The build refuses an include that
points up or sideways wherever a file is compiled; this check reads every file, headers too (a
header is only compiled where another file includes it), and resolves each include of src/ to the
layer whose folder holds it, sub-folders included: io/scene may not include io/checkpoint, nor
integrator/stages integrator/schedules. A layer may include itself and every layer it links,
directly or through others; a layer marked '*' (main.cpp, the benchmarks) may include any. Also
fails when a folder of src/ with sources is in no layer, so a new one is placed on purpose.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCES = (".h", ".cpp", ".cu", ".cuh")


def read_layers(path):
    """{folder: set of folders it may include}, and {layer name: folder}."""
    folders, links = {}, {}
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        head, _, deps = line.partition(":")
        name, folder = head.split()
        folders[name] = folder
        links[name] = deps.split()
    allowed = {}
    for name, folder in folders.items():
        if links[name] == ["*"]:
            allowed[folder] = None  # any layer
            continue
        seen, stack = {name}, list(links[name])
        while stack:
            layer = stack.pop()
            if layer not in seen:
                seen.add(layer)
                stack.extend(links[layer])
        allowed[folder] = {folders[layer] for layer in seen}
    return allowed


def layer_of(folder, allowed):
    """The layer folder that holds `folder`: the folder itself when it is a layer."""
    return folder if folder in allowed else None


def main():
    root, layers_file = sys.argv[1], sys.argv[2]
    src = os.path.join(root, "src")
    allowed = read_layers(layers_file)
    problems = []
    for folder, _, files in os.walk(src):
        relative = os.path.relpath(folder, src)
        sources = sorted(f for f in files if f.endswith(SOURCES))
        if not sources:
            continue
        layer = layer_of(relative, allowed)
        if layer is None:
            problems.append(f"src/{relative}/: a folder with sources in no layer of "
                            "src/CMakeLists.txt (make it one)")
            continue
        for name in sources:
            path = os.path.join(folder, name)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                m = INCLUDE.match(line)
                if not m or not os.path.exists(os.path.join(src, m.group(1))):
                    continue  # a library's header (glm/, primitives/, stb/...)
                target = os.path.dirname(m.group(1)) or "."
                if allowed[layer] is None or target in allowed[layer]:
                    continue
                where = os.path.relpath(path, root)
                if target not in allowed:
                    problems.append(f"{where}:{number}: includes {m.group(1)}, of no layer")
                else:
                    problems.append(f"{where}:{number}: layer {layer} includes {m.group(1)} of "
                                    f"layer {target}, which it does not link")
    for p in problems:
        print(p)
    print(f"check_layers: {len(problems)} problem(s) in {len(allowed)} layers")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
