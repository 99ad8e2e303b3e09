#!/usr/bin/env python3
"""The command line is described once: raystream --help is the source, docs/cli.md follows it.

    check_cli_doc.py RAYSTREAM_BINARY docs/cli.md

Fails when an option of --help is missing from the synopsis or the options table of cli.md, when
either names an option that --help does not have, or when an option's choices ({a,b,c} in
--help) differ from those the table gives (`--option a|b|c`).
"""
import re
import subprocess
import sys


def main():
    binary, doc_path = sys.argv[1], sys.argv[2]
    help_text = subprocess.run([binary, "--help"], capture_output=True, text=True,
                               check=True).stdout
    options, choices = set(), {}
    for line in help_text.splitlines():
        m = re.match(r"\s+(?:-\w,)?(--[a-z][a-z-]*)\s*(?:\S*:\{([^}]*)\})?", line)
        if m:
            options.add(m.group(1))
            if m.group(2):
                choices[m.group(1)] = set(m.group(2).split(","))
    doc = open(doc_path, encoding="utf-8").read()
    synopsis = doc[doc.index("```\nraystream SCENE.json"):]
    synopsis = synopsis[:synopsis.index("```", 4)]
    in_synopsis = set(re.findall(r"\[(--[a-z][a-z-]*)", synopsis))
    rows = re.findall(r"^\| `(--[a-z][a-z-]*)([^`]*)`", doc, re.M)
    # A row may name several options in its first cell (`--help`, `--version`).
    first_cells = re.findall(r"^\| (`-[^|]*)\|", doc, re.M)
    in_table = {name for cell in first_cells for name in re.findall(r"`(--[a-z][a-z-]*)", cell)}
    problems = []
    always = {"--help", "--version"}
    for name in sorted(options - in_synopsis - always):
        problems.append(f"{doc_path}: the synopsis lacks {name}")
    for name in sorted(options - in_table):
        problems.append(f"{doc_path}: the options table lacks {name}")
    for name in sorted((in_synopsis | in_table) - options):
        problems.append(f"{doc_path}: {name} is not an option of raystream --help")
    for name, rest in rows:
        values = rest.strip()
        if name in choices and values and "|" in values:
            documented = set(values.replace("\\|", "|").split("|"))
            if documented != choices[name]:
                problems.append(f"{doc_path}: {name} {'|'.join(sorted(documented))}, but --help "
                                f"says {','.join(sorted(choices[name]))}")
    for p in problems:
        print(p)
    print(f"check_cli_doc: {len(options)} options in --help, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
