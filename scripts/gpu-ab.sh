#!/bin/bash
# A/B of source variants on the GPU machine, one process after another on the same device:
#   bash scripts/gpu-ab.sh OUT NAME:PATCH [NAME:PATCH ...]
# Each PATCH (a file, or "-" for the tree as it is) is applied to the working tree with `git apply`,
# the `lqcd` target rebuilt, the launch-tuning cache cleared (its choices belong to the old code), the
# benchmarks below run into OUT/ab.jsonl (each line tagged with the variant in OUT/ab.txt), and the
# patch taken back out. Builds the tree first (scripts/gpu-check.sh ... build).
set -u
out=$1
shift
export PATH=/usr/local/cuda/bin:$PATH
bash scripts/gpu-check.sh "$out" build >/dev/null 2>&1
bin=build-gpu/lqcd
for spec in "$@"; do
  name=${spec%%:*}
  patch=${spec#*:}
  [ "$patch" != "-" ] && { git apply "$patch" || { echo "$name: patch does not apply" >>"$out/ab.txt"; continue; }; }
  if cmake --build build-gpu -j 16 --target lqcd >/dev/null 2>&1; then
    rm -rf ~/.cache/lqcd
    for pr in half:12 half:8 single:12 single:18 double:12; do
      IFS=: read -r p r <<<"$pr"
      "$bin" bench dslash --dims 32,32,32,32 --device gpu --precision "$p" --reconstruct "$r" --repetitions 200 \
        --json >>"$out/ab.jsonl" 2>/dev/null && echo "$name dslash $p/$r" >>"$out/ab.txt"
    done
    "$bin" bench dslash --dims 32,32,32,32 --device gpu --precision single --reconstruct 12 --rhs 12 --repetitions 50 \
      --json >>"$out/ab.jsonl" 2>/dev/null && echo "$name dslash single/12 12 sources" >>"$out/ab.txt"
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision single --reconstruct 12 --rhs 12 \
      --repetitions 3 --json >>"$out/ab.jsonl" 2>/dev/null && echo "$name block CG" >>"$out/ab.txt"
  else
    echo "$name: build failed" >>"$out/ab.txt"
  fi
  [ "$patch" != "-" ] && git apply -R "$patch"
done
