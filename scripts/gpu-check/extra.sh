if has extra; then
  # The rest of issue 4's figures beside the table: 18-real links, 48^4, 12 right-hand sides, clover and
  # twisted mass, the block CG against 12 single solves.
  : >"$out/extra.jsonl"
  for pr in double:18 single:18; do
    IFS=: read -r p r <<<"$pr"
    "$bin" bench dslash --dims 32,32,32,32 --device gpu --precision $p --reconstruct $r --repetitions 200 --json \
      >>"$out/extra.jsonl" 2>>"$summary"
  done
  for pr in double:12 single:12 half:12 half:8; do
    IFS=: read -r p r <<<"$pr"
    "$bin" bench dslash --dims 48,48,48,48 --device gpu --precision $p --reconstruct $r --repetitions 100 --json \
      >>"$out/extra.jsonl" 2>>"$summary"
  done
  for p in single half double; do
    "$bin" bench dslash --dims 32,32,32,32 --device gpu --precision $p --reconstruct 12 --rhs 12 --repetitions 50 \
      --json >>"$out/extra.jsonl" 2>>"$summary"
  done
  for a in clover twisted_mass; do
    for p in double single; do
      "$bin" bench dslash --dims 32,32,32,32 --device gpu --action $a --precision $p --reconstruct 18 \
        --repetitions 100 --json >>"$out/extra.jsonl" 2>>"$summary"
    done
  done
  "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision single --reconstruct 12 --rhs 12 \
    --repetitions 3 --json >>"$out/extra.jsonl" 2>>"$summary"
  note "extra benchmarks: $(wc -l <"$out/extra.jsonl") results"
fi
