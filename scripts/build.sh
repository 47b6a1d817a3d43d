#!/usr/bin/env bash
# Configures and builds lqcd in ./build (Release). The CUDA backend is built when nvcc is found
# (on PATH or in /usr/local/cuda); LQCD_CUDA=OFF|ON in the environment overrides. Extra arguments
# are passed to CMake.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DLQCD_CUDA="${LQCD_CUDA:-AUTO}" "$@" >/dev/null
cmake --build build -j "$jobs"
