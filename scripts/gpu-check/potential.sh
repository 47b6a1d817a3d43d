if has potential; then  # issue 29: the static potential and r0/a on the quenched beta 6.0, 16^4 ensemble
  start=$(date +%s)
  bash scripts/static-potential.sh "$out" "$bin" 6.0 16 "${POT_N:-50}"
  for action in ${POT_FLOWS:-}; do  # the same ensemble's t0 and w0 with other flows (wilson, symanzik, zeuthen)
    FLOW_ACTION=$action bash scripts/flow-t0.sh "$out" "$bin" 6.0 16 "${POT_N:-50}"
  done
  note "potential: $(( $(date +%s) - start )) s"
fi
