if has hmc; then
  # Nf = 2 Wilson HMC timing on 16^4 and 32^4, started from a quenched beta = 5.6 heatbath configuration
  # (200 sweeps): time per trajectory and the share of the fermion solvers.
  : >"$out/hmc.jsonl"
  mkdir -p runs/gpu-check
  for L in 16 32; do
    cat >runs/gpu-check/q$L.toml <<EOT
[lattice]
dims = [$L, $L, $L, $L]
[gauge]
beta = 5.6
[heatbath]
thermalization = 200
sweeps = 0
measure_every = 50
[output]
prefix = "runs/gpu-check/q$L"
checkpoint_every = 200
EOT
    "$bin" heatbath runs/gpu-check/q$L.toml --device gpu --quiet 2>>"$summary"
    cat >runs/gpu-check/hmc$L.toml <<EOT
[lattice]
dims = [$L, $L, $L, $L]
[gauge]
beta = 5.6
[integrator]
type = "omelyan2"
tau = 1.0
steps = [8, 4]
[hmc]
start = "runs/gpu-check/q$L.checkpoint.ildg"
thermalization = 1
trajectories = 2
[output]
prefix = "runs/gpu-check/hmc$L"
[[monomial]]
type = "gauge"
level = 1
[[monomial]]
type = "wilson"
kappa = 0.156
level = 0
EOT
    start=$(date +%s)
    "$bin" hmc runs/gpu-check/hmc$L.toml --device gpu --quiet 2>>"$summary"
    note "hmc $L^4: exit $? in $(( $(date +%s) - start )) s"
    cat runs/gpu-check/hmc$L.jsonl >>"$out/hmc.jsonl"
    tail -4 runs/gpu-check/hmc$L.log | tee -a "$summary"
  done
  # A whole Nf = 2 ensemble: the Wilson example (8^3 x 16, 20 + 200 trajectories), for acceptance,
  # <exp(-dH)> and the plaquette with errors.
  sed -e 's|^prefix = .*|prefix = "runs/gpu-check/ensemble"|' examples/hmc_nf2_wilson_b5.6_k0.156_8x8x8x16.toml \
    >runs/gpu-check/ensemble.toml
  start=$(date +%s)
  "$bin" hmc runs/gpu-check/ensemble.toml --device gpu --quiet 2>>"$summary"
  note "hmc ensemble 8^3x16: exit $? in $(( $(date +%s) - start )) s"
  cp runs/gpu-check/ensemble.jsonl "$out/ensemble.jsonl"
  tail -4 runs/gpu-check/ensemble.log | tee -a "$summary"
fi
# Issue 5's reference ensemble: Nf = 2 clover with Hasenbusch (beta 5.29, c_sw 1.9192, kappa 0.13620).
# A quenched start is no start for this kappa (docs/performance.md), and a 32^4 thermalisation does not fit one
# call, so: therm16 thermalises 16^4 for THERM_SECONDS (default 420; stopped cleanly by the time limit) from a
# hot start, or from .gpu-state/therm16.ildg when that is carried in (the previous call's result), and leaves
# its last configuration as 32-bit ILDG in OUT/therm16.ildg.part-* (pieces under the 16 MiB transfer limit;
# `cat` them into .gpu-state/therm16.ildg for the next call). clover32 tiles the last 16^4 configuration 2x2x2x2
# to 32^4 (the same local structure) and times CLOVER32_TRAJ (default 3) Metropolis trajectories after
# CLOVER32_THERM (default 1) accepted ones. Steps: STEPS16 (default [6, 2, 4]), STEPS32 ([10, 2, 4]); the solves'
# precision and force tolerance those of the example unless CLOVER_PRECISION / CLOVER_FORCE_TOLERANCE are set.
