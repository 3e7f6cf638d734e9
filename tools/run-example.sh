#!/usr/bin/env bash
# Sets up and builds the geomint program (only it: tools/setup.sh geomint), then integrates an
# example ensemble: 31 pendulums from rest at angles 0.1 .. 3.1 (w = 2 pi, five periods of the
# small oscillation) with the Simpson scheme, against the exact solution. Writes pendulum.csv
# (path: first argument). The CUDA backend is compiled where it can run (a GPU that nvidia-smi
# lists) or when GEOMINT_CUDA=ON asks for it; the tests compile it whenever nvcc is found.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-pendulum.csv}"
if [ -z "${GEOMINT_CUDA:-}" ]; then
  GEOMINT_CUDA=OFF
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then GEOMINT_CUDA=AUTO; fi
fi
if [ "$GEOMINT_CUDA" = OFF ]; then
  echo "example: building for the CPU (no usable GPU found; GEOMINT_CUDA=ON compiles the CUDA backend too)"
else
  echo "example: building with the CUDA backend (GEOMINT_CUDA=$GEOMINT_CUDA)"
fi
GEOMINT_CUDA="$GEOMINT_CUDA" bash tools/setup.sh geomint
./build/geomint pendulum --scheme simpson --q0 0.1:3.1:31 --p0 0 --omega 6.283185307179586 \
  --steps 1000 --t-end 5 --exact --out "$out"
echo "example: first rows of $out"
head -n 4 "$out"
