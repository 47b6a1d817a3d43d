#!/usr/bin/env bash
# The measurement commands on a decomposed lattice give the single-process results: lqcd measure --json
# (observables of a stored configuration, Wilson loops on APE-smeared links included) and lqcd spectrum --json (pion, rho, a0, PCAC mass of a clover
# quark with a Gaussian-smeared point source on that configuration; the pion's and the nucleon's
# three-point functions by sequential sources at t_s = 4 with momentum transfer (0, 1, 0): their ratios to the
# two-point functions; the strange baryons and the one-end pion) and lqcd loops (with the hopping expansion) on 2 and 4 MPI ranks, several grid shapes, agree with one process to 1e-12 relative (global sums add the ranks' partial sums in another
# grouping, so not bit for bit); the output files are written once, by rank 0 (one HDF5 file, one
# propagator file of the same size, logs). Usage: measure_on_ranks.sh LQCD MPIEXEC TESTDATA
set -euo pipefail
lqcd=$1
mpiexec=$2
config=$3/milc_l4448.scidac
source "$(dirname "${BASH_SOURCE[0]}")/json_compare.sh"  # tokens, same, on
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

cat >in.toml <<EOT
[gauge]
config = "$config"
[fermion]
action = "clover"
kappa = 0.115
csw = 1.2
[solver]
type = "bicgstab"
tolerance = 1e-11
[source]
type = "point"
position = [1, 2, 3, 5]
smearing = "gaussian"
smearing_iterations = 2
ape_iterations = 1
[spectrum]
momenta = [[0, 0, 0], [1, 0, 0]]
three_point_sink_times = [4]
three_point_hadrons = ["pion", "nucleon"]
three_point_currents = ["gxgygt", "gt", "g5"]
momentum_transfers = [[0, 1, 0], [0, 0, 0]]
strange_kappa = 0.112
one_end_vectors = 1
[output]
prefix = "PREFIX"
EOT

runs="1:1,1,1,1 2:1,1,1,2 2:2,1,1,1 4:2,1,1,2 4:1,2,2,1"
for run in $runs; do
  np=${run%%:*} grid=${run#*:}
  name="np${np}_${grid//,/}"
  # The JSON lines alone: an MPI library may print start-up warnings on stdout too.
  on "$np" "$grid" measure --json --device cpu --loops 3,4 --ape-steps 2 "$config" >"$name.measure.out"
  grep '^{' "$name.measure.out" >"$name.measure.json" || true
  sed "s|PREFIX|$name/s|" in.toml >"$name.toml"
  on "$np" "$grid" spectrum "$name.toml" --json --device cpu >"$name.spectrum.out"
  grep '^{' "$name.spectrum.out" >"$name.spectrum.json" || true
  # The propagator: only [spectrum] is not one of its keys.
  sed '/^\[spectrum\]/,+7d' "$name.toml" >"$name.prop.toml"
  on "$np" "$grid" propagator "$name.prop.toml" --quiet --device cpu
  # The loops (their noise drawn per global site; the hopping expansion's probing classes global too).
  { sed "/^\[source\]/,+5d; s|$name/s|$name/l|" "$name.prop.toml"
    printf '[loops]\nvectors = 2\nhopping_expansion = 4\nmomenta = [[0, 0, 0], [0, 1, 0]]\n'; } >"$name.loops.toml"
  on "$np" "$grid" loops "$name.loops.toml" --json --device cpu >"$name.loops.out"
  grep '^{' "$name.loops.out" | sed 's/"seconds":[^,}]*//; s/"hdf5":"[^"]*"//' >"$name.loops.cmp" || true
  [ "$(wc -l <"$name.measure.json")" = 1 ] && [ "$(wc -l <"$name.spectrum.json")" = 1 ] ||
    { echo "FAIL: $name: expected one JSON line per command (rank 0 prints)"; exit 1; }
  [ -s "$name/s.h5" ] && [ -s "$name/s.prop.lime" ] || { echo "FAIL: $name: no HDF5 or propagator file"; exit 1; }
done
ref=np1_1111
grep -q '"plaquette":0.56905572' $ref.measure.json || { echo "FAIL: unexpected plaquette"; cat $ref.measure.json; exit 1; }
grep -q '"hopping_expansion_order":4' $ref.loops.cmp || { echo "FAIL: no loops with the expansion"; cat $ref.loops.cmp; exit 1; }
grep -q '"pion_one_end":\[[0-9]' $ref.spectrum.json || { echo "FAIL: no one-end pion"; cat $ref.spectrum.json; exit 1; }
grep -q '"omega":\[[0-9]' $ref.spectrum.json || { echo "FAIL: no strange baryons"; cat $ref.spectrum.json; exit 1; }
grep -q '"pion":\[[0-9]' $ref.spectrum.json || { echo "FAIL: no pion correlator"; cat $ref.spectrum.json; exit 1; }
grep -q '"three_point_ratios":{"nucleon_3pt_polarised_z_d_g5_ts4' $ref.spectrum.json ||
  { echo "FAIL: no three-point ratios"; cat $ref.spectrum.json; exit 1; }
for run in $runs; do
  np=${run%%:*} grid=${run#*:}
  name="np${np}_${grid//,/}"
  [ "$name" = $ref ] && continue
  same $ref.measure.json "$name.measure.json" 1e-12 || { echo "FAIL: $name: lqcd measure differs"; exit 1; }
  # Compare the physics, not the timing or the output names.
  for f in $ref $name; do
    sed 's/"seconds":[^,}]*//; s/"hdf5":"[^"]*"//' "$f.spectrum.json" >"$f.spectrum.cmp"
  done
  same $ref.spectrum.cmp "$name.spectrum.cmp" 1e-12 || { echo "FAIL: $name: lqcd spectrum differs"; exit 1; }
  same $ref.loops.cmp "$name.loops.cmp" 1e-11 || { echo "FAIL: $name: lqcd loops differs"; exit 1; }
  cmp -s <(wc -c <$ref/s.prop.lime) <(wc -c <"$name/s.prop.lime") || { echo "FAIL: $name: propagator file size"; exit 1; }
done
echo "PASS: lqcd measure, spectrum (strange baryons, one-end pion), propagator and loops (hopping expansion) on 1, 2 and 4 ranks ($runs) agree"
