#!/usr/bin/env bash
# Issue 29: the static potential and r0/a of quenched Wilson SU(3) on lqcd's own ensemble
# (scripts/quenched-ensemble.sh, the same configurations as flow-t0.sh): the planar Wilson loops up to
# R, T = 8 on spatially APE-smeared links (APE_STEPS of alpha 0.5) by `lqcd measure --json --loops`, then
# V(R) at T = 3, 4, 5 and the Cornell fit for r0 (scripts/static_potential.py, jackknife over bins of
# BINSIZE).
# With OFF_AXIS_RMAX = R (default 6; 0: none) also the off-axis loops W(r, T), |r| <= R, T <= R
# (`--off-axis`), fitted with the on-axis ones over RMIN <= |r| <= RMAX.
#   [APE_STEPS=20] [BINSIZE=5] [RMIN=2] [RMAX=6] [OFF_AXIS_RMAX=6] [DEVICE=gpu] scripts/static-potential.sh OUT BIN BETA L N
set -uo pipefail
out=${1:?OUT}; bin=${2:?BIN}; beta=${3:?BETA}; L=${4:?L}; n=${5:?N}
dir=runs/flow_b${beta}_$L
log="$out/potential.log"
bash "$(dirname "$0")/quenched-ensemble.sh" "$dir" "$bin" "$beta" "$L" "$n" "$log" | tee -a "$out/summary.txt"
start=$(date +%s)
loops="$out/loops_b${beta}_$L.jsonl"
"$bin" measure "$dir"/q.*.ildg --json --loops 8,8 --ape-steps "${APE_STEPS:-20}" --ape-alpha 0.5 \
  --device "${DEVICE:-gpu}" >"$loops" 2>>"$log"
echo "Wilson loops of $(wc -l <"$loops") configurations: exit $? in $(( $(date +%s) - start )) s" | tee -a "$out/summary.txt"
for t in 3 4 5; do
  python3 scripts/static_potential.py "$loops" --t $t --rmin "${RMIN:-2}" --rmax "${RMAX:-6}" --bin "${BINSIZE:-5}" \
    >>"$log" 2>&1
  echo "static potential beta $beta $L^4, T = $t: $(grep 'r0/a' "$log" | tail -1 | sed 's/^ *//')" | tee -a "$out/summary.txt"
done
off=${OFF_AXIS_RMAX:-6}
if [ "$off" -gt 0 ]; then
  start=$(date +%s)
  offaxis="$out/loops_offaxis_b${beta}_$L.jsonl"
  "$bin" measure "$dir"/q.*.ildg --json --loops "$off,$off" --off-axis --ape-steps "${APE_STEPS:-20}" --ape-alpha 0.5 \
    --device "${DEVICE:-gpu}" >"$offaxis" 2>>"$log"
  echo "off-axis Wilson loops (|r| <= $off) of $(wc -l <"$offaxis") configurations: exit $? in $(( $(date +%s) - start )) s" |
    tee -a "$out/summary.txt"
  for t in 3 4; do
    python3 scripts/static_potential.py "$offaxis" --off-axis --t $t --rmin "${RMIN:-2}" --rmax "$off" \
      --bin "${BINSIZE:-5}" >>"$log" 2>&1
    echo "static potential on- and off-axis beta $beta $L^4, T = $t: $(grep 'Cornell' "$log" | tail -1 | sed 's/^ *//'); $(grep 'r0/a' "$log" | tail -1 | sed 's/^ *//')" |
      tee -a "$out/summary.txt"
  done
fi
