#!/usr/bin/env python3
"""The reference means of every shipped scene that the render tests check their images against.

    shipped_scene_means.py [--raystream build/raystream] [--spp 1024] [--device cpu]
                           [--out tests/data/shipped_scene_means.json]

Renders each scenes/*.json at the tests' size (64x48, the scene's depth, the default integrator
and schedule) with many samples, and writes per scene the image's mean per channel. Every
schedule and executor estimates the same image, so one reference serves them all; its noise is
the test render's scaled by the ratio of samples (the same estimator at the same size). Rerun
this only when what a scene should look like changes (the scene, a material's or light's model).
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_images import read_hdr  # noqa: E402

WIDTH, HEIGHT = 64, 48


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--raystream", default="build/raystream")
    ap.add_argument("--spp", type=int, default=1024)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--out", default="tests/data/shipped_scene_means.json")
    args = ap.parse_args()
    means = {}
    with tempfile.TemporaryDirectory() as folder:
        for scene in sorted(glob.glob("scenes/*.json")):
            image = os.path.join(folder, "image.hdr")
            subprocess.run([args.raystream, scene, "--device", args.device, "--resolution",
                            f"{WIDTH}x{HEIGHT}", "--spp", str(args.spp), "--seed", "20261126",
                            "-q", "-o", image], check=True, stdout=subprocess.DEVNULL)
            width, height, pixels = read_hdr(image)
            entry = [round(sum(p[c] for p in pixels) / len(pixels), 7) for c in range(3)]
            means[os.path.basename(scene)] = entry
            print(f"{scene}: {entry}", flush=True)
    document = {"resolution": [WIDTH, HEIGHT], "spp": args.spp,
                "note": "written by scripts/shipped_scene_means.py", "scenes": means}
    with open(args.out, "w") as f:
        json.dump(document, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
