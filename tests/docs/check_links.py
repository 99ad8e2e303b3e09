#!/usr/bin/env python3
"""Checks that every relative link in the repository's Markdown files names a file or folder
that exists: inline links and images, [text](target), and reference definitions, [name]: target.
Links with a scheme (https:, mailto:) and links within the page (#anchor) are not checked; an
anchor after a file name is dropped. Code blocks and code spans are skipped. Prints each broken
link as FILE:LINE: TARGET and exits 1 when there is one.

    check_links.py [ROOT]    (default: the repository root, two folders up)
"""
import os
import re
import sys

INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'(][^)]*)?\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
SKIP_DIRS = {".git", "node_modules"}


def markdown_files(root):
    for folder, dirs, files in os.walk(root):
        # Build trees (build/, build-asan/, ...) hold copies and generated pages.
        dirs[:] = sorted(d for d in dirs
                         if d not in SKIP_DIRS and not d.startswith(("build", ".")))
        for name in sorted(files):
            if name.endswith(".md"):
                yield os.path.join(folder, name)


def links(text):
    """(line number, target) of each link outside code."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip()
        marker = re.match(r"(```+|~~~+)", stripped)
        if marker:
            if fence is None:
                fence = marker.group(1)[0] * 3
            elif stripped.startswith(fence):
                fence = None
            continue
        if fence is not None:
            continue
        line = re.sub(r"(`+)(.+?)\1", "", line)  # code spans
        for match in INLINE.finditer(line):
            yield number, match.group(1)
        match = REFERENCE.match(line)
        if match:
            yield number, match.group(1)


def broken_links(root):
    for path in markdown_files(root):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for number, target in links(text):
            if SCHEME.match(target) or target.startswith("#"):
                continue
            name = target.split("#", 1)[0].split("?", 1)[0]
            if not name:
                continue
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), name))
            if not os.path.exists(resolved):
                yield os.path.relpath(path, root), number, target


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    root = os.path.abspath(root)
    broken = list(broken_links(root))
    for path, number, target in broken:
        print(f"{path}:{number}: {target}: no such file")
    checked = sum(1 for _ in markdown_files(root))
    print(f"check_links: {len(broken)} broken link(s) in {checked} Markdown files")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
