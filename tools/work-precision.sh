#!/usr/bin/env bash
# Work-precision against Boost.Odeint (issue 9): builds bench/work_precision (CPU only, in
# BUILD_DIR, default build/), runs it on the issue's ensemble and writes
#   bench/work_precision.csv   method,steps,h,seconds,steps_per_second,max_error,cpu_seconds,trajectories,threads
#   bench/work_precision.png   log-log max error at T against wall time, one line per method
# and prints the Markdown table, date, command and CPU for bench/RESULTS.md. Rerun it after a
# change to a scheme and paste the printed section over the old one.
#   bash tools/work-precision.sh                      # 20 000 trajectories, 500..32 000 steps (~7 min on 2 idle cores)
#   TRAJECTORIES=2000 STEPS=500,2000 bash tools/work-precision.sh   # a quick look
# Environment: BUILD_DIR, TRAJECTORIES, STEPS, PERIODS, THREADS (default: every core), REPEAT,
# METHODS (default: all; `build/bench/work_precision --list`), OUT_CSV, OUT_PNG.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir="${BUILD_DIR:-build}"
trajectories="${TRAJECTORIES:-20000}"
steps="${STEPS:-500,1000,2000,4000,8000,16000,32000}"
periods="${PERIODS:-10}"
threads="${THREADS:-$(nproc)}"
repeat="${REPEAT:-1}"
methods="${METHODS:-}"
out_csv="${OUT_CSV:-bench/work_precision.csv}"
out_png="${OUT_PNG:-bench/work_precision.png}"

if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" -G Ninja -DGEOMINT_CUDA=OFF
fi
cmake --build "$build_dir" -j "$(nproc)" --target work_precision

command=("$build_dir/bench/work_precision" --trajectories "$trajectories" --steps "$steps" --periods "$periods"
  --threads "$threads" --repeat "$repeat")
[ -z "$methods" ] || command+=(--methods "$methods")
tmp_csv="$out_csv.tmp.$$"
trap 'rm -f "$tmp_csv"' EXIT
started=$(date -u '+%Y-%m-%d %H:%M UTC')
load=$(cut -d ' ' -f 1-3 /proc/loadavg)
"${command[@]}" --out "$tmp_csv"
mv "$tmp_csv" "$out_csv"

cpu=$(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
cores=$(nproc)
compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
compiler_version=$("${compiler:-c++}" --version | head -n 1)
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
title="pendulum ensemble: $trajectories trajectories, T = $periods periods of q0 = 1.5; $threads threads, $cpu ($cores cores), $started"
/usr/bin/python3 tools/plot_work_precision.py "$out_csv" "$out_png" --title "$title" || {
  status=$?
  [ "$status" -eq 77 ] || exit "$status"
  echo "work-precision: no plot (matplotlib missing)"
}

echo
echo "Measured $started on $cpu, $cores cores (lscpu), $threads threads; $compiler_version, ${build_type:-no build type};"
echo "load average before the run: $load (nproc $cores):"
echo
echo "    ${command[*]} --out $out_csv"
echo
/usr/bin/python3 tools/plot_work_precision.py "$out_csv" --table
