#!/usr/bin/env bash
# On a machine with a CUDA GPU: build everything, then run the chosen steps and keep their logs.
#   scripts/gpu_check.sh RESULTS_DIR [build] [test] [sanitize] [bench] [render] [compare] [meshes] [utf8]
# Dependencies outside the system prefix: export CMAKE_PREFIX_PATH=/path/to/usr first.
# Each step writes RESULTS_DIR/<step>.log; a summary is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
results=${1:?usage: scripts/gpu_check.sh RESULTS_DIR [steps...]}
shift
steps=${*:-build test sanitize bench render compare meshes utf8}
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
  # compute-sanitizer on the GPU primitive tests, every tool x binary in parallel; the multi-GB
  # cases (names with Large, Huge, 2Pow26, TwoToThe, Beyond) are left to the plain run above.
  filter='-*Large*:*Huge*:*2Pow26*:*TwoToThe*:*Beyond*'
  jobs=()
  for tool in memcheck racecheck synccheck; do
    for t in primitives_scan_test primitives_compact_test primitives_sort_test primitives_misc_test \
             primitives_classic_test primitives_production_test; do
      [ -x "build-gpu/tests/primitives/$t" ] && jobs+=("$tool $t")
    done
  done
  printf '%s\n' "${jobs[@]}" | xargs -P "${SANITIZE_JOBS:-6}" -L 1 bash -c '
    timeout "${SANITIZE_TIMEOUT:-420}" compute-sanitizer --tool "$0" --error-exitcode 99 \
      "build-gpu/tests/primitives/$1" --gtest_filter="'"$filter"'" \
      >"'"$results"'/sanitize_$0_$1.txt" 2>&1
    echo "rc=$?" >>"'"$results"'/sanitize_$0_$1.txt"'
  for j in "${jobs[@]}"; do
    set -- $j
    f="$results/sanitize_$1_$2.txt"
    note "sanitize $1 $2: $(tail -1 "$f") $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$f" | tail -1) \
$(grep -E 'tests? ran|PASSED|FAILED  \]' "$f" | head -2 | tr '\n' ' ')"
  done
  cat "$results"/sanitize_*.txt >"$results/sanitize.log" 2>/dev/null && rm -f "$results"/sanitize_*.txt
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
  python3 scripts/compare_backends.py --build build-gpu --out "$results/compare" \
    >"$results/compare.log" 2>&1
  note "compare: rc=$?"
fi

if has meshes; then
  BUILD=build-gpu bash scripts/bench_meshes.sh >"$results/meshes.log" 2>&1
  note "meshes: rc=$?"
fi

if has utf8; then
  ./build-gpu/primitives/examples/utf8/utf8_bench >"$results/utf8.log" 2>&1
  note "utf8 bench: rc=$?"
fi

echo
printf '%s\n' "${summary[@]}"
