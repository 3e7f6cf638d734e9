"""Inputs: broadcasting, dtype conversion, non-contiguous arrays and empty arrays give what the
same values given plainly give; every bad input is a ValueError (the CLI's message where the CLI
has one) or a TypeError, and never takes the interpreter down."""

import subprocess

import numpy as np
import pytest

import geomint
from bitwise import assert_same_bits

RUN = dict(scheme="simpson", dt=0.01, steps=50)


def test_broadcasting_equals_full_arrays():
    q0 = np.linspace(-1, 1, 4).reshape(4, 1)
    p0 = np.linspace(-2, 2, 5).reshape(1, 5)
    r = geomint.pendulum(q0=q0, p0=p0, omega=[1.0, 1.5, 2.0, 2.5, 3.0], **RUN)
    assert r.q.shape == (4, 5)
    full_q0, full_p0 = np.broadcast_arrays(q0, p0)
    full = geomint.pendulum(q0=full_q0.copy(), p0=full_p0.copy(), omega=np.tile([1.0, 1.5, 2.0, 2.5, 3.0], (4, 1)),
                            **RUN)
    for name in ("q0", "p0", "omega", "q", "p", "energy_error"):
        assert_same_bits(r[name], full[name])


def test_dtype_conversion():
    ints = geomint.pendulum(q0=[1, 2, 3], **RUN)
    floats = geomint.pendulum(q0=np.array([1.0, 2.0, 3.0]), **RUN)
    assert_same_bits(ints.q, floats.q)
    single = np.array([0.1, 0.7], dtype=np.float32)  # read as float32, widened exactly
    assert_same_bits(geomint.pendulum(q0=single, **RUN).q, geomint.pendulum(q0=single.astype(np.float64), **RUN).q)
    with pytest.raises(ValueError, match="--q0: expected real numbers"):
        geomint.pendulum(q0=["a", "b"], **RUN)
    with pytest.raises(ValueError, match="--q0: expected real numbers"):
        geomint.pendulum(q0=np.array([1 + 2j]), **RUN)


def test_non_contiguous_inputs():
    base = np.linspace(-2, 2, 60).reshape(6, 10)
    view = base.T[::2, ::3]  # transposed and strided
    assert not view.flags.c_contiguous
    assert_same_bits(geomint.pendulum(q0=view, **RUN).q, geomint.pendulum(q0=np.ascontiguousarray(view), **RUN).q)
    s0 = np.random.default_rng(1).normal(size=(8, 4, 3)).transpose(1, 0, 2)  # (4, 8, 3), not contiguous
    chain = dict(system="chain", scheme="coll4", dt=0.05, steps=10)
    assert_same_bits(geomint.spin(s0, **chain).s, geomint.spin(np.ascontiguousarray(s0), **chain).s)


def test_empty_arrays():
    r = geomint.pendulum(q0=np.zeros((0, 3)), **RUN)
    assert r.q.shape == (0, 3) and r.status.shape == (0, 3)
    r = geomint.spin(np.zeros((0, 8, 3)), system="chain", dt=0.1, steps=5)
    assert r.s.shape == (0, 8, 3) and r.energy_error.shape == (0,)


def cli_error(geomint_binary, *arguments):
    """The CLI's message for bad input: its stderr without "geomint: error: "."""
    done = subprocess.run([geomint_binary, *arguments, "--out", "/dev/null", "--quiet"], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    return done.stderr.strip().removeprefix("geomint: error: ")


@pytest.mark.parametrize(
    "keywords, arguments",
    [
        (dict(scheme="leapfrog"), ["--scheme", "leapfrog"]),
        (dict(steps=-5), ["--steps", "-5"]),
        (dict(potential="quartic"), ["--potential", "quartic"]),
        (dict(precision="half"), ["--precision", "half"]),
        (dict(newton_max_iterations=0), ["--newton-max-iterations", "0"]),
        (dict(mass=-1.0), ["--mass", "-1.0"]),
        (dict(q0="nan"), ["--q0", "nan"]),
        (dict(seed=3), ["--seed", "3"]),
        (dict(beta=2.0), ["--beta", "2.0"]),
        (dict(save_every=0), ["--save-every", "0"]),
    ],
)
def test_pendulum_errors_carry_the_cli_message(geomint_binary, keywords, arguments):
    options = dict(dt=0.01, steps=10) | keywords
    cli_options = [a for k, v in dict(dt=0.01, steps=10).items() if k not in keywords for a in (f"--{k}", str(v))]
    expected = cli_error(geomint_binary, "pendulum", *cli_options, *arguments)
    with pytest.raises(ValueError) as error:
        geomint.pendulum(**options)
    assert str(error.value) == expected


def test_spin_errors_carry_the_cli_message(geomint_binary):
    expected = cli_error(geomint_binary, "spin", "--system", "chain", "--spins", "2", "--dt", "0.1", "--steps", "3")
    with pytest.raises(ValueError) as error:
        geomint.spin(system="chain", spins=2, dt=0.1, steps=3)
    assert str(error.value) == expected
    expected = cli_error(geomint_binary, "spin", "--scheme", "coll5", "--dt", "0.1", "--steps", "3")
    with pytest.raises(ValueError) as error:
        geomint.spin(scheme="coll5", dt=0.1, steps=3)
    assert str(error.value) == expected


def test_bad_arrays():
    with pytest.raises(ValueError, match=r"--q0: 'nan' is not finite \(at index \(1,\)\)"):
        geomint.pendulum(q0=[0.0, np.nan], **RUN)
    with pytest.raises(ValueError, match="--p0: 'inf' is not finite"):
        geomint.pendulum(p0=np.array([[np.inf]]), **RUN)
    with pytest.raises(ValueError, match="shapes do not broadcast"):
        geomint.pendulum(q0=np.zeros(3), p0=np.zeros(4), **RUN)
    with pytest.raises(ValueError, match="--mass: values must be positive"):
        geomint.pendulum(q0=[1.0, 2.0], mass=[1.0, -1.0], **RUN)
    with pytest.raises(ValueError, match="--omega: .*overflows --precision float"):
        geomint.pendulum(omega=[1.0, 1e300], precision="float", **RUN)
    with pytest.raises(ValueError, match="--random: draws the rows itself"):
        geomint.pendulum(q0=[1.0, 2.0], random=3, **RUN)
    with pytest.raises(ValueError, match=r"--s0: a chain's spins are an array of shape \(\.\.\., spins, 3\)"):
        geomint.spin(np.ones((4, 5, 2)), system="chain", dt=0.1, steps=3)
    with pytest.raises(ValueError, match=r"--s0: a top's spin is an array of shape \(\.\.\., 3\)"):
        geomint.spin(np.ones((4, 2)), dt=0.1, steps=3)
    with pytest.raises(ValueError, match=r"--s0: spin 2 of trajectory \(1,\) is zero"):
        geomint.spin(np.array([[[1.0, 0, 0]] * 3, [[1.0, 0, 0], [0, 0, 0], [0, 1.0, 0]]]), system="chain", dt=0.1,
                     steps=3)
    with pytest.raises(ValueError, match="--spins: 4 given, but s0 holds 3 spins per chain"):
        geomint.spin(np.ones((2, 3, 3)), system="chain", spins=4, dt=0.1, steps=3)
    with pytest.raises(ValueError, match="--s0: give at most one of"):
        geomint.spin(np.ones((2, 3)), random=4, dt=0.1, steps=3)


def test_bad_keywords():
    with pytest.raises(TypeError, match="unexpected keyword argument 'out'"):
        geomint.pendulum(out="x.csv", **RUN)
    with pytest.raises(TypeError, match="unexpected keyword argument 'schme'"):
        geomint.pendulum(schme="simpson", dt=0.1, steps=3)
    with pytest.raises(TypeError, match="--exact: a flag takes True or False"):
        geomint.pendulum(exact="yes", **RUN)
    with pytest.raises(TypeError, match="progress must be"):
        geomint.pendulum(progress=3, **RUN)


def test_names_come_from_the_registry():
    assert "simpson" in geomint.PENDULUM_SCHEMES and "coll6" in geomint.SPIN_SCHEMES
    assert len(geomint.SPIN_SCHEMES) == 13
    assert {"top", "chain"} <= set(geomint.SYSTEMS)
    doc = geomint.pendulum.__doc__
    for keyword in ("scheme", "t_end", "newton_max_iterations", "chunk_size", "save_every", "beta"):
        assert keyword in doc
    for scheme in geomint.PENDULUM_SCHEMES:
        assert scheme in doc
    for scheme in geomint.SPIN_SCHEMES:
        assert scheme in geomint.spin.__doc__
