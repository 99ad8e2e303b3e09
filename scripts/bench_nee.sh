#!/usr/bin/env bash
# Next-event estimation with MIS (--integrator path) against BSDF sampling (--integrator bsdf) on
# cornell_box_original (800 x 800, depth 8): a converged reference of each estimator, the error
# of the two at equal time, and their throughput; then sorting by material on material_spheres
# in both wavefront schedules. Prints a summary last.
#
#   scripts/bench_nee.sh [BUILD_DIR] [OUT_DIR] [REFERENCE_SPP]
# EXTRA_ARGS (environment) go to every render, e.g. EXTRA_ARGS="--resolution 100x100 --device cpu"
# for a quick check of the script itself.
set -euo pipefail
B=${1:-build}
OUT=${2:-renders/nee}
REF=${3:-65536}
R=$B/raystream
S=scenes/cornell_box_original.json
mkdir -p "$OUT"
stat() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(j[sys.argv[2]])" "$@"; }
run() {  # name, then raystream arguments
  local name=$1; shift
  # shellcheck disable=SC2086
  "$R" "$@" ${EXTRA_ARGS:-} -q --stats "$OUT/$name.json" > "$OUT/$name.txt"
  printf '%-26s %10.1f ms %12.4g samples/s %12.4g segments/s %12s shadow rays\n' "$name" \
    "$(stat "$OUT/$name.json" total_ms)" "$(stat "$OUT/$name.json" samples_per_second)" \
    "$(stat "$OUT/$name.json" path_segments_per_second)" "$(stat "$OUT/$name.json" shadow_rays)"
}
echo "== references ($REF spp, independent seeds)"
run ref_path $S --spp "$REF" --integrator path --seed 101 -o "$OUT/ref_path.hdr"
run ref_bsdf $S --spp "$REF" --integrator bsdf --seed 202 -o "$OUT/ref_bsdf.hdr"
echo "== equal time: path at 64 spp, bsdf at the spp that takes as long"
run path_64 $S --spp 64 --integrator path --seed 1 -o "$OUT/path_64.hdr"
run bsdf_64 $S --spp 64 --integrator bsdf --seed 1 -o "$OUT/bsdf_64.hdr"
n=$(python3 -c "print(max(1, round(64 * $(stat "$OUT/path_64.json" total_ms) / $(stat "$OUT/bsdf_64.json" total_ms))))")
run "bsdf_${n}" $S --spp "$n" --integrator bsdf --seed 1 -o "$OUT/bsdf_eq.hdr"
echo "== cost per sample: 64 and 1024 spp without stage timing; fixed ms + ms per spp"
for i in path bsdf; do
  run "${i}_64_untimed" $S --spp 64 --integrator $i --stage-timing off -o "$OUT/${i}_64_untimed.png"
  run "${i}_1024_untimed" $S --spp 1024 --integrator $i --stage-timing off -o "$OUT/${i}_1024.png"
  python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); per = (b - a) / 960
print(f'$i: {per:.4f} ms per spp, {a - 64 * per:.1f} ms fixed')" \
    "$(stat "$OUT/${i}_64_untimed.json" total_ms)" "$(stat "$OUT/${i}_1024_untimed.json" total_ms)"
done
echo "== against the path reference: mean, MSE (all pixels; without the emitters seen directly), worst region median"
python3 scripts/compare_images.py --region "${REGION:-100}" --bright 1.0 "$OUT/ref_path.hdr" "$OUT/ref_bsdf.hdr" "$OUT/path_64.hdr" \
  "$OUT/bsdf_eq.hdr" "$OUT/bsdf_64.hdr"
echo "== sorting by material: material_spheres 1280 x 540, 256 spp"
for sched in stream frame; do
  for sort in off on multisplit; do
    run "spheres_${sched}_sort_${sort}" scenes/material_spheres.json --spp 256 \
      --schedule "$sched" --sort-by-material "$sort" -o "$OUT/spheres_${sched}_${sort}.png"
  done
done
