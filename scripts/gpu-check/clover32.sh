if has clover32; then
  mkdir -p runs/gpu-check
  from=runs/gpu-check/therm16.checkpoint.ildg
  [ -e "$from" ] || from=.gpu-state/therm16.ildg
  "$bin" convert "$from" runs/gpu-check/start32.ildg --tile 2,2,2,2 --force 2>>"$summary" | tee -a "$summary"
  clover_input runs/gpu-check/clover32 "[32, 32, 32, 32]" runs/gpu-check/start32.ildg "${CLOVER32_THERM:-1}" \
    "${CLOVER32_TRAJ:-3}" "${STEPS32:-[10, 2, 4]}" 0 5290 >runs/gpu-check/clover32.toml
  rm -f runs/gpu-check/clover32.jsonl runs/gpu-check/clover32.log
  start=$(date +%s)
  "$bin" hmc runs/gpu-check/clover32.toml --device gpu --quiet 2>>"$summary"
  note "hmc clover 32^4: exit $? in $(( $(date +%s) - start )) s"
  cp runs/gpu-check/clover32.jsonl runs/gpu-check/clover32.log "$out/" 2>/dev/null
  tail -5 runs/gpu-check/clover32.log | tee -a "$summary"
fi
# Issue 28's reference run (scripts/hmc-reference.sh) on 32^4 tiled 2x2x2x2 from the last 16^4 configuration
# (this call's therm16, else the carried .gpu-state/therm16.ildg): REF_TRAJ (1) trajectories per variant,
# REF_VARIANTS (the script's default variants when empty).
