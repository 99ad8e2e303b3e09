#!/usr/bin/env python3
"""Compares linear Radiance HDR images (as raystream writes them) with a reference.

    compare_images.py REFERENCE.hdr IMAGE.hdr [IMAGE.hdr ...] [--region 100] [--bright 1.0]

For each image: the whole-image mean (luminance) relative to the reference's, the mean squared
error per pixel and channel, the same error without the emitters seen directly (reference pixels
brighter than --bright, and their eight neighbours: their noise is where a pixel's samples fall
on the emitter's edge, the same for every light-transport estimator), the share of the error in
those pixels, and the worst ratio of 100 x 100 regions' median luminance to the reference's, with
that region's corner. Standard library only (no numpy), so it runs wherever raystream does.
"""
import argparse
import statistics
import sys


def read_hdr(path):
    data = open(path, "rb").read()
    end = data.index(b"\n\n")
    if not data.startswith(b"#?"):
        sys.exit(f"{path}: not a Radiance HDR image")
    line_end = data.index(b"\n", end + 2)
    size = data[end + 2:line_end].split()
    height, width = int(size[1]), int(size[3])
    pos = line_end + 1
    rgb = []
    for _ in range(height):
        if data[pos] == 2 and data[pos + 1] == 2 and (data[pos + 2] << 8 | data[pos + 3]) == width:
            pos += 4
            channels = []
            for _c in range(4):
                row = bytearray()
                while len(row) < width:
                    n = data[pos]
                    pos += 1
                    if n > 128:
                        row += bytes([data[pos]]) * (n - 128)
                        pos += 1
                    else:
                        row += data[pos:pos + n]
                        pos += n
                channels.append(row)
            quads = zip(*channels)
        else:
            quads = [tuple(data[pos + 4 * x:pos + 4 * x + 4]) for x in range(width)]
            pos += 4 * width
        for r, g, b, e in quads:
            f = 2.0 ** (e - 136) if e else 0.0
            rgb.append(((r + 0.5) * f if e else 0.0, (g + 0.5) * f if e else 0.0,
                        (b + 0.5) * f if e else 0.0))
    return width, height, rgb


def luminance(p):
    return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("reference")
    ap.add_argument("images", nargs="+")
    ap.add_argument("--region", type=int, default=100)
    ap.add_argument("--bright", type=float, default=1.0)
    a = ap.parse_args()
    w, h, ref = read_hdr(a.reference)
    ref_mean = statistics.fmean(luminance(p) for p in ref)
    bright = set()
    for i, p in enumerate(ref):
        if statistics.fmean(p) > a.bright:
            y, x = divmod(i, w)
            bright.update((y + dy) * w + x + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                          if 0 <= y + dy < h and 0 <= x + dx < w)
    print(f"{len(bright)} of {w * h} pixels are emitters seen directly or their neighbours")
    print(f"{'image':40s} {'mean/ref':>9s} {'MSE':>11s} {'MSE others':>11s} {'emitters':>9s} "
          f"{'worst region':>13s} {'at':>9s}")
    for path in a.images:
        iw, ih, img = read_hdr(path)
        if (iw, ih) != (w, h):
            sys.exit(f"{path}: {iw} x {ih}, the reference is {w} x {h}")
        mean = statistics.fmean(luminance(p) for p in img)
        err = [sum((x - y) ** 2 for x, y in zip(p, q)) / 3 for p, q in zip(img, ref)]
        mse = statistics.fmean(err)
        in_bright = sum(err[i] for i in bright)
        others = (sum(err) - in_bright) / max(1, w * h - len(bright))
        share = in_bright / sum(err) if sum(err) > 0 else 0.0
        worst, where = 0.0, "-"
        for y0 in range(0, h - a.region + 1, a.region):
            for x0 in range(0, w - a.region + 1, a.region):
                idx = [(y0 + y) * w + x0 + x for y in range(a.region) for x in range(a.region)]
                m_ref = statistics.median(luminance(ref[i]) for i in idx)
                m_img = statistics.median(luminance(img[i]) for i in idx)
                if m_ref > 0 and abs(m_img / m_ref - 1.0) > worst:
                    worst, where = abs(m_img / m_ref - 1.0), f"{x0},{y0}"
        print(f"{path[-40:]:40s} {mean / ref_mean:9.4f} {mse:11.4e} {others:11.4e} "
              f"{100 * share:8.1f}% {100 * worst:12.2f}% {where:>9s}")


if __name__ == "__main__":
    main()
