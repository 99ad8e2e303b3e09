#!/usr/bin/env python3
"""Samples per second of the wavefront against its baselines, from the renderers' --stats JSON.

    scripts/bench_wavefront.py --build build-gpu [--baseline LABEL=DIR ...] [--out DIR]
                               [--repeat N] [--quick]

Renders the round's target cases with build/raystream (own primitives) and
build/raystream-thrust, and with the raystream binary of each baseline build (another tree built
beside this one: LABEL names it in the table), one after another on the same GPU:

  smallpt  1024x768, depth 64, 1024 spp   stream NEE and BSDF, megakernel NEE and BSDF,
                                          stream with separate compaction
  cornell  1920x1080, depth 8, 256 spp    the same
  material_spheres 1280x540, 256 spp      stream (automatic shading)
  every shipped scene, --integrator bsdf  stream, at 1280x720, 64 spp

Each figure is the median over --repeat renders of samples / total_ms (the render loop's wall
time as the renderer reports it). Writes DIR/wavefront.csv with the columns scene, schedule,
integrator, backend, samples_per_s, device, then compaction, tree, resolution and spp, and prints a table with
each case's ratio to the first baseline.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cases(quick):
    spp = lambda n: max(1, n // 64) if quick else n  # noqa: E731
    out = []
    for scene, res, depth, n in (("smallpt", "1024x768", 64, 1024), ("cornell", "1920x1080", 8, 256)):
        for integrator in ("path", "bsdf"):
            out.append((scene, res, depth, spp(n), "stream", integrator, []))
            out.append((scene, res, depth, spp(n), "stream", integrator, ["--compact", "separate"]))
            out.append((scene, res, depth, spp(n), "megakernel", integrator, []))
    out.append(("material_spheres", "1280x540", 8, spp(256), "stream", "path", []))
    for scene in sorted(p.stem for p in (ROOT / "scenes").glob("*.json")):
        out.append((scene, "1280x720", 8, spp(64), "stream", "bsdf", []))
    return out


def render(binary, scene, res, depth, spp, schedule, integrator, extra, timeout):
    with tempfile.TemporaryDirectory() as tmp:
        stats_path = os.path.join(tmp, "stats.json")
        command = [binary, str(ROOT / "scenes" / f"{scene}.json"), "--device", "gpu",
                   "--resolution", res, "--depth", str(depth), "--spp", str(spp),
                   "--schedule", schedule, "--quiet", "--output", os.path.join(tmp, "image.hdr"),
                   "--stats", stats_path] + extra
        if integrator:
            command += ["--integrator", integrator]
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            return None, (done.stderr.strip().splitlines() or ["?"])[-1]
        with open(stats_path) as f:
            stats = json.load(f)
    seconds = stats["total_ms"] / 1000.0
    samples = stats.get("samples") or stats["spp"] * stats["width"] * stats["height"]
    return stats, samples / seconds if seconds > 0 else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=str(ROOT / "build"))
    parser.add_argument("--baseline", action="append", default=[], metavar="LABEL=DIR",
                        help="a build folder of another tree (its raystream binary)")
    parser.add_argument("--out", default=None)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="1/64 of the samples (smoke test)")
    parser.add_argument("--scenes", nargs="*", help="only these scenes")
    parser.add_argument("--timeout", type=int, default=300)
    args = parser.parse_args()
    binaries = [("this", "own", os.path.join(args.build, "raystream")),
                ("this", "thrust", os.path.join(args.build, "raystream-thrust"))]
    for spec in args.baseline:
        label, folder = spec.split("=", 1)
        binaries.append((label, "own", os.path.join(folder, "raystream")))
    rows = []
    for scene, res, depth, spp, schedule, integrator, extra in cases(args.quick):
        if args.scenes and scene not in args.scenes:
            continue
        for tree, backend, binary in binaries:
            if schedule == "megakernel" and backend == "thrust":
                continue  # no primitives in the megakernel
            if extra and (tree != "this" or backend != "own"):
                continue  # the compaction switch is this tree's
            rates, stats, error = [], None, ""
            for _ in range(args.repeat):
                stats, rate = render(binary, scene, res, depth, spp, schedule, integrator, extra,
                                     args.timeout)
                if stats is None and integrator == "bsdf" and tree != "this":
                    # A tree from before light transport knows no --integrator: BSDF sampling
                    # is all it does.
                    stats, rate = render(binary, scene, res, depth, spp, schedule, None, extra,
                                         args.timeout)
                if stats is None:
                    error = rate
                    break
                rates.append(rate)
            compaction = (stats or {}).get("compaction", "")
            rows.append({"scene": scene, "resolution": res, "spp": spp,
                         "schedule": schedule, "integrator": integrator,
                         "backend": backend,
                         "samples_per_s": f"{statistics.median(rates):.4g}" if rates else "",
                         "device": (stats or {}).get("device", ""),
                         "compaction": compaction, "tree": tree, "error": error})
            print(f"{scene:<22} {schedule:<10} {integrator:<4} {backend:<6} {tree:<10} "
                  f"{compaction:<8} {rows[-1]['samples_per_s'] or error}", flush=True)
    columns = ["scene", "schedule", "integrator", "backend", "samples_per_s", "device",
               "compaction", "tree", "resolution", "spp"]
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "wavefront.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
    # Ratios to the first baseline, case by case.
    if args.baseline:
        base = args.baseline[0].split("=", 1)[0]
        index = {(r["scene"], r["resolution"], r["schedule"], r["integrator"], r["backend"],
                  r["tree"]): r for r in rows if r["samples_per_s"] and r["compaction"] != "separate"}
        print(f"\nratio to {base} (own):")
        for r in rows:
            b = index.get((r["scene"], r["resolution"], r["schedule"], r["integrator"], "own", base))
            if r["tree"] == "this" and r["backend"] == "own" and b and r["samples_per_s"]:
                print(f"{r['scene']:<22} {r['resolution']:>9} {r['schedule']:<10} {r['integrator']:<4} "
                      f"{r['compaction']:<8} {float(r['samples_per_s']) / float(b['samples_per_s']):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
