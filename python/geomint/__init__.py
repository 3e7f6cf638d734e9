"""geomint for Python: ensembles of the pendulum and spin families, run by geomint's own pipeline
(the same schemes, checks and numbers as the command line), with NumPy arrays in and out.

    import numpy as np, geomint
    q0, p0 = np.meshgrid(np.linspace(-3, 3, 512), np.linspace(-2, 2, 256))
    r = geomint.pendulum(q0=q0, p0=p0, omega=2*np.pi, scheme="simpson", dt=1e-3, steps=5000)
    r.q, r.p, r.status, r.energy_error          # arrays of q0's shape

See help(geomint.pendulum), help(geomint.spin) and docs/python.md.
"""

from . import _families, _geomint
from ._arguments import keyword_options
from ._result import Result

_names = _geomint.registry()
PENDULUM_SCHEMES = tuple(_names["pendulum_schemes"])
POTENTIALS = tuple(_names["potentials"])
SPIN_SCHEMES = tuple(_names["spin_schemes"])
SYSTEMS = tuple(_names["systems"])
STATUSES = tuple(_geomint.status_names())

_PENDULUM_DOC = """Integrate an ensemble of pendulums (or another potential) as `geomint pendulum` does.

q0, p0, mass, omega: numbers, CLI text ("-3:3:512", "LOW:HIGH" with random=), or array-likes.
  With any array-like, the four broadcast against each other (NumPy rules) and every element is
  one trajectory; every result array then has the broadcast shape. NumPy 0-d values
  (np.array(0.5), np.float64(0.5)) count as arrays, so they alone give 0-d results (shape ()), as
  NumPy's ufuncs do; beside CLI text or random= they are numbers. Otherwise the rows are the
  CLI's (the grid, or random=COUNT) and the results are 1-D. Masked arrays are refused (a
  ValueError) unless nothing is masked: fill them first, a.filled(...).
progress: True (a text bar on standard error), a callable progress(done, total) (called from a
  helper thread), or None.
Every other keyword is the CLI option of the same name, dashes as underscores (t_end=5 is
  --t-end 5): the CLI's help follows. Not available: out, resume, print_config.
Returns a geomint.Result with q0, p0, mass, omega, q, p, energy_error, newton_iterations,
  status (strings), steps_completed [, q_exact, p_exact]; with save_every=K also saved
  (shape + (saves, 2): q, p), saved_steps and saved_t.
Raises ValueError for bad input (the CLI's message), TypeError for an unknown keyword or a value
  of the wrong type, RuntimeError for a failed run, KeyboardInterrupt on Ctrl-C (checked between
  chunks).

"""

_SPIN_DOC = """Integrate an ensemble of spin systems as `geomint spin` does.

s0: CLI text ("x,y,z", a top's one initial spin) or an array-like of initial spins, shape
  (..., 3) for a top or (..., spins, 3) for a chain (each spin is normalised, as --init's are);
  every result array then has its leading shape: () for one spin (3,) or one chain (spins, 3).
  Masked arrays as for geomint.pendulum. Otherwise the rows are the CLI's (wave=, random=COUNT,
  init=FILE, FILE a str or os.PathLike; anything else is a TypeError) and the results are 1-D.
progress: as for geomint.pendulum.
Every other keyword is the CLI option of the same name, dashes as underscores: the CLI's help
  follows. Not available: out, resume, print_config.
Returns a geomint.Result with s (the final spins, shape + (spins, 3), or + (3,) for a top),
  energy_error, newton_iterations, status (strings), steps_completed, norm_error [, error];
  with save_every=K also saved (shape + (saves,) + the spins' shape), saved_steps, saved_t.

"""


def _keyword_help(family):
    """The CLI's --help with its options written as keywords; the options that are not keywords
    (--out, --resume, --print-config, --help) left out."""
    lines, skipping = [], False
    for line in _geomint.command_help(family).splitlines():
        stripped = line.lstrip()
        if stripped.startswith("-") and line.startswith("  "):
            skipping = not any(stripped.startswith(option + " ") or stripped == option
                               for option, _ in keyword_options(family).values())
        elif not line.startswith("      "):  # not a wrapped description: the option's lines end
            skipping = False
        if not skipping:
            lines.append(line)
    text = "\n".join(lines) + "\n"
    for keyword, (option, _) in sorted(keyword_options(family).items(), key=lambda kv: -len(kv[1][0])):
        text = text.replace(option, keyword)
    return text.replace("; needs --out FILE.h5", "; in the result's saved")


_PORTRAIT_DOC = """Phase portrait of a pendulum or spin ensemble, as `geomint portrait FAMILY` records it.

family: "pendulum" or "spin". Every other keyword is an option of `geomint portrait FAMILY`
  (the family's options and the portrait's: width, height, q_range, p_range, skip_steps,
  record_every, colour, energy_range, plane, spin), dashes as underscores, given as numbers or the
  CLI's text; q0, p0, mass, omega (pendulum) and s0 (spin) may be arrays, as for geomint.pendulum
  and geomint.spin. out="FILE.png" (or FILE.h5, the raw counts) also writes the CLI's file; out
  and init take a str or os.PathLike (anything else is a TypeError).
progress: as for geomint.pendulum.
Returns a geomint.Result with counts (uint64, shape (height, width), row 0 the top of the
  image), energy_sums (with colour="energy"), extent (xmin, xmax, ymin, ymax), x_label, y_label
  and statuses ({status: trajectories}); plot with
  plt.imshow(np.log1p(r.counts), extent=r.extent).

"""

_RUN_DOC = """Run a sweep file (TOML) as `geomint run FILE` would, with the results in memory.

path: a str or os.PathLike (bytes, None or a number is a TypeError).

Returns what geomint.pendulum, geomint.spin or geomint.portrait returns for the file's command;
  a portrait file's out is written as geomint.portrait(out=...) writes it, a pendulum or spin
  file's out is not (its arrays are the result). Errors name the file's key and line.
"""


def portrait(family="pendulum", *, progress=None, **options):
    return _families.portrait(family, progress=progress, **options)


def run(path, *, progress=None):
    return _families.run(path, progress=progress)


def pendulum(q0=None, p0=None, mass=None, omega=None, *, progress=None, **options):
    return _families.pendulum(q0, p0, mass, omega, progress=progress, **options)


def spin(s0=None, *, progress=None, **options):
    return _families.spin(s0, progress=progress, **options)


pendulum.__doc__ = _PENDULUM_DOC + _keyword_help("pendulum")
spin.__doc__ = _SPIN_DOC + _keyword_help("spin")
portrait.__doc__ = _PORTRAIT_DOC + _keyword_help("portrait pendulum") + "\n" + _keyword_help("portrait spin")
run.__doc__ = _RUN_DOC

__all__ = ["pendulum", "spin", "portrait", "run", "Result", "PENDULUM_SCHEMES", "POTENTIALS", "SPIN_SCHEMES", "SYSTEMS", "STATUSES"]
