#!/usr/bin/env bash
# lqcd hmc on 1 process and on 2 and 4 MPI ranks (several grid shapes) follows the same Markov chain:
# three trajectories of Wilson gauge + two-flavour clover quarks on 4^4 from a cold start, with the
# Metropolis step on (step size and seed chosen so that the chain accepts, rejects, then accepts from the
# accepted configuration), give
# the same accept/reject decisions and the same dH, acceptance probabilities and plaquettes in their
# JSON lines up to rounding. Random numbers (momenta, pseudofermions, the accept draw) are keyed by
# global site, so only the grouping of global sums differs: plaquettes to 1e-10 relative; dH to 1e-9
# absolute, since dH = H(end) - H(start) is the difference of two sums of ~10^3 terms whose rounding
# does not shrink with dH (1e-9 is ~1e-13 of H). The same with open boundaries in time for the gauge field
# and the quarks on 4^3 x 8, and for Nf = 2 + 1 (Symanzik, Hasenbusch, rational; issue 50) on 4^3 x 8.
# Usage: hmc_on_ranks.sh LQCD MPIEXEC
set -euo pipefail
lqcd=$1
mpiexec=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cat >in.toml <<EOT
[lattice]
dims = [4, 4, 4, 4]
[gauge]
beta = 5.6
[integrator]
type = "omelyan2"
tau = 1.0
steps = [3, 1]
[hmc]
seed = 3
start = "cold"
thermalization = 0
trajectories = 3
[output]
prefix = "PREFIX"
[[monomial]]
type = "gauge"
level = 1
[[monomial]]
type = "clover"
kappa = 0.12
csw = 1.5
level = 0
EOT
# One line per trajectory: accepted dH acceptance_probability plaquette.
summary() {
  grep -o '"\(accepted\|dH\|acceptance_probability\|plaquette\)":[^,}]*' "$1" | tr ':' ' ' |
    awk '{ v[$1] = $2 } $1 == "\"plaquette\"" { print v["\"accepted\""], v["\"dH\""], v["\"acceptance_probability\""], v["\"plaquette\""] }'
}
# chain NAME INPUT NP GRID TRAJECTORIES: lqcd hmc on NP ranks (one process for 1), its summary in NAME.summary.
chain() {
  local name=$1 input=$2 np=$3 grid=$4 n=$5
  sed "s|PREFIX|$name/run|" "$input" >"$name.toml"
  if [ "$np" = 1 ]; then "$lqcd" hmc "$name.toml" --device cpu --quiet
  else "$mpiexec" -np "$np" --oversubscribe "$lqcd" hmc "$name.toml" --device cpu --quiet --grid "$grid"; fi
  summary "$name/run.jsonl" >"$name.summary"
  [ "$(wc -l <"$name.summary")" = "$n" ] || { echo "FAIL: $name: expected $n trajectories"; cat "$name/run.jsonl"; exit 1; }
}
# same_chain REF NAME DH WHAT: NAME's summary equals REF's: the same decisions, dH and acceptance probabilities
# to DH, plaquettes to 1e-10 relative; prints the largest dH difference, fails naming WHAT otherwise.
same_chain() {
  local ref=$1 name=$2 dh=$3 what=$4
  paste -d' ' "$ref.summary" "$name.summary" | awk -v dh="$dh" -v name="$name" '
    function abs(x) { return x < 0 ? -x : x }
    $1 != $5 || abs($2 - $6) > dh || abs($3 - $7) > dh || abs($4 - $8) > 1e-10 * abs($4) { bad = 1 }
    { if (abs($2 - $6) > ddh) ddh = abs($2 - $6) }
    END { printf "%s: max |dH difference| %.2g\n", name, ddh; exit bad }' ||
    { echo "FAIL: $name ($what) differs from one process"; paste "$ref.summary" "$name.summary"; exit 1; }
}
runs="1:1,1,1,1 2:1,1,1,2 2:2,1,1,1 4:2,1,1,2 4:1,2,1,2"
for run in $runs; do
  np=${run%%:*} grid=${run#*:}
  chain "np${np}_${grid//,/}" in.toml "$np" "$grid" 3
done
ref=np1_1111
[ "$(cut -d' ' -f1 $ref.summary | tr '\n' ' ')" = "true false true " ] ||
  { echo "FAIL: the reference run should both accept and reject (choose the step size again)"; cat $ref.summary; exit 1; }
for run in $runs; do
  np=${run%%:*} grid=${run#*:}
  name="np${np}_${grid//,/}"
  paste -d' ' $ref.summary "$name.summary" | awk -v name="$name" '
    function abs(x) { return x < 0 ? -x : x }
    $1 != $5 { print "accept/reject differs in trajectory " NR; bad = 1 }
    abs($2 - $6) > 1e-9 { print "dH differs in trajectory " NR ": " $2 " vs " $6; bad = 1 }
    abs($3 - $7) > 1e-9 { print "acceptance probability differs in trajectory " NR; bad = 1 }
    abs($4 - $8) > 1e-10 * abs($4) { print "plaquette differs in trajectory " NR ": " $4 " vs " $8; bad = 1 }
    { if (abs($2 - $6) > ddh) ddh = abs($2 - $6); if (abs($4 - $8) / abs($4) > dp) dp = abs($4 - $8) / abs($4) }
    END { printf "%s: max |dH difference| %.2g, max plaquette relative difference %.2g\n", name, ddh, dp; exit bad }' || { echo "FAIL: $name differs from one process"; paste $ref.summary "$name.summary"; exit 1; }
done
echo "PASS: lqcd hmc on 1, 2 and 4 ranks ($runs): same decisions, dH and plaquettes"
cat $ref.summary
# The same with openQCD's open boundaries in time (issue 50): 4^3 x 8, the gauge field's boundary and the
# clover quarks' (c_F = 1.2), two trajectories without the Metropolis step's randomness mattering (compared
# as above; the quarks' cut links are a halo-exchanged copy, the clover insertion skips global x0 = 0, T).
sed -e 's/dims = \[4, 4, 4, 4\]/dims = [4, 4, 4, 8]/' -e 's/^beta = 5.6/beta = 5.6\nboundary = "open"/' \
  -e 's/trajectories = 3/trajectories = 2/' -e 's/steps = \[3, 1\]/steps = [8, 2]/' -e 's/^csw = 1.5/csw = 1.5\nc_F = 1.2/' in.toml >open.toml
grep -q '^boundary = "open"' open.toml && grep -q '^c_F = 1.2' open.toml && grep -q 'dims = \[4, 4, 4, 8\]' open.toml ||
  { echo "FAIL: the open-boundary input was not made (the edits to in.toml did not apply)"; cat open.toml; exit 1; }
for run in $runs; do
  np=${run%%:*} grid=${run#*:}
  name="open_np${np}_${grid//,/}"
  chain "$name" open.toml "$np" "$grid" 2
  same_chain open_np1_1111 "$name" 1e-9 "open boundaries"
done
echo "PASS: open boundaries: the same on 1, 2 and 4 ranks"
cat open_np1_1111.summary
# The Nf = 2 + 1 run of issue 50 at small volume: tree-level Symanzik gauge action, two clover flavours
# split by a Hasenbusch ratio, the strange quark by the rational monomial (multi-shift CG); the force
# solves in double ("double") and in single with reliable updates ("single": the mixed multi-shift of
# session 51), where the ranks' other grouping of the single-precision sums moves the solutions within the
# solvers' tolerances: dH then agrees to 1e-6 (1e-7 seen: the force tolerance 1e-8 times the force), the
# decisions and plaquettes as before.
cat >nf2p1.toml <<EOT
[lattice]
dims = [4, 4, 4, 8]
[gauge]
beta = 4.0
action = "symanzik"
[integrator]
type = "omelyan2"
tau = 1.0
steps = [4, 2, 2]
[hmc]
seed = 17
start = "cold"
thermalization = 0
trajectories = 2
[solver]
tolerance = 1e-12
force_tolerance = 1e-8
precision = "PRECISION"
[output]
prefix = "PREFIX"
[[monomial]]
type = "gauge"
level = 2
[[monomial]]
type = "clover"
kappa = 0.115
csw = 1.5
level = 0
[[monomial]]
type = "hasenbusch_ratio"
kappa = 0.121
kappa2 = 0.115
csw = 1.5
level = 1
[[monomial]]
type = "rational"
kappa = 0.118
csw = 1.5
degree = 10
lambda_min = 1e-3
lambda_max = 5.0
level = 1
EOT
nf2p1_runs="1:1,1,1,1 2:1,1,1,2 4:2,1,1,2"  # one split in one and one in two directions (CI's time)
for precision in double single; do
  sed "s/PRECISION/$precision/" nf2p1.toml >"nf2p1_$precision.toml"
  dh=1e-9
  [ "$precision" = single ] && dh=1e-6
  for run in $nf2p1_runs; do
    np=${run%%:*} grid=${run#*:}
    name="nf2p1_${precision}_np${np}_${grid//,/}"
    chain "$name" "nf2p1_$precision.toml" "$np" "$grid" 2
    same_chain "nf2p1_${precision}_np1_1111" "$name" "$dh" "Nf = 2 + 1"
  done
  cat "nf2p1_${precision}_np1_1111.summary"
done
echo "PASS: Nf = 2 + 1 (Symanzik, Hasenbusch, rational; double and single): the same on 1, 2 and 4 ranks"
