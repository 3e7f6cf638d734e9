#!/usr/bin/env bash
# Registers, stack frame and spills of every CUDA kernel, as ptxas reports them at compile time
# (no GPU needed), one line per kernel (tools/kernel_resources.py reads the scheme, system and
# recorder from the demangled kernel names, so the list follows the registry by itself).
#   tools/kernel-resources.sh                  compiles kernels/*.cu for sm_90, and the spin units
#                                              once per registry system (~12 min on 2 cores)
#   tools/kernel-resources.sh --build DIR      no compilation: the reports a CUDA build in DIR kept
#                                              (tools/ptxas-report-launcher.sh), as built
#   tools/kernel-resources.sh --system I       only the spin units of registry system I
#   tools/kernel-resources.sh --system I --scheme J [--block] [--save | --portrait]
#                                              only the plain double kernel of scheme J (registry
#                                              order, from 0) on system I (tools/spin_kernel_probe.cu),
#                                              10-30 s: for iterating on one kernel; --block: its
#                                              block-per-chain kernel (chain systems); --save: the
#                                              kernel that saves states (SaveRecorder) instead;
#                                              --portrait: the one that records a portrait
set -euo pipefail
cd "$(dirname "$0")/.."
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
units="${GEOMINT_SPIN_CUDA_UNITS:-4}"
build="" system="" scheme="" probe_flags=()
while (($#)); do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --system) system="$2"; shift 2 ;;
    --scheme) scheme="$2"; shift 2 ;;
    --block) probe_flags+=(-DGEOMINT_PROBE_BLOCK); shift ;;
    --save) probe_flags+=(-DGEOMINT_PROBE_SAVE); shift ;;
    --portrait) probe_flags+=(-DGEOMINT_PROBE_PORTRAIT); shift ;;
    *) echo "usage: $0 [--build DIR | --system I [--scheme J [--block] [--save | --portrait]]]" >&2; exit 2 ;;
  esac
done
flags=(-std=c++20 -O3 -DNDEBUG -arch=sm_90 --ftz=false --prec-div=true --prec-sqrt=true --expt-relaxed-constexpr
       -DGEOMINT_SPIN_CUDA_UNITS="$units" -Ikernels -Iinclude -Xptxas -v -c -o /dev/null)
table() { python3 tools/kernel_resources.py table; }
if [[ -n "$build" ]]; then
  find "$build" -name '*.ptxas' -print0 | xargs -0 cat | table
  exit 0
fi
if [[ -n "$scheme" ]]; then
  nvcc "${flags[@]}" -DGEOMINT_PROBE_SYSTEM="$system" -DGEOMINT_PROBE_SCHEME="$scheme" "${probe_flags[@]}" \
    tools/spin_kernel_probe.cu 2>&1 | table
  exit 0
fi
{
  if [[ -z "$system" ]]; then
    for source in kernels/*.cu; do
      case "$(basename "$source")" in spin_cuda_system.cu | spin_portrait_cuda_system.cu) continue ;; esac
      nvcc "${flags[@]}" "$source" 2>&1
    done
  fi
  for ((index = 0; index < units; ++index)); do
    [[ -n "$system" && "$index" != "$system" ]] && continue
    for source in kernels/spin_cuda_system.cu kernels/spin_portrait_cuda_system.cu; do
      nvcc "${flags[@]}" -DGEOMINT_SPIN_SYSTEM_INDEX="$index" "$source" 2>&1
    done
  done
} | table
