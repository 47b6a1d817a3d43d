#!/usr/bin/env bash
# Issue 47: the OpenMP default on a CPU that is shared. Times the heatbath, a BiCGStab and a multigrid
# clover solve and an HMC trajectory with each OpenMP wait setting, on an idle machine and with LOAD busy
# processes beside it (default 2), and prints one table row per case:
#   setting  load  benchmark  seconds
# Settings: "libgomp" = GOMP_SPINCOUNT=300000 (libgomp's own default when nothing is set: lqcd's before
# issue 47), "lqcd" = nothing set (the program's default, src/app/openmp_defaults.cpp), "passive" =
# OMP_WAIT_POLICY=passive, "active" = OMP_WAIT_POLICY=active.
#   scripts/cpu-sharing.sh LQCD OUTDIR [SETTINGS...]     (default settings: libgomp lqcd passive)
set -uo pipefail
lqcd=$(realpath "${1:?usage: cpu-sharing.sh LQCD OUTDIR [SETTINGS...]}")
out=$(realpath -m "${2:?usage: cpu-sharing.sh LQCD OUTDIR [SETTINGS...]}")
shift 2
settings=${*:-libgomp lqcd passive}
load=${LOAD:-2}
testdata=${LQCD_TESTDATA:-$(dirname "$0")/../../shared/testdata}
config=$(realpath "$testdata/milc_l8888_b6.0.milc")
mkdir -p "$out"
cd "$out"

cat >hmc.toml <<TOML
[lattice]
dims = [8, 8, 8, 8]
[gauge]
beta = 5.6
[integrator]
type = "omelyan2"
tau = 1.0
steps = [6, 3]
[hmc]
seed = 47
start = "hot"
thermalization = 2
trajectories = 0
[solver]
tolerance = 1e-10
[output]
prefix = "hmc/run"
save_every = 0
[[monomial]]
type = "gauge"
level = 1
[[monomial]]
type = "wilson"
kappa = 0.15
level = 0
TOML

# run_case NAME KEYS COMMAND...: the command (at most 600 s) with --json where KEYS names fields of its JSON
# object (comma-separated; printed as key=value), else its wall time in seconds.
run_case() {
  local name=$1 keys=$2
  shift 2
  local t0 t1 rc=0
  rm -rf hmc
  t0=$(date +%s.%N)
  timeout 600 "$@" >"$name.out" 2>"$name.err" || rc=$?
  t1=$(date +%s.%N)
  [ "$rc" -eq 0 ] || { echo "FAILED($rc) after $(echo "$t1 - $t0" | bc) s"; return; }
  if [ "$keys" = "-" ]; then
    printf 'wall=%.3f\n' "$(echo "$t1 - $t0" | bc)"
  else
    python3 -c "import json,sys; j=json.loads(open('$name.out').read()); print(' '.join('%s=%.4g' % (k, j[k]) for k in '$keys'.split(',')))"
  fi
}

env_of() {
  case $1 in
    libgomp) echo "GOMP_SPINCOUNT=300000" ;;
    lqcd) echo "" ;;
    passive) echo "OMP_WAIT_POLICY=passive" ;;
    active) echo "OMP_WAIT_POLICY=active" ;;
    spin*) echo "GOMP_SPINCOUNT=${1#spin}" ;;
  esac
}

printf '%-8s %-5s %-22s %s\n' setting load benchmark seconds
for l in 0 "$load"; do
  pids=()
  for ((i = 0; i < l; ++i)); do (while :; do :; done) & pids+=($!); done
  for s in $settings; do
    e=$(env_of "$s")
    runit=(env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT -u OMP_NUM_THREADS $e)
    printf '%-8s %-5s %-22s %s\n' "$s" "$l" "heatbath 8^4 x 20" \
      "$(run_case hb_${s}_$l heatbath_sweep_s,overrelaxation_sweep_s "${runit[@]}" "$lqcd" bench heatbath --dims 8,8,8,8 --device cpu --repetitions 20 --json)"
    printf '%-8s %-5s %-22s %s\n' "$s" "$l" "bicgstab 8^4 clover" \
      "$(run_case bicg_${s}_$l seconds_per_solve,iterations "${runit[@]}" "$lqcd" bench solver --dims 8,8,8,8 --device cpu --config "$config" --action clover \
          --csw 1.769 --kappa 0.1330 --system matpc --solver bicgstab --tolerance 1e-10 --repetitions 3 --json)"
    printf '%-8s %-5s %-22s %s\n' "$s" "$l" "multigrid 8^4 clover" \
      "$(run_case mg_${s}_$l seconds_per_solve,seconds_setup,iterations "${runit[@]}" "$lqcd" bench solver --dims 8,8,8,8 --device cpu --config "$config" --action clover \
          --csw 1.769 --kappa 0.1330 --solver multigrid --precision single --tolerance 1e-10 --repetitions 3 \
          --multigrid block=[4,4,4,4] --multigrid test_vectors=12 --json)"
    printf '%-8s %-5s %-22s %s\n' "$s" "$l" "hmc 8^4 2 traj" \
      "$(run_case hmc_${s}_$l - "${runit[@]}" "$lqcd" hmc hmc.toml --device cpu --quiet)"
  done
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
done
