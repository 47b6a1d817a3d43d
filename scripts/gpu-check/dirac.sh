if has dirac; then
  # Dirac-operator and solver benchmarks (issue 4's reference problems), one JSON object per line.
  : >"$out/dirac.jsonl"
  for d in 16,16,16,16 32,32,32,32 48,48,48,48; do
    for a in wilson clover twisted_mass; do
      for p in double single; do
        "$bin" bench dslash --dims $d --device gpu --action $a --precision $p --repetitions 100 --json \
          >>"$out/dirac.jsonl" 2>>"$summary"
      done
    done
  done
  for r in 12 8; do
    for d in 16,16,16,16 32,32,32,32 48,48,48,48; do
      for a in wilson twisted_mass; do
        for p in double single; do
          "$bin" bench dslash --dims $d --device gpu --action $a --precision $p --reconstruct $r --repetitions 100 \
            --json >>"$out/dirac.jsonl" 2>>"$summary"
        done
      done
    done
  done
  for p in double single; do
    "$bin" bench matpc --dims 32,32,32,32 --device gpu --precision $p --repetitions 50 --json >>"$out/dirac.jsonl" 2>>"$summary"
    "$bin" bench solver --dims 32,32,32,32 --device gpu --kappa 0.22 --precision $p --reconstruct 12 --repetitions 3 --json \
      >>"$out/dirac.jsonl" 2>>"$summary"
  done
  note "dirac benchmarks: $(wc -l <"$out/dirac.jsonl") results"
fi
