#!/usr/bin/env bash
# The gauge commands of issue 29 on a decomposed lattice give the single-process results: lqcd flow --json
# (the Symanzik flow, whose rectangles read halos of depth 2, with the improved charge), lqcd gaugefix
# (Landau gauge by overrelaxation, the method that runs on several processes) and lqcd smear (3D HYP and
# 4D stout) on 2 and 4 MPI ranks, several grid shapes: the JSON agrees with one process to 1e-10
# relative (global sums in another grouping; the gauge fixing's iteration count must be the same), and
# the written configurations, measured by one process, agree to 1e-12. The lattice: the 4^3 x 8 MILC
# file tiled to 8^4 (lqcd convert --tile), so that every split direction keeps 4 sites.
# Usage: gauge_commands_on_ranks.sh LQCD MPIEXEC TESTDATA
set -euo pipefail
lqcd=$1
mpiexec=$2
source "$(dirname "${BASH_SOURCE[0]}")/json_compare.sh"  # tokens, same, on
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
"$lqcd" convert "$3/milc_l4448.scidac" big.ildg --tile 2,2,2,1 >/dev/null
# an open lattice's openQCD file (issue 50): lqcd flow takes it as open, lqcd measure adds openQCD's plaquette,
# a global sum every rank must join (it hung on 2 ranks once)
printf '[lattice]\ndims = [8, 8, 8, 8]\n[gauge]\nboundary = "open"\n[heatbath]\nthermalization = 2\nsweeps = 2\n[output]\nprefix = "o"\nformat = "openqcd"\nsave_every = 2\n' >open.toml
"$lqcd" heatbath open.toml --device cpu --quiet

# The JSON lines alone (an MPI library may print start-up warnings on stdout), without file names and
# timings (and the units string, whose spaces the token comparison would split).
json() { grep '^{' | sed -E 's/"(file|input|output|seconds|units)":("[^"]*"|[^,}]*),?//g'; }

runs="1:1,1,1,1 2:1,1,1,2 2:2,1,1,1 4:1,2,1,2 4:2,2,1,1"
for run in $runs; do
  np=${run%%:*} grid=${run#*:}
  name="np${np}_${grid//,/}"
  on "$np" "$grid" flow --json --device cpu --action symanzik --t-max 0.3 --epsilon 0.02 --improved-charge big.ildg |
    json >"$name.flow.json"
  on "$np" "$grid" gaugefix --json --device cpu --gauge landau --method overrelaxation --precision 1e-10 big.ildg \
    "$name.fixed.ildg" | json >"$name.gaugefix.json"
  on "$np" "$grid" smear --device cpu --method hyp --spatial --steps 2 big.ildg "$name.hyp.ildg" >/dev/null
  on "$np" "$grid" smear --device cpu --method stout --rho 0.1 --steps 2 big.ildg "$name.stout.ildg" >/dev/null
  "$lqcd" measure --json --device cpu "$name.fixed.ildg" "$name.hyp.ildg" "$name.stout.ildg" | json >"$name.measure.json"
  on "$np" "$grid" flow --json --device cpu --t-max 0.1 --epsilon 0.02 o.000004.openqcd | json >"$name.open_flow.json"
  on "$np" "$grid" measure --json --device cpu o.000004.openqcd | json >"$name.open_measure.json"
  for f in flow gaugefix open_flow open_measure; do
    [ "$(wc -l <"$name.$f.json")" = 1 ] || { echo "FAIL: $name: expected one JSON line from lqcd $f (rank 0 prints)"; exit 1; }
  done
  [ "$(wc -l <"$name.measure.json")" = 3 ] || { echo "FAIL: $name: a written configuration is missing or unreadable"; exit 1; }
done
ref=np1_1111
grep -q '"Q_improved"' $ref.flow.json || { echo "FAIL: no improved charge in the flow history"; exit 1; }
grep -q '"boundary":"open"' $ref.open_flow.json || { echo "FAIL: the open lattice's file not flowed as open"; exit 1; }
grep -q '"plaquette_openqcd"' $ref.open_measure.json || { echo "FAIL: no openQCD plaquette for the open lattice"; exit 1; }
grep -q '"theta":[0-9.e-]*' $ref.gaugefix.json || { echo "FAIL: no theta in the gaugefix JSON"; cat $ref.gaugefix.json; exit 1; }
for run in $runs; do
  np=${run%%:*} grid=${run#*:}
  name="np${np}_${grid//,/}"
  [ "$name" = $ref ] && continue
  same $ref.flow.json "$name.flow.json" 1e-10 || { echo "FAIL: $name: lqcd flow differs"; exit 1; }
  same $ref.gaugefix.json "$name.gaugefix.json" 1e-8 || { echo "FAIL: $name: lqcd gaugefix differs"; exit 1; }
  same $ref.measure.json "$name.measure.json" 1e-12 || { echo "FAIL: $name: the written configurations differ"; exit 1; }
  same $ref.open_flow.json "$name.open_flow.json" 1e-10 || { echo "FAIL: $name: lqcd flow of the open lattice differs"; exit 1; }
  same $ref.open_measure.json "$name.open_measure.json" 1e-12 || { echo "FAIL: $name: lqcd measure of the open lattice differs"; exit 1; }
done
echo "PASS: lqcd flow, gaugefix and smear, and flow and measure of an open lattice, on 1, 2 and 4 ranks ($runs) agree"
