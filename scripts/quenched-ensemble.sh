#!/usr/bin/env bash
# Issue 29: a quenched Wilson SU(3) ensemble by lqcd's heatbath, shared by the scale-setting scripts
# (flow-t0.sh, static-potential.sh): N configurations of L^4 at BETA in DIR/q.*.ildg after THERM
# thermalization sweeps, SEP sweeps apart (each sweep one heatbath + 4 overrelaxation steps). Kept when DIR
# already holds N configurations of the same input (DIR/heatbath.toml unchanged).
#   [LT=L] [THERM=200] [SEP=20] [DEVICE=gpu] scripts/quenched-ensemble.sh DIR BIN BETA L N LOG
set -uo pipefail
dir=${1:?DIR}; bin=${2:?BIN}; beta=${3:?BETA}; L=${4:?L}; n=${5:?N}; log=${6:?LOG}
therm=${THERM:-200}; sep=${SEP:-20}
toml=$(cat <<TOML
[lattice]
dims = [$L, $L, $L, ${LT:-$L}]
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
)
if [ -f "$dir/heatbath.toml" ] && [ "$(cat "$dir/heatbath.toml")" == "$toml" ] &&
  [ "$(ls "$dir"/q.*.ildg 2>/dev/null | wc -l)" -ge "$n" ]; then
  echo "ensemble $dir: kept ($n configurations)"
  exit 0
fi
rm -rf "$dir" && mkdir -p "$dir"
echo "$toml" >"$dir/heatbath.toml"
start=$(date +%s)
"$bin" heatbath "$dir/heatbath.toml" --device "${DEVICE:-gpu}" --quiet >>"$log" 2>&1
rc=$?
echo "heatbath beta $beta $L^3 x ${LT:-$L}, $n configurations: exit $rc in $(( $(date +%s) - start )) s"
exit $rc
