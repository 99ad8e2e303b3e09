#!/usr/bin/env bash
# On a machine with a CUDA GPU: build everything, then run the chosen steps and keep their logs.
#   scripts/gpu_check.sh RESULTS_DIR [build] [test] [sanitize] [sanitize-render] [bench] [render]
#                        [compare] [meshes] [bvh] [utf8] [wavefront] [bytes] [profile] [encoding]
# compare, meshes, bvh, wavefront, bytes and profile are benchmarks of scripts/bench.py (backends,
# meshes, bvh, wavefront, bytes, profile). wavefront and profile (samples/s; Nsight Compute per
# kernel, the cases from PROFILE_CASES) take the build folders of other trees to compare with from
# BASELINES ("LABEL=DIR ...", each with a raystream).
# Dependencies outside the system prefix: export CMAKE_PREFIX_PATH=/path/to/usr first.
# Each step writes RESULTS_DIR/<step>.log; a summary is printed last.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
results=${1:?usage: scripts/gpu_check.sh RESULTS_DIR [steps...]}
shift
steps=${*:-build test sanitize sanitize-render bench render compare meshes bvh utf8}
mkdir -p "$results"
export PATH="/usr/local/cuda/bin:$PATH"
summary=()
has() { [[ " $steps " == *" $1 "* ]]; }
note() { summary+=("$1"); echo "== $1"; }

if has build; then
  start=$SECONDS
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release >"$results/build.log" 2>&1 &&
    cmake --build build-gpu -j "$(nproc)" >>"$results/build.log" 2>&1
  note "build: rc=$? in $((SECONDS - start)) s"
fi

if has test; then
  (cd build-gpu && ctest --output-on-failure -j 4 --timeout 900) >"$results/test.log" 2>&1
  note "test: rc=$? $(grep -E 'tests passed|tests failed' "$results/test.log" | tail -1)"
  grep -E '\*\*\*|Failed|Not Run' "$results/test.log" | head -20
fi

if has sanitize; then
  # compute-sanitizer on the GPU primitive tests: every tool (SANITIZE_TOOLS) x binary
  # (SANITIZE_BINARIES), each split into SANITIZE_SHARDS gtest shards, run SANITIZE_JOBS at a
  # time, each within SANITIZE_TIMEOUT seconds. The multi-GB cases (names with
  # Large, Huge, 2Pow26, TwoToThe, Beyond) are left to the plain run above, and
  # PRIM_TEST_SANITIZER=1 thins the test matrix (see tests/primitives/test_support.h).
  filter='-*Large*:*Huge*:*2Pow26*:*TwoToThe*:*Beyond*'
  shards=${SANITIZE_SHARDS:-4}
  binaries=(${SANITIZE_BINARIES:-primitives_scan_test primitives_compact_test primitives_sort_test
            primitives_misc_test primitives_classic_test primitives_production_test
            primitives_multisplit_test})
  jobs=()
  for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck}; do
    for t in "${binaries[@]}"; do
      [ -x "build-gpu/tests/primitives/$t" ] || continue
      for ((s = 0; s < shards; ++s)); do jobs+=("$tool $t $s"); done
    done
  done
  start=$SECONDS
  printf '%s\n' "${jobs[@]}" | PRIM_TEST_SANITIZER=1 GTEST_TOTAL_SHARDS=$shards \
    xargs -P "${SANITIZE_JOBS:-16}" -L 1 bash -c '
    out="'"$results"'/sanitize_$0_$1_$2.txt"
    begin=$SECONDS
    GTEST_SHARD_INDEX=$2 timeout "${SANITIZE_TIMEOUT:-540}" compute-sanitizer --tool "$0" \
      --error-exitcode 99 "build-gpu/tests/primitives/$1" --gtest_filter="'"$filter"'" >"$out" 2>&1
    echo "rc=$? in $((SECONDS - begin)) s" >>"$out"'
  note "sanitize: ${#jobs[@]} runs in $((SECONDS - start)) s"
  # One line per tool x binary: the exit codes of its shards, the tests that passed, and the
  # sanitizer's error or hazard counts.
  for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck}; do
    for t in "${binaries[@]}"; do
      files=("$results"/sanitize_${tool}_${t}_*.txt)
      [ -e "${files[0]}" ] || continue
      rcs=$(grep -h '^rc=' "${files[@]}" | sed 's/ in .*//' | sort | uniq -c | tr -s ' ' | tr '\n' ',')
      passed=$(grep -h 'PASSED  \]' "${files[@]}" | awk '{s += $4} END {print s + 0}')
      failed=$(grep -h 'FAILED TEST' "${files[@]}" | awk '{s += $1} END {print s + 0}')
      # memcheck and synccheck: "ERROR SUMMARY: N errors"; racecheck: "RACECHECK SUMMARY: N hazards
      # displayed (...)".
      errors=$( (grep -hoE 'ERROR SUMMARY: [0-9]+ errors?$' "${files[@]}" | grep -oE '[0-9]+';
                 grep -hoE 'RACECHECK SUMMARY: [0-9]+ hazards' "${files[@]}" | grep -oE '[0-9]+') |
        awk '{s += $1} END {print s + 0}')
      slowest=$(grep -h '^rc=' "${files[@]}" | awk '{print $3}' | sort -n | tail -1)
      note "sanitize $tool $t: shards rc [$rcs] passed $passed failed $failed \
errors/hazards $errors, slowest shard ${slowest} s"
    done
  done
  cat "$results"/sanitize_*.txt >"$results/sanitize.log" 2>/dev/null && rm -f "$results"/sanitize_*.txt
fi

if has sanitize-render; then
  # compute-sanitizer on the renderer: every tool (SANITIZE_TOOLS) on the GPU render test binaries
  # (without the full-HD, out-of-memory and memory-growth cases: SANITIZE_RENDER_FILTER; in gtest
  # shards) and on a
  # small render (64x48, 2 spp) of every shipped scene with build-gpu/raystream --device gpu, in
  # every schedule, SANITIZE_JOBS at a time, each within SANITIZE_TIMEOUT seconds. One line per
  # tool x target: the exit code (99: the tool found errors) and the error or hazard count.
  render_targets=()
  for t in render_gpu_test render_stages_gpu_test; do
    if [ -x "build-gpu/tests/integrator/$t" ]; then
      # In gtest shards (SANITIZE_SHARDS, default 8) that run side by side.
      for ((shard = 0; shard < ${SANITIZE_SHARDS:-8}; ++shard)); do
        render_targets+=("test:$t:$shard")
      done
    else
      note "sanitize-render: build-gpu/tests/integrator/$t missing (run the build step)"
    fi
  done
  for scene in scenes/*.json; do
    for schedule in stream frame megakernel; do
      render_targets+=("scene:$(basename "$scene" .json):$schedule")
    done
  done
  jobs=()
  for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck}; do
    for target in "${render_targets[@]}"; do jobs+=("$tool $target"); done
  done
  start=$SECONDS
  printf '%s\n' "${jobs[@]}" | SANITIZE_RENDER_FILTER="${SANITIZE_RENDER_FILTER:-\
-*FullHd*:*OutOfMemory*:*DeviceMemoryDoesNotGrow*}" xargs -P "${SANITIZE_JOBS:-8}" -L 1 bash -c '
    tool=$0 target=$1
    IFS=: read -r kind name schedule <<<"$target"
    if [[ $kind == test ]]; then
      command=(env GTEST_TOTAL_SHARDS="${SANITIZE_SHARDS:-8}" GTEST_SHARD_INDEX="$schedule"
               "build-gpu/tests/integrator/$name" --gtest_filter="$SANITIZE_RENDER_FILTER")
      label=${name}_shard$schedule
    else
      command=(build-gpu/raystream "scenes/$name.json" --device gpu --resolution 64x48 --spp 2
               --schedule "$schedule" --quiet --output "/tmp/sanitize-render_${tool}_$name.png")
      label=${name}_$schedule
    fi
    out="'"$results"'/sanitize-render_${tool}_$label.txt"
    begin=$SECONDS
    timeout "${SANITIZE_TIMEOUT:-900}" compute-sanitizer --tool "$tool" --error-exitcode 99 \
      "${command[@]}" >"$out" 2>&1
    rc=$?
    # memcheck and synccheck: "ERROR SUMMARY: N errors"; racecheck: "RACECHECK SUMMARY: N
    # hazards displayed (...)".
    errors=$( (grep -hoE "ERROR SUMMARY: [0-9]+ errors?$" "$out" | grep -oE "[0-9]+";
               grep -hoE "RACECHECK SUMMARY: [0-9]+ hazards" "$out" | grep -oE "[0-9]+") |
      awk "{s += \$1} END {print s + 0}")
    echo "sanitize-render $tool $label: rc=$rc errors/hazards $errors in $((SECONDS - begin)) s" |
      tee -a "$out"'
  cat "$results"/sanitize-render_*.txt >"$results/sanitize-render.log" 2>/dev/null
  grep -h "^sanitize-render " "$results"/sanitize-render_*.txt | sort >"$results/sanitize-render.summary"
  rm -f "$results"/sanitize-render_*.txt
  note "sanitize-render: ${#jobs[@]} runs in $((SECONDS - start)) s; $(grep -c 'rc=0 errors/hazards 0 ' \
"$results/sanitize-render.summary") clean"
  grep -v "rc=0 errors/hazards 0 " "$results/sanitize-render.summary" | head -20
fi

if has bench; then
  ./build-gpu/primitives/bench/primitives_bench --csv "$results/bench.csv" ${BENCH_ARGS:-} \
    >"$results/bench.log" 2>&1
  note "bench: rc=$?"
fi

if has render; then
  : >"$results/render.log"
  for scene in scenes/*.json; do
    base=$(basename "$scene" .json)
    for bin in raystream raystream-thrust; do
      # The image of the own binary is kept; the Thrust binary's statistics only.
      out="$results/${base}.png"
      [ "$bin" = raystream ] || out="${TMPDIR:-/tmp}/${base}_${bin}.png"
      ./build-gpu/$bin "$scene" --resolution 1920x1080 --depth 8 --quiet \
        --output "$out" --stats "$results/${base}_${bin}.json" \
        >>"$results/render.log" 2>&1
      note "render $base $bin: rc=$?"
    done
  done
fi

if has compare; then
  python3 scripts/bench.py backends --build build-gpu --out "$results/compare" \
    >"$results/compare.log" 2>&1
  note "compare: rc=$?"
fi

if has meshes; then
  python3 scripts/bench.py meshes --build build-gpu >"$results/meshes.log" 2>&1
  note "meshes: rc=$?"
fi

if has bvh; then
  python3 scripts/bench.py bvh --build build-gpu --out "$results/bvh" >"$results/bvh.log" 2>&1
  note "bvh: rc=$?"
fi

if has wavefront; then
  baselines=()
  for b in ${BASELINES:-}; do baselines+=(--baseline "$b"); done
  python3 scripts/bench.py wavefront --build build-gpu --out "$results" "${baselines[@]}" \
    >"$results/wavefront.log" 2>&1
  note "wavefront: rc=$?"
fi

if has bytes; then
  python3 scripts/bench.py bytes --build build-gpu --out "$results" --label this \
    >"$results/bytes.log" 2>&1
  note "bytes: rc=$?"
fi

if has profile; then
  # Nsight Compute per kernel (bench.py profile), one case a run so that each prints as it ends.
  baselines=()
  for b in ${BASELINES:-}; do baselines+=(--baseline "$b"); done
  for c in ${PROFILE_CASES:-smallpt:stream:path:1024x768 cornell:stream:bsdf:1920x1080 \
           cornell:megakernel:bsdf:1920x1080 material_spheres:stream:path:1280x540}; do
    mkdir -p "$results/profile/${c//:/_}"
    python3 scripts/bench.py profile --build build-gpu --cases "$c" "${baselines[@]}" \
      --out "$results/profile/${c//:/_}" >>"$results/profile.log" 2>&1
    note "profile $c: rc=$?"
  done
fi

if has encoding; then
  # The image encoders: encoding_bench's table (each format's encoder against the ones weighed,
  # in one run), then the report's encoding figure of real renders at 1920x1080: PNG, and EXR
  # with the four AOVs.
  OMP_NUM_THREADS=$(nproc) ./build-gpu/src/bench/encoding_bench --reps 9 \
    >"$results/encoding.log" 2>&1
  note "encoding bench: rc=$?"
  for out in engine.png engine.exr; do
    aov=()
    [[ $out == *.exr ]] && aov=(--aov albedo,normal,depth,variance)
    ./build-gpu/raystream scenes/engine.json --resolution 1920x1080 --spp 64 --quiet \
      "${aov[@]}" -o "${TMPDIR:-/tmp}/$out" >>"$results/encoding.log" 2>&1
    note "encoding $out: rc=$? $(grep -o 'encoding [0-9.]* ms' "$results/encoding.log" | tail -1)"
  done
fi

if has utf8; then
  ./build-gpu/primitives/examples/utf8/utf8_bench >"$results/utf8.log" 2>&1
  note "utf8 bench: rc=$?"
fi

echo
printf '%s\n' "${summary[@]}"
