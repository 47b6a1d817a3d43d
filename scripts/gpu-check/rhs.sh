if has rhs; then
  # The multi-right-hand-side hopping term (each link loaded once for all N), 32^4, one parity.
  : >"$out/rhs.jsonl"
  for pr in "single 12" "half 12" "double 12"; do
    read -r p r <<<"$pr"
    for n in 1 4 12; do
      "$bin" bench dslash --dims 32,32,32,32 --device gpu --precision $p --reconstruct $r --rhs $n --repetitions 50 \
        --json >>"$out/rhs.jsonl" 2>>"$summary"
    done
  done
  note "multi-rhs benchmarks: $(wc -l <"$out/rhs.jsonl") results"
fi
# A sweep of a hopping kernel's launch setting (its t-tile), forced through an
# environment variable: env_sweep FILE VARIABLE DIMS "PRECISION:RECONSTRUCT ..." "VALUE ... default"
# [bench options]: lqcd bench dslash on DIMS with VARIABLE set to each tile ("default": unset), one JSON
# line per run with the forced tile first. Each tile has a launch-tuning cache of its own (the cache's key
# does not include the visiting order, core/launch_tuning.hpp).
