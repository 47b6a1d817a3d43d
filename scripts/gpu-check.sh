#!/usr/bin/env bash
# The GPU machine's run (see ../shared/gpu/README.md): configure and build with the CUDA backend,
# run the whole test suite (GPU tests included), the benchmarks and the validation run, and write
# logs and JSON results to OUTDIR (at most 8 files, so the device tool brings them all back).
#
# Prepared on the development machine:
#   bash ../shared/gpu/fetch-debs.sh            # toml++ as .deb into .deps/
#   rm -rf .gpu-testdata && cp -r ../shared/testdata .gpu-testdata
# and run there with .deps and .gpu-testdata carried:  bash scripts/gpu-check.sh "$OUT" [stages]
# stages (default all but therm16/clover32/scaling): build test bench validate spectrum hmc dirac [therm16] [clover32] [ref32] [distill]
# [scaling] [strong48] [resident2] [mpitest] [fast] [rhs] [sass] [solver] [resident] [blockcg] [ttile] [tune] [htile] [launch] [table] [extra] [pdltest] [quenched] [blockres] [propagators]
# [flow] (issue 29: the gradient flow's GPU tests and t0/w0 runs) [gaugefix] [potential] (issue 29) [hmctests] (issue 28's GPU tests) [nf2p1] (issue 28's RHMC run) [mgtest] [mgscan] (issue 27: scripts/multigrid-scan.sh) [mgmpi] (the multigrid on two ranks; after mgscan)
# [python] (issue 31: lqcd.core and the CuPy view, with the machine's Python) [baryons] (issue 49: baryons and loops, GPU against CPU)
# [sanitize] (compute-sanitizer on the GPU tests; needs the build stage's build-gpu: `... OUT build sanitize`)
#
# Each stage is a file of its own in scripts/gpu-check/ (STAGE.sh, guarded by `if has STAGE`); helper-*.sh
# define what several stages share. The files run in the order below, in this shell, so each sees the
# variables and functions of those before it (out, stages, note, has, bin), as in one script.
set -uo pipefail
export NCCL_NVLS_ENABLE=0  # NVLink multicast stays off on the shared multi-GPU hosts (device KINDS.md)
out=${1:?usage: gpu-check.sh OUTDIR [build] [test] [bench] [validate]}
shift
stages=${*:-build test bench validate spectrum hmc dirac}
mkdir -p "$out"
cd "$(dirname "$0")/.."
summary="$out/summary.txt"
note() { echo "$*" | tee -a "$summary"; }
has() { [[ " $stages " == *" $1 "* ]]; }
# The machine's own Python (a venv: NumPy, SciPy, h5py, matplotlib, CuPy, torch wheels) runs the Python tests,
# in ctest's python_analysis too; only pytest is missing there and comes from Debian's pure-Python packages in
# .deps (unpacked to /opt/deps by the build stage; the venv's own pytest plugins would need a newer pytest).
export PYTHONPATH=/opt/deps/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH} PYTEST_DISABLE_PLUGIN_AUTOLOAD=1
parts=(
  build test python hmctests flow gaugefix distill potential mgtest mgscan mgmpi mpitest bench validate
  spectrum baryons hmc helper-clover-input therm16 clover32 ref32 nf2p1 helper-multi-gpu-runs strong48 resident2
  scaling dirac rhs helper-env-sweep ttile tune htile table extra pdltest launch quenched propagators sass
  fast solver resident blockcg blockres sanitize
)
for part in "${parts[@]}"; do
  # shellcheck source=/dev/null
  source "scripts/gpu-check/$part.sh"
done
