#!/usr/bin/python3
# An HDF5 output read with h5py, as the README shows users: the layout, the dtypes, the
# attributes, and the final save equal to the summary's q, p. Exit 77 (CTest: skipped) without h5py.
import os
import subprocess
import sys
import tempfile

try:
    import h5py
    import numpy as np
except ImportError as missing:
    print(f"SKIP: {missing} (install Debian's python3-h5py)")
    sys.exit(77)

geomint = sys.argv[1]
with tempfile.TemporaryDirectory() as folder:
    out = os.path.join(folder, "run.h5")
    subprocess.run([geomint, "pendulum", "--q0", "0.1:3.1:40", "--p0", "-1:1:25", "--steps", "9", "--dt", "0.05",
                    "--backend", "cpu", "--chunk-size", "64", "--quiet", "--save-every", "4", "--out", out], check=True)
    failures = []

    def check(condition, what):
        if not condition:
            failures.append(what)

    with h5py.File(out, "r") as f:
        columns = [str(c) for c in f["summary"].attrs["columns"]]
        check(columns[:6] == ["q0", "p0", "mass", "omega", "q", "p"], f"columns {columns}")
        check(all(f["summary"][c].shape == (1000,) for c in columns), "summary shapes")
        check(f["summary/q"].dtype == np.float64, f"q dtype {f['summary/q'].dtype}")
        check(f["summary/status"].dtype == np.uint8, f"status dtype {f['summary/status'].dtype}")
        check(f["summary/steps_completed"].dtype == np.int64, "steps_completed dtype")
        names = [str(n) for n in f["summary/status"].attrs["status_names"]]
        check(names[0] == "ok", f"status_names {names}")
        check(f["states"].shape == (4, 1000, 2), f"states shape {f['states'].shape}")
        check(f["states"].compression == "gzip", f"states compression {f['states'].compression}")
        check(list(f["step"][:]) == [0, 4, 8, 9], f"step {list(f['step'][:])}")
        check(np.array_equal(f["time"][:], np.array([0, 4, 8, 9]) * 0.05), f"time {f['time'][:]}")
        check(np.array_equal(f["states"][-1, :, 0], f["summary/q"][:]), "final save q != summary q")
        check(np.array_equal(f["states"][-1, :, 1], f["summary/p"][:]), "final save p != summary p")
        check(np.array_equal(f["states"][0, :, 0], f["summary/q0"][:]), "first save q != q0")
        attrs = f.attrs
        for key, expected in [("command", "pendulum"), ("scheme", "newmark"), ("model", "pendulum"),
                              ("precision", "double"), ("backend", "cpu")]:
            check(attrs[key] == expected, f"attribute {key} = {attrs[key]!r}")
        check(attrs["steps"] == 9 and attrs["dt"] == 0.05 and attrs["save_every"] == 4, "steps, dt, save_every")
        check("save-every = 4" in attrs["configuration"], f"configuration {attrs['configuration']!r}")
        for key in ("geomint_version", "git_commit", "start_time", "end_time", "device"):
            check(isinstance(attrs[key], str) and attrs[key] != "", f"attribute {key} = {attrs.get(key)!r}")

    if failures:
        print("FAIL:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print("h5py read the output as documented")
