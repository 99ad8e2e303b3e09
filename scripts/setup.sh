#!/usr/bin/env bash
# Installs what raystream needs on Debian/Ubuntu (only what is missing) and checks for nvcc.
set -euo pipefail

packages=(cmake g++ make libglm-dev libstb-dev libtinyobjloader-dev nlohmann-json3-dev
          libcli11-dev libgtest-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null 2>&1; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "setup: nvcc is not on PATH; add it with: export PATH=/usr/local/cuda/bin:\$PATH" >&2
  else
    echo "setup: nvcc not found. Install the CUDA Toolkit 12 or newer (Debian: the" \
         "cuda-toolkit package from NVIDIA's repository) so that /usr/local/cuda/bin/nvcc exists." >&2
    exit 1
  fi
fi
