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
