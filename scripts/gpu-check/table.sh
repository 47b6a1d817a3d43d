if has table; then
  # Issue 4's one-RHS table at 16^4 and 32^4 with the default launch (programmatic on Hopper), timed
  # with an event between calls (the default) and around batches of 10 calls; M_hat and the CG.
  : >"$out/table.jsonl"
  for d in 16 32; do
    for pr in double:12 single:12 single:8 half:12 half:8; do
      IFS=: read -r p r <<<"$pr"
      for timing in events batched; do
        "$bin" bench dslash --dims $d,$d,$d,$d --device gpu --precision $p --reconstruct $r --timing $timing \
          --repetitions 200 --json >>"$out/table.jsonl" 2>>"$summary"
      done
    done
  done
  "$bin" bench matpc --dims 32,32,32,32 --device gpu --precision single --reconstruct 12 --repetitions 100 --json \
    >>"$out/table.jsonl" 2>>"$summary"
  for p in double single half; do
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision $p --reconstruct 12 --repetitions 5 \
      --json >>"$out/table.jsonl" 2>>"$summary"
  done
  note "table benchmarks: $(wc -l <"$out/table.jsonl") results"
fi
