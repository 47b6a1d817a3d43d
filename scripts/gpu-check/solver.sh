if has solver; then
  # The CG benchmarks alone (QUDA's problem, --system normal), and the single-precision corrections'
  # inner tolerance: each correction restarts the Krylov space, so fewer, deeper ones may cost fewer
  # iterations.
  : >"$out/solver.jsonl"
  for pr in "double 12" "single 12" "half 12"; do
    read -r p r <<<"$pr"
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision $p --reconstruct $r --repetitions 5 \
      --json >>"$out/solver.jsonl" 2>>"$summary"
  done
  for it in 1e-5 1e-6; do
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision single --reconstruct 12 \
      --repetitions 5 --inner-tolerance $it --json >>"$out/solver.jsonl" 2>>"$summary"
  done
  "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision half --reconstruct 12 \
    --repetitions 5 --inner-tolerance 1e-3 --json >>"$out/solver.jsonl" 2>>"$summary"
  note "solver benchmarks: $(wc -l <"$out/solver.jsonl") results"
fi
