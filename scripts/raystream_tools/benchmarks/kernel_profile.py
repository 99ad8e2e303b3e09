"""profile: where a render's GPU time goes, kernel by kernel, by Nsight Compute.

    bench.py profile --build build-gpu [--baseline LABEL=DIR ...] [--out DIR] [--ncu ncu]
                     [--spp 1] [--cases smallpt:stream:path:1024x768 ...] [-- RAYSTREAM_OPTIONS...]

For each case (scene, schedule, integrator, resolution) and each binary (this build's raystream,
then each baseline's) it renders once under `ncu` and reads, for every kernel launch of the
render loop: its duration, DRAM and SM throughput (% of peak), achieved occupancy (% of the
warps an SM can hold), registers per thread and active threads per executed instruction (32: no
divergence), and warp instructions executed (millions: what the kernel did, whatever its
stalls). Launches are grouped by kernel (the stage and, for a material queue's shade kernel,
its lobe); each group's time is its launches' sum, its other figures their averages weighted by
duration. A group under 1% of the render's time is left out of the table. Writes
DIR/profile.csv (case, tree, kernel, time_share, time_ms, dram_pct, sm_pct, occupancy_pct,
registers, threads_per_warp, minstructions, launches, device) and prints a table.

Under ncu every launch runs alone with its caches flushed, so absolute times are above a normal
run's; the shares and the per-kernel figures are what the table is for. ncu replays every launch:
a case takes 5 s (a megakernel) to 2 minutes (smallpt's stream at depth 64) per binary on an H200
at 1 spp, and the table is printed at the end.
"""

from .. import runs, tables
from ..runs import ToolError
from . import common, segment_bytes

SUMMARY = "time, DRAM, SM, occupancy, registers, threads/warp per kernel (Nsight Compute)"
TAKES_RAYSTREAM_OPTIONS = True
METRICS = {
    "gpu__time_duration.sum": "time_ns",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed": "dram_pct",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed": "sm_pct",
    "sm__warps_active.avg.pct_of_peak_sustained_active": "occupancy_pct",
    "launch__registers_per_thread": "registers",
    "smsp__thread_inst_executed_per_inst_executed.ratio": "threads_per_warp",
    "smsp__inst_executed.sum": "instructions",
}
# Figures that add up over a kernel's launches; the others are averaged, weighted by duration.
SUMMED = ("time_ns", "instructions")
# The stages are those of the byte budget (kernels by the functor the launch runs).
STAGES = segment_bytes.FAMILIES
LOBES = ["MetallicRoughness", "Lambertian", "Conductor", "Dielectric", "Plastic", "NoLobe"]
DEFAULT_CASES = ["smallpt:stream:path:1024x768", "smallpt:stream:bsdf:1024x768",
                 "cornell:stream:bsdf:1920x1080", "cornell:megakernel:bsdf:1920x1080",
                 "material_spheres:stream:path:1280x540"]
COLUMNS = ["case", "tree", "kernel", "time_share", "time_ms", "dram_pct", "sm_pct",
           "occupancy_pct", "registers", "threads_per_warp", "minstructions", "launches", "device"]


def add_arguments(p):
    common.add_build(p)
    p.add_argument("--baseline", action="append", default=[], metavar="LABEL=DIR",
                   help="a build folder of another tree (its raystream binary)")
    common.add_out(p, None, "the folder of profile.csv; without it no CSV")
    p.add_argument("--ncu", default="ncu")
    p.add_argument("--spp", type=int, default=1)
    p.add_argument("--cases", nargs="+", default=DEFAULT_CASES,
                   help="scene:schedule:integrator:WIDTHxHEIGHT")


def kernel_name(name):
    """The stage of a launch, with the lobe and texture variant of a material queue's kernel."""
    for stage, pattern in STAGES:
        if pattern.search(name):
            if stage == "shade" and "parallel_for_range" in name:
                lobe = next((lobe for lobe in LOBES if lobe in name), "?")
                return f"shade {lobe}" + (" untextured" if "Untextured" in name else "")
            return stage
    return "other"


def profile_case(args, binary, scene, schedule, integrator, resolution):
    """({kernel: {figure: value}}, device) of one render under ncu."""
    rows, stats = segment_bytes.render_under_ncu(args, binary, scene, schedule, integrator,
                                                 resolution, METRICS)
    device = stats.get("device", "")
    launches = {}  # launch id: (kernel, {figure: value})
    for row in rows:
        figure = METRICS.get(row.get("Metric Name"))
        if figure is None:
            continue
        entry = launches.setdefault(row["ID"], (kernel_name(row["Kernel Name"]), {}))
        entry[1][figure] = float(row["Metric Value"].replace(",", ""))
    kernels = {}
    for kernel, values in launches.values():
        k = kernels.setdefault(kernel, {"time_ns": 0.0, "instructions": 0.0, "launches": 0,
                                        "weighted": {}})
        t = values.get("time_ns", 0.0)
        k["launches"] += 1
        for figure, value in values.items():
            if figure in SUMMED:
                k[figure] += value
            else:
                k["weighted"][figure] = k["weighted"].get(figure, 0.0) + value * t
    return kernels, device


def run(args, argv):
    binaries = [("this", runs.binary(args.build))]
    for spec in args.baseline:
        if "=" not in spec:
            raise ToolError(f"--baseline {spec}: expected LABEL=DIR", code=2)
        label, folder = spec.split("=", 1)
        binaries.append((label, runs.binary(folder)))
    rows = []
    for case in args.cases:
        parts = case.split(":")
        if len(parts) != 4:
            raise ToolError(f"--cases {case}: expected scene:schedule:integrator:WxH", code=2)
        for tree, binary in binaries:
            kernels, device = profile_case(args, binary, *parts)
            total = sum(k["time_ns"] for k in kernels.values()) or 1.0
            for kernel, k in sorted(kernels.items(), key=lambda kv: -kv[1]["time_ns"]):
                share = k["time_ns"] / total
                if share < 0.01:
                    continue
                avg = {f: v / (k["time_ns"] or 1.0) for f, v in k["weighted"].items()}
                rows.append([case, tree, kernel, f"{100 * share:.0f}%",
                             f"{k['time_ns'] / 1e6:.2f}", f"{avg.get('dram_pct', 0):.0f}",
                             f"{avg.get('sm_pct', 0):.0f}", f"{avg.get('occupancy_pct', 0):.0f}",
                             f"{avg.get('registers', 0):.0f}",
                             f"{avg.get('threads_per_warp', 0):.1f}",
                             f"{k['instructions'] / 1e6:.1f}", str(k["launches"]), device])
    if args.out:
        tables.write_csv(common.out_folder(args.out) / "profile.csv", COLUMNS, rows)
    print(tables.text_table(["case", "tree", "kernel", "time", "ms", "DRAM%", "SM%", "occ%",
                             "regs", "thr/warp", "Minst", "launches"], [r[:12] for r in rows],
                            names=3))
    return 0
