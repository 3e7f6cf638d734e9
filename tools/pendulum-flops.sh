#!/usr/bin/env bash
# Floating-point operations of one pendulum step per scheme, and the bound they put on an H200
# (issue 9, item 5). The arithmetic is counted by running the per-trajectory body with a counting
# number type (bench/pendulum_flops.cpp); each sin and cos call is weighted by the operations of
# CUDA's own sin and cos, read from their PTX (the kernel's fast path for |x| < ~1e5, the only one
# the pendulum takes: the slow argument reduction is a separate call that a wrapped angle never
# makes). Convention: an add, sub or mul is 1 operation, an fma 2 (as the GPU's peak counts it), a
# division 1 (the PTX div.rn expands to a short iteration in SASS, so the bound is optimistic there).
#   bash tools/pendulum-flops.sh [BUILD_DIR]    # default build/; needs nvcc and bench/pendulum_flops
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Operations of one call of FUNCTION on TYPE in the PTX body of a one-call kernel (the fast path).
ops_of() {  # TYPE FUNCTION
  printf '__global__ void k(%s* x) { x[threadIdx.x] = %s(x[threadIdx.x]); }\n' "$1" "$2" >"$work/k.cu"
  nvcc -arch=sm_90 -O3 --ftz=false --prec-div=true --prec-sqrt=true -ptx -o "$work/k.ptx" "$work/k.cu"
  local suffix=f64
  [ "$1" = float ] && suffix=f32
  # Only the kernel's body: the slow-path reduction is a separate .func.
  awk '/\.entry/{inside=1} inside' "$work/k.ptx" |
    awk -v s="$suffix" '$1 ~ "^fma\\..*" s "$" {n += 2} $1 ~ "^(add|sub|mul)(\\.rn)?\\." s "$" {n += 1} END {print n + 0}'
}
sin64=$(ops_of double sin); cos64=$(ops_of double cos); sin32=$(ops_of float sinf); cos32=$(ops_of float cosf)
echo "CUDA sin/cos, operations on the fast path (PTX, sm_90): double sin $sin64, cos $cos64; float sinf $sin32, cosf $cos32"
"$build"/bench/pendulum_flops "$sin64" "$cos64" "$sin32" "$cos32" | tee "$work/table.txt"
# The bound on an H200: peak operations per second over the operations of a step.
awk 'NR > 1 {peak = ($2 == "double") ? 34e12 : 67e12; printf "%-8s %-6s bound on an H200 (%s TFLOP/s): %.2e steps/s\n", $1, $2, peak / 1e12, peak / $8}' "$work/table.txt"
