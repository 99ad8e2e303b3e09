#!/usr/bin/env bash
# The mesh benchmark (run on the GPU machine): renders the dragon in the Cornell box and the
# 1.05M-triangle scene at 1920x1080, depth 8, and prints path segments/s and the BVH's numbers;
# then the speedup of the BVH over the brute-force loop (--bvh off) on a small mesh (the Cornell
# Box OBJ, 36 triangles) and on the bunny (21k triangles, fewer frames).
#   scripts/bench_meshes.sh [BUILD_DIR] [OUT_DIR]
# BUILD_DIR: the build folder (default: $BUILD, else build); OUT_DIR: where the images and the
# stats JSON go (default: $OUT, else renders/bench_meshes).
# Each run's --stats JSON lands in OUT_DIR; the table goes to stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-${BUILD:-build}}
out=${2:-${OUT:-renders/bench_meshes}}
exe="$build/raystream"
if [[ ! -x "$exe" ]]; then
  echo "bench_meshes: $exe not found; build it first (scripts/build.sh --target raystream)" >&2
  exit 2
fi
mkdir -p "$out"

# run NAME SCENE SPP [raystream options...]: one render on the GPU, its JSON in $out/NAME.json.
run() {
  local name=$1 scene=$2 spp=$3
  shift 3
  "$exe" "$scene" --device gpu --spp "$spp" --depth 8 --quiet --stats "$out/$name.json" \
    --output "$out/$name.png" "$@" >"$out/$name.txt"
}

# One line per run from its JSON.
row() {
  python3 - "$out/$1.json" "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
b = j["bvh"]
bvh = (f'{b["nodes"]} nodes, depth {b["depth"]}, SAH {b["sah_cost"]:.2f}, '
       f'build {b["build_ms"]:.1f} ms') if b["built"] else "off (brute force)"
print(f'{sys.argv[2]:<22} {j["width"]}x{j["height"]} {j["frames"]:>4} spp  '
      f'{j["path_segments_per_second"] / 1e6:10.1f} M segments/s  '
      f'frame {j["frame_ms"]["median"]:8.3f} ms  {b["triangles"]:>8} triangles  BVH {bvh}')
PY
}

fullhd=(--resolution 1920x1080)
run dragon scenes/dragon.json 64 "${fullhd[@]}"
run bunnies_1m scenes/bunnies_1m.json 32 "${fullhd[@]}"
run cornell_obj_bvh scenes/cornell_box_original.json 64 "${fullhd[@]}"
run cornell_obj_brute scenes/cornell_box_original.json 64 "${fullhd[@]}" --bvh off
run bunny_bvh scenes/bunny.json 16 --resolution 640x360
run bunny_brute scenes/bunny.json 1 --resolution 640x360 --bvh off

echo "mesh benchmark ($(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1))"
for name in dragon bunnies_1m cornell_obj_bvh cornell_obj_brute bunny_bvh bunny_brute; do
  row "$name"
done
python3 - "$out" <<'PY'
import json, sys
d = sys.argv[1]
def rate(n):
    return json.load(open(f"{d}/{n}.json"))["path_segments_per_second"]
for small in ("cornell_obj", "bunny"):
    print(f"BVH speedup over brute force, {small}: {rate(small + '_bvh') / rate(small + '_brute'):.1f}x")
PY
