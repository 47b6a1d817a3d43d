clover_input() {  # prefix dims start thermalization trajectories steps checkpoint_every seed
  # the solves as in the example (half precision, force solves to 1e-6) unless CLOVER_PRECISION or
  # CLOVER_FORCE_TOLERANCE (0: solver.tolerance) say otherwise (issue 28)
  sed -e "s|^prefix = .*|prefix = \"$1\"|" -e "s|^dims = .*|dims = $2|" -e "s|^start = .*|start = \"$3\"|" \
    -e "s|^thermalization = .*|thermalization = $4|" -e "s|^trajectories = .*|trajectories = $5|" \
    -e "s|^steps = .*|steps = $6|" -e "s|^checkpoint_every = .*|checkpoint_every = $7|" -e "s|^seed = .*|seed = $8|" \
    -e "s|^precision = .*|precision = \"${CLOVER_PRECISION:-half}\"|" \
    -e "s|^force_tolerance = .*|force_tolerance = ${CLOVER_FORCE_TOLERANCE:-1e-6}|" \
    examples/hmc_nf2_clover_hasenbusch_b5.29_8x8x8x16.toml
}
