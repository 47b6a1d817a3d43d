if has strong48; then
  # Strong scaling only (48^4 on one GPU and on two), the 12-real links and the mixed CG.
  for pr in "double 18" "double 12" "single 18" "single 12" "half 12"; do
    set -- $pr
    [ "$2" = 12 ] && run_bench 1 dslash --dims 48,48,48,48 --precision $1 --reconstruct $2 --repetitions 100
    run_bench 2 dslash --dims 48,48,48,48 --grid 1,1,1,2 --precision $1 --reconstruct $2 --repetitions 100
  done
  for p in double single half; do
    run_bench 2 solver --dims 48,48,48,48 --grid 1,1,1,2 --kappa 0.22 --precision $p --reconstruct 12 --repetitions 3
  done
fi
