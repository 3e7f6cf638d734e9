#!/usr/bin/env bash
# Checks that the layers hold: include/ (host+device math) <- kernels/ (bodies, dispatch, CUDA
# launches) <- src/ (host, CLI), with no arrow pointing back. Run by CTest (test "layering").
#   1. every header under include/ compiles alone with only include/ on the include path, and
#      includes no host container, no CUDA header and nothing of kernels/ or src/;
#   2. every header under kernels/ compiles alone with only include/ and kernels/ on the path, and
#      every CUDA file there preprocesses with only those two (nvcc -E; skipped without nvcc);
#   3. the CMake targets form no cycle (cmake --graphviz of a fresh configure).
set -uo pipefail
cd "$(dirname "$0")/.."
command -v nvcc >/dev/null 2>&1 || [ ! -x /usr/local/cuda/bin/nvcc ] || export PATH="/usr/local/cuda/bin:$PATH"
cxx="${CXX:-g++}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() {
  echo "layering: $*"
  failures=$((failures + 1))
}

banned='<(vector|string|map|unordered_map|set|list|deque|functional|memory|iostream|fstream|sstream|stdexcept|thrust/[^>]*|cuda_runtime[^>]*|CLI/[^>]*)>'
for header in $(find include -name '*.hpp' | sort); do
  grep -nE "#include *$banned" "$header" | sed "s|^|$header:|" | while read -r line; do echo "layering: host-only include in math: $line"; done
  grep -qE "#include *$banned" "$header" && failures=$((failures + 1))
  echo "#include \"${header#include/}\"" >"$scratch/one.cpp"
  "$cxx" -std=c++20 -fsyntax-only -Iinclude "$scratch/one.cpp" 2>"$scratch/err" || fail "$header does not compile with include/ alone: $(head -n 3 "$scratch/err")"
done

for header in $(find kernels -name '*.hpp' | sort); do
  echo "#include \"${header#kernels/}\"" >"$scratch/one.cpp"
  "$cxx" -std=c++20 -fsyntax-only -Iinclude -Ikernels "$scratch/one.cpp" 2>"$scratch/err" ||
    fail "$header does not compile with include/ and kernels/ alone: $(head -n 3 "$scratch/err")"
done
if command -v nvcc >/dev/null 2>&1; then
  for source in $(find kernels -name '*.cu' -o -name '*.cuh' | sort); do
    nvcc -std=c++20 -E -x cu -DGEOMINT_SPIN_SYSTEM_INDEX=0 -DGEOMINT_SPIN_CUDA_UNITS=4 -Iinclude -Ikernels "$source" \
      -o /dev/null 2>"$scratch/err" || fail "$source needs more than include/ and kernels/: $(head -n 3 "$scratch/err")"
  done
else
  echo "layering: no nvcc, CUDA sources not checked"
fi
if grep -rnE '#include *"(\.\./)*src/' include kernels; then fail "a math or kernel file includes src/"; fi

cmake -S . -B "$scratch/build" -G Ninja -DGEOMINT_CUDA=OFF -DGEOMINT_BUILD_TESTS=OFF -DGEOMINT_BUILD_BENCH=OFF \
  --graphviz="$scratch/targets.dot" >"$scratch/cmake.log" 2>&1 || fail "cmake configure failed: $(tail -n 3 "$scratch/cmake.log")"
# Edges "node1" -> "node2" between labelled nodes; a depth-first search finds any cycle.
python3 - "$scratch/targets.dot" <<'PY' || failures=$((failures + 1))
import re, sys
text = open(sys.argv[1]).read()
label = dict(re.findall(r'"(node\d+)" \[ label = "([^"]+)"', text))
edges = {}
for a, b in re.findall(r'"(node\d+)" -> "(node\d+)"', text):
    edges.setdefault(label.get(a, a), set()).add(label.get(b, b))
state = {}
def visit(node, path):
    state[node] = "open"
    for nxt in edges.get(node, ()):
        if state.get(nxt) == "open":
            print("layering: CMake targets form a cycle: " + " -> ".join(path + [node, nxt]))
            sys.exit(1)
        if nxt not in state:
            visit(nxt, path + [node])
    state[node] = "done"
for node in list(edges):
    if node not in state:
        visit(node, [])
needed = {"geomint_math", "geomint_kernels", "geomint_cuda", "geomint_host"}
missing = needed - set(edges) - {b for bs in edges.values() for b in bs}
if missing:
    print("layering: targets not found in the graph: " + ", ".join(sorted(missing)))
    sys.exit(1)
if "geomint_host" in edges.get("geomint_cuda", set()):
    print("layering: geomint_cuda links geomint_host")
    sys.exit(1)
PY

echo "layering: $failures problem(s)"
[ "$failures" -eq 0 ]
