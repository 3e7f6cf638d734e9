#!/usr/bin/env bash
# Checks that every C++ and CUDA source follows .clang-format (CTest test "formatting").
# Fix with: clang-format -i $(git ls-files '*.hpp' '*.cpp' '*.cu' '*.cuh')
set -uo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null 2>&1; then
  echo "check-format: clang-format is not installed (tools/packages.txt lists it)"
  exit 1
fi
mapfile -t files < <(find include kernels src tests bench python -name '*.hpp' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' | sort)
if clang-format --dry-run --Werror "${files[@]}" 2>"${TMPDIR:-/tmp}/check-format.$$"; then
  echo "check-format: ${#files[@]} files follow .clang-format"
  rm -f "${TMPDIR:-/tmp}/check-format.$$"
  exit 0
fi
grep -E '^[^ ].*(warning|error):' "${TMPDIR:-/tmp}/check-format.$$" | cut -d: -f1 | sort -u | sed 's/^/check-format: not formatted: /'
rm -f "${TMPDIR:-/tmp}/check-format.$$"
exit 1
