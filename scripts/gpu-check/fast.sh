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
