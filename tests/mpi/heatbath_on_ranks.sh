#!/usr/bin/env bash
# lqcd heatbath on 1 process and on 2 (grid 1,1,1,2) and 4 (grid 2,1,1,2) MPI ranks writes configurations
# (in parallel with MPI-IO on several ranks) with the same links: the link data of the saved NERSC files
# are byte-identical; the NERSC checksums of the checkpoints converted to NERSC and the observables
# measured from the files agree exactly; the plaquettes the runs print agree to rounding (their global
# sums add partial sums in another grouping; the heatbath itself has no global sums, random numbers are
# keyed by global site). Finally a 4-rank run resumes from the 2-rank checkpoint (read in parts,
# verified). Usage: heatbath_on_ranks.sh LQCD MPIEXEC
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
save_every = 2
format = "nersc"
EOT
run() {  # name np grid
  sed "s|^\[output\]|[output]\nprefix = \"$1/run\"|" in.toml >"$1.toml"
  if [ "$2" = 1 ]; then "$lqcd" heatbath "$1.toml" --device cpu --quiet
  else "$mpiexec" -np "$2" --oversubscribe "$lqcd" heatbath "$1.toml" --device cpu --quiet --grid "$3"; fi
  "$lqcd" measure --json "$1/run.checkpoint.ildg" | grep -o '"\(plaquette\|rectangle\|polyakov_loop\|link_trace\)":[^a-z]*' >"$1.json"
  "$lqcd" convert "$1/run.checkpoint.ildg" "$1.nersc" --format nersc >/dev/null
  grep -a '^CHECKSUM' "$1.nersc" >>"$1.json"
  grep -o '"plaquette":[^,]*' "$1/run.jsonl" >"$1.plaquettes"
  # The NERSC configuration the run saved itself (written in parallel on several ranks): its link data.
  tail -c 294912 "$1/run.000004.nersc" >"$1.links"
}
run one 1 1,1,1,1
run two 2 1,1,1,2
run four 4 2,1,1,2
[ "$(grep -c CHECKSUM one.json)" = 1 ] && [ "$(wc -l <one.json)" = 5 ] || { echo "FAIL: no checksum or observables"; exit 1; }
[ "$(wc -l <one.plaquettes)" = 4 ] || { echo "FAIL: expected 4 measurements"; exit 1; }
for other in two four; do
  cmp one.links $other.links || { echo "FAIL: $other ranks: the saved NERSC link data differ"; exit 1; }
  cmp one.json $other.json || { echo "FAIL: $other ranks: links or observables differ"; diff one.json $other.json; exit 1; }
  paste -d' ' one.plaquettes $other.plaquettes | tr ':' ' ' |
    awk '{ d = $2 - $4; if (d < 0) d = -d; if (d > 1e-14) bad = 1 } END { exit bad }' ||
    { echo "FAIL: $other ranks: plaquette history differs beyond rounding"; paste one.plaquettes $other.plaquettes; exit 1; }
done
# Resuming reads the checkpoint in parts (here on 4 ranks, written by 2), checksum and plaquette verified.
sed "s|^\[output\]|[output]\nprefix = \"two/run\"|" in.toml >resume.toml
"$mpiexec" -np 4 --oversubscribe "$lqcd" heatbath resume.toml --device cpu --quiet --grid 1,1,2,2 --resume ||
  { echo "FAIL: resuming on 4 ranks from the 2-rank checkpoint"; exit 1; }
# Issue 26: a 2-rank run of an output prefix that a running process holds is refused on every rank (rank 0
# holds the lock for a decomposed run; the others learn the outcome from it), and it changes no file.
sed "s|^\[output\]|[output]\nprefix = \"busy/run\"|; s|^sweeps = 2|sweeps = 1000000|" in.toml >busy.toml
"$lqcd" heatbath busy.toml --device cpu --quiet >/dev/null 2>&1 &
holder=$!
for _ in $(seq 300); do [ -s busy/run.jsonl ] && break; sleep 0.1; done
kill -STOP $holder
before=$(cat busy/* | md5sum)
if "$mpiexec" -np 2 --oversubscribe "$lqcd" heatbath busy.toml --device cpu --quiet --grid 1,1,1,2 2>busy.err; then
  kill -KILL $holder; echo "FAIL: a 2-rank run of a prefix in use was not refused"; exit 1
fi
kill -KILL $holder; wait $holder 2>/dev/null || true
grep -q "busy/run is in use by another lqcd run (pid $holder;" busy.err ||
  { echo "FAIL: no lock error naming the holder"; cat busy.err; exit 1; }
[ "$(cat busy/* | md5sum)" = "$before" ] || { echo "FAIL: the refused run changed the holder's files"; exit 1; }
echo "PASS: 1, 2 and 4 ranks wrote the same configuration ($(grep CHECKSUM one.json))"
