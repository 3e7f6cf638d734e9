#!/usr/bin/env bash
# Float against double for spin systems (bench/RESULTS.md, "Float spins"): the largest energy error
# and unit-length error over 10^3, 10^4 and 10^5 steps of h = 0.1 (the CSV's energy_error and
# norm_error), for the top and a random chain of 8 spins, and the CPU time of the 10^5-step runs
# in both precisions (user time, one thread), so their ratio is measured in the same run.
# Usage: bench/spin_float_accuracy.sh [build/geomint] [schemes...]
set -euo pipefail
geomint="${1:-build/geomint}"
shift || true
schemes=("$@")
[ ${#schemes[@]} -gt 0 ] || schemes=(mp avf ia sia comp4 coll4 mmp implicit_midpoint spherical_midpoint)
run() {  # system scheme steps precision -> "energy_error norm_error user_seconds"
  local system=$1 scheme=$2 steps=$3 precision=$4 options d output csv
  if [ "$system" = top ]; then options=(--system top) d=1; else options=(--system chain --spins 8 --random 1 --seed 1) d=8; fi
  # The CSV's last row, then time's line (user seconds) from standard error.
  output=$( { /usr/bin/time -f "%U" "$geomint" spin "${options[@]}" --scheme "$scheme" --steps "$steps" --dt 0.1 \
                --precision "$precision" --backend cpu --threads 1 --quiet --out - | tail -1; } 2>&1)
  csv=$(grep ',' <<<"$output")
  # energy_error is column 3 d + 1, norm_error the last.
  printf '%s %s %s\n' "$(cut -d, -f$((3 * d + 1)) <<<"$csv")" "$(awk -F, '{print $NF}' <<<"$csv")" \
    "$(grep -v ',' <<<"$output" | tail -1)"
}
printf '%-6s %-19s %-6s %-8s %-24s %-24s %s\n' system scheme prec steps energy_error norm_error user_s
for system in top chain; do
  for scheme in "${schemes[@]}"; do
    [ "$system" = top ] && [ "$scheme" = mmp ] && continue  # mmp needs a chain
    for precision in double float; do
      for steps in 1000 10000 100000; do
        read -r energy norm user <<<"$(run "$system" "$scheme" "$steps" "$precision")"
        printf '%-6s %-19s %-6s %-8s %-24s %-24s %s\n' "$system" "$scheme" "$precision" "$steps" "$energy" "$norm" "$user"
      done
    done
  done
done
