"""bytes: the wavefront's byte budget: DRAM bytes per path segment, per kernel, by Nsight Compute.

    bench.py bytes --build build-gpu [--out DIR] [--label NAME] [--ncu ncu] [--resolution 1024x768]
                   [--spp 4] [--cases smallpt:stream:path ...] [-- RAYSTREAM_OPTIONS...]

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
import csv
import io
import json
import re
import subprocess
import tempfile
from pathlib import Path

from .. import runs, tables
from ..runs import ToolError
from . import common

SUMMARY = "DRAM bytes per path segment per kernel, measured by Nsight Compute"
TAKES_RAYSTREAM_OPTIONS = True
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
COLUMNS = ["scene", "schedule", "integrator", "kernel", "bytes_per_segment",
           "layout_bytes_per_segment", "device", "label"]


def add_arguments(p):
    common.add_build(p)
    common.add_out(p, None, "the folder of bytes.csv; without it no CSV")
    p.add_argument("--label", default="")
    p.add_argument("--ncu", default="ncu")
    p.add_argument("--resolution", default="1024x768")
    p.add_argument("--spp", type=int, default=4)
    p.add_argument("--cases", nargs="+", default=DEFAULT_CASES, help="scene:schedule:integrator")


def family(kernel):
    for name, pattern in FAMILIES:
        if pattern.search(kernel):
            return name
    return "other"


def render_under_ncu(args, binary, scene, schedule, integrator, resolution, metrics):
    """(ncu's CSV rows, one per launch and metric, the render's stats) of one render of `scene`
    under `args.ncu` with `metrics`; `bench.py profile` reads it too."""
    with tempfile.TemporaryDirectory() as tmp:
        stats_path = Path(tmp) / "stats.json"
        command = [str(binary), str(runs.scene_path(scene)), "--device", "gpu", "--schedule",
                   schedule, "--integrator", integrator, "--resolution", resolution, "--spp",
                   str(args.spp), "--quiet", "--stage-timing", "off", "--output",
                   str(Path(tmp) / "image.hdr"), "--stats", str(stats_path)]
        ncu = [args.ncu, "--csv", "--print-units", "base", "--metrics",
               ",".join(metrics)] + command + args.raystream_options
        try:
            done = subprocess.run(ncu, capture_output=True, text=True)
        except OSError as e:
            raise ToolError(f"{args.ncu}: cannot run it ({e.strerror})", code=2)
        if done.returncode != 0:
            print(done.stdout[-4000:] + done.stderr[-4000:])
            raise ToolError(f"ncu failed on {scene} {schedule} {integrator} ({binary})")
        with open(stats_path) as f:
            stats = json.load(f)
    text = done.stdout[done.stdout.find('"ID"'):]
    return list(csv.DictReader(io.StringIO(text))), stats


def run_case(args, raystream, scene, schedule, integrator):
    """({kernel family: DRAM bytes}, stats) of one render under ncu."""
    metrics = ("dram__bytes_read.sum", "dram__bytes_write.sum")
    rows, stats = render_under_ncu(args, raystream, scene, schedule, integrator,
                                   args.resolution, metrics)
    per_family = {}
    for row in rows:
        if row.get("Metric Name") not in metrics:
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


def run(args, argv):
    raystream = runs.binary(args.build)
    rows = []
    for case in args.cases:
        parts = case.split(":")
        if len(parts) != 3:
            raise ToolError(f"--cases {case}: expected scene:schedule:integrator", code=2)
        scene, schedule, integrator = parts
        per_family, stats = run_case(args, raystream, scene, schedule, integrator)
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
    if args.out:
        tables.write_csv(common.out_folder(args.out) / "bytes.csv", COLUMNS, rows)
    print(tables.text_table(["scene", "schedule", "integr.", "kernel", "B/segment", "layout"],
                            [r[:6] for r in rows], names=4))
    return 0
