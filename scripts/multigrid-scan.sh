#!/usr/bin/env bash
# The multigrid mass scan of issue 27 on the GPU machine (called by scripts/gpu-check.sh, stage mgscan):
# thermalises a quenched beta = 6.0 configuration with lqcd itself, then for each kappa times lqcd's
# mixed-precision Krylov solvers (CG on the even-odd normal equations, BiCGStab on the even-odd system)
# and the multigrid (setup apart, then per solve), all against the same configuration. One JSON line
# per benchmark in OUT/mgscan.jsonl.
#   scripts/multigrid-scan.sh OUT BIN L "KAPPAS" [MULTIGRID_SETTINGS...]
# MG_BENCH_ARGS: more options of lqcd bench solver for the multigrid (e.g. --max-iterations 300).
# MG_DEVICE=cpu: everything on the CPU backend (default gpu). MG_KRYLOV: the Krylov solvers timed, as
# "SOLVER SYSTEM;..." (default "cg normal;bicgstab matpc"), each within MG_KRYLOV_TIMEOUT seconds (300).
# MG_SKIP_KRYLOV=1: the multigrid only. MG_PRECISION=double: the multigrid's cycle in double (default single). MG_TIMEOUT: seconds per multigrid benchmark (400). MG_RHS=N: the multigrid also on N sources solved together
# (lqcd bench solver --rhs N; issue 46). MG_VARIANTS="SETTINGS;SETTINGS;...": several multigrid settings
# (each a space-separated list of KEY=VALUE) at every kappa, instead of MULTIGRID_SETTINGS.
set -uo pipefail
out=${1:?OUT}; bin=${2:?BIN}; L=${3:?L}; kappas=${4:?KAPPAS}
shift 4
mg_settings=("$@")
dims=$L,$L,$L,$L
cfgdir=runs/mgscan_$L
cfg=$(ls "$cfgdir"/wilson.*.ildg 2>/dev/null | tail -1)
if [ -z "$cfg" ]; then
  mkdir -p "$cfgdir"
  cat >"$cfgdir/hb.toml" <<TOML
[lattice]
dims = [$L, $L, $L, $L]
[gauge]
beta = 6.0
action = "wilson"
[heatbath]
start = "hot"
seed = 2026112$L
thermalization = ${MG_SWEEPS:-300}
sweeps = 10
overrelaxation = 4
measure_every = 50
[output]
prefix = "$cfgdir/wilson"
format = "ildg"
precision = 64
save_every = 10
TOML
  start=$(date +%s)
  "$bin" heatbath "$cfgdir/hb.toml" --device "${MG_DEVICE:-gpu}" --quiet >>"$out/mgscan.log" 2>&1
  echo "heatbath $L^4: exit $? in $(( $(date +%s) - start )) s; $(tail -1 "$cfgdir/wilson.log")" | tee -a "$out/summary.txt"
  cfg=$(ls "$cfgdir"/wilson.*.ildg | tail -1)
fi
common=(--dims "$dims" --device "${MG_DEVICE:-gpu}" --config "$cfg" --repetitions "${MG_REPS:-3}" --tolerance 1e-10 --json)
action=(--action clover --csw 1.769)
# MG_ACTION=twisted_mass: Wilson twisted mass at kappa = MG_KAPPA (maximal twist: the critical kappa,
# 0.1571 for the quenched beta = 6.0 Wilson action); the list then holds the values of mu (mass form).
if [ "${MG_ACTION:-clover}" = twisted_mass ]; then action=(--action twisted_mass); fi
for k in $kappas; do
  if [ "${MG_ACTION:-clover}" = twisted_mass ]; then
    mass=(--kappa "${MG_KAPPA:-0.1571}" --mu "$k")
  else
    mass=(--kappa "$k")
  fi
  IFS=';' read -r -a krylovs <<<"${MG_KRYLOV:-cg normal;bicgstab matpc}"
  for krylov in "${krylovs[@]}"; do
    [ -n "${MG_SKIP_KRYLOV:-}" ] && continue
    set -- $krylov
    timeout "${MG_KRYLOV_TIMEOUT:-300}" "$bin" bench solver "${common[@]}" "${action[@]}" "${mass[@]}" --precision single --solver "$1" \
      --system "$2" --inner-tolerance 1e-5 >>"$out/mgscan.jsonl" 2>>"$out/mgscan.log" ||
      echo "{\"kappa\": $k, \"action\": \"${MG_ACTION:-clover}\", \"solver\": \"$1\", \"failed\": true}" >>"$out/mgscan.jsonl"
  done
  IFS=';' read -r -a variants <<<"${MG_VARIANTS:-${mg_settings[*]:-}}"
  [ ${#variants[@]} -eq 0 ] && variants=("")
  for v in "${variants[@]}"; do
    mgargs=()
    for s in $v; do mgargs+=(--multigrid "$s"); done
    t0=$(date +%s)
    timeout -k 5 "${MG_TIMEOUT:-400}" "$bin" bench solver "${common[@]}" "${action[@]}" "${mass[@]}" --precision "${MG_PRECISION:-single}" --solver multigrid \
      --rhs "${MG_RHS:-1}" ${MG_BENCH_ARGS:-} "${mgargs[@]}" >>"$out/mgscan.jsonl" 2>>"$out/mgscan.log" ||
      echo "{\"kappa\": $k, \"solver\": \"multigrid\", \"settings\": \"$v\", \"failed\": true}" >>"$out/mgscan.jsonl"
    echo "multigrid $k [$v]: $(( $(date +%s) - t0 )) s wall" >>"$out/summary.txt"
  done
  echo "kappa $k done" | tee -a "$out/summary.txt"
done
