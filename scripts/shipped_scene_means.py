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
import json
import os
import sys
import tempfile

from raystream_tools import images, runs

WIDTH, HEIGHT = 64, 48


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--raystream", default=str(runs.ROOT / "build" / "raystream"))
    ap.add_argument("--spp", type=int, default=1024)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--out", default=str(runs.ROOT / "tests" / "data" / "shipped_scene_means.json"))
    args = ap.parse_args()
    means = {}
    with tempfile.TemporaryDirectory() as folder:
        for scene in sorted((runs.ROOT / "scenes").glob("*.json")):
            image = os.path.join(folder, "image.pfm")  # 32-bit float: RGBE's 8-bit mantissas bias a mean
            runs.render(args.raystream, scene, ["--device", args.device, "--resolution",
                                                f"{WIDTH}x{HEIGHT}", "--spp", str(args.spp),
                                                "--seed", "20261126"], output=image)
            pixels = images.read_pfm(image).pixels()
            entry = [round(sum(p[c] for p in pixels) / len(pixels), 7) for c in range(3)]
            means[os.path.basename(scene)] = entry
            print(f"scenes/{scene.name}: {entry}", flush=True)
    document = {"resolution": [WIDTH, HEIGHT], "spp": args.spp,
                "note": "written by scripts/shipped_scene_means.py", "scenes": means}
    with open(args.out, "w") as f:
        json.dump(document, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    sys.exit(runs.exit_on_error("shipped_scene_means", main))
