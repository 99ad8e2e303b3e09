#!/usr/bin/env bash
# Installs what raystream needs on Debian/Ubuntu (only what is missing) and checks for nvcc.
set -euo pipefail

# Build and libraries; python3 and matplotlib for the comparison script and its test; the assimp
# test models for the OBJ loader's tests of unusual files; clang and its runtime libraries
# (libFuzzer, the sanitizers) for the fuzz targets (scripts/fuzz.sh); OpenMPI for renders split
# across processes (mpirun; the build turns it on when mpicxx is there); tinygltf for glTF 2.0
# scenes and OpenEXR for EXR environment maps and the EXR tests' reader (their glTF test assets
# come with assimp-testmodels); libspng and libjpeg-turbo for PNG and JPEG textures; zlib for the
# PNG encoder; libdeflate for the EXR encoder (libspng also writes the single-stream PNG that
# encoding_bench compares with).
packages=(cmake g++ make libglm-dev libstb-dev nlohmann-json3-dev
          libcli11-dev libgtest-dev python3 python3-matplotlib assimp-testmodels
          clang libclang-rt-dev libopenmpi-dev openmpi-bin libtinygltf-dev libopenexr-dev
          zlib1g-dev libdeflate-dev libspng-dev libjpeg62-turbo-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup: run as root (or install sudo) to install" \
      "${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null 2>&1; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "setup: nvcc is not on PATH; add it with: export PATH=/usr/local/cuda/bin:\$PATH" >&2
  else
    echo "setup: nvcc not found. Install the CUDA Toolkit 12.4 or newer (Debian: the" \
         "cuda-toolkit package from NVIDIA's repository) so that /usr/local/cuda/bin/nvcc exists." >&2
    exit 1
  fi
fi
