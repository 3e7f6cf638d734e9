#!/usr/bin/env bash
# Registers, stack frame and spills of every CUDA kernel, as ptxas reports them at compile time
# (no GPU needed): compiles each kernels/*.cu for sm_90 with -Xptxas -v and prints one line a kernel.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v nvcc >/dev/null 2>&1 || export PATH="/usr/local/cuda/bin:$PATH"
for source in kernels/*.cu; do
  nvcc -std=c++20 -O3 -DNDEBUG -arch=sm_90 --ftz=false --prec-div=true --prec-sqrt=true --expt-relaxed-constexpr \
    -Isrc -Ikernels -Iinclude -Xptxas -v -c "$source" -o /dev/null 2>&1 |
    awk -v file="$(basename "$source")" -v quote="'" '
      /Compiling entry function/ {
        split($0, parts, quote); name = parts[2]
        kernel = "other"
        n = split("Newmark Simpson Avf GonzalezMidpoint LocalMidpoint SymmetrisedItohAbe ItohAbe Comp2 CompSia Comp4 CollocationILi2 CollocationILi3 CollocationILi4 ImplicitMidpoint SphericalMidpoint", names, " ")
        for (i = 1; i <= n; i++) if (index(name, names[i])) { kernel = names[i]; break }
        sub(/CollocationILi/, "Collocation", kernel)
        model = ""
        if (index(name, "SpinningTop")) model = "top"; else if (index(name, "HeisenbergChain")) model = "chain"
        else if (index(name, "AnisotropicChain")) model = "anisotropic"
        else if (index(name, "DuffingPotential")) model = "duffing"; else if (index(name, "PendulumPotential")) model = "pendulum"
        if (model == "duffing" || model == "pendulum") model = model (index(name, "IdEE") ? "/double" : "/float")
      }
      /bytes stack frame/ { match($0, /[0-9]+ bytes stack frame/); stack = substr($0, RSTART, RLENGTH)
                            match($0, /[0-9]+ bytes spill stores/); spill = substr($0, RSTART, RLENGTH) }
      /Used [0-9]+ registers/ { match($0, /Used [0-9]+ registers/); regs = substr($0, RSTART + 5, RLENGTH - 5)
                                if (kernel != "other") printf "%-26s %-18s %-16s %-14s %-22s %s\n", file, kernel, model, regs, stack, spill }'
done
