#!/usr/bin/env bash
# Issue 29: t0/a^2 and w0/a of quenched Wilson SU(3) on lqcd's own ensemble. Generates N configurations
# by the heatbath (BETA, L^4, THERM thermalization sweeps, SEP sweeps between saved configurations, each
# sweep one heatbath + 4 overrelaxation steps), flows each with `lqcd flow --json` (eps 0.01) and prints
# the averages with the standard error of bins of BIN configurations.
#   scripts/flow-t0.sh OUT BIN BETA L N [THERM=200] [SEP=20] [BIN=5] [DEVICE=gpu]
set -uo pipefail
out=${1:?OUT}; bin=${2:?BIN}; beta=${3:?BETA}; L=${4:?L}; n=${5:?N}
therm=${THERM:-200}; sep=${SEP:-20}; binsize=${BINSIZE:-5}
dir=runs/flow_b${beta}_$L
rm -rf "$dir" && mkdir -p "$dir"
cat >"$dir/heatbath.toml" <<TOML
[lattice]
dims = [$L, $L, $L, $L]
[gauge]
beta = $beta
action = "wilson"
[heatbath]
start = "hot"
seed = 2010
thermalization = $therm
sweeps = $((n * sep))
overrelaxation = 4
measure_every = $sep
[output]
prefix = "$dir/q"
save_every = $sep
TOML
start=$(date +%s)
"$bin" heatbath "$dir/heatbath.toml" --device "${DEVICE:-gpu}" --quiet >>"$out/flow.log" 2>&1
echo "heatbath beta $beta $L^4: exit $? in $(( $(date +%s) - start )) s" | tee -a "$out/summary.txt"
start=$(date +%s)
"$bin" flow "$dir"/q.*.ildg --json --device "${DEVICE:-gpu}" >"$out/flow_b${beta}_$L.jsonl" 2>>"$out/flow.log"
echo "flow of $(ls "$dir"/q.*.ildg | wc -l) configurations: exit $? in $(( $(date +%s) - start )) s" | tee -a "$out/summary.txt"
# t0 and w0 per configuration, then the mean and the error of bins of $binsize.
sed -E 's/.*"t0":([^,]*).*"w0":([^,]*).*/\1 \2/' "$out/flow_b${beta}_$L.jsonl" |
  awk -v b="$binsize" -v beta="$beta" -v L="$L" '
    { t[NR] = $1; w[NR] = $2 }
    END {
      nb = int(NR / b); st = sw = 0
      for (i = 1; i <= nb * b; ++i) { st += t[i]; sw += w[i] }
      mt = st / (nb * b); mw = sw / (nb * b); vt = vw = 0
      for (k = 0; k < nb; ++k) {
        bt = bw = 0
        for (i = k * b + 1; i <= (k + 1) * b; ++i) { bt += t[i]; bw += w[i] }
        bt /= b; bw /= b; vt += (bt - mt) ^ 2; vw += (bw - mw) ^ 2
      }
      printf "flow beta %s %s^4: %d configurations, t0/a^2 = %.4f +- %.4f, w0/a = %.4f +- %.4f (bins of %d)\n",
             beta, L, nb * b, mt, sqrt(vt / (nb * (nb - 1))), mw, sqrt(vw / (nb * (nb - 1))), b
    }' | tee -a "$out/summary.txt"
