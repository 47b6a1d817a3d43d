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
# [python] (issue 31: lqcd.core and the CuPy view, with the machine's Python)
# [sanitize] (compute-sanitizer on the GPU tests; needs the build stage's build-gpu: `... OUT build sanitize`)
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

if has build; then
  for f in .deps/*.deb; do [ -e "$f" ] && dpkg -x "$f" /opt/deps; done
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit --format=csv >"$out/nvidia-smi.csv" 2>&1
  export PATH=/usr/local/cuda/bin:$PATH
  start=$(date +%s)
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DLQCD_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_PREFIX_PATH=/opt/deps/usr -DCMAKE_CXX_FLAGS=-I/opt/deps/usr/include \
    -DLQCD_TESTDATA_DIR="$PWD/.gpu-testdata" >"$out/build.log" 2>&1 &&
    cmake --build build-gpu -j 16 >>"$out/build.log" 2>&1
  note "build: exit $? in $(( $(date +%s) - start )) s"
fi
bin=build-gpu/lqcd
if has test; then
  start=$(date +%s)
  (cd build-gpu && ctest --output-on-failure -j 4 --timeout 600) >"$out/ctest.log" 2>&1
  note "ctest: exit $? in $(( $(date +%s) - start )) s: $(grep -E 'tests passed|tests failed' "$out/ctest.log")"
  grep -E "\(Skipped\)|\*\*\*Failed|Not Run" "$out/ctest.log" | head -20 | tee -a "$summary"
fi
if has python; then  # issues 31 and 47: lqcd.core in the machine's own Python (a venv with NumPy 2.5, SciPy, CuPy,
  # torch wheels) with no LD_PRELOAD: the whole of tests/python, the CuPy view of a device field included, and
  # lqcd.core loaded after every wheel library the venv has (the order that crashed before issue 47).
  start=$(date +%s)
  # pytest travels as Debian's pure-Python packages in .deps (bash ../shared/gpu/fetch-debs.sh python3-pytest
  # python3-pluggy python3-iniconfig python3-packaging python3-attr python3-py python3-exceptiongroup
  # python3-tomli python3-more-itertools), unpacked to /opt/deps by the build stage.
  export LQCD=$PWD/build-gpu/lqcd LQCD_LIBRARY=$PWD/build-gpu/liblqcd_capi.so LQCD_TESTDATA=$PWD/.gpu-testdata \
    PYTHONPATH=$PWD/python:/opt/deps/usr/lib/python3/dist-packages PYTEST_DISABLE_PLUGIN_AUTOLOAD=1  # the venv's own pytest plugins need a newer pytest
  {
    echo "== python: $(command -v python3) $(python3 -V 2>&1)"
    python3 - <<'PY'
import importlib
for m in ("numpy", "scipy", "h5py", "matplotlib", "cupy", "torch", "pytest"):
    try:
        mod = importlib.import_module(m)
        print(f"   {m} {getattr(mod, '__version__', '?')} {getattr(mod, '__file__', '')}")
    except Exception as e:
        print(f"   {m}: not importable ({type(e).__name__}: {e})")
PY
    echo "== exported symbols: $(nm -D --defined-only "$LQCD_LIBRARY" | wc -l), not lqcd_*: $(nm -D --defined-only "$LQCD_LIBRARY" | awk '{print $NF}' | grep -vc '^lqcd_')"
    echo "== ldd:"; ldd "$LQCD_LIBRARY" | sed 's/^/   /'
    echo "== every wheel first, then lqcd.core: an HMC trajectory and a clover solve"
    python3 - <<'PY'
import importlib, os, sys
loaded = []
for m in ("numpy", "scipy", "scipy.linalg", "h5py", "matplotlib.pyplot", "cupy", "torch"):
    try:
        importlib.import_module(m); loaded.append(m)
    except Exception:
        pass
print("   imported first:", " ".join(loaded))
sys.path.insert(0, "tests/python")
import numpy as np
import lqcd.core as lq
u = lq.load(os.path.join(os.environ["LQCD_TESTDATA"], "milc_l8888_b6.0.milc"))
print("   plaquette", u.plaquette())
import test_core_gauge as t
x, its, res = lq.dirac_solve(u, t.random_spinor(u.dims, 3), {"action": "clover", "kappa": 0.12, "csw": 1.0})
print("   clover solve:", its, "iterations, residual", res)
hmc = lq.Hmc(t.HMC_TOML)
v = lq.unit((4, 4, 4, 4))
print("   HMC trajectory:", hmc.trajectory(v, 0, metropolis=False))
PY
    echo "   exit $?"
  } >"$out/python-env.log" 2>&1
  if python3 -c "import pytest" 2>/dev/null; then
    python3 -m pytest -q -p no:cacheprovider -rs tests/python >"$out/python.log" 2>&1
  else
    echo "no pytest in this Python (carry the .deps of the comment above)" >"$out/python.log"; false
  fi
  note "python (tests/python, no LD_PRELOAD): exit $?: $(tail -1 "$out/python.log")"
  note "python: $(( $(date +%s) - start )) s"
fi
if has hmctests; then  # issue 28's GPU tests only: the inner solves' clover operator, reliable updates, HMC (the multigrid force solves, the stout-smeared fermion monomials), stout smearing
  start=$(date +%s)
  # test_hmc's device cases and its host-against-device ones (the host cases run in the CI).
  for t in "dirac *Compressed*:*CloverEvenOdd*:*HalfPrecision*" "solvers *Reliable*:*Mixed*:*ResidentCg*" \
    "hmc *device*:*Device*" "gauge *Stout*"; do
    set -f  # the filters' * are not file names
    set -- $t
    set +f
    build-gpu/tests/test_$1 --gtest_filter="$2" >>"$out/hmctests.log" 2>&1
    note "test_$1 $2: exit $?: $(grep -E '^\[  (PASSED|FAILED)' "$out/hmctests.log" | tail -1)"
  done
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=4 mpiexec -np 2 --oversubscribe \
    --bind-to none -x OMP_NUM_THREADS build-gpu/tests/test_mpi --gtest_filter='*DistributedStout*device*' \
    >>"$out/hmctests.log" 2>&1
  note "test_mpi *DistributedStout*device* on 2 ranks: exit $?"
  note "hmctests: $(( $(date +%s) - start )) s"
fi
if has flow; then  # issue 29: the flow's device tests, the distributed flow on 2 ranks, t0 and w0 on lqcd's own
  # quenched ensembles (scripts/flow-t0.sh: FLOW_N configurations of 16^4 at beta 5.96 and 6.0), and the
  # time of one flow to t = 3.5 on 32^4 (a 16^4 configuration tiled).
  start=$(date +%s)
  build-gpu/tests/test_gauge --gtest_filter='*Flow*:*Stout*' >"$out/flow.log" 2>&1
  note "test_gauge *Flow*:*Stout*: exit $?: $(grep -E '^\[  (PASSED|FAILED)' "$out/flow.log" | tail -1)"
  build-gpu/tests/test_dirac --gtest_filter='*Clover*' >>"$out/flow.log" 2>&1
  note "test_dirac *Clover*: exit $?: $(grep -E '^\[  (PASSED|FAILED)' "$out/flow.log" | tail -1)"
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=4 mpiexec -np 2 --oversubscribe \
    --bind-to none -x OMP_NUM_THREADS build-gpu/tests/test_mpi --gtest_filter='*DistributedFlow*device*' >>"$out/flow.log" 2>&1
  note "test_mpi *DistributedFlow*device* on 2 ranks: exit $?"
  for beta in ${FLOW_BETAS:-5.96 6.0}; do
    bash scripts/flow-t0.sh "$out" "$bin" "$beta" 16 "${FLOW_N:-50}"
  done
  cfg=$(ls runs/flow_b6.0_16/q.*.ildg 2>/dev/null | tail -1)
  if [ -n "$cfg" ]; then
    "$bin" convert "$cfg" runs/flow32.ildg --tile 2,2,2,2 --force >/dev/null 2>>"$out/flow.log"
    t0=$(date +%s.%N)
    "$bin" flow runs/flow32.ildg --t-max 3.5 --every 50 --device gpu >>"$out/flow.log" 2>&1
    note "flow of 32^4 to t = 3.5 (350 RK3 steps, 8 measurements): exit $? in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s"
  fi
  for L in 16 32; do
    "$bin" bench flow --dims $L,$L,$L,$L --device gpu --repetitions 20 2>>"$out/flow.log" | tee -a "$out/flow_bench.txt" |
      grep -E "RK3 step|measurement|flow to t" | sed "s/^/bench flow $L^4: /" | tee -a "$summary"
  done
  note "flow: $(( $(date +%s) - start )) s"
fi
if has gaugefix; then  # issue 29: gauge fixing's device tests (host = device, the distributed overrelaxation),
  # the Landau and Coulomb fixes of a thermalised 32^4 configuration (quenched, beta 6.0) to theta < 1e-14
  # by `lqcd gaugefix` (FFT, and overrelaxation), and `lqcd bench gaugefix` on it.
  start=$(date +%s)
  build-gpu/tests/test_gauge --gtest_filter='*GaugeFix*:*FourierTransform*:*Hyp*:*Flow*:*WilsonLoop*' >"$out/gaugefix.log" 2>&1
  note "test_gauge *GaugeFix*:*FourierTransform*:*Hyp*:*Flow*:*WilsonLoop*: exit $?: $(grep -E '^\[  (PASSED|FAILED)' "$out/gaugefix.log" | tail -1)"
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=4 mpiexec -np 2 --oversubscribe \
    --bind-to none -x OMP_NUM_THREADS build-gpu/tests/test_mpi --gtest_filter='*DistributedGaugeFixing*:*DistributedHyp*:*DistributedFlow*:*DistributedWilsonLoops*' >>"$out/gaugefix.log" 2>&1
  note "test_mpi *DistributedGaugeFixing*:*DistributedHyp*:*DistributedFlow*:*DistributedWilsonLoops* on 2 ranks: exit $?"
  [ -n "${GF_TESTS_ONLY:-}" ] && { note "gaugefix: tests only"; }
  [ -n "${GF_TESTS_ONLY:-}" ] || THERM=${GF_THERM:-200} SEP=1 bash scripts/quenched-ensemble.sh runs/gf_b6.0_32 "$bin" 6.0 32 1 "$out/gaugefix.log" | tee -a "$summary"
  cfg=$(ls runs/gf_b6.0_32/q.*.ildg 2>/dev/null | tail -1)
  if [ -n "$cfg" ]; then
    for args in "--gauge landau" "--gauge coulomb" "--gauge landau --method overrelaxation"; do
      "$bin" gaugefix "$cfg" runs/gf_fixed.ildg --force --device gpu --every 500 $args >>"$out/gaugefix.log" 2>&1
      note "gaugefix 32^4 $args: exit $?: $(grep -E 'converged|error' "$out/gaugefix.log" | tail -1 | sed 's/^ *//')"
    done
    "$bin" bench gaugefix --dims 32,32,32,32 --config "$cfg" --device gpu --repetitions 5 2>>"$out/gaugefix.log" |
      tee -a "$out/gaugefix.log" | grep -E "iteration|theta" | sed "s/^/bench gaugefix 32^4: /" | tee -a "$summary"
  fi
  note "gaugefix: $(( $(date +%s) - start )) s"
fi
if has distill; then  # issue 30: distillation's device tests, lqcd bench distill (contraction vs ZGEMM,
  # eigenvectors of 32^3 slices with nv 64 and 128), the whole pipeline on a 32^3 x 64 quenched beta 6.0
  # configuration (nv 64, 4 source times, 16 gammas, 3 momenta) and the example on 12^3 x 24.
  # DISTILL_PARTS picks among: tests bench pipeline example mpi grid (default the first four). mpi: the
  # distributed distillation tests with device ranks (test_mpi on 2 and 4 ranks of the one GPU); grid:
  # lqcd distill split along t (--grid 1,1,1,2) against one process on the example's configuration
  # (after `example`, which makes it).
  parts=" ${DISTILL_PARTS:-tests bench pipeline example} "
  start=$(date +%s)
  if [[ $parts == *" tests "* ]]; then
    build-gpu/tests/test_measure --gtest_filter='DenseLinear*:Gevp*:Laplacian*:Distillation*' >"$out/distill-tests.log" 2>&1
    note "test_measure distillation: exit $?: $(grep -E '^\[  (PASSED|FAILED)' "$out/distill-tests.log" | tr '\n' ' ')"
  fi
  if [[ $parts == *" bench "* ]]; then
    for nv in ${DISTILL_NVS:-64 128}; do
      "$bin" bench distill --dims 32,32,32,64 --nv $nv --device gpu --repetitions 5 --json >>"$out/distill-bench.jsonl" 2>>"$out/distill.log"
      note "bench distill nv $nv: exit $?: $(tail -1 "$out/distill-bench.jsonl" | python3 -c 'import json,sys; j=json.load(sys.stdin); print("ZGEMM %.2f TFLOPS, contraction %.2f TFLOPS (%.1f%%), eigen %.3f s/slice (%.1f rounds, resid %.1e)" % (j["zgemm_tflops"], j["contraction_tflops"], 100*j["contraction_fraction_of_zgemm"], j["eigen_s_per_slice"], j["eigen_iterations_per_slice"], j["eigen_max_residual"]))' 2>&1)"
    done
  fi
  if [[ $parts == *" pipeline "* ]]; then
    LT=64 THERM=${DISTILL_THERM:-100} SEP=1 bash scripts/quenched-ensemble.sh runs/distill_b6.0_32x64 "$bin" 6.0 32 1 "$out/distill.log" | tee -a "$summary"
    cfg=$(ls runs/distill_b6.0_32x64/q.*.ildg 2>/dev/null | tail -1)
    cat >runs/distill32.toml <<TOML
[gauge]
config = "$cfg"
[fermion]
kappa = ${DISTILL_KAPPA:-0.1500}
[solver]
tolerance = 1e-8
precision = "${DISTILL_PRECISION:-single}"
multi_rhs = true
[distillation]
nv = 64
source_times = [0, 16, 32, 48]
gammas = ["1", "gx", "gy", "gxgy", "gz", "gxgz", "gygz", "gxgygz", "gt", "gxgt", "gygt", "gxgygt", "gzgt", "gxgzgt", "gygzgt", "g5"]
momenta = [[0, 0, 0], [0, 0, 1], [0, 1, 1]]
gevp = [["g5", "gxgygz"], ["gx", "gxgt"]]
[output]
prefix = "runs/distill32"
TOML
    t1=$(date +%s)
    "$bin" distill runs/distill32.toml --device gpu --quiet >>"$out/distill.log" 2>&1
    note "distill 32^3x64 nv 64, 4 t0, 48 operators: exit $? in $(( $(date +%s) - t1 )) s"
    cp runs/distill32.log "$out/distill32.log" 2>/dev/null
    grep -E '^# (t0|elementals)|^# done' runs/distill32.log | sed 's/^/distill32: /' | tee -a "$summary"
  fi
  if [[ $parts == *" example "* ]]; then
    "$bin" heatbath examples/quenched_wilson_b5.8_12x12x12x24.toml --device gpu --quiet >>"$out/distill.log" 2>&1
    note "example heatbath 12^3x24: exit $?"
    "$bin" distill examples/distill_wilson_b5.8_12x12x12x24.toml --device gpu --quiet >>"$out/distill.log" 2>&1
    note "example distill 12^3x24: exit $?"
    cp runs/distill_b5.8_12x12x12x24.log "$out/distill-example.log" 2>/dev/null
    # The point-source pion and rho of the same configuration and quark (lqcd spectrum), for comparison.
    cat >runs/spectrum_b5.8.toml <<TOML
[gauge]
config = "runs/b5.8_12x12x12x24/wilson.000500.ildg"
[fermion]
kappa = 0.1550
[solver]
tolerance = 1e-10
[output]
prefix = "runs/spectrum_b5.8"
TOML
    "$bin" spectrum runs/spectrum_b5.8.toml --device gpu --quiet >>"$out/distill.log" 2>&1
    note "example spectrum 12^3x24 (point source): exit $?"
    grep -A30 '^# correlators at' runs/spectrum_b5.8.log >>"$out/distill-example.log" 2>/dev/null
  fi
  if [[ $parts == *" mpi "* ]]; then
    for np in 2 4; do
      OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=4 mpiexec -np $np --oversubscribe \
        --bind-to none -x OMP_NUM_THREADS build-gpu/tests/test_mpi --gtest_filter='*Distillation*' >"$out/distill-mpi.log" 2>&1
      note "test_mpi distillation on $np ranks: exit $?: $(grep -E '^\[  (PASSED|FAILED)' "$out/distill-mpi.log" | sort -u | tr '\n' ' ')"
    done
  fi
  if [[ $parts == *" grid "* ]]; then
    for g in 1 2; do
      sed -e 's/^multi_rhs = true.*/multi_rhs = false/' -e "s|^prefix = .*|prefix = \"runs/distill_grid$g\"|" \
        -e 's/^source_times = .*/source_times = [0, 18]/' examples/distill_wilson_b5.8_12x12x12x24.toml >runs/distill_grid$g.toml
    done
    t1=$(date +%s)
    "$bin" distill runs/distill_grid1.toml --device gpu --json >runs/distill_grid1.out 2>>"$out/distill.log"
    note "distill 12^3x24 one process (multi_rhs off): exit $? in $(( $(date +%s) - t1 )) s"
    t1=$(date +%s)
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=4 mpiexec -np 2 --oversubscribe --bind-to none \
      -x OMP_NUM_THREADS "$bin" distill runs/distill_grid2.toml --device gpu --json --grid 1,1,1,2 >runs/distill_grid2.out 2>>"$out/distill.log"
    note "distill 12^3x24 on 2 ranks --grid 1,1,1,2: exit $? in $(( $(date +%s) - t1 )) s"
    cp runs/distill_grid2.log "$out/distill-grid2.log" 2>/dev/null
    note "distill grid: $(python3 - <<'PY' 2>&1
import json
a, b = (json.loads([l for l in open(f"runs/distill_grid{g}.out") if l.startswith("{")][-1]) for g in (1, 2))
worst, n = 0.0, 0
for ca, cb in zip(a["gevp"], b["gevp"]):
    for sa, sb in zip(ca["effective_energies"], cb["effective_energies"]):
        for x, y in zip(sa, sb):
            if x is None or y is None:
                assert x is None and y is None
                continue
            worst, n = max(worst, abs(x - y) / max(abs(x), 1e-300)), n + 1
print(f"{n} GEVP effective energies, largest relative difference 2 ranks vs 1: {worst:.2e}")
PY
)"
  fi
  note "distill: $(( $(date +%s) - start )) s"
fi
if has potential; then  # issue 29: the static potential and r0/a on the quenched beta 6.0, 16^4 ensemble
  start=$(date +%s)
  bash scripts/static-potential.sh "$out" "$bin" 6.0 16 "${POT_N:-50}"
  for action in ${POT_FLOWS:-}; do  # the same ensemble's t0 and w0 with other flows (wilson, symanzik, zeuthen)
    FLOW_ACTION=$action bash scripts/flow-t0.sh "$out" "$bin" 6.0 16 "${POT_N:-50}"
  done
  note "potential: $(( $(date +%s) - start )) s"
fi
if has mgtest; then  # the multigrid's tests only (CPU and GPU cases)
  start=$(date +%s)
  (cd build-gpu && ctest --output-on-failure -R "Multigrid|CoarseOperator|CoarseBlock|Schwarz" --timeout 600) >"$out/ctest-mg.log" 2>&1
  note "ctest multigrid: exit $? in $(( $(date +%s) - start )) s: $(grep -E 'tests passed|tests failed' "$out/ctest-mg.log")"
fi
if has mgscan; then  # issue 27's mass scan: MGSCAN_L (32), MGSCAN_KAPPAS, MGSCAN_SETTINGS (multigrid KEY=VALUE ...)
  start=$(date +%s)
  bash scripts/multigrid-scan.sh "$out" "$bin" "${MGSCAN_L:-32}" "${MGSCAN_KAPPAS:-0.1300 0.1340 0.1350}" \
    ${MGSCAN_SETTINGS:-}
  note "mgscan: exit $? in $(( $(date +%s) - start )) s"
fi
if has mgmpi; then  # issue 27: the multigrid's distributed tests on 2 ranks, then lqcd bench solver on the
  # mgscan configuration with one process and with two (--grid 1,1,1,2; one GPU each where there are two,
  # else both on one GPU), the same settings: the iterations must agree.
  # The host cases run in the CI; here the device ones (OpenMP threads limited: two ranks share the cores).
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=4
  start=$(date +%s)
  mpiexec -np 2 --oversubscribe --bind-to none -x OMP_NUM_THREADS build-gpu/tests/test_mpi \
    --gtest_filter='*DistributedMultigrid*device*' >"$out/mgmpi.log" 2>&1
  note "multigrid tests on 2 ranks: exit $? in $(( $(date +%s) - start )) s: $(grep -E 'PASSED|FAILED' "$out/mgmpi.log" | sort | uniq -c | tr -s ' \n' ' ')"
  cfg=$(ls runs/mgscan_${MGSCAN_L:-32}/wilson.*.ildg 2>/dev/null | tail -1)
  L=${MGSCAN_L:-32}
  for np in 1 2; do
    start=$(date +%s)
    args=(bench solver --dims $L,$L,$L,$L --device gpu --config "$cfg" --action clover --csw 1.769
      --kappa "${MGMPI_KAPPA:-0.1350}" --precision single --tolerance 1e-10 --repetitions 1 --json --solver multigrid
      --multigrid coarse_half=true)
    if [ $np = 1 ]; then "$bin" "${args[@]}" >>"$out/mgmpi.jsonl" 2>>"$out/mgmpi.log"
    else mpiexec -np 2 --oversubscribe --bind-to none "$bin" "${args[@]}" --grid 1,1,1,2 >>"$out/mgmpi.jsonl" \
      2>>"$out/mgmpi.log"; fi
    note "multigrid bench on $np process(es): exit $? in $(( $(date +%s) - start )) s"
  done
fi
if has mpitest; then  # the halo and distributed tests only (on the two-GPU machine: one GPU per rank)
  start=$(date +%s)
  (cd build-gpu && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ctest --output-on-failure -R "mpi|Halo" \
    --timeout 600) >"$out/ctest-mpi.log" 2>&1
  note "ctest mpi: exit $? in $(( $(date +%s) - start )) s: $(grep -E 'tests passed|tests failed' "$out/ctest-mpi.log")"
fi
if has bench; then
  : >"$out/bench.jsonl"
  for d in 16,16,16,16 32,32,32,32 48,48,48,48; do
    "$bin" bench heatbath --dims $d --device gpu --repetitions 20 --json >>"$out/bench.jsonl" 2>>"$summary"
  done
  "$bin" bench heatbath --dims 32,32,32,32 --device gpu --action symanzik --repetitions 10 --json >>"$out/bench.jsonl" 2>>"$summary"
  OMP_NUM_THREADS=16 OMP_PROC_BIND=close "$bin" bench heatbath --dims 16,16,16,16 --device cpu --repetitions 5 --json \
    >>"$out/bench.jsonl" 2>>"$summary"
  OMP_NUM_THREADS=16 OMP_PROC_BIND=close "$bin" bench heatbath --dims 32,32,32,32 --device cpu --repetitions 3 --json \
    >>"$out/bench.jsonl" 2>>"$summary"
  note "bench: $(wc -l <"$out/bench.jsonl") results"
fi
if has validate; then
  start=$(date +%s)
  rm -rf runs/b6.0_16x16x16x16
  "$bin" heatbath examples/quenched_wilson_b6.0_16x16x16x16.toml --device gpu --quiet
  note "validation: exit $? in $(( $(date +%s) - start )) s"
  cp runs/b6.0_16x16x16x16/wilson.log "$out/validation.log"
  cp runs/b6.0_16x16x16x16/wilson.jsonl "$out/validation.jsonl"
  tail -2 "$out/validation.log" | tee -a "$summary"
  # The saved configurations read back with verified checksums and header plaquettes.
  "$bin" measure --json runs/b6.0_16x16x16x16/wilson.*.ildg >>"$out/validation.measure.jsonl" 2>>"$summary"
  note "measure of saved configurations: exit $?"
fi
if has spectrum; then
  # The spectrum examples on the MILC 8^4 beta = 6.0 configuration (and the free twisted-mass one), on
  # the GPU in double and in mixed double/single precision and on the CPU: one JSON summary each.
  : >"$out/spectrum.jsonl"
  mkdir -p runs/gpu-check
  for ex in examples/spectrum_*.toml; do
    for run in "gpu double" "gpu single" "cpu double"; do
      set -- $run
      in=runs/gpu-check/$(basename "$ex" .toml).$1.$2.toml
      sed -e "s|\.\./shared/testdata|.gpu-testdata|" -e "s|^precision = .*||" -e "s|^prefix = \"\(.*\)\"|prefix = \"\1.$1.$2\"|" \
        -e "s|^\[solver\]|[solver]\nprecision = \"$2\"|" "$ex" >"$in"
      start=$(date +%s%N)
      "$bin" spectrum "$in" --device "$1" --json >>"$out/spectrum.jsonl" 2>>"$summary"
      note "spectrum $(basename "$ex" .toml) $1 $2: exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms"
    done
  done
  tail -q -n 25 runs/spectrum_milc8888/*.gpu.single.log >"$out/spectrum.logtail" 2>/dev/null
fi
if has hmc; then
  # Nf = 2 Wilson HMC timing on 16^4 and 32^4, started from a quenched beta = 5.6 heatbath configuration
  # (200 sweeps): time per trajectory and the share of the fermion solvers.
  : >"$out/hmc.jsonl"
  mkdir -p runs/gpu-check
  for L in 16 32; do
    cat >runs/gpu-check/q$L.toml <<EOT
[lattice]
dims = [$L, $L, $L, $L]
[gauge]
beta = 5.6
[heatbath]
thermalization = 200
sweeps = 0
measure_every = 50
[output]
prefix = "runs/gpu-check/q$L"
checkpoint_every = 200
EOT
    "$bin" heatbath runs/gpu-check/q$L.toml --device gpu --quiet 2>>"$summary"
    cat >runs/gpu-check/hmc$L.toml <<EOT
[lattice]
dims = [$L, $L, $L, $L]
[gauge]
beta = 5.6
[integrator]
type = "omelyan2"
tau = 1.0
steps = [8, 4]
[hmc]
start = "runs/gpu-check/q$L.checkpoint.ildg"
thermalization = 1
trajectories = 2
[output]
prefix = "runs/gpu-check/hmc$L"
[[monomial]]
type = "gauge"
level = 1
[[monomial]]
type = "wilson"
kappa = 0.156
level = 0
EOT
    start=$(date +%s)
    "$bin" hmc runs/gpu-check/hmc$L.toml --device gpu --quiet 2>>"$summary"
    note "hmc $L^4: exit $? in $(( $(date +%s) - start )) s"
    cat runs/gpu-check/hmc$L.jsonl >>"$out/hmc.jsonl"
    tail -4 runs/gpu-check/hmc$L.log | tee -a "$summary"
  done
  # A whole Nf = 2 ensemble: the Wilson example (8^3 x 16, 20 + 200 trajectories), for acceptance,
  # <exp(-dH)> and the plaquette with errors.
  sed -e 's|^prefix = .*|prefix = "runs/gpu-check/ensemble"|' examples/hmc_nf2_wilson_b5.6_k0.156_8x8x8x16.toml \
    >runs/gpu-check/ensemble.toml
  start=$(date +%s)
  "$bin" hmc runs/gpu-check/ensemble.toml --device gpu --quiet 2>>"$summary"
  note "hmc ensemble 8^3x16: exit $? in $(( $(date +%s) - start )) s"
  cp runs/gpu-check/ensemble.jsonl "$out/ensemble.jsonl"
  tail -4 runs/gpu-check/ensemble.log | tee -a "$summary"
fi
# Issue 5's reference ensemble: Nf = 2 clover with Hasenbusch (beta 5.29, c_sw 1.9192, kappa 0.13620).
# A quenched start is no start for this kappa (docs/performance.md), and a 32^4 thermalisation does not fit one
# call, so: therm16 thermalises 16^4 for THERM_SECONDS (default 420; stopped cleanly by the time limit) from a
# hot start, or from .gpu-state/therm16.ildg when that is carried in (the previous call's result), and leaves
# its last configuration as 32-bit ILDG in OUT/therm16.ildg.part-* (pieces under the 16 MiB transfer limit;
# `cat` them into .gpu-state/therm16.ildg for the next call). clover32 tiles the last 16^4 configuration 2x2x2x2
# to 32^4 (the same local structure) and times CLOVER32_TRAJ (default 3) Metropolis trajectories after
# CLOVER32_THERM (default 1) accepted ones. Steps: STEPS16 (default [6, 2, 4]), STEPS32 ([10, 2, 4]); the solves'
# precision and force tolerance those of the example unless CLOVER_PRECISION / CLOVER_FORCE_TOLERANCE are set.
clover_input() {  # prefix dims start thermalization trajectories steps checkpoint_every seed
  # the solves as in the example (half precision, force solves to 1e-6) unless CLOVER_PRECISION or
  # CLOVER_FORCE_TOLERANCE (0: solver.tolerance) say otherwise (issue 28)
  sed -e "s|^prefix = .*|prefix = \"$1\"|" -e "s|^dims = .*|dims = $2|" -e "s|^start = .*|start = \"$3\"|" \
    -e "s|^thermalization = .*|thermalization = $4|" -e "s|^trajectories = .*|trajectories = $5|" \
    -e "s|^steps = .*|steps = $6|" -e "s|^checkpoint_every = .*|checkpoint_every = $7|" -e "s|^seed = .*|seed = $8|" \
    -e "s|^precision = .*|precision = \"${CLOVER_PRECISION:-half}\"|" \
    -e "s|^force_tolerance = .*|force_tolerance = ${CLOVER_FORCE_TOLERANCE:-1e-6}|" \
    examples/hmc_nf2_clover_hasenbusch_b5.29_8x8x8x16.toml
}
if has therm16; then
  mkdir -p runs/gpu-check
  rm -f runs/gpu-check/therm16.*
  if [ -e .gpu-state/therm16.ildg ]; then
    clover_input runs/gpu-check/therm16 "[16, 16, 16, 16]" .gpu-state/therm16.ildg "${THERM16_UNCONDITIONAL:-0}" 2000 \
      "${STEPS16:-[6, 2, 4]}" 5 "$(date +%s)" >runs/gpu-check/therm16.toml
  else
    clover_input runs/gpu-check/therm16 "[16, 16, 16, 16]" hot 20 2000 "${STEPS16:-[6, 2, 4]}" 5 529 \
      >runs/gpu-check/therm16.toml
  fi
  start=$(date +%s)
  timeout "${THERM_SECONDS:-420}" "$bin" hmc runs/gpu-check/therm16.toml --device gpu --quiet 2>>"$summary"
  note "hmc therm16: exit $? in $(( $(date +%s) - start )) s (124: stopped by the time limit, as planned)"
  cp runs/gpu-check/therm16.jsonl runs/gpu-check/therm16.log "$out/" 2>/dev/null
  note "therm16: $(grep -c '"accepted"' runs/gpu-check/therm16.jsonl) trajectories"
  if [ "${SAVE16:-1}" = 1 ]; then  # at most 8 files come back: SAVE16=0 when the pieces are not needed
    "$bin" convert runs/gpu-check/therm16.checkpoint.ildg runs/gpu-check/therm16.32bit.ildg --precision 32 --force \
      2>>"$summary" | tee -a "$summary"
    split -b 15M runs/gpu-check/therm16.32bit.ildg "$out/therm16.ildg.part-"
  fi
fi
if has clover32; then
  mkdir -p runs/gpu-check
  from=runs/gpu-check/therm16.checkpoint.ildg
  [ -e "$from" ] || from=.gpu-state/therm16.ildg
  "$bin" convert "$from" runs/gpu-check/start32.ildg --tile 2,2,2,2 --force 2>>"$summary" | tee -a "$summary"
  clover_input runs/gpu-check/clover32 "[32, 32, 32, 32]" runs/gpu-check/start32.ildg "${CLOVER32_THERM:-1}" \
    "${CLOVER32_TRAJ:-3}" "${STEPS32:-[10, 2, 4]}" 0 5290 >runs/gpu-check/clover32.toml
  rm -f runs/gpu-check/clover32.jsonl runs/gpu-check/clover32.log
  start=$(date +%s)
  "$bin" hmc runs/gpu-check/clover32.toml --device gpu --quiet 2>>"$summary"
  note "hmc clover 32^4: exit $? in $(( $(date +%s) - start )) s"
  cp runs/gpu-check/clover32.jsonl runs/gpu-check/clover32.log "$out/" 2>/dev/null
  tail -5 runs/gpu-check/clover32.log | tee -a "$summary"
fi
# Issue 28's reference run (scripts/hmc-reference.sh) on 32^4 tiled 2x2x2x2 from the last 16^4 configuration
# (this call's therm16, else the carried .gpu-state/therm16.ildg): REF_TRAJ (1) trajectories per variant,
# REF_VARIANTS (the script's default variants when empty).
if has ref32; then
  mkdir -p runs/gpu-check
  from=runs/gpu-check/therm16.checkpoint.ildg
  [ -e "$from" ] || from=.gpu-state/therm16.ildg
  "$bin" convert "$from" runs/gpu-check/start32.ildg --tile 2,2,2,2 --force 2>>"$summary" | tee -a "$summary"
  start=$(date +%s)
  bash scripts/hmc-reference.sh "$out" "$bin" 32 runs/gpu-check/start32.ildg "${REF_TRAJ:-1}" ${REF_VARIANTS:+"$REF_VARIANTS"}
  note "ref32: exit $? in $(( $(date +%s) - start )) s"
fi
if has nf2p1; then  # issue 28: the Nf = 2 + 1 example (RHMC strange quark) for NF2P1_TRAJ (50) trajectories after
  # NF2P1_THERM (30) of thermalization, the light pair's CG in half precision; log and JSON straight into OUTDIR
  sed -e "s|^prefix = .*|prefix = \"$out/nf2p1\"|" -e "s|^checkpoint_every = .*|checkpoint_every = 0|" \
    -e "s|^trajectories = .*|trajectories = ${NF2P1_TRAJ:-50}|" -e "s|^thermalization = .*|thermalization = ${NF2P1_THERM:-30}|" \
    -e 's|^precision = "single".*|precision = "half"|' \
    examples/hmc_nf2p1_clover_b5.29_8x8x8x16.toml >runs/nf2p1.toml
  start=$(date +%s)
  timeout "${NF2P1_TIMEOUT:-330}" "$bin" hmc runs/nf2p1.toml --device gpu --quiet >>"$summary" 2>&1
  note "nf2p1: exit $? in $(( $(date +%s) - start )) s; $(grep -E '^# (acceptance|plaquette)' "$out/nf2p1.log" | tr '\n' ' ')"
fi
# The multi-GPU stages (issue 6): one MPI rank per GPU, one JSON line per run in scaling.jsonl.
if has scaling || has strong48 || has resident2; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=4
  export LQCD_FACE_TRANSPORT=auto LQCD_COPY_STREAM_PRIORITY=high
  : >"$out/scaling.jsonl"
  note "$(nvidia-smi -L | wc -l) GPUs"
  nvidia-smi topo -m >>"$summary" 2>&1
  run_bench() {  # np args...
    local np=$1 start
    shift
    start=$(date +%s)
    if [ "$np" = 1 ]; then "$bin" bench "$@" --device gpu --json >>"$out/scaling.jsonl" 2>>"$summary"
    else mpiexec -np "$np" --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE -x LQCD_FACE_TRANSPORT \
      -x LQCD_COPY_STREAM_PRIORITY -x LQCD_STREAM_RESIDENT \
      "$bin" bench "$@" --device gpu --json >>"$out/scaling.jsonl" 2>>"$summary"; fi
    note "  np $np $LQCD_FACE_TRANSPORT, $LQCD_COPY_STREAM_PRIORITY priority: bench $*: exit $? in $(( $(date +%s) - start )) s"
  }
fi
if has strong48; then
  # Strong scaling only (48^4 on one GPU and on two), the 12-real links and the mixed CG.
  for pr in "double 18" "double 12" "single 18" "single 12" "half 12"; do
    set -- $pr
    [ "$2" = 12 ] && run_bench 1 dslash --dims 48,48,48,48 --precision $1 --reconstruct $2 --repetitions 100
    run_bench 2 dslash --dims 48,48,48,48 --grid 1,1,1,2 --precision $1 --reconstruct $2 --repetitions 100
  done
  for p in double single half; do
    run_bench 2 solver --dims 48,48,48,48 --grid 1,1,1,2 --kappa 0.22 --precision $p --reconstruct 12 --repetitions 3
  done
fi
if has resident2; then
  # The stream-resident solvers on two GPUs (LQCD_STREAM_RESIDENT=1: global sums by NCCL in the
  # stream) against their host loops (=0, the default on several processes), 32^4 and 48^4 over grid
  # 1,1,1,2: CG on M_hat^dag M_hat and BiCGStab on M_hat, each precision.
  for d in 32,32,32,32 48,48,48,48; do
    reps=5; [ $d = 48,48,48,48 ] && reps=3
    for args in "--system normal" "--system matpc --solver bicgstab"; do
      for p in double single half; do
        for s in 0 1; do
          export LQCD_STREAM_RESIDENT=$s
          run_bench 2 solver --dims $d --grid 1,1,1,2 --kappa 0.22 --precision $p --reconstruct 12 $args \
            --repetitions $reps
        done
      done
    done
  done
  export LQCD_STREAM_RESIDENT=
fi
if has scaling; then
  # Weak scaling: 32^4 per GPU (32^3 x 64 over grid 1,1,1,2); strong: 48^4 in all. Faces go through NCCL
  # where it is built in (the default).
  for pr in "double 18" "double 12" "single 18" "single 12" "half 12"; do
    set -- $pr
    run_bench 1 dslash --dims 32,32,32,32 --precision $1 --reconstruct $2 --repetitions 100
    run_bench 2 dslash --dims 32,32,32,64 --grid 1,1,1,2 --precision $1 --reconstruct $2 --repetitions 100
    run_bench 1 dslash --dims 48,48,48,48 --precision $1 --reconstruct $2 --repetitions 100
    run_bench 2 dslash --dims 48,48,48,48 --grid 1,1,1,2 --precision $1 --reconstruct $2 --repetitions 100
  done
  for p in double single half; do
    run_bench 1 solver --dims 32,32,32,32 --kappa 0.22 --precision $p --reconstruct 12 --repetitions 3
    run_bench 2 solver --dims 32,32,32,64 --grid 1,1,1,2 --kappa 0.22 --precision $p --reconstruct 12 --repetitions 3
    run_bench 1 solver --dims 48,48,48,48 --kappa 0.22 --precision $p --reconstruct 12 --repetitions 3
    run_bench 2 solver --dims 48,48,48,48 --grid 1,1,1,2 --kappa 0.22 --precision $p --reconstruct 12 --repetitions 3
  done
  # For comparison, the 12-real dslash and the double/single CG with the faces sent through MPI (staged
  # through host memory where MPI is not CUDA-aware, as here; face_transport in the JSON says which),
  # then through NCCL with the message stream at the default stream's priority.
  for setting in "host high" "auto normal"; do
    read -r LQCD_FACE_TRANSPORT LQCD_COPY_STREAM_PRIORITY <<<"$setting"
    for pr in "double 12" "single 12"; do
      set -- $pr
      run_bench 2 dslash --dims 32,32,32,64 --grid 1,1,1,2 --precision $1 --reconstruct $2 --repetitions 100
      run_bench 2 dslash --dims 48,48,48,48 --grid 1,1,1,2 --precision $1 --reconstruct $2 --repetitions 100
    done
    for d in 32,32,32,64 48,48,48,48; do
      run_bench 2 solver --dims $d --grid 1,1,1,2 --kappa 0.22 --precision single --reconstruct 12 --repetitions 3
    done
  done
fi
unset LQCD_FACE_TRANSPORT LQCD_COPY_STREAM_PRIORITY
if has dirac; then
  # Dirac-operator and solver benchmarks (issue 4's reference problems), one JSON object per line.
  : >"$out/dirac.jsonl"
  for d in 16,16,16,16 32,32,32,32 48,48,48,48; do
    for a in wilson clover twisted_mass; do
      for p in double single; do
        "$bin" bench dslash --dims $d --device gpu --action $a --precision $p --repetitions 100 --json \
          >>"$out/dirac.jsonl" 2>>"$summary"
      done
    done
  done
  for r in 12 8; do
    for d in 16,16,16,16 32,32,32,32 48,48,48,48; do
      for a in wilson twisted_mass; do
        for p in double single; do
          "$bin" bench dslash --dims $d --device gpu --action $a --precision $p --reconstruct $r --repetitions 100 \
            --json >>"$out/dirac.jsonl" 2>>"$summary"
        done
      done
    done
  done
  for p in double single; do
    "$bin" bench matpc --dims 32,32,32,32 --device gpu --precision $p --repetitions 50 --json >>"$out/dirac.jsonl" 2>>"$summary"
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision $p --reconstruct 12 --repetitions 3 --json \
      >>"$out/dirac.jsonl" 2>>"$summary"
  done
  note "dirac benchmarks: $(wc -l <"$out/dirac.jsonl") results"
fi
if has rhs; then
  # The multi-right-hand-side hopping term (each link loaded once for all N), 32^4, one parity.
  : >"$out/rhs.jsonl"
  for pr in "single 12" "half 12" "double 12"; do
    read -r p r <<<"$pr"
    for n in 1 4 12; do
      "$bin" bench dslash --dims 32,32,32,32 --device gpu --precision $p --reconstruct $r --rhs $n --repetitions 50 \
        --json >>"$out/rhs.jsonl" 2>>"$summary"
    done
  done
  note "multi-rhs benchmarks: $(wc -l <"$out/rhs.jsonl") results"
fi
# A sweep of a hopping kernel's launch setting (its t-tile), forced through an
# environment variable: env_sweep FILE VARIABLE DIMS "PRECISION:RECONSTRUCT ..." "VALUE ... default"
# [bench options]: lqcd bench dslash on DIMS with VARIABLE set to each tile ("default": unset), one JSON
# line per run with the forced tile first. Each tile has a launch-tuning cache of its own (the cache's key
# does not include the visiting order, core/launch_tuning.hpp).
env_sweep() {
  local file=$1 variable=$2 dims=$3 precisions=$4 tiles=$5 caches
  shift 5
  caches=$(mktemp -d)
  for pr in $precisions; do
    IFS=: read -r p r <<<"$pr"
    for tile in $tiles; do
      if [ $tile = default ]; then unset $variable; else export $variable=$tile; fi
      LQCD_TUNE_CACHE="$caches/$variable.$tile.tsv" "$bin" bench dslash --dims $dims --device gpu --precision $p \
        --reconstruct $r "$@" --json 2>>"$summary" | sed "s/^{/{\"forced\":\"$variable=$tile\",/" >>"$file"
    done
  done
  unset $variable
  rm -rf "$caches"
}
if has ttile; then
  # The multi-RHS hopping term's t-tiled visiting order (SiteIndexer::tiled_site): 12 sources at 32^4
  # with the tile forced to 1 (storage order) .. 32 slices (LQCD_MULTI_RHS_T_TILE), then the default choice
  # (TILES and PRECISIONS, as precision:reconstruct, narrow the sweep).
  : >"$out/ttile.jsonl"
  env_sweep "$out/ttile.jsonl" LQCD_MULTI_RHS_T_TILE 32,32,32,32 "${PRECISIONS:-single:12 single:18 double:12 half:12}" \
    "${TILES:-1 2 4 8 16 32 default}" --rhs 12 --repetitions 50
  note "t-tile benchmarks: $(wc -l <"$out/ttile.jsonl") results"
fi
if has tune; then
  # The launch tuner (core/launch_tuning.hpp): the one-RHS hopping terms at 16^4, 32^4 and 48^4 and M_hat,
  # M_hat^dag M_hat at 32^4, tuned into a fresh cache that comes back (launch_tuning.tsv); then the same
  # 32^4 kernels untuned (LQCD_TUNE=0: blocks of 256 threads) and tuned but timed by the host clock with
  # a synchronisation per call (--timing wall, the method of the figures before this stage), in the same call.
  : >"$out/tune.jsonl"
  export LQCD_TUNE_CACHE="$out/launch_tuning.tsv"
  rm -f "$LQCD_TUNE_CACHE"
  for mode in tuned untuned wall; do
    dims="16,16,16,16 32,32,32,32 48,48,48,48"
    [ $mode != tuned ] && dims=32,32,32,32
    tuning=1 timing=events
    [ $mode = untuned ] && tuning=0
    [ $mode = wall ] && timing=wall
    for d in $dims; do
      for pr in ${PRECISIONS:-double:12 single:12 single:8 half:12 half:8}; do
        IFS=: read -r p r <<<"$pr"
        LQCD_TUNE=$tuning "$bin" bench dslash --dims $d --device gpu --precision $p --reconstruct $r --repetitions 100 \
          --timing $timing --json >>"$out/tune.jsonl" 2>>"$summary"
      done
    done
    for pr in "double 12" "single 12" "half 12"; do
      read -r p r <<<"$pr"
      LQCD_TUNE=$tuning "$bin" bench matpc --dims 32,32,32,32 --device gpu --precision $p --reconstruct $r \
        --repetitions 50 --timing $timing --json >>"$out/tune.jsonl" 2>>"$summary"
    done
    for pa in "clover double" "clover single" "twisted_mass double" "twisted_mass single"; do
      read -r a p <<<"$pa"
      LQCD_TUNE=$tuning "$bin" bench dslash --dims 32,32,32,32 --device gpu --action $a --precision $p \
        --repetitions 100 --timing $timing --json >>"$out/tune.jsonl" 2>>"$summary"
    done
  done
  unset LQCD_TUNE_CACHE
  note "tuning benchmarks: $(wc -l <"$out/tune.jsonl") results"
fi
if has htile; then
  # The one-RHS hopping term's t-tiled visiting order (dirac/visiting_order.hpp): tiles forced with
  # LQCD_HOPPING_T_TILE against the default choice, at 32^4 and 48^4.
  : >"$out/htile.jsonl"
  for d in 32 48; do
    env_sweep "$out/htile.jsonl" LQCD_HOPPING_T_TILE $d,$d,$d,$d "double:12 single:12" "1 2 4 8 default" --repetitions 100
  done
  note "one-RHS t-tile benchmarks: $(wc -l <"$out/htile.jsonl") results"
fi
if has table; then
  # Issue 4's one-RHS table at 16^4 and 32^4 with the default launch (programmatic on Hopper), timed
  # with an event between calls (the default) and around batches of 10 calls; M_hat and the CG.
  : >"$out/table.jsonl"
  for d in 16 32; do
    for pr in double:12 single:12 single:8 half:12 half:8; do
      IFS=: read -r p r <<<"$pr"
      for timing in events batched; do
        "$bin" bench dslash --dims $d,$d,$d,$d --device gpu --precision $p --reconstruct $r --timing $timing \
          --repetitions 200 --json >>"$out/table.jsonl" 2>>"$summary"
      done
    done
  done
  "$bin" bench matpc --dims 32,32,32,32 --device gpu --precision single --reconstruct 12 --repetitions 100 --json \
    >>"$out/table.jsonl" 2>>"$summary"
  for p in double single half; do
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision $p --reconstruct 12 --repetitions 5 \
      --json >>"$out/table.jsonl" 2>>"$summary"
  done
  note "table benchmarks: $(wc -l <"$out/table.jsonl") results"
fi
if has extra; then
  # The rest of issue 4's figures beside the table: 18-real links, 48^4, 12 right-hand sides, clover and
  # twisted mass, the block CG against 12 single solves.
  : >"$out/extra.jsonl"
  for pr in double:18 single:18; do
    IFS=: read -r p r <<<"$pr"
    "$bin" bench dslash --dims 32,32,32,32 --device gpu --precision $p --reconstruct $r --repetitions 200 --json \
      >>"$out/extra.jsonl" 2>>"$summary"
  done
  for pr in double:12 single:12 half:12 half:8; do
    IFS=: read -r p r <<<"$pr"
    "$bin" bench dslash --dims 48,48,48,48 --device gpu --precision $p --reconstruct $r --repetitions 100 --json \
      >>"$out/extra.jsonl" 2>>"$summary"
  done
  for p in single half double; do
    "$bin" bench dslash --dims 32,32,32,32 --device gpu --precision $p --reconstruct 12 --rhs 12 --repetitions 50 \
      --json >>"$out/extra.jsonl" 2>>"$summary"
  done
  for a in clover twisted_mass; do
    for p in double single; do
      "$bin" bench dslash --dims 32,32,32,32 --device gpu --action $a --precision $p --reconstruct 18 \
        --repetitions 100 --json >>"$out/extra.jsonl" 2>>"$summary"
    done
  done
  "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision single --reconstruct 12 --rhs 12 \
    --repetitions 3 --json >>"$out/extra.jsonl" 2>>"$summary"
  note "extra benchmarks: $(wc -l <"$out/extra.jsonl") results"
fi
if has pdltest; then  # the whole suite again with programmatic dependent launches (core/exec_cuda.cuh)
  start=$(date +%s)
  (cd build-gpu && LQCD_PROGRAMMATIC_LAUNCH=1 ctest --output-on-failure -j 4 --timeout 600) >"$out/ctest-pdl.log" 2>&1
  note "ctest with LQCD_PROGRAMMATIC_LAUNCH=1: exit $? in $(( $(date +%s) - start )) s: $(grep -E 'tests passed|tests failed' "$out/ctest-pdl.log")"
fi
if has launch; then
  # What sets the time of a small lattice's hopping term: the inputs rotated (DRAM) or not (--rotation-sets 1,
  # L2), an event between calls or batches of 10 without (--timing batched), and programmatic dependent
  # launches (LQCD_PROGRAMMATIC_LAUNCH=1); host_queue_seconds_per_call says whether the host kept up.
  : >"$out/launch.jsonl"
  for d in 16 32; do
    for pr in single:12 double:12 half:12; do
      IFS=: read -r p r <<<"$pr"
      for setting in "0 events 0" "0 events 1" "0 batched 0" "0 batched 1" "1 batched 0" "1 batched 1"; do
        read -r pdl timing sets <<<"$setting"
        LQCD_PROGRAMMATIC_LAUNCH=$pdl "$bin" bench dslash --dims $d,$d,$d,$d --device gpu --precision $p --reconstruct $r \
          --timing $timing --rotation-sets $sets --repetitions 200 --json 2>>"$summary" |
          sed "s/^{/{\"programmatic_launch\":$pdl,/" >>"$out/launch.jsonl"
      done
    done
    for p in double single half; do
      for pdl in 0 1; do
        LQCD_PROGRAMMATIC_LAUNCH=$pdl "$bin" bench solver --dims $d,$d,$d,$d --device gpu --kappa 0.22 --precision $p \
          --reconstruct 12 --repetitions 5 --json 2>>"$summary" | sed "s/^{/{\"programmatic_launch\":$pdl,/" >>"$out/launch.jsonl"
      done
    done
  done
  note "launch benchmarks: $(wc -l <"$out/launch.jsonl") results"
fi
if has quenched; then
  # Issue 4's quenched record: a 32^4 beta = 6.0 configuration from the heatbath (examples/), then the
  # CG at kappa = 0.155 on it in each precision, the multi-RHS CG with 12 sources, and CGNR and
  # BiCGStab on M_hat x = b.
  start=$(date +%s)
  rm -rf runs/b6.0_32x32x32x32
  "$bin" heatbath examples/quenched_wilson_b6.0_32x32x32x32.toml --device gpu >"$out/quenched.log" 2>&1
  note "quenched 32^4: heatbath exit $? in $(( $(date +%s) - start )) s: $(grep 'average plaquette' "$out/quenched.log")"
  conf=runs/b6.0_32x32x32x32/wilson.000600.ildg
  : >"$out/quenched.jsonl"
  for p in double single half; do
    "$bin" bench solver --dims 32,32,32,32 --device gpu --config $conf --kappa 0.155 --precision $p --reconstruct 12 \
      --repetitions 5 --json >>"$out/quenched.jsonl" 2>>"$summary"
  done
  "$bin" bench solver --dims 32,32,32,32 --device gpu --config $conf --kappa 0.155 --precision single --reconstruct 12 \
    --rhs 12 --repetitions 3 --json >>"$out/quenched.jsonl" 2>>"$summary"
  # M_hat x = b itself (a propagator's solve): CGNR against BiCGStab, each precision.
  for solver in cg bicgstab; do
    for p in double single half; do
      "$bin" bench solver --dims 32,32,32,32 --device gpu --config $conf --kappa 0.155 --precision $p --reconstruct 12 \
        --system matpc --solver $solver --repetitions 5 --json >>"$out/quenched.jsonl" 2>>"$summary"
    done
  done
  note "quenched solver benchmarks: $(wc -l <"$out/quenched.jsonl") results"
fi
if has propagators; then
  # lqcd spectrum on the 32^4 beta = 6.0 configuration (the quenched stage's; made here if missing) at
  # kappa = 0.155, point source, tolerance 1e-10: the 12 solves one at a time against solver.multi_rhs,
  # in each precision (PROPAGATOR_PRECISIONS: a subset). Per run: the wall time and the 12 solve lines
  # of its log.
  conf=runs/b6.0_32x32x32x32/wilson.000600.ildg
  [ -e $conf ] || "$bin" heatbath examples/quenched_wilson_b6.0_32x32x32x32.toml --device gpu >"$out/quenched.log" 2>&1
  mkdir -p runs/gpu-check
  : >"$out/propagators.txt"
  for p in ${PROPAGATOR_PRECISIONS:-double single half}; do
    for mr in false true; do
      in=runs/gpu-check/prop.$p.$mr.toml
      rm -f runs/gpu-check/prop.$p.$mr.*
      printf '[gauge]\nconfig = "%s"\n[fermion]\nkappa = 0.155\n[solver]\nprecision = "%s"\nmulti_rhs = %s\n[output]\nprefix = "%s"\n' \
        $conf $p $mr runs/gpu-check/prop.$p.$mr >"$in"
      start=$(date +%s%N)
      "$bin" spectrum "$in" --device gpu --json >>"$out/propagators.jsonl" 2>>"$summary"
      note "spectrum 32^4 kappa 0.155 $p multi_rhs=$mr: exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms"
      { echo "== $p multi_rhs=$mr"; grep "spin .* colour" runs/gpu-check/prop.$p.$mr.log; } >>"$out/propagators.txt"
    done
  done
fi
if has sass; then
  # Registers, stack and the SASS opcode histogram of every Wilson hopping kernel (issue 4's notes: no
  # spills, the width of the global loads, the conversion instructions).
  obj=build-gpu/CMakeFiles/lqcd_lib.dir/src/dirac/dirac_kernels.cu.o
  export PATH=/usr/local/cuda/bin:$PATH
  if command -v cuobjdump >/dev/null; then
    cuobjdump -res-usage "$obj" 2>&1 | grep -A1 WilsonHopping >"$out/sass.txt"
    for k in $(cuobjdump -sass "$obj" | grep -oE "Function : \S*WilsonHoppingKernel\S*" | awk '{print $3}'); do
      echo "== $k" >>"$out/sass.txt"
      cuobjdump -sass -fun "$k" "$obj" | grep -oE "^\s+/\*[0-9a-f]+\*/\s+(@!?P[0-9T] )?[A-Z0-9._]+" |
        awk '{print $NF}' | sort | uniq -c | sort -rn | head -40 >>"$out/sass.txt"
    done
    note "sass: $(grep -c '^==' "$out/sass.txt") kernels in sass.txt"
  else
    note "sass: no cuobjdump on this machine"
  fi
fi
if has fast; then
  # Issue 4's fast paths against QUDA's H100 figures: compressed links, single and half precision
  # (each result carries difference_to_double_18_real and the NVML energy), then the GPU tests of
  # half precision and energy.
  (cd build-gpu && ctest --output-on-failure -R "Half|FixedPoint|SinglePrecision|Energy|BenchCommand" --timeout 600) \
    >"$out/ctest-fast.log" 2>&1
  note "ctest fast paths: exit $?: $(grep -E 'tests passed|tests failed' "$out/ctest-fast.log")"
  : >"$out/fast.jsonl"
  for d in 16,16,16,16 32,32,32,32 48,48,48,48; do
    for pr in "double 12" "single 12" "single 8" "half 12" "half 8"; do
      read -r p r <<<"$pr"
      "$bin" bench dslash --dims $d --device gpu --precision $p --reconstruct $r --repetitions 100 --json \
        >>"$out/fast.jsonl" 2>>"$summary"
    done
  done
  for pr in "double 12" "single 12" "half 12"; do
    read -r p r <<<"$pr"
    "$bin" bench matpc --dims 32,32,32,32 --device gpu --precision $p --reconstruct $r --repetitions 50 --json \
      >>"$out/fast.jsonl" 2>>"$summary"
  done
  # --system normal (the default): CG on the normal equations with the tolerance on their residual, as
  # QUDA's test; matpc: CGNR on M_hat x = b (the figures recorded before 2026-11-23's fifth session).
  for pr in "double 18" "double 12" "single 12" "half 12" "half 8"; do
    read -r p r <<<"$pr"
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision $p --reconstruct $r --repetitions 3 \
      --json >>"$out/fast.jsonl" 2>>"$summary"
  done
  for pr in "double 12" "single 12" "half 12"; do
    read -r p r <<<"$pr"
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision $p --reconstruct $r --repetitions 3 \
      --system matpc --json >>"$out/fast.jsonl" 2>>"$summary"
  done
  note "fast-path benchmarks: $(wc -l <"$out/fast.jsonl") results"
fi
if has solver; then
  # The CG benchmarks alone (QUDA's problem, --system normal), and the single-precision corrections'
  # inner tolerance: each correction restarts the Krylov space, so fewer, deeper ones may cost fewer
  # iterations.
  : >"$out/solver.jsonl"
  for pr in "double 12" "single 12" "half 12"; do
    read -r p r <<<"$pr"
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision $p --reconstruct $r --repetitions 5 \
      --json >>"$out/solver.jsonl" 2>>"$summary"
  done
  for it in 1e-5 1e-6; do
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision single --reconstruct 12 \
      --repetitions 5 --inner-tolerance $it --json >>"$out/solver.jsonl" 2>>"$summary"
  done
  "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision half --reconstruct 12 \
    --repetitions 5 --inner-tolerance 1e-3 --json >>"$out/solver.jsonl" 2>>"$summary"
  note "solver benchmarks: $(wc -l <"$out/solver.jsonl") results"
fi
if has resident; then
  # The stream-resident solvers (solvers/krylov/resident_loop.hpp) against their host loops
  # (LQCD_STREAM_RESIDENT=0), back to back on the same problem, at 16^4 and 32^4 in each precision:
  # CG on M_hat^dag M_hat (SYSTEMS: normal), CGNR on M_hat (matpc) and BiCGStab on M_hat (bicgstab),
  # ROUNDS times, alternating.
  : >"$out/resident.jsonl"
  for round in $(seq ${ROUNDS:-1}); do
    for system in ${SYSTEMS:-normal}; do
      args="--system $system"
      [ $system = bicgstab ] && args="--system matpc --solver bicgstab"
      for d in 16,16,16,16 32,32,32,32; do
        reps=5; [ $d = 16,16,16,16 ] && reps=20
        for p in double single half; do
          for s in 0 default; do
            if [ $s = default ]; then unset LQCD_STREAM_RESIDENT; else export LQCD_STREAM_RESIDENT=$s; fi
            "$bin" bench solver --dims $d --device gpu --kappa 0.22 --precision $p --reconstruct 12 $args \
              --repetitions $reps --json 2>>"$summary" |
              sed "s/^{/{\"forced\":\"LQCD_STREAM_RESIDENT=$s\",\"round\":$round,/" >>"$out/resident.jsonl"
          done
        done
      done
    done
  done
  unset LQCD_STREAM_RESIDENT
  note "stream-resident solver benchmarks: $(wc -l <"$out/resident.jsonl") results"
fi
if has blockcg; then
  # The multi-RHS CG (12 sources at once against the same 12 solves one at a time), then the one-field
  # CG and M_hat / M_hat^dag M_hat after the Wilson site-inverse pass was dropped (mu = 0).
  : >"$out/blockcg.jsonl"
  for p in double single half; do
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision $p --reconstruct 12 --rhs 12 \
      --repetitions 3 --json >>"$out/blockcg.jsonl" 2>>"$summary"
  done
  "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision single --reconstruct 12 --rhs 4 \
    --repetitions 3 --json >>"$out/blockcg.jsonl" 2>>"$summary"
  for p in double single half; do
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision $p --reconstruct 12 --repetitions 5 \
      --json >>"$out/blockcg.jsonl" 2>>"$summary"
    "$bin" bench matpc --dims 32,32,32,32 --device gpu --precision $p --reconstruct 12 --repetitions 50 --json \
      >>"$out/blockcg.jsonl" 2>>"$summary"
  done
  note "multi-RHS CG benchmarks: $(wc -l <"$out/blockcg.jsonl") results"
fi
if has blockres; then
  # The multi-RHS CG with its stream-resident cycles (the default on the GPU) and with its host loop
  # (LQCD_STREAM_RESIDENT=0, which also puts the one-at-a-time solves on their host loops).
  : >"$out/blockres.jsonl"
  for p in single half double; do
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision $p --reconstruct 12 --rhs 12 \
      --repetitions 3 --json >>"$out/blockres.jsonl" 2>>"$summary"
  done
  for p in single half; do
    LQCD_STREAM_RESIDENT=0 "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision $p \
      --reconstruct 12 --rhs 12 --repetitions 3 --json >>"$out/blockres.jsonl" 2>>"$summary"
  done
  note "multi-RHS CG, resident and host loop: $(wc -l <"$out/blockres.jsonl") results"
fi
if has sanitize; then
  # Issue 26: compute-sanitizer's memcheck (out-of-bounds and misaligned device accesses, device leaks),
  # racecheck (shared-memory hazards) and initcheck (reads of device memory never written) on the GPU
  # cases of the gtest executables, each exiting 1 on any finding. The tools slow kernels 10-100x, so
  # each runs a subset on the tests' 8^4 lattices that still reaches every kernel family: Wilson,
  # clover, twisted mass and their even-odd forms in double/single/half, multi-RHS pack and hopping
  # term, block BLAS with reductions and precision conversions, the stream-resident CG/BiCGStab and
  # block CG, heatbath/overrelaxation, APE and Wuppertal smearing, MD forces (memcheck only).
  # LQCD_TUNE=0: the launch tuner would time every block size (many more launches, no other code);
  # the tuner itself is exercised by the normal test stage. One log: at most 8 files come back.
  # SANITIZE_TOOLS narrows the tools, SANITIZE_TIMEOUT (s, default 100) bounds each run; a run that
  # times out is reported as such, not as a finding. SANITIZE_SCOPE=all runs every GPU case (names with
  # "evice" or "GPU") of every test executable instead of the subsets.
  cs=$(command -v compute-sanitizer || true)
  [ -z "$cs" ] && [ -x /usr/local/cuda/bin/compute-sanitizer ] && cs=/usr/local/cuda/bin/compute-sanitizer
  if [ -z "$cs" ]; then
    note "sanitize: compute-sanitizer is neither on PATH nor in /usr/local/cuda/bin (CUDA toolkit without it?): stage skipped"
  elif [ ! -x build-gpu/tests/test_dirac ]; then
    note "sanitize: no build-gpu/tests/test_dirac: run the build stage first (gpu-check.sh OUT build sanitize)"
  else
    slog="$out/sanitize.log"
    "$cs" --version >"$slog" 2>&1
    sanitize_run() {  # tool executable gtest-filter
      local tool=$1 exe=$2 filter=$3 start rc extra=()
      [ "$tool" = memcheck ] && extra=(--leak-check full)
      echo "=== $tool $exe --gtest_filter=$filter" >>"$slog"
      start=$(date +%s)
      (cd build-gpu/tests && LQCD_TUNE=0 OMP_NUM_THREADS=4 timeout "${SANITIZE_TIMEOUT:-100}" \
        "$cs" --tool "$tool" --error-exitcode 1 "${extra[@]}" ./"$exe" --gtest_filter="$filter" --gtest_brief=1) \
        >"$slog.run" 2>&1
      rc=$?
      cat "$slog.run" >>"$slog"
      local why=""
      [ $rc = 124 ] && why=" (timed out: no finding so far; narrow the filter)"
      # The count of tests run: 0 would mean the filter matched no GPU case (no device?).
      note "sanitize $tool $exe: exit $rc$why in $(( $(date +%s) - start )) s;" \
        "$(grep -E '^\[==========\] [0-9]+ tests? from .* ran' "$slog.run" | sed 's/^\[==========\] //')" \
        "$(grep -E 'ERROR SUMMARY' "$slog.run" | sed 's/^========= //')"
    }
    # Parameter suffixes as the tests name them: Backends/...: /device, Locations/...: /Device.
    dirac_ops='WilsonOperator.HostAndDeviceAgree:WilsonCloverOperator.HostAndDeviceAgree:WilsonCloverEvenOdd.HostAndDeviceAgree'
    dirac_prec='SinglePrecision.HostAndDeviceAgree:HalfPrecision.HostAndDeviceAgree'
    multi_rhs='Locations/MultiRhsTest.PackAndUnpackAreExact/Device:Locations/MultiRhsTest.EveryRhsIsWhatTheOneRhsKernelGives/Device'
    blas='Locations/SpinorBlockBlasTest.*/Device'
    resident='Backends/ResidentCgTest.SameIteratesAsTheHostLoopInEveryPrecision/device:Backends/ResidentBiCgStabTest.SameIteratesAsTheHostLoopInEveryPrecision/device'
    block_cg='Locations/MultiRhsCgTest.StreamResidentCyclesGiveTheHostLoopsIteratesBitForBit/Device'
    gauge='Updates.HostAndDeviceGiveTheSameConfiguration:ApeSmearing.HostAndDeviceAgree:Backends/GaugeObservablesTest.GaugeInvariance/device'
    for tool in ${SANITIZE_TOOLS:-memcheck racecheck initcheck}; do
      if [ "${SANITIZE_SCOPE:-subset}" = all ]; then  # every GPU case of every executable
        for exe in test_core test_fields test_gauge test_dirac test_solvers test_measure test_hmc; do
          sanitize_run "$tool" "$exe" '*evice*:*GPU*:*Gpu*'
        done
        continue
      fi
      case $tool in
        memcheck)
          sanitize_run memcheck test_dirac "$dirac_ops:$dirac_prec:$multi_rhs:GaussianSmearing.HostAndDeviceAgree"
          sanitize_run memcheck test_fields "$blas"
          sanitize_run memcheck test_solvers "$resident:$block_cg"
          sanitize_run memcheck test_gauge "$gauge"
          sanitize_run memcheck test_hmc 'Hmc.HostAndDeviceAgree' ;;
        racecheck)  # the kernels that share memory within a block: reductions, finishers, hopping terms
          sanitize_run racecheck test_fields "$blas"
          sanitize_run racecheck test_solvers "$resident"
          sanitize_run racecheck test_dirac "WilsonOperator.HostAndDeviceAgree:$multi_rhs"
          sanitize_run racecheck test_gauge 'Backends/GaugeObservablesTest.GaugeInvariance/device' ;;
        initcheck)
          sanitize_run initcheck test_dirac "$dirac_ops:HalfPrecision.HostAndDeviceAgree:$multi_rhs"
          sanitize_run initcheck test_fields "$blas"
          sanitize_run initcheck test_solvers "$resident"
          sanitize_run initcheck test_gauge "$gauge" ;;
        *) note "sanitize: unknown tool $tool" ;;
      esac
    done
    rm -f "$slog.run"
    grep -E "^========= (Invalid|Race|Uninitialized|Leaked|Error|Program hit)" "$slog" | sort | uniq -c | sort -rn | head -20 |
      tee -a "$summary"
  fi
fi
cat "$summary"
