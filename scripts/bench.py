#!/usr/bin/env python3
"""The benchmarks: renders with the built raystream binaries, measured from their --stats JSON.

    python3 scripts/bench.py NAME [options] [-- RAYSTREAM_OPTIONS...]
    python3 scripts/bench.py NAME --help

Each NAME is one benchmark (below); its --help gives its options, what it renders, what it prints
and the files it writes. Options after `--` go to every render of the benchmarks that take them
(nee, bytes, startup). Relative paths are the caller's; the defaults (build/, renders/...) are
the repository's. Exit status: 0 done, 1 a render or a file failed, 2 a bad command line or
input (one line `bench NAME: error: ...`).
"""
import argparse
import sys

from raystream_tools.benchmarks import BENCHMARKS
from raystream_tools.runs import ToolError


def parser():
    names = "\n".join(f"  {name:<10} {module.SUMMARY}" for name, module in BENCHMARKS.items())
    p = argparse.ArgumentParser(prog="bench.py", description=__doc__.split("\n\n")[0],
                                epilog="benchmarks:\n" + names,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="name", metavar="NAME", required=True)
    for name, module in BENCHMARKS.items():
        b = sub.add_parser(name, description=module.__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(b)
    return p, sub


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    # Options after "--" are raystream's.
    raystream_options = argv[argv.index("--") + 1:] if "--" in argv else []
    own = argv[:argv.index("--")] if "--" in argv else argv
    p, sub = parser()
    args = p.parse_args(own)
    module = BENCHMARKS[args.name]
    if raystream_options and not getattr(module, "TAKES_RAYSTREAM_OPTIONS", False):
        sub.choices[args.name].error("takes no raystream options after --")
    args.raystream_options = raystream_options
    if hasattr(module, "check_arguments"):
        module.check_arguments(args, sub.choices[args.name])
    try:
        return module.run(args, argv) or 0
    except ToolError as e:
        print(f"bench {args.name}: error: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print(f"bench {args.name}: stopped", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
