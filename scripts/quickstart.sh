#!/usr/bin/env bash
# Quick start: install what is missing, build, and run the main job on its built-in default input
# (a quenched 8^4 heatbath at beta = 6.0 that prints its plaquette history). Output files go to
# build/quickstart/ (lqcd-heatbath.log and lqcd-heatbath.jsonl).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
mkdir -p build/quickstart
cd build/quickstart
exec ../lqcd heatbath
