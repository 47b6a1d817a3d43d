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
