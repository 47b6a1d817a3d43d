if has bench; then
  : >"$out/bench.jsonl"
  for d in 16,16,16,16 32,32,32,32 48,48,48,48; do
    "$bin" bench heatbath --dims $d --device gpu --repetitions 20 --json >>"$out/bench.jsonl" 2>>"$summary"
  done
  "$bin" bench heatbath --dims 32,32,32,32 --device gpu --action symanzik --repetitions 10 --json >>"$out/bench.jsonl" 2>>"$summary"
  OMP_NUM_THREADS=16 OMP_PROC_BIND=close "$bin" bench heatbath --dims 16,16,16,16 --device cpu --repetitions 5 --json \
    >>"$out/bench.jsonl" 2>>"$summary"
  OMP_NUM_THREADS=16 OMP_PROC_BIND=close "$bin" bench heatbath --dims 32,32,32,32 --device cpu --repetitions 3 --json \
    >>"$out/bench.jsonl" 2>>"$summary"
  note "bench: $(wc -l <"$out/bench.jsonl") results"
fi
