if has ref32; then
  mkdir -p runs/gpu-check
  from=runs/gpu-check/therm16.checkpoint.ildg
  [ -e "$from" ] || from=.gpu-state/therm16.ildg
  "$bin" convert "$from" runs/gpu-check/start32.ildg --tile 2,2,2,2 --force 2>>"$summary" | tee -a "$summary"
  start=$(date +%s)
  bash scripts/hmc-reference.sh "$out" "$bin" 32 runs/gpu-check/start32.ildg "${REF_TRAJ:-1}" ${REF_VARIANTS:+"$REF_VARIANTS"}
  note "ref32: exit $? in $(( $(date +%s) - start )) s"
fi
