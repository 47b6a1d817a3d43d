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
