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
for stage in "${stages[@]}"; do
  start=$(date +%s)
  case "$stage" in
    ctest) command=(ctest --test-dir build --output-on-failure -j "$(nproc)") ;;
    sanitizers) command=(bash tools/run-sanitizers.sh) ;;
    fuzz) command=(bash tools/run-fuzz.sh) ;;
  esac
  echo "run-tests: stage $stage: ${command[*]}"
  if "${command[@]}"; then result=passed; else result=FAILED; failed+=("$stage"); fi
  summary+=("$stage $result in $(($(date +%s) - start)) s")
done

for line in "${summary[@]}"; do echo "run-tests: $line"; done
[ "$mode" = full ] || echo "run-tests: GEOMINT_TESTS=quick: sanitizer and fuzz stages skipped"
if [ ${#failed[@]} -gt 0 ]; then
  echo "run-tests: FAILED: ${failed[*]}"
  exit 1
fi
