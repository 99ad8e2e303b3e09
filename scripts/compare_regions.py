#!/usr/bin/env python3
"""Compares an image with a reference region by region: where two renderers agree and where not.

    compare_regions.py REFERENCE IMAGE [--grid 8] [--floor 0.02] [--max-diff P] [--quiet]

Both images (linear .exr, .pfm or .hdr, the same size) are split into GRID x GRID regions (rows
and columns as even as the size allows). For each region: the mean luminance (Rec. 709) of the
image relative to the reference's, in percent, and per channel; and a z score, the mean of the
per-pixel differences over its standard error (the noise of both images; a region whose
difference is noise has |z| of a few at most). Only regions whose reference mean is above FLOOR
times the whole image's mean are counted (a nearly black region's ratio is meaningless). Printed:
the table of the regions' luminance differences (rows from the top; '.' for regions not counted),
the worst region (its place, its pixels, the differences in luminance and R, G, B, its z), the
mean of the regions' absolute differences, and the whole image's mean difference.

Exit code 0; 1 with --max-diff P where the worst counted region differs by more than P percent
(luminance); 2 for bad input (a file that cannot be read, sizes that differ, a bad option).
Needs numpy (and the OpenEXR binding for .exr: pip install numpy openexr).
"""
import argparse
import sys

from raystream_tools import images
from raystream_tools.runs import ToolError, exit_on_error

REC709 = (0.2126, 0.7152, 0.0722)


def regions(size, count):
    """`count` [start, end) spans covering 0..size as evenly as the size allows."""
    edges = [round(i * size / count) for i in range(count + 1)]
    return list(zip(edges[:-1], edges[1:]))


def region_table(ref, img, grid, floor):
    """Per region (row, col, y0, y1, x0, x1): reference mean luminance, relative differences of
    luminance and R, G, B (fractions), z score, counted or not."""
    np = images.numpy_module()
    lum = np.asarray(REC709, dtype=np.float64)
    ref_l = ref.astype(np.float64) @ lum
    img_l = img.astype(np.float64) @ lum
    floor_value = floor * ref_l.mean()
    h, w = ref_l.shape
    out = []
    for r, (y0, y1) in enumerate(regions(h, grid)):
        for c, (x0, x1) in enumerate(regions(w, grid)):
            a, b = ref_l[y0:y1, x0:x1], img_l[y0:y1, x0:x1]
            n = a.size
            m_ref, m_img = a.mean(), b.mean()
            counted = n > 0 and m_ref > floor_value
            rel = m_img / m_ref - 1.0 if m_ref > 0 else float("nan")
            rgb_ref = ref[y0:y1, x0:x1].reshape(-1, 3).astype(np.float64).mean(axis=0)
            rgb_img = img[y0:y1, x0:x1].reshape(-1, 3).astype(np.float64).mean(axis=0)
            with np.errstate(divide="ignore", invalid="ignore"):
                rel_rgb = rgb_img / rgb_ref - 1.0
            d = (b - a).ravel()
            se = d.std(ddof=1) / np.sqrt(n) if n > 1 else 0.0
            z = d.mean() / se if se > 0 else 0.0
            out.append({"row": r, "col": c, "box": (x0, y0, x1, y1), "ref": m_ref, "rel": rel,
                        "rgb": rel_rgb, "z": z, "counted": counted})
    return out, ref_l.mean(), img_l.mean()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("reference")
    ap.add_argument("image")
    ap.add_argument("--grid", type=int, default=8, help="regions per side (default 8)")
    ap.add_argument("--floor", type=float, default=0.02,
                    help="regions count where their reference mean is above this fraction of "
                         "the image's mean (default 0.02)")
    ap.add_argument("--max-diff", type=float, metavar="P",
                    help="exit 1 where the worst counted region differs by more than P percent")
    ap.add_argument("--quiet", action="store_true", help="no table of the regions")
    a = ap.parse_args()
    if a.grid < 1:
        raise ToolError("--grid: at least 1", code=2)
    try:
        ref = images.read_image(a.reference).to_numpy()
        img = images.read_image(a.image).to_numpy()
    except images.ImageError as e:
        raise ToolError(str(e), code=2)
    if ref.shape != img.shape:
        raise ToolError(f"{a.image}: {img.shape[1]} x {img.shape[0]}, the reference is "
                        f"{ref.shape[1]} x {ref.shape[0]}", code=2)
    if a.grid > min(ref.shape[:2]):
        raise ToolError(f"--grid {a.grid}: more regions than the image has pixels per side",
                        code=2)
    np = images.numpy_module()
    if not (np.isfinite(ref).all() and np.isfinite(img).all()):
        raise ToolError("an image holds NaN or infinite values", code=2)
    table, ref_mean, img_mean = region_table(ref, img, a.grid, a.floor)
    if ref_mean <= 0:
        raise ToolError(f"{a.reference}: the reference is black", code=2)
    counted = [t for t in table if t["counted"]]
    if not a.quiet:
        print(f"luminance of {a.image} against {a.reference}, per region, % (rows from the "
              f"top; '.': reference mean below {100 * a.floor:g}% of the image's):")
        for r in range(a.grid):
            cells = [t for t in table if t["row"] == r]
            print(" ".join(f"{100 * t['rel']:+6.2f}" if t["counted"] else "     ."
                           for t in cells))
    whole = img_mean / ref_mean - 1.0
    whole_rgb = (img.reshape(-1, 3).astype(np.float64).mean(axis=0)
                 / ref.reshape(-1, 3).astype(np.float64).mean(axis=0) - 1.0)
    print(f"regions counted   {len(counted)} of {len(table)} ({a.grid} x {a.grid})")
    if counted:
        worst = max(counted, key=lambda t: abs(t["rel"]))
        x0, y0, x1, y1 = worst["box"]
        r, g, b = (100 * v for v in worst["rgb"])
        print(f"worst region      {100 * worst['rel']:+.2f}% (R {r:+.2f}, G {g:+.2f}, "
              f"B {b:+.2f}), z {worst['z']:+.1f}, row {worst['row']} col {worst['col']} "
              f"(pixels x {x0}-{x1 - 1}, y {y0}-{y1 - 1}), reference mean {worst['ref']:.4g}")
        mean_abs = sum(abs(t["rel"]) for t in counted) / len(counted)
        print(f"mean |difference| {100 * mean_abs:.2f}% over the counted regions; "
              f"{sum(abs(t['z']) > 4 for t in counted)} of them with |z| > 4")
    r, g, b = (100 * v for v in whole_rgb)
    print(f"whole image       {100 * whole:+.2f}% (R {r:+.2f}, G {g:+.2f}, B {b:+.2f}); "
          f"reference mean luminance {ref_mean:.4g}")
    if a.max_diff is not None and counted and 100 * abs(worst["rel"]) > a.max_diff:
        print(f"the worst region differs by more than {a.max_diff:g}%", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(exit_on_error("compare_regions", main))
