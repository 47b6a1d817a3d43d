if has mgscan; then  # issue 27's mass scan: MGSCAN_L (32), MGSCAN_KAPPAS, MGSCAN_SETTINGS (multigrid KEY=VALUE ...)
  start=$(date +%s)
  bash scripts/multigrid-scan.sh "$out" "$bin" "${MGSCAN_L:-32}" "${MGSCAN_KAPPAS:-0.1300 0.1340 0.1350}" \
    ${MGSCAN_SETTINGS:-}
  note "mgscan: exit $? in $(( $(date +%s) - start )) s"
fi
