if has quenched; then
  # Issue 4's quenched record: a 32^4 beta = 6.0 configuration from the heatbath (examples/), then the
  # CG at kappa = 0.155 on it in each precision, the multi-RHS CG with 12 sources, and CGNR and
  # BiCGStab on M_hat x = b.
  start=$(date +%s)
  rm -rf runs/b6.0_32x32x32x32
  "$bin" heatbath examples/quenched_wilson_b6.0_32x32x32x32.toml --device gpu >"$out/quenched.log" 2>&1
  note "quenched 32^4: heatbath exit $? in $(( $(date +%s) - start )) s: $(grep 'average plaquette' "$out/quenched.log")"
  conf=runs/b6.0_32x32x32x32/wilson.000600.ildg
  : >"$out/quenched.jsonl"
  for p in double single half; do
    "$bin" bench solver --dims 32,32,32,32 --device gpu --config $conf --kappa 0.155 --precision $p --reconstruct 12 \
      --repetitions 5 --json >>"$out/quenched.jsonl" 2>>"$summary"
  done
  "$bin" bench solver --dims 32,32,32,32 --device gpu --config $conf --kappa 0.155 --precision single --reconstruct 12 \
    --rhs 12 --repetitions 3 --json >>"$out/quenched.jsonl" 2>>"$summary"
  # M_hat x = b itself (a propagator's solve): CGNR against BiCGStab, each precision.
  for solver in cg bicgstab; do
    for p in double single half; do
      "$bin" bench solver --dims 32,32,32,32 --device gpu --config $conf --kappa 0.155 --precision $p --reconstruct 12 \
        --system matpc --solver $solver --repetitions 5 --json >>"$out/quenched.jsonl" 2>>"$summary"
    done
  done
  note "quenched solver benchmarks: $(wc -l <"$out/quenched.jsonl") results"
fi
