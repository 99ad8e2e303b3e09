#!/usr/bin/env bash
# The render command: installs what is missing, builds build/raystream only (fast; scripts/build.sh
# with no target, or scripts/test.sh, also builds build/raystream-thrust and the tests) and renders
# a scene (default scenes/cornell.json) into renders/, on the GPU if one is present, else on the
# CPU (where raystream picks a sample count that finishes in about a minute and says so; so few
# samples leave the image noisy: pass --spp N, a smaller --resolution, or use a GPU).
# The first run configures the build (scripts/build.sh); later runs only build the one target
# (`cmake --build`, which configures again by itself when a CMakeLists.txt changed), so a run
# with nothing to rebuild takes a second or two. The build's output goes to
# build/render-build.log, out of the way of the render's report; one line on stderr says how
# long the build took (the log's last lines too when it fails).
#   bash scripts/render.sh [SCENE.json] [raystream options...]
# RAYSTREAM_BUILD_DIR names another build folder (default build); RAYSTREAM_SKIP_SETUP=1 skips
# the package check.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${RAYSTREAM_BUILD_DIR:-build}"
[[ "${RAYSTREAM_SKIP_SETUP:-}" == 1 ]] || bash scripts/setup.sh
mkdir -p "$build"
log="$build/render-build.log"
start=$SECONDS
build_command=(bash scripts/build.sh --target raystream)
if [[ -f "$build/CMakeCache.txt" && (-f "$build/Makefile" || -f "$build/build.ninja") ]]; then
  [ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
  build_command=(cmake --build "$build" -j "${JOBS:-2}" --target raystream)
fi
if ! "${build_command[@]}" >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  echo "render: the build failed; the whole log is $log" >&2
  exit 1
fi
echo "render: $build/raystream built in $((SECONDS - start)) s (log: $log)" >&2
scene="scenes/cornell.json"
if (($# > 0)) && [[ "$1" != -* ]]; then
  scene="$1"
  shift
fi
binary="$build/raystream"
[[ "$binary" == /* ]] || binary="./$binary"
exec "$binary" "$scene" "$@"
