"""Argument types: a file name is a str or an os.PathLike of str (anything else a TypeError, never a
file named after its str()), NumPy 0-d values give 0-d results as NumPy's ufuncs do, and masked
arrays are refused rather than read without their mask."""

import pathlib

import numpy as np
import pytest

import geomint
from bitwise import assert_same_bits

RUN = dict(scheme="simpson", dt=0.01, steps=50)
SPIN = dict(dt=0.1, steps=20)
PORTRAIT = dict(dt=0.05, steps=20, width=16, height=8)


class FsPath:
    """An os.PathLike that is not a pathlib.Path: its str() is not the file name."""

    def __init__(self, path):
        self.path = path

    def __fspath__(self):
        return self.path


@pytest.fixture(autouse=True)
def in_tmp_path(tmp_path, monkeypatch):
    # A value taken for a file name ('None', '5') would land here, not in the source tree.
    monkeypatch.chdir(tmp_path)


def write_sweep(path):
    path.write_text('command = "pendulum"\nq0 = "0.1:1:3"\ndt = 0.01\nsteps = 20\n')
    return path


@pytest.mark.parametrize("value, name", [(None, "NoneType"), (b"sweep.toml", "bytes"), (5, "int"),
                                         (FsPath(b"sweep.toml"), "FsPath"), (FsPath(5), "FsPath")],
                         ids=["None", "bytes", "int", "bytes-PathLike", "int-PathLike"])
def test_run_path_must_be_a_file_name(tmp_path, value, name):
    write_sweep(tmp_path / "sweep.toml")
    for named in ("None", "5", "b'sweep.toml'"):  # what str() made of them before
        write_sweep(tmp_path / named)
    with pytest.raises(TypeError, match=f"path: expected a file name \\(str or os.PathLike\\), got {name}"):
        geomint.run(value)


def test_run_takes_pathlike(tmp_path):
    sweep = write_sweep(tmp_path / "sweep.toml")
    expected = geomint.run(str(sweep)).q
    assert_same_bits(geomint.run(sweep).q, expected)
    assert_same_bits(geomint.run(FsPath(str(sweep))).q, expected)  # its str() is not the file name


@pytest.mark.parametrize("value", [5, 2.5, True, b"x.png", FsPath(b"x.png"), ["x.png"]],
                         ids=["int", "float", "bool", "bytes", "bytes-PathLike", "list"])
def test_portrait_out_must_be_a_path(value):
    with pytest.raises(TypeError, match="--out: expected a file name"):
        geomint.portrait(q0="-1:1:3", out=value, **PORTRAIT)
    assert not list(pathlib.Path().iterdir())  # no file written under another name


def test_portrait_out_takes_pathlike(tmp_path):
    h5py = pytest.importorskip("h5py")
    r = geomint.portrait(q0="-1:1:3", out=tmp_path / "a.h5", **PORTRAIT)
    geomint.portrait(q0="-1:1:3", out=FsPath(str(tmp_path / "b.h5")), **PORTRAIT)
    for name in ("a.h5", "b.h5"):
        with h5py.File(tmp_path / name, "r") as f:
            assert_same_bits(f["counts"][...], r.counts)


def write_init(path, spins):
    path.write_text("".join(",".join(repr(float(v)) for v in row) + "\n" for row in spins))
    return path


@pytest.mark.parametrize("value", [5, 0.5, b"init.csv", FsPath(b"init.csv"), ("init.csv",)],
                         ids=["int", "float", "bytes", "bytes-PathLike", "tuple"])
def test_init_must_be_a_path(tmp_path, value):
    write_init(tmp_path / "5", [[1.0, 0.0, 0.0]])  # what init=5 read before
    write_init(tmp_path / "init.csv", [[1.0, 0.0, 0.0]])
    with pytest.raises(TypeError, match="--init: expected a file name"):
        geomint.spin(init=value, **SPIN)
    with pytest.raises(TypeError, match="--init: expected a file name"):
        geomint.portrait("spin", init=value, **PORTRAIT)


def test_init_takes_pathlike(tmp_path):
    init = write_init(tmp_path / "init.csv", [[1.0, 0.0, 0.0], [0.0, 0.6, 0.8]])
    expected = geomint.spin(init=str(init), **SPIN)
    for value in (init, FsPath(str(init))):
        assert_same_bits(geomint.spin(init=value, **SPIN).s, expected.s)
        assert_same_bits(geomint.portrait("spin", init=value, **PORTRAIT).counts,
                         geomint.portrait("spin", init=str(init), **PORTRAIT).counts)


@pytest.mark.parametrize("q0", [np.array(0.5), np.float64(0.5), np.array(0.5, dtype=np.float32), np.int64(1)],
                         ids=["0-d float64", "np.float64", "0-d float32", "np.int64"])
def test_numpy_zero_d_input_gives_zero_d_results(q0):
    one = geomint.pendulum(q0=np.reshape(q0, (1,)), save_every=10, **RUN)
    r = geomint.pendulum(q0=q0, save_every=10, **RUN)
    for name in ("q0", "p0", "mass", "omega", "q", "p", "energy_error", "newton_iterations", "status",
                 "steps_completed"):
        assert r[name].shape == (), name
        assert_same_bits(r[name], one[name].reshape(()))
    assert r.saved.shape == (6, 2)
    assert_same_bits(r.saved, one.saved[0])
    assert_same_bits(r.saved_t, one.saved_t)
    # Every parameter alike, and with Python numbers beside them (np.add(0.5, np.float64(1)) is 0-d too).
    r = geomint.pendulum(q0=0.5, p0=np.float64(0.1), mass=np.array(2.0), omega=1.5, **RUN)
    assert r.q.shape == () and r.mass == 2.0 and r.omega == 1.5
    # Broadcast with a 1-D array, the shape is the array's.
    assert geomint.pendulum(q0=q0, p0=[0.0, 0.1, 0.2], **RUN).q.shape == (3,)


def test_numpy_zero_d_beside_cli_rows_is_a_number():
    # Beside a grid or random= the rows are the CLI's, and a NumPy 0-d value is one number there
    # (omega=np.sqrt(2.0) is np.float64), as before; Python numbers give the CLI's 1-D rows.
    assert geomint.pendulum(q0=0.5, **RUN).q.shape == (1,)
    grid = geomint.pendulum(q0="-1:1:3", omega=np.sqrt(2.0), mass=np.array(2.0), **RUN)
    plain = geomint.pendulum(q0="-1:1:3", omega=float(np.sqrt(2.0)), mass=2.0, **RUN)
    assert_same_bits(grid.q, plain.q)
    drawn = geomint.pendulum(q0="-1:1", random=4, p0=np.float64(0.2), **RUN)
    assert drawn.q.shape == (4,) and (drawn.p0 == 0.2).all()
    # And the same 0-d values alone are 0-d: the spin's one state gives 0-d columns likewise.
    assert geomint.pendulum(q0=np.float64(0.5), omega=np.sqrt(2.0), **RUN).q.shape == ()
    top = geomint.spin(np.array([1.0, 0.0, 0.0]), **SPIN)
    assert top.energy_error.shape == () and top.status.shape == () and top.s.shape == (3,)
    chain = geomint.spin(np.random.default_rng(1).normal(size=(4, 3)), system="chain", **SPIN)
    assert chain.energy_error.shape == () and chain.s.shape == (4, 3)
    portrait = geomint.portrait(q0=np.array(0.5), **PORTRAIT)
    assert_same_bits(portrait.counts, geomint.portrait(q0=[0.5], **PORTRAIT).counts)


def masked(data, mask):
    return np.ma.masked_array(np.asarray(data, dtype=float), mask=mask)


@pytest.mark.parametrize("name", ["q0", "p0", "mass", "omega"])
def test_masked_pendulum_arrays_are_refused(name):
    with pytest.raises(ValueError, match=f"--{name}: masked arrays are not supported.*filled"):
        geomint.pendulum(**{name: masked([0.5, 1.0], [False, True])}, **RUN)
    with pytest.raises(ValueError, match=f"--{name}: masked arrays are not supported"):
        geomint.portrait(**{name: masked([0.5, 1.0], [True, False])}, **PORTRAIT)
    # A 0-d one beside a grid too, and np.ma.masked itself.
    with pytest.raises(ValueError, match=f"--{name}: masked arrays are not supported"):
        geomint.pendulum(**{"p0" if name == "q0" else "q0": "-1:1:3", name: masked(0.5, True)}, **RUN)
    with pytest.raises(ValueError, match=f"--{name}: masked arrays are not supported"):
        geomint.pendulum(**{name: np.ma.masked}, **RUN)


def test_masked_spins_are_refused():
    s0 = masked(np.ones((2, 3)), [[False] * 3, [False, True, False]])
    with pytest.raises(ValueError, match="--s0: masked arrays are not supported"):
        geomint.spin(s0, **SPIN)
    with pytest.raises(ValueError, match="--s0: masked arrays are not supported"):
        geomint.portrait("spin", s0=s0, **PORTRAIT)
    # Any list-valued option alike.
    with pytest.raises(ValueError, match="--inertia: masked arrays are not supported"):
        geomint.spin(s0=np.ones(3), system="top", inertia=masked([1, 2, 4], [False, False, True]), **SPIN)


def test_masked_arrays_with_nothing_masked_are_their_data():
    q0 = masked([0.5, 1.0], False)
    assert_same_bits(geomint.pendulum(q0=q0, **RUN).q, geomint.pendulum(q0=q0.data, **RUN).q)
    s0 = masked(np.ones((2, 3)), False)
    assert_same_bits(geomint.spin(s0, **SPIN).s, geomint.spin(s0.data, **SPIN).s)
    # The data under a mask is not read: filled, the same array runs.
    holed = masked([0.5, np.nan], [False, True])
    with pytest.raises(ValueError, match="masked arrays are not supported"):
        geomint.pendulum(q0=holed, **RUN)
    assert_same_bits(geomint.pendulum(q0=holed.filled(1.0), **RUN).q, geomint.pendulum(q0=[0.5, 1.0], **RUN).q)
