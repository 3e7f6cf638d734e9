#!/usr/bin/env bash
# Throughput of one pendulum sweep as one process and split across 1 and 2 MPI ranks (issue 11):
#   bash bench/mpi_throughput.sh [GEOMINT] [REPEATS] [STEPS]
# (STEPS per trajectory, 400 by default: more steps make the run compute-bound, fewer output-bound.)
# Prints, per setup, the best wall time of REPEATS runs (mpirun's start included) and the
# trajectory-steps per second it makes; every output is checked equal (cmp) to the one-process one.
set -euo pipefail
geomint="$(realpath "${1:-build/geomint}")"
repeats="${2:-3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/geomint-mpi-bench-XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$work"
trajectories=100000
steps="${3:-400}"
cat >sweep.toml <<TOML
command = "pendulum"
scheme = "newmark"
backend = "cpu"
random = $trajectories
q0 = "-3:3"
p0 = "-1:1"
steps = $steps
dt = 0.01
chunk-size = 5000
out = "out.csv"
TOML
mpi=(mpirun --allow-run-as-root --bind-to core --map-by core)
run() {  # NAME THREADS COMMAND...: best of $repeats
  local name="$1" threads="$2" best=""
  shift 2
  sed -i "/^threads/d" sweep.toml
  echo "threads = $threads" >>sweep.toml
  for _ in $(seq "$repeats"); do
    rm -f out.csv
    local start end
    start=$(date +%s.%N)
    "$@" run sweep.toml 2>/dev/null
    end=$(date +%s.%N)
    local t
    t=$(awk "BEGIN { print $end - $start }")
    if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
  done
  if [ -e reference.csv ]; then cmp -s out.csv reference.csv || { echo "$name: output differs"; exit 1; }; else mv out.csv reference.csv; fi
  printf '%-40s %8.2f s  %6.1f M trajectory-steps/s\n' "$name" "$best" \
    "$(awk "BEGIN { print $trajectories * $steps / $best / 1e6 }")"
}
echo "pendulum newmark, $trajectories trajectories x $steps steps, chunks of 5000, CSV; best of $repeats; $(nproc) cores"
run "one process, $(nproc) threads" 0 "$geomint"
run "one process, 1 thread" 1 "$geomint"
run "mpirun -np 1 (1 rank, 1 thread)" 1 "${mpi[@]}" -np 1 "$geomint"
run "mpirun -np 2 (2 ranks, 1 thread each)" 1 "${mpi[@]}" -np 2 "$geomint"
