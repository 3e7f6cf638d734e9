#!/usr/bin/python3
# Two HDF5 outputs of geomint compared dataset by dataset and attribute by attribute (values,
# dtypes, shapes), except the root attributes an MPI run may change (issue 11: "times, rank counts
# and host names"): the start and end times, `ranks` and `hosts`. same_hdf5.py A B exits 0 when
# equal, 1 naming the first difference, 77 without h5py (Debian's python3-h5py).
import sys

try:
    import h5py
    import numpy as np
except ImportError as missing:
    print(f"SKIP: {missing} (install Debian's python3-h5py)")
    sys.exit(77)

IGNORED = {"start_time", "end_time", "ranks", "hosts"}


def entries(path):
    found = {}
    with h5py.File(path, "r") as f:
        def attributes(name, obj):
            for key, value in obj.attrs.items():
                if name == "/" and key in IGNORED:
                    continue
                found[f"{name}@{key}"] = np.asarray(value)

        attributes("/", f)

        def visit(name, obj):
            attributes(name, obj)
            if isinstance(obj, h5py.Dataset):
                found[name] = obj[()]

        f.visititems(visit)
    return found


a, b = entries(sys.argv[1]), entries(sys.argv[2])
if sorted(a) != sorted(b):
    print(f"different entries: {sorted(set(a) ^ set(b))}")
    sys.exit(1)
for name in sorted(a):
    x, y = np.asarray(a[name]), np.asarray(b[name])
    # Bytes, not values: NaN payloads and -0.0 count too.
    if x.dtype == object:  # strings: compare the values (the bytes are pointers)
        equal = x.shape == y.shape and y.dtype == object and x.tolist() == y.tolist()
    else:
        equal = x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()
    if not equal:
        print(f"{name} differs: {x.dtype}{x.shape} vs {y.dtype}{y.shape}")
        sys.exit(1)
print(f"same: {len(a)} datasets and attributes")
