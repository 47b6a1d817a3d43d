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
