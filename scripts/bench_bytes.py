#!/usr/bin/env python3
"""The wavefront's byte budget: DRAM bytes per path segment, per kernel, measured by Nsight Compute.

    scripts/bench_bytes.py --build build-gpu [--out DIR] [--label NAME] [--cases smallpt:stream:path ...]

For each case (scene, schedule, integrator) it renders once under `ncu` with the metrics
dram__bytes_read.sum and dram__bytes_write.sum on every kernel launch of the render loop, then
divides each kernel's bytes (summed over its launches) by the path segments the render traced
(its --stats JSON). Beside each measured figure it prints what the state layout says the kernel
must move per segment (the --stats JSON's state_bytes and the render's own fractions: paths that
go on, shadow rays, new samples), so the gap above the floor is visible. Writes
DIR/bytes.csv (scene, schedule, integrator, kernel, bytes_per_segment, layout_bytes_per_segment,
device, label; kernel `all` for a wave's total) and prints a table.

The render is small enough that the replay of every launch stays short (1024x768 at 4 samples per
pixel by default) and large enough that the pool does not fit in the L2 cache.
"""
import argparse
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile

# Kernel families by the functor the launch runs (parallel_for's body), and the primitives'.
FAMILIES = [
    ("intersect", re.compile(r"IntersectBody")),
    ("shade", re.compile(r"ShadeBody")),
    ("shadow", re.compile(r"ShadowBody")),
    ("refill", re.compile(r"StartBody|RefillBody|AdvanceBody")),
    ("sort", re.compile(r"onesweep|radix|multisplit|histogram", re.I)),
    ("compact", re.compile(r"select|compact|scan|lookback", re.I)),
    ("megakernel", re.compile(r"MegakernelBody")),
]

DEFAULT_CASES = ["smallpt:stream:path", "smallpt:stream:bsdf", "cornell:stream:path",
                 "cornell:stream:bsdf", "smallpt:frame:path"]


def family(kernel):
    for name, pattern in FAMILIES:
        if pattern.search(kernel):
            return name
    return "other"


def run_case(args, scene, schedule, integrator, extra):
    with tempfile.TemporaryDirectory() as tmp:
        stats_path = os.path.join(tmp, "stats.json")
        command = [os.path.join(args.build, "raystream"), os.path.join("scenes", scene + ".json"),
                   "--device", "gpu", "--schedule", schedule, "--integrator", integrator,
                   "--resolution", args.resolution, "--spp", str(args.spp), "--quiet",
                   "--stage-timing", "off", "--output", os.path.join(tmp, "image.hdr"),
                   "--stats", stats_path] + extra
        ncu = [args.ncu, "--csv", "--print-units", "base", "--metrics",
               "dram__bytes_read.sum,dram__bytes_write.sum"] + command
        done = subprocess.run(ncu, capture_output=True, text=True)
        if done.returncode != 0:
            sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
            raise SystemExit(f"bench_bytes: ncu failed on {scene} {schedule} {integrator}")
        with open(stats_path) as f:
            stats = json.load(f)
    text = done.stdout[done.stdout.find('"ID"'):]
    per_family = {}
    for row in csv.DictReader(io.StringIO(text)):
        if row.get("Metric Name") not in ("dram__bytes_read.sum", "dram__bytes_write.sum"):
            continue
        value = float(row["Metric Value"].replace(",", ""))
        name = family(row["Kernel Name"])
        per_family[name] = per_family.get(name, 0.0) + value
    return per_family, stats


def layout_bytes(stats):
    """What the state layout says each stage moves per segment (reads plus writes)."""
    b = stats.get("state_bytes", {})
    carried, hit, shadow = b.get("carried", 0), b.get("hit", 0), b.get("shadow", 0)
    segments = max(1, stats["path_segments"])
    out = sum(row["paths_out"] for row in stats["bounces"]) / segments
    shadows = stats.get("shadow_rays", 0) / segments
    waves = stats.get("waves", {})
    regenerated = sum(c["regenerated"] for c in waves.get("by_fill", [])) / segments
    ray = 24  # origin and direction
    layout = {
        "intersect": ray + hit,
        # The path and its hit read; the paths that go on and the shadow rays written.
        "shade": carried + hit + out * carried + shadows * shadow,
        "shadow": shadows * shadow,
        # Fused: new samples written; separate: the survivors moved too (read and write).
        "refill": regenerated * carried if stats.get("compaction") == "fused"
        else regenerated * carried + 2 * out * carried,
    }
    layout["all"] = sum(layout.values())
    return layout


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default=None)
    parser.add_argument("--label", default="")
    parser.add_argument("--ncu", default="ncu")
    parser.add_argument("--resolution", default="1024x768")
    parser.add_argument("--spp", type=int, default=4)
    parser.add_argument("--extra", default="", help="more raystream options, space-separated")
    parser.add_argument("cases", nargs="*", default=DEFAULT_CASES,
                        help="scene:schedule:integrator")
    args = parser.parse_args()
    rows = []
    for case in args.cases:
        scene, schedule, integrator = case.split(":")
        per_family, stats = run_case(args, scene, schedule, integrator, args.extra.split())
        segments = max(1, stats["path_segments"])
        layout = layout_bytes(stats)
        device = stats.get("device", "")
        total = 0.0
        for name in sorted(per_family):
            per = per_family[name] / segments
            total += per
            rows.append([scene, schedule, integrator, name, f"{per:.1f}",
                         f"{layout[name]:.1f}" if name in layout else "", device, args.label])
        rows.append([scene, schedule, integrator, "all", f"{total:.1f}", f"{layout['all']:.1f}",
                     device, args.label])
    header = ["scene", "schedule", "integrator", "kernel", "bytes_per_segment",
              "layout_bytes_per_segment", "device", "label"]
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "bytes.csv"), "w", newline="") as f:
            csv.writer(f).writerows([header] + rows)
    print(f"{'scene':<10} {'schedule':<8} {'integr.':<6} {'kernel':<10} {'B/segment':>10} "
          f"{'layout':>8}")
    for r in rows:
        print(f"{r[0]:<10} {r[1]:<8} {r[2]:<6} {r[3]:<10} {r[4]:>10} {r[5]:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
