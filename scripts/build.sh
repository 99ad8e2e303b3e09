#!/usr/bin/env bash
# Configures and builds raystream into build/ (RAYSTREAM_BUILD_DIR names another folder; extra
# arguments go to `cmake --build`), with MPI support (-DRAYSTREAM_MPI=ON) when an MPI compiler
# wrapper is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
mpi=""
command -v mpicxx >/dev/null 2>&1 && mpi="-DRAYSTREAM_MPI=ON"
build="${RAYSTREAM_BUILD_DIR:-build}"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release $mpi ${RAYSTREAM_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "${JOBS:-2}" "$@"
