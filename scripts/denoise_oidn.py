#!/usr/bin/env python3
"""Runs Intel Open Image Denoise on an EXR that raystream wrote with its albedo and normal layers.

    denoise_oidn.py IN.exr -o OUT.exr|OUT.pfm [--quality high|balanced|fast] [--no-aux]

raystream IN.exr: `raystream SCENE --aov albedo,normal -o IN.exr` (with `--denoise`, the noisy image
kept as the layer `noisy` is what gets filtered). The filter is OIDN's `RT` for HDR input, on its
CPU device, with the albedo and normal layers as auxiliary images (`--no-aux`: the colour alone).
OUT.exr has the denoised image as R, G, B (32-bit float, ZIP); OUT.pfm is the same as a Portable
Float Map. Prints one line: the size and the filter's seconds.

Needs `pip install pyoidn openexr` (in a virtual environment); exits 2 with a message when either
is missing, when IN.exr lacks a layer, or on bad arguments. docs/cli.md#denoising says what the
pyoidn wheel bundles and under which licenses.
"""
import argparse
import os
import sys
import time

from raystream_tools import images
from raystream_tools.runs import ToolError, exit_on_error


def import_pyoidn():
    try:
        import pyoidn  # brings numpy with it
    except ImportError:
        raise ToolError(f"pyoidn is not installed for {sys.executable}: pip install pyoidn openexr "
                        "(in a virtual environment; docs/cli.md#denoising says what its wheel "
                        "bundles)", code=2)
    return pyoidn


def read_layers(path):
    """The colour (the `noisy` layer if there is one, else R, G, B), albedo and normal as
    height x width x 3 float32 arrays (None where missing), and the missing guides' channels."""
    channels = images.exr_channels(path)
    color = images.rgb_of(channels, ["noisy.R", "noisy.G", "noisy.B"])
    if color is None:
        color = images.rgb_of(channels, ["R", "G", "B"])
    if color is None:
        raise ToolError(f"{path}: no R, G, B channels", code=2)
    guides = (["albedo.R", "albedo.G", "albedo.B"], ["normal.X", "normal.Y", "normal.Z"])
    albedo, normal = (images.rgb_of(channels, names) for names in guides)
    missing = [n for names in guides for n in names if n not in channels]
    return color, albedo, normal, missing


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="EXR written by raystream with --aov albedo,normal")
    parser.add_argument("-o", "--output", required=True, help="OUT.exr or OUT.pfm")
    parser.add_argument("--quality", choices=["high", "balanced", "fast"], default="high")
    parser.add_argument("--no-aux", action="store_true",
                        help="filter the colour alone (no albedo and normal)")
    args = parser.parse_args()
    extension = os.path.splitext(args.output)[1].lower()
    if extension not in (".exr", ".pfm"):
        raise ToolError(f"{args.output}: name the output .exr or .pfm", code=2)
    if not os.path.isfile(args.input):
        raise ToolError(f"{args.input}: no such file", code=2)
    pyoidn = import_pyoidn()
    import numpy as np
    try:
        color, albedo, normal, missing = read_layers(args.input)
    except images.ImageError as e:
        raise ToolError(str(e), code=2)
    if not args.no_aux and missing:
        raise ToolError(f"{args.input}: no {', '.join(missing)} channels (render with --aov "
                        "albedo,normal, or pass --no-aux)", code=2)
    # OIDN wants non-negative finite HDR colour; raystream's film has no negative values, but a
    # non-finite one would spread.
    color = np.nan_to_num(color, nan=0.0, posinf=0.0, neginf=0.0)
    start = time.perf_counter()
    if args.no_aux:
        result = pyoidn.denoise(color, hdr=True, quality=args.quality)
    else:
        result = pyoidn.denoise(color, albedo=albedo, normal=normal, hdr=True,
                                quality=args.quality)
    seconds = time.perf_counter() - start
    try:
        images.write_image(args.output, images.Image.from_numpy(result))
    except images.ImageError as e:
        raise ToolError(str(e))
    height, width = color.shape[:2]
    version = getattr(pyoidn.version, "oidn_version", "?")
    print(f"denoise_oidn: {args.input} -> {args.output}: {width} x {height}, OIDN {version} RT "
          f"hdr, quality {args.quality}{', no aux' if args.no_aux else ''}, CPU device, "
          f"{seconds:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(exit_on_error("denoise_oidn", main))
