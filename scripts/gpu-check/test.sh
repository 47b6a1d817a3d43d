if has test; then
  start=$(date +%s)
  (cd build-gpu && ctest --output-on-failure -j 4 --timeout 600) >"$out/ctest.log" 2>&1
  note "ctest: exit $? in $(( $(date +%s) - start )) s: $(grep -E 'tests passed|tests failed' "$out/ctest.log")"
  grep -E "\(Skipped\)|\*\*\*Failed|Not Run" "$out/ctest.log" | head -20 | tee -a "$summary"
fi
