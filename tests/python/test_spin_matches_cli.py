"""geomint.spin gives the CLI's numbers bit for bit: a random chain ensemble (coll6), initial
spins as an array against the same spins in an --init file, the top, and saved states."""

import subprocess

import numpy as np
import pytest

import geomint
from bitwise import assert_same_bits, cli_reals


def cli_spins(cli, spins):
    columns = [cli_reals(cli[f"{axis}{i}"]) for i in range(1, spins + 1) for axis in "xyz"]
    return np.stack(columns, axis=1).reshape(-1, spins, 3)


def assert_matches(result, cli, spins, chain=True, dtype=np.float64):
    expected = cli_spins(cli, spins).astype(dtype)
    assert_same_bits(result.s.reshape(expected.shape), expected)
    for name in ("energy_error", "norm_error"):
        assert_same_bits(result[name].ravel(), cli_reals(cli[name], dtype))
    for name in ("newton_iterations", "steps_completed"):
        assert_same_bits(result[name].ravel(), np.array([int(t) for t in cli[name]], dtype=np.int64))
    assert result.status.ravel().tolist() == cli["status"]


def test_random_chain_ensemble(run_cli):
    cli = run_cli("spin", "--system", "chain", "--spins", "16", "--scheme", "coll6", "--random", "12", "--seed", "5",
                  "--dt", "0.02", "--steps", "40", "--chunk-size", "5")
    r = geomint.spin(system="chain", spins=16, scheme="coll6", random=12, seed=5, dt=0.02, steps=40, chunk_size=5)
    assert r.s.shape == (12, 16, 3)
    assert_matches(r, cli, 16)


def test_spin_array_equals_init_file(run_cli, tmp_path):
    rng = np.random.default_rng(3)
    s0 = rng.normal(size=(2, 3, 8, 3))  # not normalised: both normalise the same way
    init = tmp_path / "init.csv"
    init.write_text("".join(",".join(repr(float(v)) for v in row) + "\n" for row in s0.reshape(6, 24)))
    cli = run_cli("spin", "--system", "chain", "--scheme", "coll4", "--init", str(init), "--dt", "0.05", "--steps",
                  "30")
    r = geomint.spin(s0, system="chain", scheme="coll4", dt=0.05, steps=30)
    assert r.s.shape == (2, 3, 8, 3) and r.energy_error.shape == (2, 3)
    assert_matches(r, cli, 8)


def test_top_default_and_array(run_cli):
    cli = run_cli("spin", "--system", "top", "--scheme", "coll8", "--dt", "0.1", "--steps", "50")
    r = geomint.spin(system="top", scheme="coll8", dt=0.1, steps=50)
    assert r.s.shape == (1, 3)
    assert_matches(r, cli, 1)
    cli = run_cli("spin", "--system", "top", "--scheme", "avf", "--s0", "0.3,-0.2,0.9", "--dt", "0.1", "--steps", "50")
    r = geomint.spin(np.array([[0.3, -0.2, 0.9]] * 4), system="top", scheme="avf", dt=0.1, steps=50)
    assert r.s.shape == (4, 3)
    for k in range(4):
        assert_same_bits(r.s[k], cli_spins(cli, 1)[0, 0])


@pytest.mark.parametrize("scheme", geomint.SPIN_SCHEMES)
def test_every_scheme_on_a_chain(run_cli, scheme):
    cli = run_cli("spin", "--system", "chain", "--spins", "4", "--scheme", scheme, "--random", "3", "--dt", "0.1",
                  "--steps", "20")
    r = geomint.spin(system="chain", spins=4, scheme=scheme, random=3, dt=0.1, steps=20)
    assert_matches(r, cli, 4)


def test_float_chain_ensemble(run_cli):
    # --precision float: float32 arrays with the CLI's float bits.
    cli = run_cli("spin", "--system", "chain", "--spins", "6", "--scheme", "sia", "--random", "5", "--seed", "2",
                  "--dt", "0.05", "--steps", "30", "--precision", "float")
    r = geomint.spin(system="chain", spins=6, scheme="sia", random=5, seed=2, dt=0.05, steps=30, precision="float")
    assert r.s.dtype == np.float32
    assert_matches(r, cli, 6, dtype=np.float32)


def test_saved_states_equal_the_cli_hdf5(geomint_binary, tmp_path):
    h5py = pytest.importorskip("h5py")
    out = tmp_path / "saves.h5"
    subprocess.run([geomint_binary, "spin", "--system", "chain", "--spins", "5", "--random", "6", "--dt", "0.05",
                    "--steps", "25", "--save-every", "4", "--chunk-size", "4", "--quiet", "--out", str(out)], check=True)
    r = geomint.spin(system="chain", spins=5, random=6, dt=0.05, steps=25, save_every=4, chunk_size=4)
    assert r.saved.shape == (6, 8, 5, 3)
    with h5py.File(out, "r") as f:
        states = f["states"][...]  # [save][trajectory][3 d]
        assert_same_bits(r.saved.reshape(6, 8, 15), np.transpose(states, (1, 0, 2)))
        assert_same_bits(r.saved_t, f["time"][...])
