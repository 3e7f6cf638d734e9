"""geomint.pendulum gives the CLI's numbers bit for bit: a grid given as CLI text and as arrays,
random rows, float precision, --exact, every scheme, and saved states against the CLI's HDF5."""

import numpy as np
import pytest

import geomint
from bitwise import assert_same_bits, cli_reals

TWO_PI = 6.283185307179586
REALS = ("q0", "p0", "mass", "omega", "q", "p", "energy_error")


def assert_matches(result, cli, dtype=np.float64, reals=REALS):
    for name in reals:
        assert_same_bits(result[name].ravel(), cli_reals(cli[name], dtype))
    for name in ("newton_iterations", "steps_completed"):
        assert_same_bits(result[name].ravel(), np.array([int(t) for t in cli[name]], dtype=np.int64))
    assert result.status.ravel().tolist() == cli["status"]


def test_grid_as_cli_text(run_cli):
    cli = run_cli("pendulum", "--scheme", "simpson", "--q0", "-3:3:12", "--p0", "-2:2:6", "--omega", repr(TWO_PI),
                  "--dt", "1e-3", "--steps", "400")
    r = geomint.pendulum(q0="-3:3:12", p0="-2:2:6", omega=TWO_PI, scheme="simpson", dt=1e-3, steps=400)
    assert r.q.shape == (72,)
    assert_matches(r, cli)


def test_grid_as_arrays(run_cli):
    # The example, smaller: a meshgrid of initial conditions, one trajectory per element.
    cli = run_cli("pendulum", "--scheme", "simpson", "--q0", "-3:3:16", "--p0", "-2:2:8", "--omega", repr(TWO_PI),
                  "--dt", "1e-3", "--steps", "500", "--threads", "1")
    q0 = cli_reals(cli["q0"]).reshape(16, 8)
    p0 = cli_reals(cli["p0"]).reshape(16, 8)
    r = geomint.pendulum(q0=q0, p0=p0, omega=2 * np.pi, scheme="simpson", dt=1e-3, steps=500, backend="auto")
    assert r.q.shape == r.p.shape == r.status.shape == r.energy_error.shape == (16, 8)
    assert_matches(r, cli)


def test_random_rows_in_float_with_exact(run_cli):
    options = ["--random", "40", "--seed", "9", "--q0", "-2:2", "--p0", "-1:1", "--omega", "1:3", "--precision", "float",
               "--scheme", "newmark", "--t-end", "3", "--steps", "300", "--exact"]
    cli = run_cli("pendulum", *options)
    r = geomint.pendulum(random=40, seed=9, q0="-2:2", p0="-1:1", omega="1:3", precision="float", scheme="newmark",
                         t_end=3, steps=300, exact=True)
    assert r.q.dtype == np.float32
    assert_matches(r, cli, np.float32)
    for name in ("q_exact", "p_exact"):
        assert_same_bits(r[name], cli_reals(cli[name]))


@pytest.mark.parametrize("scheme", geomint.PENDULUM_SCHEMES)
def test_every_scheme(run_cli, scheme):
    cli = run_cli("pendulum", "--scheme", scheme, "--potential", "duffing", "--beta", "-0.1", "--q0", "-1:1:5",
                  "--p0", "0.5", "--dt", "0.05", "--steps", "100", "--chunk-size", "2")
    r = geomint.pendulum(scheme=scheme, potential="duffing", beta=-0.1, q0=cli_reals(cli["q0"]), p0=0.5, dt=0.05,
                         steps=100, chunk_size=2)
    assert_matches(r, cli)


def test_saved_states_equal_the_cli_hdf5(geomint_binary, tmp_path):
    h5py = pytest.importorskip("h5py")
    import subprocess

    out = tmp_path / "saves.h5"
    subprocess.run([geomint_binary, "pendulum", "--scheme", "verlet", "--q0", "0.1:3:7", "--p0", "-1:1:3", "--dt",
                    "0.01", "--steps", "53", "--save-every", "10", "--chunk-size", "4", "--quiet", "--out", str(out)],
                   check=True)
    r = geomint.pendulum(q0="0.1:3:7", p0="-1:1:3", scheme="verlet", dt=0.01, steps=53, save_every=10, chunk_size=4)
    with h5py.File(out, "r") as f:
        states = f["states"][...]  # [save][trajectory][q, p]
        assert_same_bits(r.saved, np.transpose(states, (1, 0, 2)))
        assert_same_bits(r.saved_steps, f["step"][...].astype(np.int64))
        assert_same_bits(r.saved_t, f["time"][...])
    assert r.saved.shape == (21, 7, 2)
    assert r.saved_steps.tolist() == [0, 10, 20, 30, 40, 50, 53]
    # The first save is the initial state and the last the final one.
    assert_same_bits(r.saved[:, 0, 0], r.q0)
    assert_same_bits(r.saved[:, -1, 1], r.p)
