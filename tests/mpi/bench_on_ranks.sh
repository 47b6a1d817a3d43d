#!/usr/bin/env bash
# lqcd bench dslash on a decomposed lattice (issue 6): on 2 ranks (grids 1,1,1,2 and 2,1,1,1) and 4 ranks
# (2,1,1,2), the timed hopping term, with its face exchange, equals the double-precision 18-real operator
# applied to the same input (difference_to_double_18_real: 1e-13 in double, 1e-5 in single, 1e-3 in
# half), and every rank sends the bytes of a spin-projected message per face site: 2 sides x the face's
# sites of one parity x 6 complex numbers of the arithmetic precision, summed over the split directions.
# With CUDA=ON (the build's CUDA backend) and a GPU that nvidia-smi lists, every case also runs with
# device fields; ranks that share a GPU exchange through host memory.
# Usage: bench_on_ranks.sh LQCD MPIEXEC CUDA(ON|OFF)
set -uo pipefail
lqcd=$1
mpiexec=$2
cuda=${3:-OFF}
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
field() {  # name json: the value after "name": (empty if absent)
  grep -o "\"$1\":[^,}]*" <<<"$2" | head -1 | cut -d: -f2
}
number='^[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$'  # JSON writes NaN and infinities as null
devices=cpu
if [ "$cuda" = ON ] && nvidia-smi -L >/dev/null 2>&1; then devices="cpu gpu"; fi
check() {  # np grid precision reconstruct tolerance expected_bytes
  local device
  for device in $devices; do check_on "$device" "$@"; done
}
check_on() {  # device np grid precision reconstruct tolerance expected_bytes
  local json diff bytes device=$1
  shift
  local what="$device, np $1 grid $2 $3/$4"
  if ! json=$("$mpiexec" -np "$1" --oversubscribe "$lqcd" bench dslash --dims 8,8,8,16 --grid "$2" --precision "$3" \
    --reconstruct "$4" --repetitions 2 --device "$device" --json); then
    fail "$what: lqcd bench exited with an error"
    return
  fi
  diff=$(field difference_to_double_18_real "$json")
  bytes=$(field halo_bytes_sent "$json")
  if ! [[ $diff =~ $number ]] || ! awk -v d="$diff" -v t="$5" 'BEGIN { exit !(d + 0 <= t + 0) }'; then
    fail "$what: difference_to_double_18_real = '$diff', expected a number <= $5"
  fi
  if ! [[ $bytes =~ $number ]] || ! awk -v b="$bytes" -v e="$6" 'BEGIN { exit !(b + 0 == e + 0) }'; then
    fail "$what: halo_bytes_sent = '$bytes', expected $6"
  fi
  echo "$what: difference $diff, halo bytes $bytes"
}
# 8x8x8x16 split in t: the t-faces hold 8*8*8 sites, 256 of one parity; split in x (2,1,1,1): 8*8*16/2 = 512.
check 2 1,1,1,2 double 18 1e-13 $((2 * 256 * 6 * 16))
check 2 1,1,1,2 single 12 1e-5 $((2 * 256 * 6 * 8))
check 2 2,1,1,1 double 12 1e-13 $((2 * 512 * 6 * 16))
check 2 1,1,1,2 half 12 1e-3 $((2 * 256 * 6 * 8))
# 4 ranks, local 4x8x8x8: t-faces 4*8*8/2 = 128 sites of one parity, x-faces 8*8*8/2 = 256.
check 4 2,1,1,2 double 18 1e-13 $((2 * 128 * 6 * 16 + 2 * 256 * 6 * 16))
echo "$failures failure(s)"
[ "$failures" = 0 ]
