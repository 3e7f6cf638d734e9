"""The result of a run: NumPy arrays by name, as attributes (r.q) and as items (r["q"])."""


class Result:
    """Arrays of one run; ``keys()`` lists them. Every array is owned by Python (no view into
    geomint's memory), shaped as docs/python.md describes."""

    def __init__(self, arrays):
        self._arrays = dict(arrays)

    def __getattr__(self, name):
        arrays = self.__dict__.get("_arrays", {})
        if name in arrays:
            return arrays[name]
        raise AttributeError(f"this result has no array '{name}' (it has: {', '.join(arrays)})")

    def __getitem__(self, name):
        return self._arrays[name]

    def __contains__(self, name):
        return name in self._arrays

    def keys(self):
        return list(self._arrays)

    def __dir__(self):
        return list(super().__dir__()) + list(self._arrays)

    def __repr__(self):
        shown = ", ".join(f"{k}: {v.dtype}{list(v.shape)}" for k, v in self._arrays.items() if hasattr(v, "shape"))
        return f"geomint.Result({shown})"
