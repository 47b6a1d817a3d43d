#!/usr/bin/env bash
# The fault campaign of issue 26: kill -9 at random moments during `lqcd heatbath` and `lqcd hmc` runs
# that save a configuration and a checkpoint after every sweep / trajectory, and check after every kill
#   - every configuration and checkpoint on disk reads back with a valid checksum (`lqcd measure`),
#   - every JSON line on disk is a whole record, and the file ends with a newline,
#   - `--resume` runs to the end (or, killed before the first checkpoint, refuses with a one-line error
#     and a fresh start is made), removing the temporaries the killed run left,
#   - the finished chain equals an uninterrupted run's bit for bit: the same saved configurations (same
#     SciDAC / NERSC checksums and observables; the files' bytes differ only in the write date of the
#     header) and the same JSON records (timing fields aside).
# Every fourth chain is killed a second time during its resume (a resume of a resume). The kill moments
# are uniform over the last 90% of the uninterrupted run's time (the first tenth is the start-up).
#
# Usage: scripts/fault-campaign.sh [N] [heatbath|hmc|both]   (N kills per command, default 20)
# Environment: LQCD (default build/lqcd), WORK (a directory to keep everything in; default a temporary
# one, removed at the end when all checks pass), SEED (of the random kill moments; default from the clock).
# Exit status 0 when every check passed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."

N=${1:-20}
WHICH=${2:-both}
LQCD=$(realpath "${LQCD:-build/lqcd}")
SEED=${SEED:-$(( $(date +%s) % 32768 ))}
RANDOM=$SEED
# One thread: the machine may be shared, and spinning OpenMP threads on busy cores slow everything down
# (results do not depend on the thread count).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
[[ -x "$LQCD" ]] || { echo "fault-campaign: $LQCD not found (build first, or set LQCD)" >&2; exit 1; }
KEEP=${WORK:+1}
WORK=${WORK:-$(mktemp -d /tmp/lqcd-fault-campaign.XXXXXX)}
mkdir -p "$WORK"
echo "fault campaign: N = $N kills per command, seed $SEED, lqcd $LQCD, work $WORK"

failures=0
fail_check() { echo "  FAIL: $*"; failures=$((failures + 1)); }

now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }

write_inputs() {
  cat >"$WORK/heatbath.toml" <<'EOF'
[lattice]
dims = [4, 4, 4, 4]
[gauge]
beta = 5.8
[heatbath]
start = "hot"
seed = 2026
thermalization = 2
sweeps = 28
overrelaxation = 2
[output]
prefix = "out/run"
format = "ildg"
save_every = 1
checkpoint_every = 1
EOF
  cat >"$WORK/hmc.toml" <<'EOF'
[lattice]
dims = [4, 4, 4, 4]
[gauge]
beta = 5.6
[integrator]
type = "omelyan2"
tau = 0.5
steps = [3, 2]
[hmc]
seed = 2027
start = "hot"
thermalization = 2
trajectories = 10
[solver]
tolerance = 1e-10
[[monomial]]
type = "gauge"
level = 1
[[monomial]]
type = "wilson"
kappa = 0.12
level = 0
[output]
prefix = "out/run"
format = "nersc"
save_every = 1
checkpoint_every = 1
EOF
}

# `lqcd measure` of every configuration with a final name in DIR/out: each must read back with its checksum.
check_configurations() {
  local dir=$1 files
  files=$(cd "$dir" && ls out/run.[0-9]*.* out/run.checkpoint.ildg 2>/dev/null | grep -v '\.tmp\.')
  [[ -z "$files" ]] && return 0
  # shellcheck disable=SC2086
  if ! (cd "$dir" && "$LQCD" measure $files >measure.txt 2>measure.err); then
    fail_check "$dir: a configuration does not read back: $(grep -m1 error "$dir/measure.err")"
    return 1
  fi
  local bad
  bad=$(grep -c 'checksum MISMATCH\|checksum none' "$dir/measure.txt")
  [[ $bad -eq 0 ]] || { fail_check "$dir: $bad configurations without a valid checksum"; return 1; }
  if [[ ${2:-} == final ]]; then final_files=$((final_files + $(echo "$files" | wc -w)))
  else checked_files=$((checked_files + $(echo "$files" | wc -w))); fi
}

# Every line of the JSON lines is a whole record and the file ends with a newline.
check_jsonl() {
  local f=$1/out/run.jsonl
  [[ -s "$f" ]] || return 0
  [[ -z "$(tail -c1 "$f")" ]] || { fail_check "$f does not end with a newline (a half-written record)"; return 1; }
  local bad
  bad=$(grep -vc '^{.*}$' "$f")
  [[ $bad -eq 0 ]] || { fail_check "$f: $bad lines that are not whole JSON records"; return 1; }
}

# Where a kill landed, from what it left: the last JSON record, the checkpoint's position, temporaries.
# Sets state_text (not echoed: the counters must change in this shell, not in a subshell).
describe_state() {
  local dir=$1 unit=$2 j c t
  j=$(tail -n1 "$dir/out/run.jsonl" 2>/dev/null | grep -o "\"$unit\":[0-9]*" | cut -d: -f2)
  c=$(grep -a -o "lqcd.$unit</name><value>[0-9]*\|lqcd.$unit[^0-9]\{1,40\}[0-9]*" "$dir/out/run.checkpoint.ildg" 2>/dev/null |
    head -n1 | grep -o '[0-9]*$')
  t=$(cd "$dir/out" 2>/dev/null && ls -A | grep '\.tmp\.' | sed 's/\.tmp\.[0-9]*$//' | tr '\n' ' ')
  local where
  if [[ -n "$t" ]]; then where="while writing ${t% }"
  elif [[ -z "$j" ]]; then where="before the first record"
  else where="between writes"; fi
  state_text="last record ${j:-none}, checkpoint ${c:-none}, $where"
  [[ -n "$t" ]] && landed_writing=$((landed_writing + 1))
  [[ -z "$j" && -z "$t" ]] && landed_startup=$((landed_startup + 1))
  [[ -n "$j" && -z "$t" ]] && landed_between=$((landed_between + 1))
}

# Runs lqcd in DIR in the background and kills it with SIGKILL after a random part of the reference
# time. Returns 0 if the kill hit a running process.
kill_at_random() {
  local dir=$1 cmd=$2 resume=$3 limit_ms=$4 delay_ms pid
  # Uniform over the last 90% of the reference run's time: the first tenth is mostly the program's
  # start-up (MPI initialisation), before any file is written.
  delay_ms=$(( limit_ms / 10 + (RANDOM * 32768 + RANDOM) % (limit_ms - limit_ms / 10 + 1) ))
  (cd "$dir" && exec "$LQCD" "$cmd" ../$cmd.toml $resume --quiet >>run.out 2>>run.err) &
  pid=$!
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  if kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null; then
    wait "$pid" 2>/dev/null
    last_delay=$delay_ms
    return 0
  fi
  wait "$pid" 2>/dev/null
  return 1
}

# Resume to the end (a fresh start if the kill came before the first checkpoint).
resume_to_end() {
  local dir=$1 cmd=$2
  if (cd "$dir" && "$LQCD" "$cmd" ../$cmd.toml --resume --quiet >>run.out 2>resume.err); then
    resumed=$((resumed + 1))
    return 0
  fi
  if [[ ! -e "$dir/out/run.checkpoint.ildg" ]] && grep -q '^lqcd: error: .*no checkpoint to resume from' "$dir/resume.err"; then
    fresh=$((fresh + 1))
    (cd "$dir" && "$LQCD" "$cmd" ../$cmd.toml --quiet >>run.out 2>>run.err) && return 0
  fi
  fail_check "$dir: --resume failed: $(grep -m1 '^lqcd: error' "$dir/resume.err")"
  return 1
}

# The JSON records without the fields that depend on the clock (timings) and on the GPU's energy counter.
jsonl_values() {
  sed -E 's/"(force_|solver_)?seconds":[-+0-9.eE]+,?//g; s/"(force|solver)_seconds_by_monomial":\{[^}]*\},?//g;
          s/"energy_joules":(null|[-+0-9.eE]+),?//g; s/,}$/}/' "$1"
}

# The finished chain in DIR equals the reference chain: configuration by configuration, and record by record.
compare_with_reference() {
  local dir=$1 ref=$2 f base diffs span
  if ! cmp -s <(jsonl_values "$ref/out/run.jsonl") <(jsonl_values "$dir/out/run.jsonl"); then
    fail_check "$dir: the JSON records differ from the uninterrupted run's"
    return 1
  fi
  for f in "$ref"/out/run.[0-9]*.* "$ref/out/run.checkpoint.ildg"; do
    base=${f##*/}
    [[ -f "$dir/out/$base" ]] || { fail_check "$dir: $base missing"; return 1; }
    # The bytes may differ only in the write date of the header: one run of at most 40 bytes.
    diffs=$(cmp -l "$f" "$dir/out/$base" 2>&1 | awk 'NR == 1 {lo = $1} {hi = $1; n++} END {print n + 0, hi - lo}')
    span=${diffs#* }
    if [[ $(stat -c %s "$f") != $(stat -c %s "$dir/out/$base") || ${diffs% *} -gt 40 || $span -gt 40 ]]; then
      fail_check "$dir: $base differs from the uninterrupted run's (${diffs% *} bytes over a span of $span)"
      return 1
    fi
    compared_files=$((compared_files + 1))
  done
  # Same checksums and observables, as lqcd measure reads them.
  if ! diff <(cd "$ref" && "$LQCD" measure out/run.[0-9]*.* out/run.checkpoint.ildg) \
            <(cd "$dir" && "$LQCD" measure out/run.[0-9]*.* out/run.checkpoint.ildg) >/dev/null; then
    fail_check "$dir: lqcd measure differs from the uninterrupted run's"
    return 1
  fi
}

campaign() {
  local cmd=$1 unit=$2
  local ref=$WORK/$cmd-reference t0 t1 ref_ms kills=0 chain=0
  checked_files=0 final_files=0 compared_files=0 resumed=0 fresh=0 landed_writing=0 landed_startup=0 landed_between=0 missed=0
  local failures_before=$failures
  rm -rf "$ref" && mkdir -p "$ref"
  t0=$(now_ms)
  (cd "$ref" && "$LQCD" "$cmd" ../$cmd.toml --quiet >run.out 2>run.err) || { fail_check "$cmd: the reference run failed"; return; }
  t1=$(now_ms)
  ref_ms=$((t1 - t0))
  local nfiles
  nfiles=$(ls "$ref"/out/run.[0-9]*.* | wc -l)
  echo "== $cmd: uninterrupted run $ref_ms ms, $nfiles saved configurations + checkpoint, $(wc -l <"$ref/out/run.jsonl") JSON records"
  while ((kills < N)); do
    chain=$((chain + 1))
    local dir=$WORK/$cmd-$chain
    rm -rf "$dir" && mkdir -p "$dir"
    local rounds=1
    ((chain % 4 == 0 && kills + 1 < N)) && rounds=2
    local resume_flag=""
    for ((r = 1; r <= rounds; ++r)); do
      if ! kill_at_random "$dir" "$cmd" "$resume_flag" "$ref_ms"; then
        missed=$((missed + 1))  # the run had ended before the kill: not counted as a kill
        break
      fi
      kills=$((kills + 1))
      describe_state "$dir" "$unit"
      echo "  kill $kills (chain $chain${resume_flag:+, during --resume}) at $last_delay ms: $state_text"
      check_configurations "$dir"
      check_jsonl "$dir"
      resume_flag="--resume"
      [[ -e "$dir/out/run.checkpoint.ildg" ]] || resume_flag=""
    done
    resume_to_end "$dir" "$cmd" || continue
    local left
    left=$(ls -A "$dir/out" | grep -c '\.tmp\.\|\.lock$')
    [[ $left -eq 0 ]] || fail_check "$dir: $left temporaries or lock files left after the resumed run ended"
    check_configurations "$dir" final
    check_jsonl "$dir"
    compare_with_reference "$dir" "$ref"
    [[ -z "$KEEP" && $failures -eq $failures_before ]] && rm -rf "$dir"
  done
  echo "== $cmd summary: $kills kills in $chain chains ($missed runs ended before their kill, not counted);" \
    "landed before the first record $landed_startup, between writes $landed_between, while writing a file $landed_writing;" \
    "$checked_files configuration reads with valid checksums after kills, $final_files after the resumed runs;" \
    "$resumed resumes to the end," \
    "$fresh fresh starts (killed before the first checkpoint); $compared_files final files compared with the" \
    "uninterrupted run; failures $((failures - failures_before))"
}

write_inputs
[[ $WHICH == heatbath || $WHICH == both ]] && campaign heatbath sweep
[[ $WHICH == hmc || $WHICH == both ]] && campaign hmc trajectory
if [[ $failures -eq 0 ]]; then
  echo "fault campaign: all checks passed"
  [[ -z "$KEEP" ]] && rm -rf "$WORK"
  exit 0
fi
echo "fault campaign: $failures checks FAILED (files kept in $WORK)"
exit 1
