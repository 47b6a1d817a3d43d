#!/usr/bin/env bash
# Builds lqcd (CPU backend always, CUDA backend too when nvcc is found) and runs the whole test suite.
# GPU tests run where a GPU is present and are skipped (reported as such) elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
cd build
ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" --timeout 900
