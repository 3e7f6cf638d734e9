#!/usr/bin/env bash
# The test command: sets up and builds (tools/setup.sh), runs every test with CTest, then the
# ASan+UBSan build of the suite (tools/run-sanitizers.sh) and the fuzz targets (tools/run-fuzz.sh).
# GPU tests skip, with the reason, where no CUDA device is usable. Stages: docs/testing.md.
#   GEOMINT_TESTS=quick bash tools/run-tests.sh    # CTest only, for a developer's loop (not in CI)
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${GEOMINT_TESTS:-full}"
case "$mode" in
  full | quick) ;;
  *) echo "run-tests: GEOMINT_TESTS must be 'full' (the default) or 'quick', not '$mode'"; exit 2 ;;
esac
if [ "$mode" = quick ] && [ "${CI:-}" = true ]; then
  echo "run-tests: CI=true: GEOMINT_TESTS=quick ignored, running every stage"
  mode=full
fi

bash tools/setup.sh

stages=(ctest)
[ "$mode" = quick ] || stages+=(sanitizers fuzz)
# Every stage runs even when an earlier one fails, so that one run reports all of them.
failed=()
summary=()
junit="$PWD/build/ctest-junit.xml"
for stage in "${stages[@]}"; do
  start=$(date +%s)
  case "$stage" in
    ctest)
      # The JUnit file keeps each test's output, so the failures can be repeated at the end.
      rm -f "$junit"
      command=(ctest --test-dir build --output-on-failure -j "$(nproc)" --output-junit "$junit")
      ;;
    sanitizers) command=(bash tools/run-sanitizers.sh) ;;
    fuzz) command=(bash tools/run-fuzz.sh) ;;
  esac
  echo "run-tests: stage $stage: ${command[*]}"
  if "${command[@]}"; then result=passed; else result=FAILED; failed+=("$stage"); fi
  summary+=("$stage $result in $(($(date +%s) - start)) s")
done

# CI shows a log's last lines only: the failed tests of the CTest and sanitizer stages, with their
# last output lines, and then one line of names per stage, down here too.
junits=()
for stage in "${failed[@]}"; do
  case "$stage" in
    ctest) junits+=("$junit") ;;
    sanitizers) junits+=("$(realpath -m "${GEOMINT_ASAN_BUILD:-build-asan}")/ctest-junit.xml") ;;
  esac
done
# A report that cannot be made (|| true) must not keep the summary below from being printed.
for file in "${junits[@]}"; do /usr/bin/python3 tools/ctest_failures.py "$file" --details-only || true; done
for file in "${junits[@]}"; do echo "run-tests: in $file: $(/usr/bin/python3 tools/ctest_failures.py "$file" --names-only)"; done
for line in "${summary[@]}"; do echo "run-tests: $line"; done
[ "$mode" = full ] || echo "run-tests: GEOMINT_TESTS=quick: sanitizer and fuzz stages skipped"
if [ ${#failed[@]} -gt 0 ]; then
  echo "run-tests: FAILED: ${failed[*]}"
  exit 1
fi
