#!/usr/bin/env bash
# Issue 28: the multigrid in the reference run's light force solves, setting by setting. For each
# setting (multigrid KEY=VALUE pairs separated by spaces; settings separated by ';'), first
# `lqcd bench solver --solver multigrid` on START at the ratio's light quark (kappa REF_KAPPA, c_sw 1.9192)
# to the force tolerance 1e-6 and to 1e-10 (setup seconds, outer iterations, solve seconds), then the
# reference run's "mg" variant (scripts/hmc-reference.sh: half precision, forecast 6, force solves to
# 1e-6, steps [8, 2, 2], levels 1,0,2) for TRAJECTORIES trajectories with those [multigrid] keys.
#   scripts/hmc-multigrid-scan.sh OUT BIN START TRAJECTORIES "SETTING;SETTING;..."
# MG_BENCH_TOLERANCES (default "1e-6 1e-10"; empty: no bench) the bench's tolerances. REF_KAPPA (default
# 0.13620): the light quark, in the bench and in the trajectories (scripts/hmc-reference.sh). TRAJECTORIES 0:
# the bench only. MG_PRECISION=double: the bench's cycle in double (default single).
set -uo pipefail
out=${1:?OUT}; bin=${2:?BIN}; start=${3:?START}; n=${4:?TRAJECTORIES}; settings=${5:?SETTINGS}
IFS=';' read -r -a list <<<"$settings"
i=0
for s in "${list[@]}"; do
  i=$((i + 1))
  read -r -a pairs <<<"$s"
  args=()
  toml=""
  for kv in "${pairs[@]}"; do
    [ "${kv%%=*}" = refresh_iterations ] || args+=(--multigrid "$kv")  # lqcd hmc's key only
    toml+="${kv%%=*} = ${kv#*=}"$'\n'
  done
  for tol in ${MG_BENCH_TOLERANCES-1e-6 1e-10}; do
    "$bin" bench solver --dims 32,32,32,32 --device gpu --config "$start" --action clover --csw 1.9192 \
      --kappa "${REF_KAPPA:-0.13620}" --precision "${MG_PRECISION:-single}" --tolerance $tol --repetitions 1 --json --solver multigrid "${args[@]}" \
      2>>"$out/mgscan.log" | sed "s/^{/{\"setting\":\"$s\",/" >>"$out/mgscan.jsonl"
    echo "mg setting $i ($s) to $tol: exit $?" | tee -a "$out/summary.txt"
  done
  [ "$n" -gt 0 ] || continue
  REF_MULTIGRID="$toml" bash scripts/hmc-reference.sh "$out" "$bin" 32 "$start" "$n" \
    "mg$i:half:6:1e-6:8,2,2:1,0,2:0.1::mg"
done
