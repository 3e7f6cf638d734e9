#!/usr/bin/env bash
# Installs geomint's build dependencies (Debian packages listed in tools/packages.txt) when any is
# missing, then configures and builds into build/: every target, or only those named.
#   bash tools/setup.sh               # everything (what the tests need)
#   bash tools/setup.sh geomint       # the command-line program only (what the example runs)
# GEOMINT_CUDA (AUTO, the default: compile the CUDA backend when nvcc is found; ON; OFF) and
# GEOMINT_CMAKE_ARGS go to CMake.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
while read -r package; do
  [ -n "$package" ] || continue
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done < tools/packages.txt
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q "${missing[@]}"
fi

# nvcc lives outside PATH in a default CUDA toolkit install.
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGEOMINT_CUDA="${GEOMINT_CUDA:-AUTO}" ${GEOMINT_CMAKE_ARGS:-}
if [ $# -gt 0 ]; then
  cmake --build build -j "$(nproc)" --target "$@"
else
  cmake --build build -j "$(nproc)"
fi
