if has mpitest; then  # the halo and distributed tests only (on the two-GPU machine: one GPU per rank)
  start=$(date +%s)
  (cd build-gpu && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ctest --output-on-failure -R "mpi|Halo" \
    --timeout 600) >"$out/ctest-mpi.log" 2>&1
  note "ctest mpi: exit $? in $(( $(date +%s) - start )) s: $(grep -E 'tests passed|tests failed' "$out/ctest-mpi.log")"
fi
