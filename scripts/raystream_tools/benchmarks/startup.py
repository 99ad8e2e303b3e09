"""startup: raystream's start-up on a million triangles, as a user runs it.

    bench.py startup [--build build] [--runs 5] [--scene scenes/bunnies_1m.json]
                     [--out renders/bench_startup] [--no-lbvh-bench] [-- RAYSTREAM_OPTIONS...]

Runs `BUILD/raystream SCENE --spp 1 --bvh gpu --stats OUT/run_K.json` --runs times (the scene's
own resolution and PNG; options after `--` are added, e.g. `-- --device cpu --resolution 64x48`
to try it without a GPU) and prints, per run and as the median over the runs: the wall time
measured from outside (the process from its start to its exit) with its CPU time, raystream's own
wall time to the image encoded, each start-up phase of the report (scene, of which OBJ and mesh
transforms; the CUDA context made during the load; device, prepare, BVH, upload, allocate), the
encoding, and the LBVH's build_ms. The first run also reads the files from disk.

Then, unless --no-lbvh-bench, BUILD/src/bench/lbvh_bench on the same scene (the build step by
step, cold and warm; once more with --no-pool-hold), on the GPU unless `--device cpu` is among
the options.
"""
import subprocess
from pathlib import Path

from .. import runs, tables
from ..runs import ROOT, ToolError
from . import common

SUMMARY = "start-up on a million triangles, phase by phase, and the LBVH build step by step"
TAKES_RAYSTREAM_OPTIONS = True
PHASES = ["scene", "obj", "meshes", "context", "device", "prepare", "bvh", "upload", "allocate"]
COLUMNS = ["wall", "cpu", "elapsed"] + PHASES + ["encode", "build_ms"]


def add_arguments(p):
    common.add_build(p)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--scene", default=str(ROOT / "scenes" / "bunnies_1m.json"))
    common.add_out(p, "renders/bench_startup", "the images, reports and stats JSON")
    p.add_argument("--no-lbvh-bench", action="store_true")


def run_once(raystream, scene, out, k, extra):
    r = runs.render(raystream, scene, ["--spp", 1, "--bvh", "gpu"] + extra,
                    output=out / f"run_{k}.png", stats=out / f"run_{k}.json",
                    log=out / f"run_{k}.txt")
    s = r.stats
    row = {"wall": r.wall_s * 1000.0, "cpu": r.cpu_s * 1000.0, "elapsed": s["elapsed_ms"],
           "encode": s["encode_ms"],
           "build_ms": s["bvh"]["build_ms"] if s["bvh"].get("built") else 0.0}
    row.update({p: s["startup_ms"][p] for p in PHASES})
    return row, s


def lbvh_bench(args):
    bench = Path(args.build) / "src" / "bench" / "lbvh_bench"
    if not bench.is_file():
        print(f"(lbvh_bench not built: cmake --build {args.build} --target lbvh_bench)")
        return
    extra = args.raystream_options
    on_cpu = ["--cpu"] if "cpu" in extra or "--device=cpu" in extra else []
    for variant in ([], ["--no-pool-hold"]):
        if on_cpu and variant:
            continue
        command = [str(bench), "--cold-steps"] + on_cpu + variant + [args.scene]
        print("\n$ " + " ".join(command), flush=True)
        if subprocess.run(command).returncode != 0:
            raise ToolError(f"lbvh_bench failed: {' '.join(command)}")


def run(args, argv):
    raystream = runs.binary(args.build)
    out = common.out_folder(args.out)
    rows = []
    for k in range(1, max(1, args.runs) + 1):
        row, stats = run_once(raystream, args.scene, out, k, args.raystream_options)
        rows.append(row)
    print(f"{args.scene} --spp 1 --bvh gpu {' '.join(args.raystream_options)}: "
          f"{stats['executor']} executor, {stats.get('device', '')}, {stats['width']}x"
          f"{stats['height']}, {len(rows)} runs (ms)")
    cells = [[str(k)] + [f"{row[c]:.1f}" for c in COLUMNS] for k, row in enumerate(rows, 1)]
    cells.append(["median"] + [f"{tables.median([r[c] for r in rows]):.1f}" for c in COLUMNS])
    print(tables.text_table(["run"] + COLUMNS, cells))
    print("wall: the process from outside; cpu: its user + system time; elapsed: raystream's own "
          "clock to the image encoded; scene includes obj and meshes; context was made during "
          "the scene's load; build_ms: the report's BVH time")
    if not args.no_lbvh_bench:
        lbvh_bench(args)
    return 0
