#!/usr/bin/env bash
# Issue 29: t0/a^2 and w0/a of quenched Wilson SU(3) on lqcd's own ensemble (scripts/quenched-ensemble.sh:
# N configurations of L^4 at BETA), each flowed with `lqcd flow --json --action FLOW_ACTION` (wilson by
# default; eps 0.01, to FLOW_TMAX = 4.5);
# prints t0/a^2 and w0/a of the ensemble average with jackknife errors over bins of BINSIZE
# configurations (scripts/flow_scales.py).
# FLOW_IMPROVED=1: also the O(a^2)-improved charge (--improved-charge), compared with the clover one.
#   [THERM=200] [SEP=20] [BINSIZE=5] [DEVICE=gpu] [FLOW_TMAX=4.5] [FLOW_ACTION=wilson] [FLOW_IMPROVED=0] scripts/flow-t0.sh OUT BIN BETA L N
set -uo pipefail
out=${1:?OUT}; bin=${2:?BIN}; beta=${3:?BETA}; L=${4:?L}; n=${5:?N}
binsize=${BINSIZE:-5}
dir=runs/flow_b${beta}_$L
bash "$(dirname "$0")/quenched-ensemble.sh" "$dir" "$bin" "$beta" "$L" "$n" "$out/flow.log" | tee -a "$out/summary.txt"
start=$(date +%s)
action=${FLOW_ACTION:-wilson}
jsonl="$out/flow_${action}_b${beta}_$L.jsonl"
improved=()
[ "${FLOW_IMPROVED:-0}" = 1 ] && improved=(--improved-charge)
"$bin" flow "$dir"/q.*.ildg --json --action "$action" --t-max "${FLOW_TMAX:-4.5}" --device "${DEVICE:-gpu}" \
  "${improved[@]}" >"$jsonl" 2>>"$out/flow.log"
rc=$?
echo "$action flow of $(ls "$dir"/q.*.ildg | wc -l) configurations: exit $rc in $(( $(date +%s) - start )) s" | tee -a "$out/summary.txt"
echo "$action flow beta $beta $L^4: $(python3 scripts/flow_scales.py "$jsonl" --bin "$binsize")" |
  tee -a "$out/summary.txt"
