#!/usr/bin/env bash
# Builds geomint if needed (tools/setup.sh) and draws the spin figures with tools/figures.py,
# using Debian's Python and matplotlib (python3-matplotlib). Arguments go to figures.py.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/geomint ] || bash tools/setup.sh
/usr/bin/python3 tools/figures.py "$@"
