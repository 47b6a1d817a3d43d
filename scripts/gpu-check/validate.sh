if has validate; then
  start=$(date +%s)
  rm -rf runs/b6.0_16x16x16x16
  "$bin" heatbath examples/quenched_wilson_b6.0_16x16x16x16.toml --device gpu --quiet
  note "validation: exit $? in $(( $(date +%s) - start )) s"
  cp runs/b6.0_16x16x16x16/wilson.log "$out/validation.log"
  cp runs/b6.0_16x16x16x16/wilson.jsonl "$out/validation.jsonl"
  tail -2 "$out/validation.log" | tee -a "$summary"
  # The saved configurations read back with verified checksums and header plaquettes.
  "$bin" measure --json runs/b6.0_16x16x16x16/wilson.*.ildg >>"$out/validation.measure.jsonl" 2>>"$summary"
  note "measure of saved configurations: exit $?"
fi
