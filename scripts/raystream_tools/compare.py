"""Linear images against a reference, with the standard library only (no numpy), so it runs
wherever raystream does: for each image the whole-image mean (luminance) relative to the
reference's, the mean squared error per pixel and channel, the same error without the emitters
seen directly (reference pixels brighter than `bright`, and their eight neighbours: their noise
is where a pixel's samples fall on the emitter's edge, the same for every light-transport
estimator), the share of the error in those pixels, and the worst ratio of REGION x REGION
regions' median luminance to the reference's, with that region's corner."""
import statistics

from .runs import ToolError


def luminance(p):
    return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]


def bright_pixels(image, bright):
    """Indices of the pixels whose mean is above `bright`, and of their eight neighbours."""
    w, h = image.width, image.height
    found = set()
    for i, p in enumerate(image.pixels()):
        if statistics.fmean(p) > bright:
            y, x = divmod(i, w)
            found.update((y + dy) * w + x + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                         if 0 <= y + dy < h and 0 <= x + dx < w)
    return found


def against_reference(reference, images, region=100, bright=1.0):
    """The report's lines: `images` are (name, Image) pairs of the reference's size."""
    w, h = reference.width, reference.height
    ref = reference.pixels()
    ref_mean = statistics.fmean(luminance(p) for p in ref)
    emitters = bright_pixels(reference, bright)
    lines = [f"{len(emitters)} of {w * h} pixels are emitters seen directly or their neighbours",
             f"{'image':40s} {'mean/ref':>9s} {'MSE':>11s} {'MSE others':>11s} {'emitters':>9s} "
             f"{'worst region':>13s} {'at':>9s}"]
    for name, image in images:
        if (image.width, image.height) != (w, h):
            raise ToolError(f"{name}: {image.width} x {image.height}, the reference is {w} x {h}",
                            code=2)
        img = image.pixels()
        mean = statistics.fmean(luminance(p) for p in img)
        err = [sum((x - y) ** 2 for x, y in zip(p, q)) / 3 for p, q in zip(img, ref)]
        mse = statistics.fmean(err)
        in_bright = sum(err[i] for i in emitters)
        others = (sum(err) - in_bright) / max(1, w * h - len(emitters))
        share = in_bright / sum(err) if sum(err) > 0 else 0.0
        worst, where = 0.0, "-"
        for y0 in range(0, h - region + 1, region):
            for x0 in range(0, w - region + 1, region):
                idx = [(y0 + y) * w + x0 + x for y in range(region) for x in range(region)]
                m_ref = statistics.median(luminance(ref[i]) for i in idx)
                m_img = statistics.median(luminance(img[i]) for i in idx)
                if m_ref > 0 and abs(m_img / m_ref - 1.0) > worst:
                    worst, where = abs(m_img / m_ref - 1.0), f"{x0},{y0}"
        lines.append(f"{name[-40:]:40s} {mean / ref_mean:9.4f} {mse:11.4e} {others:11.4e} "
                     f"{100 * share:8.1f}% {100 * worst:12.2f}% {where:>9s}")
    return lines
