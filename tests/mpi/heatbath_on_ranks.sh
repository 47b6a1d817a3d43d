#!/usr/bin/env bash
# lqcd heatbath on 1 process and on 2 (grid 1,1,1,2) and 4 (grid 2,1,1,2) MPI ranks writes configurations
# with the same links: the NERSC checksums of the link data (a sum of the words of every link, so any
# differing bit shows) and the observables measured from the files agree exactly; the plaquettes the
# runs print agree to rounding (their global sums add partial sums in another grouping) (the heatbath has no global sums; random numbers are keyed by
# global site). Usage: heatbath_on_ranks.sh LQCD MPIEXEC
set -euo pipefail
lqcd=$1
mpiexec=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cat >in.toml <<EOT
[lattice]
dims = [4, 4, 4, 8]
[gauge]
beta = 5.8
[heatbath]
thermalization = 2
sweeps = 2
measure_every = 1
start = "hot"
[output]
checkpoint_every = 4
EOT
run() {  # name np grid
  sed "s|^\[output\]|[output]\nprefix = \"$1/run\"|" in.toml >"$1.toml"
  if [ "$2" = 1 ]; then "$lqcd" heatbath "$1.toml" --device cpu --quiet
  else "$mpiexec" -np "$2" --oversubscribe "$lqcd" heatbath "$1.toml" --device cpu --quiet --grid "$3"; fi
  "$lqcd" measure --json "$1/run.checkpoint.ildg" | grep -o '"\(plaquette\|rectangle\|polyakov_loop\|link_trace\)":[^a-z]*' >"$1.json"
  "$lqcd" convert "$1/run.checkpoint.ildg" "$1.nersc" --format nersc >/dev/null
  grep -a '^CHECKSUM' "$1.nersc" >>"$1.json"
  grep -o '"plaquette":[^,]*' "$1/run.jsonl" >"$1.plaquettes"
}
run one 1 1,1,1,1
run two 2 1,1,1,2
run four 4 2,1,1,2
[ "$(grep -c CHECKSUM one.json)" = 1 ] && [ "$(wc -l <one.json)" = 5 ] || { echo "FAIL: no checksum or observables"; exit 1; }
[ "$(wc -l <one.plaquettes)" = 4 ] || { echo "FAIL: expected 4 measurements"; exit 1; }
for other in two four; do
  cmp one.json $other.json || { echo "FAIL: $other ranks: links or observables differ"; diff one.json $other.json; exit 1; }
  paste -d' ' one.plaquettes $other.plaquettes | tr ':' ' ' |
    awk '{ d = $2 - $4; if (d < 0) d = -d; if (d > 1e-14) bad = 1 } END { exit bad }' ||
    { echo "FAIL: $other ranks: plaquette history differs beyond rounding"; paste one.plaquettes $other.plaquettes; exit 1; }
done
echo "PASS: 1, 2 and 4 ranks wrote the same configuration ($(grep CHECKSUM one.json))"
