#!/usr/bin/env bash
# The test command: installs what is missing, builds everything, runs every test; then the
# sanitizer build (scripts/asan.sh: the CPU tests under ASan and UBSan, in build-asan/) and the
# fuzz targets (scripts/fuzz.sh: 30 s each here, FUZZ_SECONDS changes it; two at a time; in
# build-fuzz/). GPU tests are reported as skipped on a machine without a CUDA device.
# TEST_STEPS picks steps (default: "ctest asan fuzz"); RAYSTREAM_BUILD_DIR names the ctest step's
# build folder (default build). Every step runs; the exit status is 1 when any failed.
set -euo pipefail
cd "$(dirname "$0")/.."
steps=" ${TEST_STEPS:-ctest asan fuzz} "
bash scripts/setup.sh
failed=()
if [[ $steps == *" ctest "* ]]; then
  start=$SECONDS
  build="${RAYSTREAM_BUILD_DIR:-build}"
  if bash scripts/build.sh && (cd "$build" && ctest --output-on-failure -j "${JOBS:-2}"); then
    echo "test: ctest passed in $((SECONDS - start)) s"
  else
    failed+=(ctest)
  fi
fi
if [[ $steps == *" asan "* ]]; then
  bash scripts/asan.sh || failed+=(asan)
fi
if [[ $steps == *" fuzz "* ]]; then
  FUZZ_SECONDS=${FUZZ_SECONDS:-30} bash scripts/fuzz.sh || failed+=(fuzz)
fi
if ((${#failed[@]})); then
  echo "test: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "test: all steps passed"
