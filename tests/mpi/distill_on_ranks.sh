#!/usr/bin/env bash
# lqcd distill on a lattice split along t (--grid 1,1,1,2 and 1,1,1,4) gives the single-process results:
# the eigenvalues of every slice, and the GEVP effective energies computed from the correlator matrix
# (summed over the ranks' sink times; 1e-8 relative, the solves to 1e-13 on both sides), with the source
# times on different ranks; the eigenvector file a
# split run writes (each rank's slices in turn) is read by a serial run, and a serial run's file by a
# split run (each rank reads its slices), with the same results; a split in space is refused with one
# line naming --grid. Usage: distill_on_ranks.sh LQCD MPIEXEC TESTDATA
set -euo pipefail
lqcd=$1
mpiexec=$2
config=$3/milc_l8888_b6.0.milc
source "$(dirname "${BASH_SOURCE[0]}")/json_compare.sh"  # tokens, same, on
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

input() {  # PREFIX EXTRA
  cat <<EOT
[gauge]
config = "$config"
[fermion]
kappa = 0.12
[solver]
tolerance = 1e-13
[distillation]
nv = 4
stout_steps = 2
source_times = [0, 5]
gammas = ["g5", "gxgygz", "gx"]
momenta = [[0, 0, 0], [0, 0, 1]]
gevp = [["g5", "gxgygz"]]
$2
[output]
prefix = "$1"
EOT
}

# Physics only: no timings, file names or the input's path.
physics() { grep '^{' "$1" | sed 's/"seconds":[^,}]*//g; s/"hdf5":"[^"]*"//; s/"config":"[^"]*"//'; }
eigenvalues() { grep '"record":"eigenvectors"' "$1" | sed 's/.*"eigenvalues"://; s/,"nv".*//; s/,"record".*//; s/,"seconds".*//'; }

runs="1:1,1,1,1 2:1,1,1,2 4:1,1,1,4"
for run in $runs; do
  np=${run%%:*} grid=${run#*:}
  name="np${np}"
  input "$name" "save_eigenvectors = true" >"$name.toml"
  on "$np" "$grid" distill "$name.toml" --json --device cpu >"$name.out"
  physics "$name.out" >"$name.json"
  [ "$(wc -l <"$name.json")" = 1 ] || { echo "FAIL: $name: expected one JSON line (rank 0 prints)"; cat "$name.out"; exit 1; }
  [ -s "$name.h5" ] && [ -s "$name.eigvecs.h5" ] || { echo "FAIL: $name: no HDF5 or eigenvector file"; exit 1; }
  eigenvalues "$name.jsonl" >"$name.eigenvalues"
  [ -s "$name.eigenvalues" ] || { echo "FAIL: $name: no eigenvalue record in $name.jsonl"; exit 1; }
done
grep -q '"effective_energies":\[\[[0-9]' np1.json || { echo "FAIL: no GEVP energies"; cat np1.json; exit 1; }
for np in 2 4; do
  same np1.eigenvalues "np$np.eigenvalues" 1e-13 || { echo "FAIL: np$np: eigenvalues differ"; exit 1; }
  same np1.json "np$np.json" 1e-8 || { echo "FAIL: np$np: GEVP energies differ"; exit 1; }
done

# Eigenvector files across the two ways of running.
input from4 "eigenvectors_in = \"np4.eigvecs.h5\"" >from4.toml
on 1 - distill from4.toml --json --device cpu >from4.out
physics from4.out >from4.json
same np1.json from4.json 1e-8 || { echo "FAIL: a serial run on the split run's eigenvectors differs"; exit 1; }
input from1 "eigenvectors_in = \"np1.eigvecs.h5\"" >from1.toml
on 2 1,1,1,2 distill from1.toml --json --device cpu >from1.out
physics from1.out >from1.json
same np1.json from1.json 1e-8 || { echo "FAIL: a split run on the serial run's eigenvectors differs"; exit 1; }

# A split in space: one line naming --grid, nothing written.
input space "" >space.toml
if on 2 2,1,1,1 distill space.toml --device cpu >space.out 2>space.err; then
  echo "FAIL: a lattice split in space was accepted"; exit 1
fi
grep -q -- '--grid 1,1,1,N' space.err || { echo "FAIL: the error does not say which --grid to use"; cat space.err; exit 1; }
[ ! -e space.h5 ] || { echo "FAIL: the refused run wrote space.h5"; exit 1; }
echo "PASS: lqcd distill on 1, 2 and 4 ranks split along t agrees (eigenvalues, GEVP energies, eigenvector files)"
