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
# The scene may come anywhere among the options (the first argument that is neither an option nor
# an option's value). The build is the repository's; raystream runs in the caller's folder, so
# relative paths (the scene, -o, --stats) are the caller's and the default image goes to renders/
# there. RAYSTREAM_BUILD_DIR names another build folder (default build; relative to the
# repository); RAYSTREAM_SKIP_SETUP=1 skips the package check.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build="${RAYSTREAM_BUILD_DIR:-build}"
[[ "$build" == /* ]] || build="$repo/$build"
[[ "${RAYSTREAM_SKIP_SETUP:-}" == 1 ]] || bash "$repo/scripts/setup.sh"
mkdir -p "$build"
log="$build/render-build.log"
start=$SECONDS
build_command=(bash scripts/build.sh --target raystream)
if [[ -f "$build/CMakeCache.txt" && (-f "$build/Makefile" || -f "$build/build.ninja") ]]; then
  [ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
  build_command=(cmake --build "$build" -j "${JOBS:-2}" --target raystream)
fi
if ! (cd "$repo" && RAYSTREAM_BUILD_DIR="$build" "${build_command[@]}") >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  echo "render: the build failed; the whole log is $log" >&2
  exit 1
fi
echo "render: $build/raystream built in $((SECONDS - start)) s (log: $log)" >&2
binary="$build/raystream"

# Is a scene among the arguments? The options that take a value are read from --help (a line
# "  [-x,]--name TEXT..."), so their values are not taken for a scene.
mapfile -t valued < <("$binary" --help | sed -nE 's/^ +(-[A-Za-z],)?(--[a-z][a-z-]*) TEXT.*/\1\2/p' |
  tr ',' '\n')
takes_value() {
  local name
  for name in "${valued[@]}"; do [[ "$1" == "$name" ]] && return 0; done
  return 1
}
has_scene=0
expect_value=0
options_end=0
for arg in "$@"; do
  if ((expect_value)); then
    expect_value=0
  elif ((options_end)) || [[ "$arg" != -* || "$arg" == - ]]; then
    has_scene=1
    break
  elif [[ "$arg" == -- ]]; then
    options_end=1
  elif takes_value "$arg"; then
    expect_value=1
  fi
done
((has_scene)) || set -- "$repo/scenes/cornell.json" "$@"
exec "$binary" "$@"
