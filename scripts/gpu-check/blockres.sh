if has blockres; then
  # The multi-RHS CG with its stream-resident cycles (the default on the GPU) and with its host loop
  # (LQCD_STREAM_RESIDENT=0, which also puts the one-at-a-time solves on their host loops).
  : >"$out/blockres.jsonl"
  for p in single half double; do
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision $p --reconstruct 12 --rhs 12 \
      --repetitions 3 --json >>"$out/blockres.jsonl" 2>>"$summary"
  done
  for p in single half; do
    LQCD_STREAM_RESIDENT=0 "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision $p \
      --reconstruct 12 --rhs 12 --repetitions 3 --json >>"$out/blockres.jsonl" 2>>"$summary"
  done
  note "multi-RHS CG, resident and host loop: $(wc -l <"$out/blockres.jsonl") results"
fi
