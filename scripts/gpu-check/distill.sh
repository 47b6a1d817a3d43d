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
