#!/usr/bin/env bash
# Registers, stack frame and spills of every CUDA kernel, as ptxas reports them at compile time
# (no GPU needed): compiles kernels/*.cu for sm_90 with -Xptxas -v, and kernels/spin_cuda_system.cu
# and kernels/spin_portrait_cuda_system.cu once per spin system of the registry, and prints one
# line per kernel. The scheme, system and recorder of each kernel are read from its demangled name
# (cu++filt, or c++filt where the CUDA toolkit lacks it), so the list follows the registry by itself.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
units="${GEOMINT_SPIN_CUDA_UNITS:-4}"
# Both demangle the Itanium names nvcc emits; some toolkit installs ship no cu++filt.
demangler=cu++filt
command -v cu++filt >/dev/null 2>&1 || demangler=c++filt
export GEOMINT_DEMANGLER="$demangler"
flags=(-std=c++20 -O3 -DNDEBUG -arch=sm_90 --ftz=false --prec-div=true --prec-sqrt=true --expt-relaxed-constexpr
       -DGEOMINT_SPIN_CUDA_UNITS="$units" -Ikernels -Iinclude -Xptxas -v -c -o /dev/null)
report() {  # ptxas output on stdin -> one line per kernel
  python3 -c '
import os, re, subprocess, sys
def split_args(text):
    depth, start, parts = 0, 0, []
    for i, c in enumerate(text):
        if c == "<": depth += 1
        elif c == ">": depth -= 1
        elif c == "," and depth == 0: parts.append(text[start:i].strip()); start = i + 1
    parts.append(text[start:].strip())
    return parts
kernel = None
for line in sys.stdin:
    m = re.search(r"Compiling entry function .(_Z\w+)", line)
    if m:
        name = subprocess.run([os.environ["GEOMINT_DEMANGLER"], m.group(1)], capture_output=True, text=True).stdout.strip()
        name = name.replace("geomint::spin::", "").replace("geomint::", "")
        body = re.search(r"(PendulumTrajectoryBody|SpinChainBody)<(.*)>\s*>?\(", name)
        kernel = split_args(body.group(2)) if body else None
        continue
    m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores", line)
    if m: stack, spill = m.group(1), m.group(2)
    m = re.search(r"Used (\d+) registers", line)
    if m and kernel:
        recorder = kernel[3].split("<")[0].rstrip("> ").replace("portrait::", "") if len(kernel) > 3 else "-"
        print("%-22s %-34s %-7s %-20s %4s registers %6s B stack %6s B spill stores" % (kernel[0], kernel[1], kernel[2], recorder, m.group(1), stack, spill))
        kernel = None
'
}
printf '%-22s %-34s %-7s %-20s %s\n' scheme system/potential real recorder "resources (ptxas, sm_90)"
for source in kernels/*.cu; do
  case "$(basename "$source")" in spin_cuda_system.cu | spin_portrait_cuda_system.cu) continue ;; esac
  nvcc "${flags[@]}" "$source" 2>&1 | report
done
for ((index = 0; index < units; ++index)); do
  for source in kernels/spin_cuda_system.cu kernels/spin_portrait_cuda_system.cu; do
    nvcc "${flags[@]}" -DGEOMINT_SPIN_SYSTEM_INDEX="$index" "$source" 2>&1 | report
  done
done
