#!/usr/bin/env bash
# Sets up and builds geomint, then integrates an example ensemble: 31 pendulums from rest at
# angles 0.1 .. 3.1 (w = 2 pi, five periods of the small oscillation) with the Simpson scheme,
# against the exact solution. Writes pendulum.csv (path: first argument).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-pendulum.csv}"
bash tools/setup.sh
./build/geomint pendulum --scheme simpson --q0 0.1:3.1:31 --p0 0 --omega 6.283185307179586 \
  --steps 1000 --t-end 5 --exact --out "$out"
echo "example: first rows of $out"
head -n 4 "$out"
