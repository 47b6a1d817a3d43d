#!/usr/bin/env bash
# Binaries built here (CPU + CUDA, sm_90: build/) carried to the GPU machine instead of built there, which
# saves its build's 155 s of device time. The device tool carries at most 64 MiB; lqcd (30 MB) and two test
# programs fit once xz-compressed (lqcd 10 MB, test_solvers 9.5 MB, test_dirac 5.7 MB).
#   here:   bash scripts/gpu-carry.sh pack [PROGRAMS...]     # into .gpu-state/ (git-ignored), then carry
#                                                             # ".gpu-state" (and .deps, .gpu-testdata)
#   there:  bash scripts/gpu-carry.sh unpack                  # into build-gpu/, where the scripts look
# PROGRAMS: lqcd or tests/test_<layer> (default: lqcd tests/test_solvers tests/test_dirac).
# The test programs read ../shared/testdata beside the checkout they were built in (BUILT_IN, default
# /work/main); unpack links that path to the carried .gpu-testdata where it can (rm -rf .gpu-testdata &&
# cp -r ../shared/testdata .gpu-testdata here first).
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:?usage: gpu-carry.sh pack [PROGRAMS...] | unpack}" in
  pack)
    shift
    mkdir -p .gpu-state
    rm -f .gpu-state/*.xz
    for p in "${@:-lqcd tests/test_solvers tests/test_dirac}"; do
      for q in $p; do
        xz -T2 -3 -c "build/$q" >".gpu-state/$(basename "$q").xz"
      done
    done
    du -sh .gpu-state
    ;;
  unpack)
    mkdir -p build-gpu
    for f in .gpu-state/*.xz; do
      b=build-gpu/$(basename "$f" .xz)
      xz -dc "$f" >"$b" 2>/dev/null ||
        python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" "$f" >"$b"
      chmod +x "$b"
    done
    # the test programs look for BUILT_IN/../shared/testdata (tests/CMakeLists.txt), BUILT_IN the checkout
    # they were built in
    built_in=${BUILT_IN:-/work/main}
    if [ -d .gpu-testdata ] && [ ! -e "$built_in/../shared/testdata" ]; then  # never over a real one
      mkdir -p "$built_in" "$built_in/../shared" 2>/dev/null &&
        ln -s "$PWD/.gpu-testdata" "$built_in/../shared/testdata" 2>/dev/null || true
    fi
    ls -la build-gpu
    ;;
  *)
    echo "gpu-carry.sh: expected pack or unpack, got '$1'" >&2
    exit 2
    ;;
esac
