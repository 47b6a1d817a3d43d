#!/usr/bin/env bash
# The fuzzing campaign of issue 26: libFuzzer harnesses for every reader of files that come from
# outside (fuzz/README.md).
#
#   scripts/fuzz.sh SECONDS [TARGET...]     build the fuzzers (build-fuzz/, clang), prepare the seed
#                                            corpora, run each TARGET (default: all) for SECONDS
#   scripts/fuzz.sh --package DIR           build, then put the fuzzers (DIR/bin), the shared libraries
#                                            they need beyond the C/C++ runtime (DIR/lib), the seed
#                                            corpora (DIR/seeds) and dictionaries (DIR/dict) in DIR, and
#                                            DIR in DIR.tar.gz, for a machine without clang
#   scripts/fuzz.sh --from DIR SECONDS [TARGET...]
#                                            run a package made by --package; nothing is built
#   scripts/fuzz.sh --list                  the targets
#   scripts/fuzz.sh --smoke BIN_DIR SECONDS  CI's check (ctest fuzz_harnesses_on_seeds): the harnesses built
#                                            without libFuzzer (fuzz/standalone_driver.cpp; BIN_DIR holds
#                                            <target>_fuzzer and make_seeds), each run on its seeds and
#                                            SECONDS of random mutations of them
#
# Targets: lime ildg nersc milc openqcd propagator checkpoint toml.
# Environment: FUZZ_OUT (results; default build-fuzz/run-DATE, or DIR/run-DATE with --from),
# FUZZ_JOBS (targets run at once; default nproc), FUZZ_BUILD_JOBS (default 2),
# FUZZ_BIN_DIR (prebuilt fuzzers to run instead of building; LD_LIBRARY_PATH gets ../lib beside it),
# LQCD_TESTDATA (default ../shared/testdata beside the checkout).
#
# Each target runs with -timeout=10 (a hang), -malloc_limit_mb=1024 (a single allocation that large from
# an input of at most a few MB is a size taken from a header without checking it against the file),
# -rss_limit_mb=4096. A crash does not end a target's time: the target is restarted on its corpus until
# SECONDS have passed (at most 20 crashes), and every crash input is kept. Results: FUZZ_OUT/summary.txt
# (one line per target: executions, final cov/ft, corpus size, crashes) and FUZZ_OUT/<target>/
# (logs, crash-*/leak-*/timeout-*/oom-* inputs); the corpora grow in FUZZ_OUT/corpus/<target>.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

all_targets=(lime ildg nersc milc openqcd propagator checkpoint toml)
build_dir="$root/build-fuzz"
testdata="${LQCD_TESTDATA:-$root/../shared/testdata}"

usage() { sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }

# Clang 16 or newer (fuzz/CMakeLists.txt says why 14 will not do); Debian 12: clang-16 libclang-rt-16-dev.
build_fuzzers() {
  local v cxx="" cc=""
  for v in 19 18 17 16; do
    if command -v "clang++-$v" >/dev/null; then cxx="clang++-$v" cc="clang-$v"; break; fi
  done
  [ -n "$cxx" ] || { echo "fuzz.sh: clang++-16 or newer not found (apt-get install clang-16 libclang-rt-16-dev)" >&2; exit 1; }
  cmake -S fuzz -B "$build_dir" -G Ninja -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
  cmake --build "$build_dir" -j "${FUZZ_BUILD_JOBS:-2}"
}

# seeds DIR: one folder of seed inputs per target, from the reference files, lqcd's examples and the
# small files make_seeds writes with lqcd's own writers.
prepare_seeds() {
  local seeds=$1 generated
  generated=$(mktemp -d)
  [ -d "$testdata" ] || { echo "fuzz.sh: no test data at $testdata (set LQCD_TESTDATA)" >&2; exit 1; }
  "$build_dir/make_seeds" "$testdata" "$generated" >/dev/null
  rm -rf "$seeds"
  mkdir -p "$seeds"
  for t in "${all_targets[@]}"; do
    mkdir -p "$seeds/$t"
    cp "$generated/$t"/* "$seeds/$t/" 2>/dev/null || true
  done
  for f in "$testdata"/*.ildg "$testdata"/*.scidac "$testdata"/*.lime; do
    cp "$f" "$seeds/lime/"
    cp "$f" "$seeds/ildg/"
  done
  cp "$testdata"/*.milc "$seeds/milc/"
  cp examples/*.toml "$seeds/toml/"
  # Every input a campaign found a bug with (fuzz/regressions/<target>/), replayed first by each run.
  for t in "${all_targets[@]}"; do
    [ -d "fuzz/regressions/$t" ] && cp fuzz/regressions/"$t"/* "$seeds/$t/"
  done
  mkdir -p "$seeds/../dict"
  cp fuzz/*.dict "$seeds/../dict/"
  rm -rf "$generated"
}

dict_of() {
  case $1 in
    lime | ildg | propagator | checkpoint) echo lime.dict ;;
    nersc) echo nersc.dict ;;
    milc) echo milc.dict ;;
    toml) echo toml.dict ;;
    *) echo "" ;;
  esac
}

# Libraries a binary needs beyond glibc and the C++ runtime, which every Linux machine has.
extra_libraries() {
  ldd "$@" | awk '/=> \// {print $3}' | sort -u |
    grep -Ev '/(libc|libm|libdl|librt|libpthread|libresolv|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' || true
}

package() {
  local dir=$1
  build_fuzzers
  mkdir -p "$dir/bin" "$dir/lib"
  for t in "${all_targets[@]}"; do
    # Debug sections stripped (the package stays small); reports then give module+offset, which
    # build-fuzz/<target>_fuzzer (the same build) symbolises: run it on the crash input.
    strip --strip-debug -o "$dir/bin/${t}_fuzzer" "$build_dir/${t}_fuzzer"
  done
  for lib in $(extra_libraries "$build_dir"/*_fuzzer); do cp -L "$lib" "$dir/lib/"; done
  prepare_seeds "$dir/seeds"
  git rev-parse HEAD >"$dir/COMMIT" 2>/dev/null || true
  # The instrumented binaries are large (10-20 MB each) but compress about sevenfold: the tarball is
  # what to carry to the other machine.
  tar -C "$(dirname "$dir")" -czf "$dir.tar.gz" "$(basename "$dir")"
  echo "fuzz.sh: package in $dir ($(du -sh "$dir" | cut -f1)) and $dir.tar.gz ($(du -sh "$dir.tar.gz" | cut -f1));" \
    "shared libraries beyond the C/C++ runtime: $(ls "$dir/lib" | tr '\n' ' ')"
  echo "fuzz.sh: run it with: tar xzf $(basename "$dir").tar.gz && scripts/fuzz.sh --from $(basename "$dir") SECONDS"
}

# ASan of clang 14 cannot map its shadow memory when the kernel randomises mmap with more than 28
# bits (Ubuntu 24.04's kernels use 32: google/sanitizers#1614); running without address
# randomisation avoids it.
launcher=()
choose_launcher() {
  local bits
  bits=$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 28)
  if [ "$bits" -gt 28 ]; then
    if setarch "$(uname -m)" -R true 2>/dev/null; then
      launcher=(setarch "$(uname -m)" -R)
    else
      echo "fuzz.sh: warning: vm.mmap_rnd_bits = $bits and setarch -R is not permitted; if the fuzzers print" \
        "AddressSanitizer:DEADLYSIGNAL at start, run: sysctl vm.mmap_rnd_bits=28" >&2
    fi
  fi
}

# run_target TARGET SECONDS: the fuzzer on its corpus until SECONDS have passed, restarted after a crash.
run_target() {
  local t=$1 seconds=$2 out="$FUZZ_OUT/$t" corpus="$FUZZ_OUT/corpus/$t" dict
  mkdir -p "$out" "$corpus"
  cp -n "$seeds_dir/$t"/* "$corpus/" 2>/dev/null || true
  dict=$(dict_of "$t")
  local flags=(-timeout=10 -malloc_limit_mb=1024 -rss_limit_mb=4096 -use_value_profile=1 -print_final_stats=1
               "-artifact_prefix=$out/")
  [ -n "$dict" ] && [ -f "$dict_dir/$dict" ] && flags+=("-dict=$dict_dir/$dict")
  local deadline=$((SECONDS + seconds)) runs=0 crashes=0 executions=0 cov=0 ft=0 left rc log
  while :; do
    left=$((deadline - SECONDS))
    [ "$left" -ge 5 ] || break
    runs=$((runs + 1))
    log="$out/run$runs.log"
    rc=0
    UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:-}" \
      "${launcher[@]}" "$bin_dir/${t}_fuzzer" "${flags[@]}" -max_total_time="$left" "$corpus" >"$log" 2>&1 || rc=$?
    executions=$((executions + $(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1 | grep . || echo 0)))
    if grep -q 'cov: ' "$log"; then
      cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
      ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    fi
    [ "$rc" -eq 0 ] && break
    crashes=$((crashes + 1))
    echo "fuzz.sh: $t: run $runs ended with status $rc: $(grep -m1 -E 'ERROR|error|Error|terminate|DEADLYSIGNAL|Test unit written' "$log" || tail -1 "$log")" >&2
    [ "$crashes" -lt 20 ] || break
    if [ "$executions" -eq 0 ]; then break; fi  # fails before fuzzing: restarting would not help
  done
  local artifacts corpus_size
  artifacts=$(find "$out" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  corpus_size=$(find "$corpus" -type f | wc -l)
  printf '%-11s seconds=%-5s executions=%-10s cov=%-6s ft=%-6s corpus=%-6s crashes=%-3s inputs_kept=%s\n' \
    "$t" "$seconds" "$executions" "$cov" "$ft" "$corpus_size" "$crashes" "$artifacts" >"$out/summary.line"
}

mode=run from=""
case "${1:-}" in
  --package) [ $# -eq 2 ] || usage; package "$(realpath -m "$2")"; exit 0 ;;
  --from) [ $# -ge 3 ] || usage; from=$(realpath "$2"); shift 2 ;;
  --list) echo "${all_targets[*]}"; exit 0 ;;
  --smoke)
    [ $# -eq 3 ] || usage
    build_dir=$(realpath "$2")
    seeds=$(mktemp -d)
    trap 'rm -rf "$seeds"' EXIT
    prepare_seeds "$seeds/seeds"
    for t in "${all_targets[@]}"; do
      "$build_dir/${t}_fuzzer" "$3" "$seeds/seeds/$t" || { echo "fuzz.sh: $t: the harness failed on its seeds" >&2; exit 1; }
    done
    exit 0 ;;
  -h | --help) usage 0 ;;
  "") usage ;;
esac
[[ "${1:-}" =~ ^[0-9]+$ ]] || usage
seconds=$1
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $t "* ]] || { echo "fuzz.sh: unknown target '$t' (targets: ${all_targets[*]})" >&2; exit 2; }
done

stamp=$(date +%Y%m%d-%H%M%S)
if [ -n "$from" ]; then
  bin_dir="$from/bin" seeds_dir="$from/seeds" dict_dir="$from/dict"
  export LD_LIBRARY_PATH="$from/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  FUZZ_OUT="${FUZZ_OUT:-$from/run-$stamp}"
elif [ -n "${FUZZ_BIN_DIR:-}" ]; then
  bin_dir=$(realpath "$FUZZ_BIN_DIR")
  [ -d "$bin_dir/../lib" ] && export LD_LIBRARY_PATH="$bin_dir/../lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  FUZZ_OUT="${FUZZ_OUT:-$build_dir/run-$stamp}"
  seeds_dir="$FUZZ_OUT/seeds" dict_dir="$FUZZ_OUT/dict"
  if [ -d "$bin_dir/../seeds" ]; then
    seeds_dir="$bin_dir/../seeds" dict_dir="$bin_dir/../dict"
  else
    build_dir=$bin_dir prepare_seeds "$seeds_dir"  # needs make_seeds beside the fuzzers
  fi
else
  build_fuzzers
  bin_dir="$build_dir"
  FUZZ_OUT="${FUZZ_OUT:-$build_dir/run-$stamp}"
  seeds_dir="$build_dir/seeds" dict_dir="$build_dir/dict"
  prepare_seeds "$seeds_dir"
fi
mkdir -p "$FUZZ_OUT"
FUZZ_OUT=$(realpath "$FUZZ_OUT")
choose_launcher
jobs="${FUZZ_JOBS:-$(nproc)}"
echo "fuzz.sh: ${targets[*]} for $seconds s each, $jobs at a time; results in $FUZZ_OUT"

running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_target "$t" "$seconds" &
  running=$((running + 1))
done
wait || true

{
  echo "# scripts/fuzz.sh $seconds ${targets[*]} on $(hostname) ($(nproc) cores), $(date -u '+%Y-%m-%d %H:%M UTC')," \
    "commit $(cat "${from:-/nonexistent}/COMMIT" 2>/dev/null || git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  for t in "${targets[@]}"; do cat "$FUZZ_OUT/$t/summary.line" 2>/dev/null || echo "$t: no result"; done
} >"$FUZZ_OUT/summary.txt"
cat "$FUZZ_OUT/summary.txt"
if grep -Eq 'crashes=[1-9]' "$FUZZ_OUT/summary.txt"; then
  echo "fuzz.sh: crashes found; inputs in $FUZZ_OUT/<target>/ (reproduce: build-fuzz/<target>_fuzzer INPUT)" >&2
  exit 1
fi
