#!/usr/bin/env bash
# Builds lqcd (CPU backend always, CUDA backend too when nvcc is found) and runs the whole test suite.
# GPU tests run where a GPU is present and are skipped (reported as such) elsewhere.
#
#   scripts/test.sh --sanitize [CTEST ARGS...]
# builds the CPU backend with AddressSanitizer + UndefinedBehaviorSanitizer in build-sanitize/
# (-O1 and line numbers in the reports) and runs ctest there; a finding fails its test.
# CTEST ARGS select tests (e.g. -L sanitize-ci, -R Wilson); LQCD_SANITIZE_TARGETS="test_io lqcd ..."
# builds only those targets instead of everything (CI's subset).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

if [[ "${1:-}" != "--sanitize" ]]; then
  bash scripts/build.sh
  cd build
  exec ctest --output-on-failure -j "$jobs" --timeout 900
fi
shift

bash scripts/install-deps.sh
# -O1 -g1: line numbers in the reports, and about 40% less compile time than -O2 -g (CI builds this).
cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DLQCD_CUDA=OFF -DLQCD_SANITIZE=ON >/dev/null
targets=()
for t in ${LQCD_SANITIZE_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build build-sanitize -j "$jobs" "${targets[@]}"

# The options reach every process a test starts: mpiexec's ranks and the lqcd binary that the
# command-line tests run. halt_on_error/abort: the first finding ends the process with a failure.
# LeakSanitizer works in this container (it needs ptrace-like access to the threads; checked with a
# deliberate leak). The suppressions name third-party libraries only (OpenMPI's leaks at exit);
# never add lqcd's own code to them.
supp="$PWD/scripts/sanitize/lsan.supp"
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0:print_stacktrace=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
cd build-sanitize
exec ctest --output-on-failure -j "$jobs" --timeout 1800 "$@"
