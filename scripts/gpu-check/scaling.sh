if has scaling; then
  # Weak scaling: 32^4 per GPU (32^3 x 64 over grid 1,1,1,2); strong: 48^4 in all. Faces go through NCCL
  # where it is built in (the default).
  for pr in "double 18" "double 12" "single 18" "single 12" "half 12"; do
    set -- $pr
    run_bench 1 dslash --dims 32,32,32,32 --precision $1 --reconstruct $2 --repetitions 100
    run_bench 2 dslash --dims 32,32,32,64 --grid 1,1,1,2 --precision $1 --reconstruct $2 --repetitions 100
    run_bench 1 dslash --dims 48,48,48,48 --precision $1 --reconstruct $2 --repetitions 100
    run_bench 2 dslash --dims 48,48,48,48 --grid 1,1,1,2 --precision $1 --reconstruct $2 --repetitions 100
  done
  for p in double single half; do
    run_bench 1 solver --dims 32,32,32,32 --kappa 0.22 --precision $p --reconstruct 12 --repetitions 3
    run_bench 2 solver --dims 32,32,32,64 --grid 1,1,1,2 --kappa 0.22 --precision $p --reconstruct 12 --repetitions 3
    run_bench 1 solver --dims 48,48,48,48 --kappa 0.22 --precision $p --reconstruct 12 --repetitions 3
    run_bench 2 solver --dims 48,48,48,48 --grid 1,1,1,2 --kappa 0.22 --precision $p --reconstruct 12 --repetitions 3
  done
  # For comparison, the 12-real dslash and the double/single CG with the faces sent through MPI (staged
  # through host memory where MPI is not CUDA-aware, as here; face_transport in the JSON says which),
  # then through NCCL with the message stream at the default stream's priority.
  for setting in "host high" "auto normal"; do
    read -r LQCD_FACE_TRANSPORT LQCD_COPY_STREAM_PRIORITY <<<"$setting"
    for pr in "double 12" "single 12"; do
      set -- $pr
      run_bench 2 dslash --dims 32,32,32,64 --grid 1,1,1,2 --precision $1 --reconstruct $2 --repetitions 100
      run_bench 2 dslash --dims 48,48,48,48 --grid 1,1,1,2 --precision $1 --reconstruct $2 --repetitions 100
    done
    for d in 32,32,32,64 48,48,48,48; do
      run_bench 2 solver --dims $d --grid 1,1,1,2 --kappa 0.22 --precision single --reconstruct 12 --repetitions 3
    done
  done
fi
unset LQCD_FACE_TRANSPORT LQCD_COPY_STREAM_PRIORITY
