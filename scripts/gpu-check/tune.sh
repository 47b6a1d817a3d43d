if has tune; then
  # The launch tuner (core/launch_tuning.hpp): the one-RHS hopping terms at 16^4, 32^4 and 48^4 and M_hat,
  # M_hat^dag M_hat at 32^4, tuned into a fresh cache that comes back (launch_tuning.tsv); then the same
  # 32^4 kernels untuned (LQCD_TUNE=0: blocks of 256 threads) and tuned but timed by the host clock with
  # a synchronisation per call (--timing wall, the method of the figures before this stage), in the same call.
  : >"$out/tune.jsonl"
  export LQCD_TUNE_CACHE="$out/launch_tuning.tsv"
  rm -f "$LQCD_TUNE_CACHE"
  for mode in tuned untuned wall; do
    dims="16,16,16,16 32,32,32,32 48,48,48,48"
    [ $mode != tuned ] && dims=32,32,32,32
    tuning=1 timing=events
    [ $mode = untuned ] && tuning=0
    [ $mode = wall ] && timing=wall
    for d in $dims; do
      for pr in ${PRECISIONS:-double:12 single:12 single:8 half:12 half:8}; do
        IFS=: read -r p r <<<"$pr"
        LQCD_TUNE=$tuning "$bin" bench dslash --dims $d --device gpu --precision $p --reconstruct $r --repetitions 100 \
          --timing $timing --json >>"$out/tune.jsonl" 2>>"$summary"
      done
    done
    for pr in "double 12" "single 12" "half 12"; do
      read -r p r <<<"$pr"
      LQCD_TUNE=$tuning "$bin" bench matpc --dims 32,32,32,32 --device gpu --precision $p --reconstruct $r \
        --repetitions 50 --timing $timing --json >>"$out/tune.jsonl" 2>>"$summary"
    done
    for pa in "clover double" "clover single" "twisted_mass double" "twisted_mass single"; do
      read -r a p <<<"$pa"
      LQCD_TUNE=$tuning "$bin" bench dslash --dims 32,32,32,32 --device gpu --action $a --precision $p \
        --repetitions 100 --timing $timing --json >>"$out/tune.jsonl" 2>>"$summary"
    done
  done
  unset LQCD_TUNE_CACHE
  note "tuning benchmarks: $(wc -l <"$out/tune.jsonl") results"
fi
