#!/usr/bin/env bash
# lqcd spectrum with the multigrid solver on a decomposed lattice (issue 27: "a two-process run gives the
# same iterations as one process"): the clover propagator on the quenched beta = 6.0 MILC 8^4
# configuration on one process and on 2 ranks (grids 1x1x1x2 and 2x1x1x1, oversubscribed), the coarse level
# whole on each rank and then split over them (coarse_distributed, with two and three levels): every solve
# takes the same outer iterations, the coarse lattice is the same, and the correlators agree to 1e-9
# relative (each solve meets 1e-10; the ranks add their sums in another grouping).
# Usage: multigrid_on_ranks.sh LQCD MPIEXEC TESTDATA
set -euo pipefail
lqcd=$1
mpiexec=$2
config=$3/milc_l8888_b6.0.milc
source "$(dirname "${BASH_SOURCE[0]}")/json_compare.sh"  # tokens, same
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

cat >in.toml <<EOT
[gauge]
config = "$config"
[fermion]
action = "clover"
kappa = 0.1330
csw = 1.769
[solver]
type = "multigrid"
precision = "single"
tolerance = 1e-10
[multigrid]
block = [2, 2, 2, 2]
test_vectors = 8
setup_iterations = 10
adaptive_cycles = 1
[source]
type = "point"
position = [1, 2, 3, 5]
[output]
prefix = "PREFIX"
EOT

# The setup's coarse lattice and every solve's iterations, from the run's JSON-lines record.
summary() {
  echo "$(grep -o '"coarse":\[[0-9,]*\]' "$1" | head -1) iterations" \
    $(grep '"record":"solve"' "$1" | grep -o '"iterations":[0-9]*' | cut -d: -f2)
}
# The physics of a spectrum line: the correlators (not the timing or the output names).
physics() { grep -o '"correlators":{[^}]*}' "$1" >"$1.cmp"; }

# One process against 2 ranks (grids 1x1x1x2 and 2x1x1x1, or those given after the tag) with the settings of
# in.toml; $1 names the case.
compare_ranks() {
  local tag=$1
  local grids=${2:-1,1,1,2 2,1,1,1}
  sed "s|PREFIX|${tag}np1/s|" in.toml >"${tag}np1.toml"
  "$lqcd" spectrum "${tag}np1.toml" --json --device cpu | grep '^{' >"${tag}np1.json"
  physics "${tag}np1.json"
  ref=$(summary "${tag}np1/s.jsonl")
  case "$ref" in '"coarse":[4,4,4,4] iterations '[0-9]*) ;; *) echo "FAIL: $tag unexpected single-process run: $ref"; exit 1 ;; esac
  for grid in $grids; do
    name=${tag}np2_${grid//,/}
    sed "s|PREFIX|$name/s|" in.toml >"$name.toml"
    "$mpiexec" -np 2 --oversubscribe "$lqcd" spectrum "$name.toml" --json --device cpu --grid "$grid" | grep '^{' >"$name.json"
    got=$(summary "$name/s.jsonl")
    [ "$got" = "$ref" ] || { echo "FAIL: $name: coarse lattice and iterations $got, one process $ref"; exit 1; }
    physics "$name.json"
    [ -s "$name.json.cmp" ] && same "${tag}np1.json.cmp" "$name.json.cmp" 1e-9 || { echo "FAIL: $name: correlators differ"; exit 1; }
    echo "$name: $got; correlators within 1e-9 of one process"
  done
}
compare_ranks ""
echo "PASS: lqcd spectrum with the multigrid on 2 ranks takes the single-process iterations ($ref)"
# The coarse level split over the ranks as the fine one (multigrid.coarse_distributed, issue 50).
sed -i 's/^adaptive_cycles = 1$/adaptive_cycles = 1\ncoarse_distributed = true/' in.toml
grep -q '^coarse_distributed = true$' in.toml || { echo "FAIL: coarse_distributed not set"; exit 1; }
compare_ranks split_
grep -q '"coarse_distributed":true' split_np2_1112/s.jsonl || { echo "FAIL: the split run does not record coarse_distributed"; exit 1; }
echo "PASS: the same with the coarse level split over the ranks ($ref)"
# With a third level below the split one, gathered whole onto every rank (ThirdLevel).
sed -i 's/^coarse_distributed = true$/coarse_distributed = true\nlevels = 3\ncoarse_test_vectors = 4\ncoarse_setup_iterations = 5/' in.toml
grep -q '^levels = 3$' in.toml || { echo "FAIL: levels = 3 not set"; exit 1; }
compare_ranks split3_ 1,1,1,2  # (the GTest cases take 2 and 4 ranks on other grids)
grep -q '"levels":3' split3_np2_1112/s.jsonl || { echo "FAIL: the split run does not record three levels"; exit 1; }
echo "PASS: the same with a third level below the split one ($ref)"
# lqcd bench solver with the split levels on 2 ranks (its coarse-operator timings skip the block applications
# a split level does not have) reports them.
json=$("$mpiexec" -np 2 --oversubscribe "$lqcd" bench solver --dims 8,8,8,8 --grid 1,1,1,2 --device cpu --config "$config" \
  --action clover --csw 1.769 --kappa 0.1330 --precision single --tolerance 1e-10 --repetitions 1 --json --solver multigrid \
  --multigrid 'block=[2,2,2,2]' --multigrid test_vectors=8 --multigrid setup_iterations=10 --multigrid adaptive_cycles=1 \
  --multigrid coarse_distributed=true --multigrid levels=2 | grep '^{') || { echo "FAIL: lqcd bench solver with the split level"; exit 1; }
grep -q '"coarse_distributed":true' <<<"$json" && grep -q '"coarse_even_odd":true' <<<"$json" ||
  { echo "FAIL: lqcd bench solver does not report the split even-odd level: $json"; exit 1; }
echo "PASS: lqcd bench solver on 2 ranks with the split even-odd coarse level"
