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
