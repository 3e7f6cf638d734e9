#!/usr/bin/env bash
# CUDA compiler launcher (CMake's CUDA_COMPILER_LAUNCHER of geomint_cuda): runs the compile command
# given as arguments and keeps what ptxas reports with -Xptxas -v (registers, stack frame, spills
# of every kernel) in OBJECT.ptxas next to the object it writes, so that the kernel-resource test
# (tools/kernel_resources.py) reads the figures of the kernels exactly as built, with no second
# compilation. A compiler cache in the command replays the report with the object. The other
# messages pass through to stderr unchanged.
set -uo pipefail
# An empty first word (a launcher list that ended in nothing) is no command: skip it.
while [[ $# -gt 0 && -z "$1" ]]; do shift; done
object=""
previous=""
for argument in "$@"; do
  [[ "$previous" == "-o" ]] && object="$argument"
  previous="$argument"
done
messages="$(mktemp)"
"$@" 2>"$messages"
status=$?
if [[ -n "$object" ]]; then
  grep -E '^ptxas info|bytes stack frame' "$messages" >"$object.ptxas.tmp" || true
  mv "$object.ptxas.tmp" "$object.ptxas"
fi
grep -vE '^ptxas info|bytes stack frame' "$messages" >&2 || true
rm -f "$messages"
exit "$status"
