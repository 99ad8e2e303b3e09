#!/usr/bin/env python3
"""Writes a checkerboard texture as an 8-bit RGB PNG, with the standard library only.

    python3 scripts/make_checker.py scenes/textures/checker.png
    python3 scripts/make_checker.py out.png --size 2 --squares 2 --light 255,128,0 --dark 0,0,255

The square at the top left is light. Colours are sRGB bytes, written as given. The output is the
same byte for byte on every run (fixed zlib level, no time stamp).
"""
import argparse
import sys

from raystream_tools import images


def colour(text):
    parts = text.split(",")
    if len(parts) != 3 or not all(p.strip().isdigit() and 0 <= int(p) <= 255 for p in parts):
        raise argparse.ArgumentTypeError(f"expected R,G,B bytes 0..255, got {text!r}")
    return bytes(int(p) for p in parts)


def checker_png(size, squares, light, dark):
    rows = [b"".join(light if (x * squares // size + y * squares // size) % 2 == 0 else dark
                     for x in range(size)) for y in range(size)]
    return images.png_bytes(size, size, rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", help="the PNG file to write")
    parser.add_argument("--size", type=int, default=64, help="width and height in texels (64)")
    parser.add_argument("--squares", type=int, default=8, help="squares per side (8)")
    parser.add_argument("--light", type=colour, default=colour("230,230,230"))
    parser.add_argument("--dark", type=colour, default=colour("40,40,40"))
    args = parser.parse_args()
    if not 1 <= args.size <= 16384 or not 1 <= args.squares <= args.size:
        parser.error("need 1 <= squares <= size <= 16384")
    try:
        images.write_file(args.output, checker_png(args.size, args.squares, args.light, args.dark))
    except images.ImageError as e:
        parser.exit(1, f"make_checker: error: {e}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
