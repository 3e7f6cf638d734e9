#!/usr/bin/env bash
# `cmake --install` of the Python package into a fresh prefix, then `import geomint` from there
# (not from the build tree) runs a small ensemble.
# Usage: check-install.sh BUILD_DIR PYTHON INSTALL_DIR_IN_PREFIX
set -euo pipefail
build="$1" python="$2" where="$3"
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" --component python >/dev/null
cd "$prefix"
PYTHONPATH="$prefix/$where" "$python" - "$prefix" <<'PY'
import sys
import geomint
assert geomint.__file__.startswith(sys.argv[1]), geomint.__file__
r = geomint.pendulum(q0=[0.5, 1.0], dt=0.01, steps=100)
assert r.q.shape == (2,) and list(r.status) == ["ok", "ok"]
print("check-install: imported geomint from", geomint.__file__)
PY
