#!/usr/bin/env python3
"""Shading per material queue against the single shade kernel, and against an older build.

    bench_shading.py [--build build] [--baseline-build DIR | --baseline-commit REV]
                     [--scenes scenes/smallpt.json ...] [--spp 256] [--repeat 3] [--out DIR]

Renders each scene with the stream and frame schedules in both shading modes (--shade queues,
--shade single), the megakernel (its specialized variant), each with --integrator path and
--integrator bsdf, with the renderer's stats only (--stage-timing off), `--repeat` times, and
prints the median samples/s per run and the ratios queues / single and stream / megakernel.
With a baseline (an older build: a folder with its raystream, or a commit that is checked out
and built into a temporary folder), the same runs are made with it where it knows the options,
interleaved with the current build's, and the table gains the ratio current / baseline: the
"no regression" claim measured in one run on one GPU.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SCENES = ["scenes/smallpt.json", "scenes/cornell.json", "scenes/material_spheres.json",
                  "scenes/cornell_box_original.json"]
# (label, raystream arguments); the baseline gets the same minus the options it lacks.
RUNS = [("stream queues", ["--schedule", "stream", "--shade", "queues"]),
        ("stream single", ["--schedule", "stream", "--shade", "single"]),
        ("frame queues", ["--schedule", "frame", "--shade", "queues"]),
        ("frame single", ["--schedule", "frame", "--shade", "single"]),
        ("megakernel", ["--schedule", "megakernel"])]


def build_commit(rev, folder):
    subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", folder, rev], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "-S", folder, "-B", os.path.join(folder, "build"),
                    "-DCMAKE_BUILD_TYPE=Release"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", os.path.join(folder, "build"), "-j",
                    str(os.cpu_count() or 2), "--target", "raystream"], check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(folder, "build")


def options_of(binary):
    text = subprocess.run([binary, "--help"], capture_output=True, text=True).stdout
    return {o for o in ("--shade", "--integrator", "--stage-timing") if o in text}


def render(binary, known, scene, args, spp, stats_path):
    timing = ["--stage-timing", "off"] if "--stage-timing" in known else []
    command = [binary, scene, "--spp", str(spp), "-q", "-o", stats_path[:-5] + ".png",
               "--stats", stats_path] + timing + args
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    with open(stats_path) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--baseline-build", help="a build folder of an older tree (its raystream)")
    ap.add_argument("--baseline-commit", help="a commit to check out and build as the baseline")
    ap.add_argument("--scenes", nargs="+", default=DEFAULT_SCENES)
    ap.add_argument("--spp", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", help="keep the stats JSON here (default: a temporary folder)")
    args = ap.parse_args()

    work = args.out or tempfile.mkdtemp(prefix="bench_shading_")
    os.makedirs(work, exist_ok=True)
    builds = [("current", os.path.join(args.build, "raystream"))]
    if args.baseline_commit:
        folder = os.path.join(work, "baseline-tree")
        builds.append(("baseline", os.path.join(build_commit(args.baseline_commit, folder),
                                                "raystream")))
    elif args.baseline_build:
        builds.append(("baseline", os.path.join(args.baseline_build, "raystream")))
    known = {name: options_of(binary) for name, binary in builds}

    rates = {}  # (scene, integrator, run, build) -> [samples/s]
    variants = {}
    for rep in range(args.repeat):
        for scene in args.scenes:
            name = os.path.splitext(os.path.basename(scene))[0]
            for integrator in ("path", "bsdf"):
                for label, run_args in RUNS:
                    for build, binary in builds:
                        a = list(run_args) + ["--integrator", integrator]
                        if "--shade" not in known[build]:
                            if "queues" in a:
                                continue  # the baseline has one shade kernel: its "single"
                            a = [x for x in a if x not in ("--shade", "single")]
                        if "--integrator" not in known[build]:
                            if integrator == "path":
                                continue  # a tree before next-event estimation: BSDF only
                            a = a[:-2]
                        try:
                            stats = render(binary, known[build], scene, a, args.spp, os.path.join(
                                work,
                                f"{name}_{integrator}_{label.replace(' ', '_')}_{build}_{rep}.json"))
                        except subprocess.CalledProcessError:
                            if build == "current":
                                raise
                            continue  # an older tree that cannot render this scene: no ratio
                        rates.setdefault((name, integrator, label, build), []).append(
                            stats["samples_per_second"])
                        if stats.get("kernel_variant"):
                            variants[(name, integrator, label)] = stats["kernel_variant"]

    def median(key):
        values = rates.get(key)
        return statistics.median(values) if values else None

    header = f"{'scene':18} {'integr.':6} {'run':14} {'Msamples/s':>11}"
    if len(builds) > 1:
        header += f" {'baseline':>10} {'cur/base':>8}"
    header += f" {'queues/single':>13} {'/megakernel':>11}  variant"
    print(header)
    for scene in args.scenes:
        name = os.path.splitext(os.path.basename(scene))[0]
        for integrator in ("path", "bsdf"):
            mega = median((name, integrator, "megakernel", "current"))
            for label, _ in RUNS:
                cur = median((name, integrator, label, "current"))
                if cur is None:
                    continue
                line = f"{name:18} {integrator:6} {label:14} {cur / 1e6:11.1f}"
                if len(builds) > 1:
                    base_label = (label if "--shade" in known["baseline"]
                                  else label.replace("queues", "single"))
                    base = median((name, integrator, base_label, "baseline"))
                    line += (f" {base / 1e6:10.1f} {cur / base:8.3f}" if base else
                             f" {'-':>10} {'-':>8}")
                other = label.replace("queues", "single")
                single = median((name, integrator, other, "current")) if "queues" in label else None
                line += f" {cur / single:13.3f}" if single else f" {'':>13}"
                line += f" {cur / mega:11.3f}" if mega and label != "megakernel" else f" {'':>11}"
                line += f"  {variants.get((name, integrator, label), '')}"
                print(line)
    print(f"(median of {args.repeat}; stats in {work})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
