"""geomint.portrait records the CLI's histogram (its counts file, bit for bit; its PNG's pixels),
and geomint.run runs a sweep file as `geomint run` reads it, errors located in the file."""

import subprocess

import numpy as np
import pytest

import geomint
from bitwise import assert_same_bits

PORTRAIT = ["--q0", "-3:3:24", "--p0", "-2:2:12", "--omega", "1", "--dt", "0.05", "--steps", "300", "--width", "48",
            "--height", "32", "--colour", "energy"]


def test_pendulum_portrait_equals_the_cli_counts(geomint_binary, tmp_path):
    h5py = pytest.importorskip("h5py")
    counts = tmp_path / "cli.h5"
    subprocess.run([geomint_binary, "portrait", "pendulum", *PORTRAIT, "--quiet", "--out", str(counts)], check=True)
    png = tmp_path / "python.png"
    r = geomint.portrait("pendulum", q0="-3:3:24", p0="-2:2:12", omega=1, dt=0.05, steps=300, width=48, height=32,
                         colour="energy", chunk_size=50, out=str(png))
    assert r.counts.shape == (32, 48) and r.counts.dtype == np.uint64
    assert r.counts.sum() == 24 * 12 * 301  # every state of every trajectory, in the plane
    assert r.statuses == {"ok": 288}
    with h5py.File(counts, "r") as f:
        assert_same_bits(r.counts, f["counts"][...])
        assert_same_bits(r.energy_sums, f["energy_sums"][...])
    # The PNG's pixels are the CLI's (its text chunks name the run differently).
    cli_png = tmp_path / "cli.png"
    subprocess.run([geomint_binary, "portrait", "pendulum", *PORTRAIT, "--quiet", "--out", str(cli_png)], check=True)
    image = pytest.importorskip("matplotlib.image")
    assert np.array_equal(image.imread(png), image.imread(cli_png))


def test_spin_portrait(geomint_binary, tmp_path):
    h5py = pytest.importorskip("h5py")
    counts = tmp_path / "cli.h5"
    options = ["--system", "chain", "--spins", "6", "--random", "30", "--dt", "0.05", "--steps", "80", "--plane",
               "z-pair", "--width", "40"]
    subprocess.run([geomint_binary, "portrait", "spin", *options, "--quiet", "--out", str(counts)], check=True)
    r = geomint.portrait("spin", system="chain", spins=6, random=30, dt=0.05, steps=80, plane="z-pair", width=40)
    with h5py.File(counts, "r") as f:
        assert_same_bits(r.counts, f["counts"][...])


def test_portrait_errors():
    with pytest.raises(ValueError, match="--plane: unknown plane 'cube'"):
        geomint.portrait("spin", plane="cube", dt=0.1, steps=3)
    with pytest.raises(ValueError, match="--exact: does not apply to portraits"):
        geomint.portrait(exact=True, dt=0.1, steps=3)
    with pytest.raises(ValueError, match=r"--q0: 'nan' is not finite"):
        geomint.portrait(q0=[0.0, np.nan], dt=0.1, steps=3)


def test_portraits_of_arrays_equal_those_of_the_same_rows(geomint_binary, tmp_path):
    # The CLI's grid as arrays (q0 outer, p0 fastest) gives the same histogram.
    q0, p0 = np.meshgrid(np.linspace(-3, 3, 24), np.linspace(-2, 2, 12), indexing="ij")
    options = dict(omega=1, dt=0.05, steps=300, width=48, height=32, colour="energy")
    grid = geomint.portrait("pendulum", q0="-3:3:24", p0="-2:2:12", **options)
    arrays = geomint.portrait("pendulum", q0=q0, p0=p0, **options)
    assert_same_bits(arrays.counts, grid.counts)
    assert_same_bits(arrays.energy_sums, grid.energy_sums)
    # Spins as an array, against the same spins in an --init file through the CLI.
    h5py = pytest.importorskip("h5py")
    s0 = np.random.default_rng(4).normal(size=(10, 6, 3))
    init = tmp_path / "init.csv"
    init.write_text("".join(",".join(repr(float(v)) for v in row) + "\n" for row in s0.reshape(10, 18)))
    counts = tmp_path / "cli.h5"
    subprocess.run([geomint_binary, "portrait", "spin", "--system", "chain", "--init", str(init), "--dt", "0.05",
                    "--steps", "40", "--plane", "z-pair", "--width", "32", "--quiet", "--out", str(counts)], check=True)
    r = geomint.portrait("spin", s0=s0, system="chain", dt=0.05, steps=40, plane="z-pair", width=32)
    assert r.counts.sum() == 10 * 41
    with h5py.File(counts, "r") as f:
        assert_same_bits(r.counts, f["counts"][...])


def test_sweep_file(run_cli, tmp_path):
    sweep = tmp_path / "sweep.toml"
    sweep.write_text('command = "spin"\nsystem = "chain"\nspins = 5\nscheme = "coll6"\nrandom = 7\nseed = 2\n'
                     'dt = 0.05\nsteps = 20\nout = "unused.csv"\n')
    r = geomint.run(sweep)
    cli = run_cli("spin", "--system", "chain", "--spins", "5", "--scheme", "coll6", "--random", "7", "--seed", "2",
                  "--dt", "0.05", "--steps", "20")
    assert r.s.shape == (7, 5, 3)
    assert_same_bits(r.energy_error, np.array([float(t) for t in cli["energy_error"]]))
    assert not (tmp_path / "unused.csv").exists()


def test_sweep_file_errors_name_the_key_and_line(geomint_binary, tmp_path):
    sweep = tmp_path / "bad.toml"
    sweep.write_text('command = "pendulum"\nq0 = "0.1:1:4"\ndt = 0.01\nsteps = -100\nout = "x.csv"\n')
    done = subprocess.run([geomint_binary, "run", str(sweep)], capture_output=True, text=True)
    expected = done.stderr.strip().removeprefix("geomint: error: ")
    assert expected.endswith("4: steps: must not be negative, got '-100'")
    with pytest.raises(ValueError) as error:
        geomint.run(sweep)
    assert str(error.value) == expected
    sweep.write_text('command = "pendulum"\nqq = 1\n')
    with pytest.raises(ValueError, match=r"bad.toml:2: qq: unknown key"):
        geomint.run(sweep)
