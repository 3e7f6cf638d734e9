#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (clang++, ASan+UBSan, build-fuzz/) and runs each for a
# bounded time from a scratch copy of its seed corpus (fuzz/corpus/<target>/ is never changed).
# A crash, sanitizer report, timeout, leak or out-of-memory fails the run; the input that caused it
# is kept under build-fuzz/findings/<target>/ and its path printed. Called by tools/run-tests.sh.
#   bash tools/run-fuzz.sh                           # every target, 60 s each
#   GEOMINT_FUZZ_SECONDS=600 bash tools/run-fuzz.sh fuzz_spin_file
#   GEOMINT_FUZZ_SECONDS=0 bash tools/run-fuzz.sh     # only replay the seed corpora (seconds)
#   build-fuzz/fuzz_spin_file build-fuzz/findings/fuzz_spin_file/crash-...   # replay one input
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
build="$root/${GEOMINT_FUZZ_BUILD:-build-fuzz}"
seconds="${GEOMINT_FUZZ_SECONDS:-60}"
all_targets=(fuzz_number_parsing fuzz_parameter_axis fuzz_spin_file fuzz_sweep_file fuzz_sweep_arguments)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
case "$seconds" in '' | *[!0-9]*) echo "run-fuzz: GEOMINT_FUZZ_SECONDS must be a whole number, not '$seconds'"; exit 2 ;; esac

for target in "${targets[@]}"; do
  [ -d "fuzz/corpus/$target" ] || { echo "run-fuzz: no target $target (targets: ${all_targets[*]})"; exit 2; }
done

cmake -S fuzz -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"

failed=()
for target in "${targets[@]}"; do
  work="$build/run/$target"        # scratch corpus, grown by this run only
  findings="$build/findings/$target"
  rm -rf "$work" "$findings"
  mkdir -p "$work/corpus" "$work/tmp" "$findings"
  cp -R "fuzz/corpus/$target/." "$work/corpus/"
  # -timeout: seconds one input may take; the outer timeout only guards against a hung fuzzer.
  limit=(-max_total_time="$seconds")
  [ "$seconds" -gt 0 ] || limit=(-runs=0)  # libFuzzer takes -max_total_time=0 as "no limit"
  start=$(date +%s)
  rc=0
  (cd "$work" && TMPDIR="$work/tmp" timeout $((seconds + 300)) "$build/$target" "${limit[@]}" \
    -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" corpus \
    >"$work/log.txt" 2>&1) || rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log.txt")
  echo "run-fuzz: $target: exit $rc after $(($(date +%s) - start)) s, ${runs:-?} inputs run (log: $work/log.txt)"
  shopt -s nullglob
  inputs=("$findings"/*)
  if [ "$rc" -ne 0 ] || [ ${#inputs[@]} -gt 0 ]; then
    failed+=("$target")
    grep -E -A3 'FUZZ_CHECK failed|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|terminate called|SUMMARY' \
      "$work/log.txt" | head -40 || tail -40 "$work/log.txt"
    for input in "${inputs[@]}"; do echo "run-fuzz: $target: failing input kept at $input"; done
    echo "run-fuzz: replay with: $build/$target <input>"
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "run-fuzz: FAILED: ${failed[*]}"
  exit 1
fi
echo "run-fuzz: ${#targets[@]} targets, ${seconds} s each, no finding"
