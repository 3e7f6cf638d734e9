"""Bit-for-bit comparison of a result array with the CLI's CSV text of the same column."""

import numpy as np


def cli_reals(texts, dtype=np.float64):
    # The CSV's %.17g reads back to the very double the CLI computed (and a float32 exactly).
    return np.array([float(t) for t in texts], dtype=np.float64).astype(dtype)


def assert_same_bits(actual, expected):
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    if actual.dtype.kind == "f":
        width = {4: np.uint32, 8: np.uint64}[actual.dtype.itemsize]
        different = actual.view(width) != expected.view(width)
    else:
        different = actual != expected
    assert not different.any(), f"{int(different.sum())} of {different.size} differ, first at {np.argwhere(different)[0]}"
