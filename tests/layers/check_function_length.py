#!/usr/bin/env python3
"""Fails when a function of the renderer or the primitives library is longer than the limit.

    check_function_length.py SOURCE_ROOT [--limit 100] [--list N]

Scans src/ and primitives/ (C++ and CUDA sources and headers, not tests) for function bodies by
their braces: a `{` whose preceding text ends a parameter list (`)`, maybe followed by
qualifiers, an initializer list or a trailing return type) opens a function, unless it opens a
class, namespace, enum, control statement or initializer; lambdas and local classes count with
the function around them. A function's length is its lines from the signature's last line to the
closing brace. --list N prints the N longest whatever the limit.
"""
import argparse
import os
import re
import sys

SOURCES = (".h", ".cpp", ".cu", ".cuh")
NOT_FUNCTIONS = re.compile(
    r"\b(namespace|struct|class|union|enum|if|for|while|switch|do|else|try|catch|return)\b[^;{}]*$")


def strip(text):
    """The text with comments, strings and character literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + c)
            i = j + 1
        elif c == "#":  # preprocessor lines, continued lines included
            j = i
            while True:
                k = text.find("\n", j)
                if k < 0:
                    k = n
                    break
                if text[k - 1] != "\\":
                    break
                j = k + 1
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:k]))
            i = k
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    text = strip(open(path, encoding="utf-8").read())
    stack = []  # per open brace: (is_function, start_line)
    inside = 0  # open function bodies
    last = 0  # where the text before the next brace starts
    line = 1
    found = []
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
        elif c == "{":
            before = text[last:i]
            head = before.rstrip()
            is_function = False
            if inside == 0 and not NOT_FUNCTIONS.search(before.replace("\n", " ")):
                # A parameter list closes before the brace: `) const`, `) noexcept`, `) -> T`,
                # `) : member(x)` (constructors).
                if re.search(r"\)\s*(const|noexcept|override|final|mutable|\s)*(->[^{;]*)?$",
                             head) or re.search(r"\)\s*:\s*[\w:<>]+\s*[({][^;]*$",
                                                before.replace("\n", " ")):
                    is_function = "=" not in re.sub(r"\([^()]*\)", "", head.split("\n")[-1])
            stack.append((is_function, line))
            if is_function:
                inside += 1
            last = i + 1
        elif c == "}":
            if stack:
                is_function, start = stack.pop()
                if is_function:
                    inside -= 1
                    found.append((line - start + 1, start))
            last = i + 1
        elif c == ";":
            last = i + 1
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--list", type=int, default=0)
    args = parser.parse_args()
    everything = []
    for top in ("src", "primitives"):
        for folder, _, files in os.walk(os.path.join(args.root, top)):
            for name in sorted(files):
                if name.endswith(SOURCES):
                    path = os.path.join(folder, name)
                    for length, start in functions(path):
                        everything.append((length, os.path.relpath(path, args.root), start))
    everything.sort(reverse=True)
    for length, path, start in everything[:args.list]:
        print(f"{length:5d} {path}:{start}")
    long_ones = [f for f in everything if f[0] > args.limit]
    for length, path, start in long_ones:
        print(f"{path}:{start}: a function of {length} lines (at most {args.limit})")
    print(f"check_function_length: {len(long_ones)} function(s) over {args.limit} lines")
    return 1 if long_ones else 0


if __name__ == "__main__":
    sys.exit(main())
