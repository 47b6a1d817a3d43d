if has blockcg; then
  # The multi-RHS CG (12 sources at once against the same 12 solves one at a time), then the one-field
  # CG and M_hat / M_hat^dag M_hat after the Wilson site-inverse pass was dropped (mu = 0).
  : >"$out/blockcg.jsonl"
  for p in double single half; do
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision $p --reconstruct 12 --rhs 12 \
      --repetitions 3 --json >>"$out/blockcg.jsonl" 2>>"$summary"
  done
  "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision single --reconstruct 12 --rhs 4 \
    --repetitions 3 --json >>"$out/blockcg.jsonl" 2>>"$summary"
  for p in double single half; do
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision $p --reconstruct 12 --repetitions 5 \
      --json >>"$out/blockcg.jsonl" 2>>"$summary"
    "$bin" bench matpc --dims 32,32,32,32 --device gpu --precision $p --reconstruct 12 --repetitions 50 --json \
      >>"$out/blockcg.jsonl" 2>>"$summary"
  done
  note "multi-RHS CG benchmarks: $(wc -l <"$out/blockcg.jsonl") results"
fi
