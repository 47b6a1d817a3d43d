if has resident; then
  # The stream-resident solvers (solvers/krylov/resident_loop.hpp) against their host loops
  # (LQCD_STREAM_RESIDENT=0), back to back on the same problem, at 16^4 and 32^4 in each precision:
  # CG on M_hat^dag M_hat (SYSTEMS: normal), CGNR on M_hat (matpc) and BiCGStab on M_hat (bicgstab),
  # ROUNDS times, alternating.
  : >"$out/resident.jsonl"
  for round in $(seq ${ROUNDS:-1}); do
    for system in ${SYSTEMS:-normal}; do
      args="--system $system"
      [ $system = bicgstab ] && args="--system matpc --solver bicgstab"
      for d in 16,16,16,16 32,32,32,32; do
        reps=5; [ $d = 16,16,16,16 ] && reps=20
        for p in double single half; do
          for s in 0 default; do
            if [ $s = default ]; then unset LQCD_STREAM_RESIDENT; else export LQCD_STREAM_RESIDENT=$s; fi
            "$bin" bench solver --dims $d --device gpu --kappa 0.22 --precision $p --reconstruct 12 $args \
              --repetitions $reps --json 2>>"$summary" |
              sed "s/^{/{\"forced\":\"LQCD_STREAM_RESIDENT=$s\",\"round\":$round,/" >>"$out/resident.jsonl"
          done
        done
      done
    done
  done
  unset LQCD_STREAM_RESIDENT
  note "stream-resident solver benchmarks: $(wc -l <"$out/resident.jsonl") results"
fi
