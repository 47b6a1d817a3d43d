#!/usr/bin/env bash
# Quick start: install what is missing, build, and run the main job on its built-in default input
# (a short Nf = 2 Wilson HMC on 8^4 at beta = 5.6, kappa = 0.12 that prints dH, acceptance and the
# plaquette per trajectory; on the GPU when there is one). Output files go to build/quickstart/
# (lqcd-hmc.log and lqcd-hmc.jsonl).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
mkdir -p build/quickstart
cd build/quickstart
exec ../lqcd hmc
