"""The pendulum's phase portrait and the spinning top's energy error against time, drawn with
geomint's Python module and matplotlib (tests/python/test_example.py runs it, so it keeps working).

    PYTHONPATH=build/python /usr/bin/python3 examples/phase_portrait.py [OUTPUT_DIR]

writes OUTPUT_DIR/phase_portrait.png (default: the current folder)."""

import pathlib
import sys

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import geomint  # noqa: E402


def pendulum_panel(axes):
    # Librations from rest and rotations from q = -pi with growing momentum: one ensemble of
    # arrays, every trajectory's states saved every 4 steps.
    q0 = np.concatenate([np.linspace(0.25, 3.0, 12), np.full(6, -np.pi)])
    p0 = np.concatenate([np.zeros(12), np.linspace(2.1, 3.0, 6)])
    r = geomint.pendulum(q0=q0, p0=p0, scheme="simpson", dt=0.01, steps=1600, save_every=4)
    assert (r.status == "ok").all()
    for states in r.saved:  # (saves, 2): q, p of one trajectory
        q = np.mod(states[:, 0] + np.pi, 2 * np.pi) - np.pi  # the angle in [-pi, pi)
        for sign in (1, -1):  # the mirror image completes each curve
            axes.plot(sign * q, sign * states[:, 1], ".", markersize=1, color="tab:blue")
    axes.set(xlabel="q (wrapped to [-pi, pi))", ylabel="p", title="pendulum, simpson, h = 0.01",
             xlim=(-np.pi, np.pi))


def top_energy(s, inertia=(1.0, 2.0, 4.0)):
    # H = 1/2 s.Js + 1/3 sum J_k s_k^3 with J = I^-1 (geomint list: the top).
    j = 1 / np.asarray(inertia)
    return 0.5 * np.sum(j * s * s, axis=-1) + np.sum(j * s**3, axis=-1) / 3


def top_panel(axes):
    for scheme, colour in (("implicit_midpoint", "tab:red"), ("coll4", "tab:green"), ("coll6", "tab:purple")):
        r = geomint.spin(system="top", scheme=scheme, dt=0.05, steps=2000, save_every=10)
        energy = top_energy(r.saved[0])  # the one trajectory's saved spins, (saves, 3)
        error = np.abs(energy - energy[0])
        axes.semilogy(r.saved_t[1:], np.maximum(error[1:], 1e-17), label=scheme, color=colour)
    axes.set(xlabel="t", ylabel="|H(t) - H(0)|", title="spinning top, h = 0.05")
    axes.legend()


def main():
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8))
    pendulum_panel(left)
    top_panel(right)
    figure.tight_layout()
    path = out / "phase_portrait.png"
    figure.savefig(path, dpi=110)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
