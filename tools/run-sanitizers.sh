#!/usr/bin/env bash
# The test suite built with AddressSanitizer + UndefinedBehaviorSanitizer (clang++, CPU only,
# build-asan/) and run with CTest, the recorded CLI outputs included. Any
# sanitizer report fails the run: reports go to build-asan/sanitizer-logs/ (those of geomint
# processes whose failure a test expected too) and are printed at the end.
# Called by tools/run-tests.sh; runs alone as   bash tools/run-sanitizers.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
build="${GEOMINT_ASAN_BUILD:-build-asan}"
jobs="$(nproc)"
sanitize="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"

# Without MPI (GEOMINT_MPI=OFF): Open MPI's own allocations, kept until exit, are leaks to
# LeakSanitizer, and its transports under ASan are not what is tested here; the one-process
# paths that the MPI ranks reuse are. The MPI tests run in the plain build (tests/mpi/).
# clang++ (OpenMP from libomp): half the compile time of g++ here, and its sanitizer runtime honours
# log_path for UBSan reports too. -O1 -g1 (line tables): stacks with file:line, tests still fast;
# assertions stay on. -ffp-contract=off: clang would otherwise fuse a*b+c where it folds constants
# (and UBSan's checks move what it folds), so results would differ from the g++ build's by an ulp.
# -Wno-pass-failed: at -O1 with the sanitizers' checks clang cannot vectorize the pendulum lanes'
# `omp simd` loops (src/pendulum_lanes_engine.hpp) and warned of each; the lanes are measured in the
# plain g++ -O3 build (bench/RESULTS.md, "The pendulum's SIMD lanes").
cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_CXX_FLAGS="$sanitize -ffp-contract=off -Wno-pass-failed" \
  -DCMAKE_EXE_LINKER_FLAGS="$sanitize" -DGEOMINT_CUDA=OFF -DGEOMINT_BUILD_BENCH=OFF -DGEOMINT_MPI=OFF -DGEOMINT_PYTHON=OFF >/dev/null

logs="$root/$build/sanitizer-logs"
rm -rf "$logs"
mkdir -p "$logs"
# Set for the build too: gtest_discover_tests runs the sanitized test programs while building.
# halt_on_error with -fno-sanitize-recover=all: the first report ends the process, non-zero.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1:strict_string_checks=1:log_path=$logs/asan"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$logs/ubsan"
export LSAN_OPTIONS="suppressions=$root/tools/lsan-suppressions.txt:print_suppressions=0"

SECONDS=0
cmake --build "$build" -j "$jobs"
built=$SECONDS

# Not run here: layering and formatting (scripts that run the plain compilers). The recorded CLI
# outputs (cli_outputs_match_recorded) are run and must match byte for byte under clang++ too.
# The JUnit file keeps each test's output for tools/run-tests.sh's closing report of failures.
status=0
rm -f "$build/ctest-junit.xml"
ctest --test-dir "$build" --output-on-failure -j "$jobs" -E '^(layering|formatting)$' \
  --output-junit "$(realpath "$build")/ctest-junit.xml" || status=$?
tested=$SECONDS
echo "run-sanitizers: build $built s, CTest $((tested - built)) s"

shopt -s nullglob
reports=("$logs"/*)
if [ ${#reports[@]} -gt 0 ]; then
  for report in "${reports[@]}"; do
    echo "---- sanitizer report: $report"
    cat "$report"
  done
  echo "run-sanitizers: ${#reports[@]} sanitizer report(s), in $logs"
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "run-sanitizers: tests failed under ASan+UBSan (no sanitizer report)"
  exit "$status"
fi
echo "run-sanitizers: ASan+UBSan build passed, no sanitizer report"
