#!/usr/bin/env bash
# Diagnosis of the block multigrid on the GPU (issue 46, session 29): unit tests, then traced benches.
out=$1
bash scripts/gpu-check.sh $out build
(cd build-gpu && ctest --output-on-failure -R "CoarseBlock|MultigridBlock" --timeout 300) > $out/ctest-block.log 2>&1
echo "ctest block: $(grep -E 'tests passed|tests failed' $out/ctest-block.log)" | tee -a $out/summary.txt
mkdir -p runs/mgscan_32
cat > runs/mgscan_32/hb.toml <<TOML
[lattice]
dims = [32, 32, 32, 32]
[gauge]
beta = 6.0
action = "wilson"
[heatbath]
start = "hot"
seed = 202611232
thermalization = 300
sweeps = 10
overrelaxation = 4
measure_every = 50
[output]
prefix = "runs/mgscan_32/wilson"
format = "ildg"
precision = 64
save_every = 10
TOML
build-gpu/lqcd heatbath runs/mgscan_32/hb.toml --device gpu --quiet > /dev/null 2>&1
cfg=$(ls runs/mgscan_32/wilson.*.ildg | tail -1)
run() {  # name seconds args...
  local name=$1 t=$2; shift 2
  LQCD_MG_TRACE=1 timeout -k 5 $t build-gpu/lqcd bench solver --dims 32,32,32,32 --device gpu --config $cfg --repetitions 1 \
    --tolerance 1e-10 --json --action clover --csw 1.769 --kappa 0.1352 --precision single --solver multigrid "$@" \
    > $out/$name.json 2> $out/$name.err
  echo "$name rc $?: $(for j in $(seq 0 11); do grep "mg rhs $j " $out/$name.err | tail -1 | awk '{printf "%s:%s/%s ", $3, $5, $7}'; done)" | tee -a $out/summary.txt
}
run rhs4_half 80 --rhs 4 --multigrid coarse_half=true --multigrid outer_restart=8
run rhs12_nohalf 100 --rhs 12 --multigrid outer_restart=8
LQCD_MG_NO_BLOCK=1 run rhs4_noblock 70 --rhs 4 --multigrid coarse_half=true --multigrid outer_restart=8
