if has pdltest; then  # the whole suite again with programmatic dependent launches (core/exec_cuda.cuh)
  start=$(date +%s)
  (cd build-gpu && LQCD_PROGRAMMATIC_LAUNCH=1 ctest --output-on-failure -j 4 --timeout 600) >"$out/ctest-pdl.log" 2>&1
  note "ctest with LQCD_PROGRAMMATIC_LAUNCH=1: exit $? in $(( $(date +%s) - start )) s: $(grep -E 'tests passed|tests failed' "$out/ctest-pdl.log")"
fi
