if has resident2; then
  # The stream-resident solvers on two GPUs (LQCD_STREAM_RESIDENT=1: global sums by NCCL in the
  # stream) against their host loops (=0, the default on several processes), 32^4 and 48^4 over grid
  # 1,1,1,2: CG on M_hat^dag M_hat and BiCGStab on M_hat, each precision.
  for d in 32,32,32,32 48,48,48,48; do
    reps=5; [ $d = 48,48,48,48 ] && reps=3
    for args in "--system normal" "--system matpc --solver bicgstab"; do
      for p in double single half; do
        for s in 0 1; do
          export LQCD_STREAM_RESIDENT=$s
          run_bench 2 solver --dims $d --grid 1,1,1,2 --kappa 0.22 --precision $p --reconstruct 12 $args \
            --repetitions $reps
        done
      done
    done
  done
  export LQCD_STREAM_RESIDENT=
fi
