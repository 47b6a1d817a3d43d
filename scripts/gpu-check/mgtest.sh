if has mgtest; then  # the multigrid's tests only (CPU and GPU cases)
  start=$(date +%s)
  (cd build-gpu && ctest --output-on-failure -R "Multigrid|CoarseOperator|CoarseBlock|Schwarz" --timeout 600) >"$out/ctest-mg.log" 2>&1
  note "ctest multigrid: exit $? in $(( $(date +%s) - start )) s: $(grep -E 'tests passed|tests failed' "$out/ctest-mg.log")"
fi
