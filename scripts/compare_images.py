#!/usr/bin/env python3
"""Compares linear images (as raystream writes them: .hdr, .pfm, or .exr) with a reference.

    compare_images.py REFERENCE IMAGE [IMAGE ...] [--region 100] [--bright 1.0]

For each image: the whole-image mean (luminance) relative to the reference's, the mean squared
error per pixel and channel, the same error without the emitters seen directly (reference pixels
brighter than --bright, and their eight neighbours: their noise is where a pixel's samples fall
on the emitter's edge, the same for every light-transport estimator), the share of the error in
those pixels, and the worst ratio of 100 x 100 regions' median luminance to the reference's, with
that region's corner. .hdr and .pfm need the standard library only (no numpy), so it runs
wherever raystream does; .exr needs numpy and the OpenEXR binding.
"""
import argparse
import sys

from raystream_tools import images
from raystream_tools.compare import against_reference
from raystream_tools.runs import ToolError, exit_on_error


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("reference")
    ap.add_argument("images", nargs="+")
    ap.add_argument("--region", type=int, default=100)
    ap.add_argument("--bright", type=float, default=1.0)
    a = ap.parse_args()
    try:
        reference = images.read_image(a.reference)
        others = [(path, images.read_image(path)) for path in a.images]
    except images.ImageError as e:
        raise ToolError(str(e), code=2)
    for line in against_reference(reference, others, a.region, a.bright):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(exit_on_error("compare_images", main))
