"""examples/phase_portrait.py runs and draws its figure (so the example never rots)."""

import os
import pathlib
import subprocess
import sys

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "phase_portrait.py"


def test_example_draws_its_figure(tmp_path):
    done = subprocess.run([sys.executable, str(EXAMPLE), str(tmp_path)], capture_output=True, text=True,
                          env=dict(os.environ, MPLBACKEND="Agg"))
    assert done.returncode == 0, done.stderr
    figure = tmp_path / "phase_portrait.png"
    assert figure.stat().st_size > 20_000  # a drawn figure, not an empty canvas
    import matplotlib.image

    pixels = matplotlib.image.imread(figure)
    assert pixels.shape[1] == 1320 and len(set(map(tuple, pixels.reshape(-1, pixels.shape[2])[::97]))) > 10
