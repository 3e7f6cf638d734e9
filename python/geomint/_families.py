"""geomint.pendulum, spin, portrait and run: the CLI's commands with NumPy arrays in and out."""

import numpy as np

from . import _geomint
from ._arguments import bounds_text, cli_arguments, is_array_like, path_text, real_array
from ._progress import callback_for
from ._result import Result

_STATUS = np.array(_geomint.status_names())
_PENDULUM_ARRAYS = ("mass", "omega", "q0", "p0")  # PendulumAxis order


def _shaped(arrays, shape, state_shape):
    """The flat arrays of a run, shaped: columns to `shape`, saved states to
    shape + (saves,) + state_shape, status codes to their names."""
    out = {}
    for name, array in arrays.items():
        if name == "saved":
            out[name] = array.reshape(shape + (array.shape[1],) + state_shape)
        elif name in ("saved_steps", "saved_t"):
            out[name] = array
        elif name == "status":
            out[name] = _STATUS[array].reshape(shape)
        elif name == "s":
            out[name] = array.reshape(shape + state_shape)
        else:
            out[name] = array.reshape(shape)
    return out


def _pendulum_rows(arrays, options):
    """With any array-like among q0, p0, mass, omega (a NumPy 0-d value counts unless CLI text or
    random= gives the rows): (the four broadcast arrays in PendulumAxis order, their shape, the CLI
    texts of their extremes); otherwise ([], None, arrays)."""
    given = [name for name in _PENDULUM_ARRAYS if is_array_like(arrays[name])]
    cli_rows = options.get("random") is not None or any(isinstance(arrays[n], str) for n in _PENDULUM_ARRAYS)
    if cli_rows and all(np.ndim(arrays[name]) == 0 for name in given):
        given = []  # beside the CLI's rows, NumPy's 0-d values (np.sqrt(2.0)) are numbers, as Python's are
    if not given:
        return [], None, arrays
    if options.get("random") is not None:
        raise ValueError(f"--random: draws the rows itself; give {', '.join(given)} as a number or text, not an array")
    defaults = {"mass": 1.0, "omega": 1.0, "q0": 1.0, "p0": 0.0}
    checked = {}
    for name in _PENDULUM_ARRAYS:
        value = arrays[name]
        if value is None:
            value = defaults[name]
        elif isinstance(value, str):
            raise ValueError(f"--{name}: give a number or an array when other parameters are arrays, not '{value}'")
        checked[name] = real_array(f"--{name}", value)
    try:
        shape = np.broadcast_shapes(*(a.shape for a in checked.values()))
    except ValueError:
        shapes = ", ".join(f"{n} {checked[n].shape}" for n in _PENDULUM_ARRAYS)
        raise ValueError(f"--q0/--p0/--mass/--omega: shapes do not broadcast together ({shapes})") from None
    table = [np.broadcast_to(checked[n], shape) for n in _PENDULUM_ARRAYS]
    # The extremes stand for the arrays in the CLI's checks (positive mass, float range, the step
    # bound's warning); the arrays are the rows.
    if table[0].size > 0:
        texts = {n: bounds_text(checked[n]) for n in _PENDULUM_ARRAYS}
    else:
        texts = {n: None for n in _PENDULUM_ARRAYS}
    return table, shape, texts


def pendulum(q0=None, p0=None, mass=None, omega=None, *, progress=None, **options):
    table, shape, texts = _pendulum_rows({"mass": mass, "omega": omega, "q0": q0, "p0": p0}, options)
    arguments = cli_arguments("pendulum", {**texts, **options})
    flat = _geomint.run_pendulum(arguments, table, callback_for(progress))
    return _pendulum_result(flat, shape)


def _spin_table(s0, options):
    """The initial spins of an s0 array: (spins array, rows, batch shape, extra arguments)."""
    registry = _geomint.registry()
    system = options.get("system", "top")
    chain = system in registry["chain_systems"]
    for other in ("wave", "random", "init"):
        if options.get(other) is not None:
            raise ValueError("--s0: give at most one of --s0, --wave, --random, --init")
    if options.get("exact"):
        raise ValueError("--exact: the exact solution is known for --wave only")
    array = real_array("--s0", s0)
    if chain:
        if array.ndim < 2 or array.shape[-1] != 3:
            raise ValueError(f"--s0: a chain's spins are an array of shape (..., spins, 3), got {array.shape}")
        spins = array.shape[-2]
        if options.get("spins") is not None and int(options["spins"]) != spins:
            raise ValueError(f"--spins: {options['spins']} given, but s0 holds {spins} spins per chain")
        batch, extra = array.shape[:-2], {"spins": spins}
    else:
        if array.shape[-1:] != (3,):
            raise ValueError(f"--s0: a top's spin is an array of shape (..., 3), got {array.shape}")
        spins, batch, extra = 1, array.shape[:-1], {}
    zero = np.all(array.reshape(-1, 3) == 0, axis=1) if array.size else np.zeros(0, bool)
    if zero.any():
        row = int(np.argmax(zero))
        raise ValueError(f"--s0: spin {row % spins + 1} of trajectory {np.unravel_index(row // spins, batch)} is zero")
    rows = int(np.prod(batch, dtype=np.int64))
    return array, rows, tuple(batch), extra, (spins, 3) if chain else (3,)


def _spin_state_shape(spins):
    # A chain has at least 3 spins; a top's one spin is (3,), as its s0.
    return (spins, 3) if spins > 1 else (3,)


def spin(s0=None, *, progress=None, **options):
    table, rows, extra = None, 0, {}
    if is_array_like(s0):
        table, rows, shape, extra, _ = _spin_table(s0, options)
        s0 = None
    arguments = cli_arguments("spin", {"s0": s0, **options, **extra})
    flat = _geomint.run_spin(arguments, table, rows, callback_for(progress))
    return _spin_result(flat, shape if table is not None else None)


def _spin_result(flat, shape=None):
    spins = flat.pop("spins")
    if shape is None:
        shape = (flat["energy_error"].shape[0],)
    return Result(_shaped(flat, shape, _spin_state_shape(spins)))


def _pendulum_result(flat, shape=None):
    if shape is None:
        shape = (flat["q"].shape[0],)
    return Result(_shaped(flat, shape, (2,)))


def portrait(family="pendulum", *, progress=None, **options):
    if family not in ("pendulum", "spin"):
        raise ValueError(f"family: unknown family '{family}' (valid: pendulum, spin)")
    arrays, rows = [], 0
    if family == "pendulum":
        values = {name: options.pop(name, None) for name in _PENDULUM_ARRAYS}
        arrays, _, texts = _pendulum_rows(values, options)
        options.update(texts)
    elif is_array_like(options.get("s0")):
        arrays, rows, _, extra, _ = _spin_table(options.pop("s0"), options)
        arrays = [arrays]
        options.update(extra)
    arguments = cli_arguments(f"portrait {family}", options)
    return Result(_geomint.run_portrait(family, arguments, arrays, rows, callback_for(progress)))


def run(path, *, progress=None):
    path = path_text("path", path)
    command, arguments = _geomint.sweep_file_command(path)
    callback = callback_for(progress)
    inputs = [path]  # the sweep file is an input: no output of the run may be it
    try:
        if command == "pendulum":
            return _pendulum_result(_geomint.run_pendulum(arguments, [], callback, inputs))
        if command == "spin":
            return _spin_result(_geomint.run_spin(arguments, None, 0, callback, inputs))
        return Result(_geomint.run_portrait(command.split()[1], arguments, [], 0, callback, inputs))
    except ValueError as error:
        # As `geomint run` reports it: the file's key and line instead of the option.
        raise ValueError(_geomint.locate_sweep_error(path, str(error))) from None
