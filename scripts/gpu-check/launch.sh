if has launch; then
  # What sets the time of a small lattice's hopping term: the inputs rotated (DRAM) or not (--rotation-sets 1,
  # L2), an event between calls or batches of 10 without (--timing batched), and programmatic dependent
  # launches (LQCD_PROGRAMMATIC_LAUNCH=1); host_queue_seconds_per_call says whether the host kept up.
  : >"$out/launch.jsonl"
  for d in 16 32; do
    for pr in single:12 double:12 half:12; do
      IFS=: read -r p r <<<"$pr"
      for setting in "0 events 0" "0 events 1" "0 batched 0" "0 batched 1" "1 batched 0" "1 batched 1"; do
        read -r pdl timing sets <<<"$setting"
        LQCD_PROGRAMMATIC_LAUNCH=$pdl "$bin" bench dslash --dims $d,$d,$d,$d --device gpu --precision $p --reconstruct $r \
          --timing $timing --rotation-sets $sets --repetitions 200 --json 2>>"$summary" |
          sed "s/^{/{\"programmatic_launch\":$pdl,/" >>"$out/launch.jsonl"
      done
    done
    for p in double single half; do
      for pdl in 0 1; do
        LQCD_PROGRAMMATIC_LAUNCH=$pdl "$bin" bench solver --dims $d,$d,$d,$d --device gpu --kappa 0.22 --precision $p \
          --reconstruct 12 --repetitions 5 --json 2>>"$summary" | sed "s/^{/{\"programmatic_launch\":$pdl,/" >>"$out/launch.jsonl"
      done
    done
  done
  note "launch benchmarks: $(wc -l <"$out/launch.jsonl") results"
fi
