#!/usr/bin/env python3
"""Measures raystream's start-up on a million triangles, as a user runs it.

    bench_startup.py [--build build] [--runs 5] [--scene scenes/bunnies_1m.json]
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
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

PHASES = ["scene", "obj", "meshes", "context", "device", "prepare", "bvh", "upload", "allocate"]


def run_once(binary, scene, out, k, extra):
    stats = os.path.join(out, "run_%d.json" % k)
    image = os.path.join(out, "run_%d.png" % k)
    command = [binary, scene, "--spp", "1", "--bvh", "gpu", "--quiet", "--stats", stats,
               "--output", image] + extra
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.perf_counter() - start
    after = os.times()
    with open(os.path.join(out, "run_%d.txt" % k), "w") as log:
        log.write(done.stdout)
    if done.returncode != 0:
        sys.exit("bench_startup: %s exited with %d:\n%s" %
                 (" ".join(command), done.returncode, done.stdout[-2000:]))
    with open(stats) as f:
        s = json.load(f)
    row = {"wall": wall * 1000.0,
           "cpu": ((after.children_user - before.children_user) +
                   (after.children_system - before.children_system)) * 1000.0,
           "elapsed": s["elapsed_ms"], "encode": s["encode_ms"],
           "build_ms": s["bvh"]["build_ms"] if s["bvh"].get("built") else 0.0}
    row.update({p: s["startup_ms"][p] for p in PHASES})
    return row, s


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.environ.get("BUILD", "build"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--scene", default="scenes/bunnies_1m.json")
    parser.add_argument("--out", default=os.environ.get("OUT", "renders/bench_startup"))
    parser.add_argument("--no-lbvh-bench", action="store_true")
    parser.add_argument("extra", nargs="*", help="options for raystream (after --)")
    args = parser.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    binary = os.path.join(args.build, "raystream")
    if not os.access(binary, os.X_OK):
        sys.exit("bench_startup: %s not found; build it first (cmake --build %s --target raystream)"
                 % (binary, args.build))
    os.makedirs(args.out, exist_ok=True)

    rows = []
    for k in range(1, max(1, args.runs) + 1):
        row, stats = run_once(binary, args.scene, args.out, k, args.extra)
        rows.append(row)
    columns = ["wall", "cpu", "elapsed"] + PHASES + ["encode", "build_ms"]
    print("%s --spp 1 --bvh gpu %s: %s executor, %s, %dx%d, %d runs (ms)" %
          (args.scene, " ".join(args.extra), stats["executor"], stats.get("device", ""),
           stats["width"], stats["height"], len(rows)))
    print("%-7s" % "run" + "".join("%10s" % c for c in columns))
    for k, row in enumerate(rows, 1):
        print("%-7d" % k + "".join("%10.1f" % row[c] for c in columns))
    print("%-7s" % "median" + "".join("%10.1f" % statistics.median(r[c] for r in rows)
                                      for c in columns))
    print("wall: the process from outside; cpu: its user + system time; elapsed: raystream's own "
          "clock to the image encoded; scene includes obj and meshes; context was made during "
          "the scene's load; build_ms: the report's BVH time")

    bench = os.path.join(args.build, "tests", "bench", "lbvh_bench")
    if args.no_lbvh_bench:
        return
    if not os.access(bench, os.X_OK):
        print("(lbvh_bench not built: cmake --build %s --target lbvh_bench)" % args.build)
        return
    on_cpu = ["--cpu"] if "cpu" in args.extra or "--device=cpu" in args.extra else []
    for variant in ([], ["--no-pool-hold"]):
        if on_cpu and variant:
            continue
        command = [bench, "--cold-steps"] + on_cpu + variant + [args.scene]
        print("\n$ " + " ".join(command), flush=True)
        subprocess.run(command, check=True)


if __name__ == "__main__":
    main()
