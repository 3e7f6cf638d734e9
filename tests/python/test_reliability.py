"""What no input may do from Python either: a file name holding a NUL never reaches the system
(where it would silently name another file), an output is never one of the run's inputs, and a
size that cannot be held is refused naming its option, before any work."""

import numpy as np
import pytest

import geomint

PORTRAIT = dict(q0=np.linspace(0.1, 1.0, 3), steps=10, dt=0.1, width=8, height=8)


def test_a_nul_in_a_file_name_is_refused_and_touches_no_file(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    with pytest.raises(ValueError, match="--out: the value holds a NUL"):
        geomint.portrait("pendulum", out=str(victim) + "\0.png", **PORTRAIT)
    assert victim.read_text() == "precious"
    sweep = tmp_path / "run.toml"
    sweep.write_text('command = "pendulum"\nsteps = 10\ndt = 0.1\nout = "x.csv"\n')
    with pytest.raises(ValueError, match="sweep file: the file name holds a NUL"):
        geomint.run(str(sweep) + "\0ignored")
    with pytest.raises(ValueError, match="--init: the value holds a NUL"):
        geomint.spin(system="chain", init=str(victim) + "\0", steps=1, dt=0.1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.toml", "victim"]


def test_a_sweep_file_with_a_nul_in_a_value_is_refused_naming_its_line(tmp_path):
    sweep = tmp_path / "run.toml"
    sweep.write_text('command = "pendulum"\nsteps = 10\ndt = 0.1\nout = "v\\u0000.png"\n[portrait]\nwidth = 8\n')
    with pytest.raises(ValueError, match=r"run.toml:4: out: the value holds a NUL"):
        geomint.run(sweep)


def test_a_portrait_sweep_file_never_writes_itself(tmp_path):
    sweep = tmp_path / "run.toml"
    text = f'command = "pendulum"\nq0 = "0.1:1:3"\nsteps = 10\ndt = 0.1\nout = "{sweep}"\n[portrait]\nwidth = 8\n'
    sweep.write_text(text)
    (tmp_path / "alias.toml").symlink_to(sweep)
    with pytest.raises(ValueError, match="is the sweep file"):
        geomint.run(sweep)
    assert sweep.read_text() == text
    # Its output named through a link to it.
    text = text.replace(f'out = "{sweep}"', f'out = "{tmp_path / "alias.toml"}"')
    sweep.write_text(text)
    with pytest.raises(ValueError, match="is the sweep file"):
        geomint.run(sweep)
    assert sweep.read_text() == text


def test_a_portrait_never_writes_its_init_file(tmp_path):
    init = tmp_path / "init.csv"
    init.write_text("1,0,0,0,1,0,0,0,1\n")
    with pytest.raises(ValueError, match="is the --init file"):
        geomint.portrait("spin", system="chain", init=str(init), steps=2, dt=0.1, out=str(init))
    assert init.read_text() == "1,0,0,0,1,0,0,0,1\n"


def test_saved_states_beyond_memory_are_refused_naming_the_option():
    with pytest.raises(ValueError, match="--save-every: saving every 1 of 9223372036854775807 steps"):
        geomint.pendulum(q0=0.5, steps=9223372036854775807, dt=1e-300, save_every=1)
