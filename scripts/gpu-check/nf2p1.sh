if has nf2p1; then  # issue 28: the Nf = 2 + 1 example (RHMC strange quark) for NF2P1_TRAJ (50) trajectories after
  # NF2P1_THERM (30) of thermalization, the light pair's CG in half precision; log and JSON straight into OUTDIR
  sed -e "s|^prefix = .*|prefix = \"$out/nf2p1\"|" -e "s|^checkpoint_every = .*|checkpoint_every = 0|" \
    -e "s|^trajectories = .*|trajectories = ${NF2P1_TRAJ:-50}|" -e "s|^thermalization = .*|thermalization = ${NF2P1_THERM:-30}|" \
    -e 's|^precision = "single".*|precision = "half"|' \
    examples/hmc_nf2p1_clover_b5.29_8x8x8x16.toml >runs/nf2p1.toml
  start=$(date +%s)
  timeout "${NF2P1_TIMEOUT:-330}" "$bin" hmc runs/nf2p1.toml --device gpu --quiet >>"$summary" 2>&1
  note "nf2p1: exit $? in $(( $(date +%s) - start )) s; $(grep -E '^# (acceptance|plaquette)' "$out/nf2p1.log" | tr '\n' ' ')"
fi
# The multi-GPU stages (issue 6): one MPI rank per GPU, one JSON line per run in scaling.jsonl.
