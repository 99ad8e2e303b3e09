#!/usr/bin/env bash
# The render command: installs what is missing, builds build/raystream only (fast; scripts/build.sh
# with no target, or scripts/test.sh, also builds build/raystream-thrust and the tests) and renders
# a scene (default scenes/cornell.json) into renders/, on the GPU if one is present, else on the
# CPU (where raystream picks a sample count that finishes in about a minute and says so; so few
# samples leave the image dark and speckled: pass --spp N, a smaller --resolution, or use a GPU).
#   bash scripts/render.sh [SCENE.json] [raystream options...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh --target raystream
scene="scenes/cornell.json"
if (($# > 0)) && [[ "$1" != -* ]]; then
  scene="$1"
  shift
fi
exec ./build/raystream "$scene" "$@"
