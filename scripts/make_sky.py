#!/usr/bin/env python3
"""Writes scenes/sky.hdr: a procedural sky as an equirectangular Radiance HDR environment map.

    python3 scripts/make_sky.py [--width 512] [--height 256] [--output scenes/sky.hdr]

The sky, in linear radiance (the mapping of docs/scene-format.md, "Environment light": row 0 at
the zenith +y, the image centre towards -z, u = 0.75 towards +x):

  sky     a blue gradient, deep blue at the zenith to pale blue-white at the horizon (about 1)
  sun     a warm disk of angular radius 2 degrees at elevation 30 degrees, 40 degrees from -z
          towards +x (u = 0.611, v = 0.333), of radiance about 3000: some three quarters of the
          map's power in 0.04 % of its solid angle, so sampling it by importance matters; with a
          faint glow around it
  ground  below the horizon, a dim brown (about 0.05)

Pixels are stored flat (not run-length encoded) as RGBE, which stb_image reads. Only the Python
standard library is used; the output is the same on every run.
"""

import argparse
import math

from raystream_tools import images

SUN_ELEVATION = math.radians(30.0)
SUN_AZIMUTH = math.radians(40.0)  # from -z towards +x
SUN_RADIUS = math.radians(2.0)
SUN_RADIANCE = (3000.0, 2700.0, 2200.0)
ZENITH = (0.10, 0.22, 0.65)
HORIZON = (0.70, 0.80, 0.95)
GROUND = (0.06, 0.05, 0.035)


def direction(u, v):
    """The unit direction of map coordinates (u, v), as lights/environment.h maps them."""
    theta = v * math.pi
    phi = (u - 0.5) * 2.0 * math.pi
    s = math.sin(theta)
    return (s * math.sin(phi), math.cos(theta), -s * math.cos(phi))


SUN = (math.cos(SUN_ELEVATION) * math.sin(SUN_AZIMUTH), math.sin(SUN_ELEVATION),
       -math.cos(SUN_ELEVATION) * math.cos(SUN_AZIMUTH))


def angle_to_sun(d):
    c = d[0] * SUN[0] + d[1] * SUN[1] + d[2] * SUN[2]
    return math.acos(max(-1.0, min(1.0, c)))


def background(d):
    """Sky or ground, without the sun disk."""
    y = d[1]
    if y >= 0.0:
        t = math.sqrt(y)  # pale near the horizon, blue higher up
        rgb = [HORIZON[c] * (1.0 - t) + ZENITH[c] * t for c in range(3)]
        glow = 2.0 * math.exp(-angle_to_sun(d) / math.radians(6.0))  # the sun's halo
        return [rgb[0] + glow, rgb[1] + 0.85 * glow, rgb[2] + 0.6 * glow]
    # The ground: a little brighter towards the horizon.
    k = 1.0 + 0.5 * math.exp(y / 0.05)
    return [GROUND[c] * k for c in range(3)]


def texel(column, row, width, height):
    """The texel's average radiance: the sun disk's coverage found with 8 x 8 subsamples."""
    centre = direction((column + 0.5) / width, (row + 0.5) / height)
    rgb = background(centre)
    texel_size = max(2.0 * math.pi / width, math.pi / height)
    if angle_to_sun(centre) > SUN_RADIUS + 2.0 * texel_size:
        return rgb
    n = 8
    inside = 0
    for a in range(n):
        for b in range(n):
            d = direction((column + (a + 0.5) / n) / width, (row + (b + 0.5) / n) / height)
            if angle_to_sun(d) <= SUN_RADIUS:
                inside += 1
    coverage = inside / (n * n)
    return [rgb[c] * (1.0 - coverage) + SUN_RADIANCE[c] * coverage for c in range(3)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=512)
    parser.add_argument("--height", type=int, default=256)
    parser.add_argument("--output", default="scenes/sky.hdr")
    args = parser.parse_args()
    if args.width < 1 or args.height < 1:
        parser.error("--width and --height must be positive")

    pixels = [texel(column, row, args.width, args.height)
              for row in range(args.height) for column in range(args.width)]
    data = images.hdr_bytes(args.width, args.height, pixels,
                            comments=["procedural sky: scripts/make_sky.py (CC0)"])
    try:
        images.write_file(args.output, data)
    except images.ImageError as e:
        parser.exit(1, f"make_sky: error: {e}\n")
    print(f"{args.output}: {args.width} x {args.height}, {len(data)} bytes")


if __name__ == "__main__":
    main()
