#!/usr/bin/env bash
# Configures and builds raystream into build/ (extra arguments go to `cmake --build`).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${RAYSTREAM_CMAKE_ARGS:-} >/dev/null
cmake --build build -j "${JOBS:-2}" "$@"
