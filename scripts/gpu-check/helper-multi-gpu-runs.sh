if has scaling || has strong48 || has resident2; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=4
  export LQCD_FACE_TRANSPORT=auto LQCD_COPY_STREAM_PRIORITY=high
  : >"$out/scaling.jsonl"
  note "$(nvidia-smi -L | wc -l) GPUs"
  nvidia-smi topo -m >>"$summary" 2>&1
  run_bench() {  # np args...
    local np=$1 start
    shift
    start=$(date +%s)
    if [ "$np" = 1 ]; then "$bin" bench "$@" --device gpu --json >>"$out/scaling.jsonl" 2>>"$summary"
    else mpiexec -np "$np" --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE -x LQCD_FACE_TRANSPORT \
      -x LQCD_COPY_STREAM_PRIORITY -x LQCD_STREAM_RESIDENT \
      "$bin" bench "$@" --device gpu --json >>"$out/scaling.jsonl" 2>>"$summary"; fi
    note "  np $np $LQCD_FACE_TRANSPORT, $LQCD_COPY_STREAM_PRIORITY priority: bench $*: exit $? in $(( $(date +%s) - start )) s"
  }
fi
