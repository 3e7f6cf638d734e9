"""Keyword arguments -> the CLI's options, and array-likes -> checked float arrays.

Every keyword is a CLI option of the command with dashes as underscores (t_end=... is --t-end);
the names come from the command itself, so a new registry parameter is a keyword at once.
Values become the text the CLI would be given (floats by repr, which reads back to the same
double), and the CLI's parser checks them: errors carry its messages."""

import numbers
import os

import numpy as np

from . import _geomint

# CLI options that make no sense for results kept in memory (a portrait may still write its --out).
NOT_KEYWORDS = {"--out", "--resume", "--print-config", "--help"}
NOT_PORTRAIT_KEYWORDS = NOT_KEYWORDS - {"--out"}
# Keywords whose value names a file: str or os.PathLike, never a number's text.
PATH_KEYWORDS = {"init", "out"}


def keyword_options(family):
    """{keyword: (option, is_flag)} of the command ("pendulum", "spin", "portrait pendulum", ...)."""
    options = {}
    for option, flag in _geomint.command_options(family):
        if option not in (NOT_PORTRAIT_KEYWORDS if family.startswith("portrait") else NOT_KEYWORDS):
            options[option[2:].replace("-", "_")] = (option, flag)
    return options


def path_text(name, value):
    """A file name given as str or os.PathLike (os.fspath giving str), else a TypeError: str() would make
    None, 5 or b"x.csv" the names of files 'None', '5' and "b'x.csv'"."""
    try:
        path = os.fspath(value)
    except TypeError:  # neither str, bytes nor os.PathLike
        path = None
    if not isinstance(path, str):  # bytes too: the CLI's file names are text
        raise TypeError(f"{name}: expected a file name (str or os.PathLike), got {type(value).__name__}")
    return path


def unmasked(option, value):
    """``value``, or a masked array's data where nothing is masked: NumPy's conversions would drop
    the mask and use whatever lies under it."""
    if isinstance(value, np.ma.MaskedArray):
        if np.ma.getmaskarray(value).any():
            raise ValueError(f"{option}: masked arrays are not supported; fill the masked values first "
                             "(a.filled(...))")
        return np.ma.getdata(value)
    return value


def option_text(option, value):
    """The CLI text of one option value."""
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{option}: expected a number or text, got {value!r}")
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    if isinstance(value, (list, tuple, np.ndarray)):
        return ",".join(option_text(option, v) for v in np.asarray(unmasked(option, value)).ravel().tolist())
    raise TypeError(f"{option}: expected a number or text, got {type(value).__name__}")


def cli_arguments(family, keywords):
    """The argument list of ``geomint FAMILY`` for ``keywords`` (None values left out)."""
    options = keyword_options(family)
    arguments = []
    for name, value in keywords.items():
        if value is None:
            continue
        if name not in options:
            raise TypeError(f"geomint.{family.split()[0]}() got an unexpected keyword argument '{name}' "
                            f"(valid: {', '.join(sorted(options))})")
        option, flag = options[name]
        if flag:
            if not isinstance(value, (bool, np.bool_)):
                raise TypeError(f"{option}: a flag takes True or False, got {value!r}")
            if value:
                arguments.append(option)
        elif name in PATH_KEYWORDS:
            arguments += [option, path_text(option, value)]
        else:
            arguments += [option, option_text(option, value)]
    return arguments


def is_array_like(value):
    """An array of values (a list, a NumPy array, ...) or a NumPy 0-d value (np.array(0.5),
    np.float64(0.5)), as opposed to one Python number or CLI text. As with NumPy's ufuncs, the
    results then have the inputs' shape: () for 0-d ones."""
    if value is None or isinstance(value, (str, bytes)):
        return False
    return isinstance(value, (np.ndarray, np.generic)) or np.ndim(value) > 0


def real_array(option, value):
    """``value`` as a float64 or float32 array (those two as they are, without a copy), finite."""
    value = unmasked(option, value)
    try:
        array = np.asarray(value)
    except Exception as error:  # ragged lists and the like
        raise ValueError(f"{option}: not an array of numbers ({error})") from None
    if array.dtype.kind not in "iuf":
        raise ValueError(f"{option}: expected real numbers, got an array of {array.dtype}")
    if array.dtype != np.float64 and array.dtype != np.float32:
        array = array.astype(np.float64)
    finite = np.isfinite(array)
    if not finite.all():
        where = tuple(int(i) for i in np.argwhere(~finite)[0])
        raise ValueError(f"{option}: '{array[where]}' is not finite (at index {where})")
    return array


def bounds_text(array):
    """The array's extremes as CLI text (VALUE or MIN:MAX:2): the CLI checks and warns on them."""
    low, high = float(array.min()), float(array.max())
    return repr(low) if low == high else f"{low!r}:{high!r}:2"
