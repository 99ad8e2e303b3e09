#!/usr/bin/env bash
# The test command: installs what is missing, builds everything, runs every test.
# GPU tests are reported as skipped on a machine without a CUDA device.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
cd build
ctest --output-on-failure -j "${JOBS:-2}"
