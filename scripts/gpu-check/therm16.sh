if has therm16; then
  mkdir -p runs/gpu-check
  rm -f runs/gpu-check/therm16.*
  if [ -e .gpu-state/therm16.ildg ]; then
    clover_input runs/gpu-check/therm16 "[16, 16, 16, 16]" .gpu-state/therm16.ildg "${THERM16_UNCONDITIONAL:-0}" 2000 \
      "${STEPS16:-[6, 2, 4]}" 5 "$(date +%s)" >runs/gpu-check/therm16.toml
  else
    clover_input runs/gpu-check/therm16 "[16, 16, 16, 16]" hot 20 2000 "${STEPS16:-[6, 2, 4]}" 5 529 \
      >runs/gpu-check/therm16.toml
  fi
  start=$(date +%s)
  timeout "${THERM_SECONDS:-420}" "$bin" hmc runs/gpu-check/therm16.toml --device gpu --quiet 2>>"$summary"
  note "hmc therm16: exit $? in $(( $(date +%s) - start )) s (124: stopped by the time limit, as planned)"
  cp runs/gpu-check/therm16.jsonl runs/gpu-check/therm16.log "$out/" 2>/dev/null
  note "therm16: $(grep -c '"accepted"' runs/gpu-check/therm16.jsonl) trajectories"
  if [ "${SAVE16:-1}" = 1 ]; then  # at most 8 files come back: SAVE16=0 when the pieces are not needed
    "$bin" convert runs/gpu-check/therm16.checkpoint.ildg runs/gpu-check/therm16.32bit.ildg --precision 32 --force \
      2>>"$summary" | tee -a "$summary"
    split -b 15M runs/gpu-check/therm16.32bit.ildg "$out/therm16.ildg.part-"
  fi
fi
