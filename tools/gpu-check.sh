#!/usr/bin/env bash
# GPU check in one call: CUDA tests, GPU benchmarks (CUDA events) and a CLI throughput run,
# with a summary in $OUT/summary.txt (or ./gpu-check-out/ when OUT is unset).
#
#   bash tools/gpu-check.sh prepare   # here, without a GPU: builds build-gpu/ for sm_90 with the
#                                     # tests and benchmarks, and stages the programs and the shared
#                                     # libraries they load (Google Benchmark, SLEEF, ...) in .gpu/
#   bash tools/gpu-check.sh           # on the GPU machine, with .gpu/ carried along (a few MiB)
set -uo pipefail
cd "$(dirname "$0")/.."
build=build-gpu
stage=.gpu

# Copies the shared libraries that the programs given load (ldd) into $stage/libs, but for glibc's.
stage_libraries() {
  ldd "$@" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
    grep -Ev '/(libc|libm|libdl|libpthread|librt|libresolv|ld-linux[^/]*)\.so' |
    while read -r library; do cp -L "$library" "$stage/libs/"; done
}

if [ "${1:-}" = "prepare" ]; then
  set -e
  command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
  # Without MPI and Python: the GPU check runs neither, and Open MPI's libraries would have to
  # travel too.
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGEOMINT_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES="${GEOMINT_GPU_ARCH:-90}" -DGEOMINT_MPI=OFF -DGEOMINT_PYTHON=OFF
  cmake --build "$build" -j "$(nproc)"
  rm -rf "$stage" && mkdir -p "$stage/tests" "$stage/bench" "$stage/libs"
  cp "$build/geomint" "$stage/"
  cp "$build"/tests/geomint_tests "$build"/tests/geomint_spin_tests "$build"/tests/geomint_hdf5_tests \
    "$build"/tests/geomint_portrait_tests "$stage/tests/"
  cp "$build"/bench/bench_* "$stage/bench/"
  # Every shared library the staged programs load, except the C library's own (the GPU machine's
  # glibc runs them): Google Benchmark, SLEEF, HDF5, libpng, toml++ may all be missing there.
  stage_libraries "$stage/geomint" "$stage"/tests/* "$stage"/bench/*
  du -sh "$stage"
  exit 0
fi

out="${OUT:-gpu-check-out}"
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/$stage/libs:${LD_LIBRARY_PATH:-}"
summary="$out/summary.txt"
{
  echo "geomint GPU check, $(date -u '+%Y-%m-%d %H:%M UTC')"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 || echo "nvidia-smi failed"
} | tee "$summary"

if [ ! -x "$stage/geomint" ]; then
  echo "no $stage/geomint: run 'bash tools/gpu-check.sh prepare' first and carry $stage" | tee -a "$summary"
  exit 1
fi

# Stop early, with the reason, where the CUDA backend cannot run.
if ! "$stage/geomint" pendulum --backend cuda --steps 1 --dt 0.1 --quiet --out /tmp/gpu-check-probe.csv \
    2>>"$summary"; then
  echo "gpu-check: no usable CUDA device, nothing measured" | tee -a "$summary"
  exit 2
fi
rm -f /tmp/gpu-check-probe.csv

status=0
# The tests that run the CLI find the staged binary, not the build folder's absolute path.
export GEOMINT_TEST_BINARY="$PWD/$stage/geomint"
echo "== CUDA tests (the overlapped chunk loop: OverlapCuda, Hdf5OverlapCuda; spin portraits: SpinPortraitCuda)" |
  tee -a "$summary"
for suite in "$stage"/tests/geomint_tests "$stage"/tests/geomint_spin_tests "$stage"/tests/geomint_hdf5_tests \
  "$stage"/tests/geomint_portrait_tests; do
  [ -x "$suite" ] || continue
  timeout 240 "$suite" --gtest_filter='*Cuda*' --gtest_brief=1 >"$out/$(basename "$suite").log" 2>&1 || status=1
  tail -n 3 "$out/$(basename "$suite").log" | tee -a "$summary"
done

echo "== GPU benchmarks (kernel time from CUDA events; median of 3 repetitions, or one run where a case" \
  "says repeats:1: bench_spin's sweep of every scheme over 10^4-10^7 tops and d = 16, 128, 1024)" | tee -a "$summary"
for bench in "$stage"/bench/bench_*; do
  [ -x "$bench" ] || continue
  name=$(basename "$bench")
  timeout 300 "$bench" --benchmark_filter='cuda' --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/$name.json" --benchmark_out_format=json >"$out/$name.txt" 2>&1 || status=1
  grep -E '_median|repeats:1/|ERROR' "$out/$name.txt" | tee -a "$summary"
done
# Overlapped against synchronous chunk loops (bench/bench_overlap.cpp): wall-time ratio per size.
if [ -s "$out/bench_overlap.json" ]; then
  python3 - "$out/bench_overlap.json" <<'PY' 2>&1 | tee -a "$summary"
import json, sys
runs = {}
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b.get("aggregate_name") != "median": continue
    kind, size = b["run_name"].split("/", 1)
    runs.setdefault(size, {})[kind.rsplit("_", 1)[-1]] = b["real_time"]
for size, t in sorted(runs.items()):
    if "synchronous" in t and "overlapped" in t:
        print("overlap %s: synchronous %.1f ms, overlapped %.1f ms, speed-up %.2fx"
              % (size, t["synchronous"], t["overlapped"], t["synchronous"] / t["overlapped"]))
PY
fi

echo "== CLI end to end: 2^22 pendulums x 1000 Simpson steps" | tee -a "$summary"
( time "$stage/geomint" pendulum --backend cuda --scheme simpson --q0 -3:3:2048 --p0 -2:2:2048 --omega 6.283185307179586 \
    --steps 1000 --dt 1e-3 --out /tmp/gpu-check.csv ) >>"$summary" 2>&1 || status=1
rm -f /tmp/gpu-check.csv
echo "== CLI end to end: a spin portrait on the GPU (10^4 random tops x 1000 steps)" | tee -a "$summary"
( time "$stage/geomint" portrait spin --backend cuda --random 10000 --steps 1000 --dt 0.01 \
    --out /tmp/gpu-check.png ) >>"$summary" 2>&1 || status=1
rm -f /tmp/gpu-check.png
tail -n 4 "$summary"
echo "gpu-check: exit status $status" | tee -a "$summary"
exit $status
