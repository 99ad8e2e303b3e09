#!/usr/bin/env bash
# The stream schedule against the frame schedule and the megakernel, on a GPU: smallpt at
# 1024x768 depth 64 and the Cornell box at 1920x1080 depth 8, the pool size sweep, and the cost of
# the stage timing (--stage-timing off / sampled / all). Prints one line per run.
#   BUILD=build-gpu SPP=1024 bash scripts/bench_schedules.sh [OUT_DIR]
# Each run's --stats JSON is kept in OUT_DIR (default: a temporary folder).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
spp=${SPP:-1024}
out=${1:-$(mktemp -d)}
mkdir -p "$out"
runs=0

run() {  # run NAME BINARY SCENE ARGS...
  local name=$1 binary=$2 scene=$3
  shift 3
  local stats="$out/$name.json"
  "./$build/$binary" "$scene" --quiet --seed 0 --output "$out/$name.hdr" --stats "$stats" "$@" \
    >"$out/$name.txt"
  rm -f "$out/$name.hdr"
  python3 - "$stats" "$name" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
fill = {c["fill"]: c["ms"] for c in s.get("waves", {}).get("by_fill", [])}
low = fill.get("< 10%", 0.0) / sum(fill.values()) if sum(fill.values()) else 0.0
stage = s["stage_ms"]
total = s["total_ms"]
share = (stage["compact"] + stage["sort"]) / total if total else 0.0
print(f"{sys.argv[2]:34s} {s['schedule']:10s} pool {s['pool']:>8} {s['total_ms']:9.1f} ms "
      f"{s['samples_per_second'] / 1e9:7.3f} Gsamples/s {s['path_segments_per_second'] / 1e9:7.3f} "
      f"Gsegments/s compact+sort {100 * share:5.1f}% low-fill waves {100 * low:5.1f}%")
PY
  runs=$((runs + 1))
}

smallpt=(scenes/smallpt.json --resolution 1024x768 --depth 64 --spp "$spp")
cornell=(scenes/cornell.json --resolution 1920x1080 --depth 8 --spp "$spp")
for binary in raystream raystream-thrust; do
  run "smallpt_stream_$binary" "$binary" "${smallpt[@]}" --schedule stream
  run "cornell_stream_$binary" "$binary" "${cornell[@]}" --schedule stream
  run "cornell_frame_$binary" "$binary" "${cornell[@]}" --schedule frame
done
run smallpt_frame raystream "${smallpt[@]}" --schedule frame
run smallpt_megakernel raystream "${smallpt[@]}" --schedule megakernel
run cornell_megakernel raystream "${cornell[@]}" --schedule megakernel
run smallpt_stream_sort raystream "${smallpt[@]}" --schedule stream --sort-by-material on
run cornell_stream_sort raystream "${cornell[@]}" --schedule stream --sort-by-material on
for pool in 131072 262144 524288 1048576 2097152 4194304; do
  run "smallpt_stream_pool$pool" raystream "${smallpt[@]}" --schedule stream --pool "$pool"
done
for timing in off sampled all off sampled; do
  run "smallpt_timing_$timing" raystream "${smallpt[@]}" --schedule stream --stage-timing "$timing"
done
echo "$runs runs, stats in $out"
