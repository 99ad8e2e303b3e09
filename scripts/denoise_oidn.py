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
import struct
import sys
import time


def fail(message):
    print(f"denoise_oidn: error: {message}", file=sys.stderr)
    sys.exit(2)


def import_modules():
    try:
        import pyoidn  # brings numpy with it
    except ImportError:
        fail(f"pyoidn is not installed for {sys.executable}: pip install pyoidn openexr (in a "
             "virtual environment; docs/cli.md#denoising says what its wheel bundles)")
    import numpy
    try:
        import OpenEXR
    except ImportError:
        fail("the OpenEXR Python binding is not installed: pip install openexr")
    return numpy, pyoidn, OpenEXR


def read_layers(path, np, OpenEXR):
    """The colour (the `noisy` layer if there is one, else R, G, B), albedo and normal as
    height x width x 3 float32 arrays."""
    try:
        channels = OpenEXR.File(path, separate_channels=True).channels()
    except Exception as e:  # the binding raises plain exceptions for unreadable files
        fail(f"{path}: cannot read the EXR ({e})")

    def rgb(names):
        missing = [n for n in names if n not in channels]
        if missing:
            return None, missing
        planes = [np.asarray(channels[n].pixels, dtype=np.float32) for n in names]
        return np.ascontiguousarray(np.stack(planes, axis=-1)), []

    color, missing = rgb(["noisy.R", "noisy.G", "noisy.B"])
    if color is None:
        color, missing = rgb(["R", "G", "B"])
        if color is None:
            fail(f"{path}: no R, G, B channels")
    albedo, missing_albedo = rgb(["albedo.R", "albedo.G", "albedo.B"])
    normal, missing_normal = rgb(["normal.X", "normal.Y", "normal.Z"])
    return color, albedo, normal, missing_albedo + missing_normal


def write_pfm(path, image, np):
    height, width = image.shape[:2]
    with open(path, "wb") as f:
        f.write(b"PF\n%d %d\n-1.0\n" % (width, height))
        f.write(np.ascontiguousarray(image[::-1], dtype="<f4").tobytes())


def write_exr(path, image, np, OpenEXR):
    header = {"compression": OpenEXR.ZIP_COMPRESSION, "type": OpenEXR.scanlineimage}
    channels = {c: np.ascontiguousarray(image[..., k], dtype=np.float32)
                for k, c in enumerate("RGB")}
    OpenEXR.File(header, channels).write(path)


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
        fail(f"{args.output}: name the output .exr or .pfm")
    if not os.path.isfile(args.input):
        fail(f"{args.input}: no such file")
    np, pyoidn, OpenEXR = import_modules()
    color, albedo, normal, missing = read_layers(args.input, np, OpenEXR)
    if not args.no_aux and missing:
        fail(f"{args.input}: no {', '.join(missing)} channels (render with --aov albedo,normal, "
             "or pass --no-aux)")
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
    # Written beside the target and renamed, so that a failure leaves no half-written file.
    temporary = args.output + ".partial" + extension
    try:
        if extension == ".pfm":
            write_pfm(temporary, result, np)
        else:
            write_exr(temporary, result, np, OpenEXR)
        os.replace(temporary, args.output)
    except OSError as e:
        if os.path.exists(temporary):
            os.remove(temporary)
        print(f"denoise_oidn: error: {args.output}: cannot write ({e.strerror})", file=sys.stderr)
        sys.exit(1)
    height, width = color.shape[:2]
    version = getattr(pyoidn.version, "oidn_version", "?")
    print(f"denoise_oidn: {args.input} -> {args.output}: {width} x {height}, OIDN {version} RT "
          f"hdr, quality {args.quality}{', no aux' if args.no_aux else ''}, CPU device, "
          f"{seconds:.3f} s")


if __name__ == "__main__":
    main()
