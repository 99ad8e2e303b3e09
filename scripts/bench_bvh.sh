#!/usr/bin/env bash
# The BVH builders on the GPU machine (issue 32): per mesh scene, the SAH build on the host and
# the LBVH on the GPU with each primitives backend (raystream: own radix sort; raystream-thrust:
# thrust::stable_sort_by_key): build time (as the report gives it, and with every kernel loaded
# before the build: CUDA_MODULE_LOADING=EAGER), nodes, depth, SAH cost, tree memory, the build's
# peak GPU memory against its limit (the tree plus twice the primitives' data), and path
# segments/s rendering through each tree (1920x1080, depth 8). Then `raystream
# scenes/bunnies_1m.json --spp 1` as a user runs it, three times, wall clock with the report's
# start-up phases. Prints a short table last.
#   scripts/bench_bvh.sh [BUILD_DIR] [OUT_DIR]
# BUILD_DIR: the build folder (default: $BUILD, else build); OUT_DIR: the images, reports and
# --stats JSON of every run (default: $OUT, else renders/bench_bvh). SPP overrides the samples
# per pixel of the trace-speed runs (default 32).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-${BUILD:-build}}
out=${2:-${OUT:-renders/bench_bvh}}
spp=${SPP:-32}
for exe in raystream raystream-thrust; do
  if [[ ! -x "$build/$exe" ]]; then
    echo "bench_bvh: $build/$exe not found; build it first (cmake --build $build)" >&2
    exit 2
  fi
done
mkdir -p "$out"

# run NAME BINARY SCENE [raystream options...]: one render on the GPU, its JSON in $out/NAME.json.
run() {
  local name=$1 exe=$2 scene=$3
  shift 3
  "$build/$exe" "$scene" --device gpu --depth 8 --quiet --stats "$out/$name.json" \
    --output "$out/$name.png" "$@" >"$out/$name.txt"
}

scenes=(cornell_box_original bunny dragon bunnies_1m)
for scene in "${scenes[@]}"; do
  file=scenes/$scene.json
  trace=(--spp "$spp" --resolution 1920x1080)
  run "${scene}_sah" raystream "$file" --bvh sah "${trace[@]}"
  run "${scene}_gpu_own" raystream "$file" --bvh gpu "${trace[@]}"
  run "${scene}_gpu_thrust" raystream-thrust "$file" --bvh gpu "${trace[@]}"
  # The build alone, every kernel loaded when the context was made.
  CUDA_MODULE_LOADING=EAGER run "${scene}_gpu_own_eager" raystream "$file" --bvh gpu \
    --spp 1 --resolution 64x64
  CUDA_MODULE_LOADING=EAGER run "${scene}_gpu_thrust_eager" raystream-thrust "$file" --bvh gpu \
    --spp 1 --resolution 64x64
done

# The start-up target: the command as a user types it (the scene's resolution, its PNG), timed
# from outside; the first run also reads the files from disk.
for k in 1 2 3; do
  start=$(date +%s.%N)
  "$build/raystream" scenes/bunnies_1m.json --spp 1 --quiet --stats "$out/startup_$k.json" \
    --output "$out/startup_$k.png" >"$out/startup_$k.txt"
  end=$(date +%s.%N)
  echo "$start $end" >"$out/startup_$k.wall"
done

python3 - "$out" "$spp" "${scenes[@]}" <<'PY'
import json, sys
out, spp, scenes = sys.argv[1], sys.argv[2], sys.argv[3:]
def load(name):
    return json.load(open(f"{out}/{name}.json"))
mib = lambda b: b / 1048576.0
def size(b):
    return f"{b / 1024.0:.1f} KiB" if b < 1048576 else f"{mib(b):.1f} MiB"
print(f"BVH builders ({load(scenes[0] + '_sah')['device']}; trace: 1920x1080, {spp} spp, depth 8)")
head = (f"{'scene':<22} {'builder':<12} {'build ms':>9} {'eager ms':>9} {'nodes':>9} "
        f"{'depth':>5} {'SAH':>7} {'tree MiB':>9} {'peak MiB':>9} {'limit MiB':>9} "
        f"{'Mseg/s':>8} {'vs sah':>6}")
print(head)
rows = []
for scene in scenes:
    sah = load(scene + "_sah")
    for kind, label in (("sah", "sah (host)"), ("gpu_own", "lbvh own"),
                        ("gpu_thrust", "lbvh thrust")):
        j = load(f"{scene}_{kind}")
        b = j["bvh"]
        eager = "-"
        if kind != "sah":
            eager = f"{load(f'{scene}_{kind}_eager')['bvh']['build_ms']:.2f}"
        limit = mib(b["tree_bytes"] + 2 * b["primitive_bytes"])
        peak = f"{mib(b['build_peak_bytes']):.1f}" if b["build_peak_bytes"] else "-"
        ratio = j["path_segments_per_second"] / sah["path_segments_per_second"]
        print(f"{scene:<22} {label:<12} {b['build_ms']:9.2f} {eager:>9} {b['nodes']:>9} "
              f"{b['depth']:>5} {b['sah_cost']:7.2f} {mib(b['tree_bytes']):9.1f} {peak:>9} "
              f"{limit:9.1f} {j['path_segments_per_second'] / 1e6:8.0f} {ratio:6.2f}")
        rows.append((scene, kind, b, j, ratio))

print("\nraystream scenes/bunnies_1m.json --spp 1 (wall clock from outside; phases from the report)")
walls = []
for k in (1, 2, 3):
    start, end = map(float, open(f"{out}/startup_{k}.wall").read().split())
    j = load(f"startup_{k}")
    s = j["startup_ms"]
    walls.append(end - start)
    print(f"run {k}: {end - start:.3f} s wall; scene {s['scene']:.1f} ms (OBJ {s['obj']:.1f}, "
          f"meshes {s['meshes']:.1f}), device {s['device']:.1f}, prepare {s['prepare']:.1f}, "
          f"BVH {s['bvh']:.1f} ({j['bvh']['builder']}), upload {s['upload']:.1f}, "
          f"allocate {s['allocate']:.1f}, render {j['total_ms'] - s['allocate']:.1f}, "
          f"encode {j['encode_ms']:.1f}, to the image encoded {j['elapsed_ms']:.1f} ms")

print("\nsummary (targets of issue 32)")
get = {(r[0], r[1]): r for r in rows}
own = get[("bunnies_1m", "gpu_own")][2]["build_ms"]
thr = get[("bunnies_1m", "gpu_thrust")][2]["build_ms"]
sah_ms = get[("bunnies_1m", "sah")][2]["build_ms"]
print(f"| target | measured |")
print(f"| --- | --- |")
print(f"| bunnies_1m GPU build <= 15 ms, >= 50x SAH | own {own:.2f} ms ({sah_ms / own:.0f}x), "
      f"thrust {thr:.2f} ms ({sah_ms / thr:.0f}x); SAH {sah_ms:.1f} ms |")
for scene in scenes:
    r = get[(scene, "gpu_own")]
    print(f"| trace speed {scene} >= 0.9x SAH | {r[4]:.2f}x (SAH cost {r[2]['sah_cost']:.2f} vs "
          f"{get[(scene, 'sah')][2]['sah_cost']:.2f}) |")
print(f"| bunnies_1m --spp 1 <= 0.8 s wall | {min(walls):.3f} s best of 3 "
      f"({', '.join(f'{w:.3f}' for w in walls)}) |")
for scene in scenes:
    b = get[(scene, "gpu_own")][2]
    limit = b["tree_bytes"] + 2 * b["primitive_bytes"]
    print(f"| {scene} build peak <= tree + 2x primitives | {size(b['build_peak_bytes'])} "
          f"of {size(limit)} |")
PY
