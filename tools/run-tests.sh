#!/usr/bin/env bash
# The test command: sets up and builds (tools/setup.sh), then runs every test with CTest.
# GPU tests skip, with the reason, where no CUDA device is usable.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
