"""Shared fixtures of the Python module's tests: the CLI to compare with (GEOMINT_BINARY, set by
CTest) and a helper that runs it and reads its CSV as text columns."""

import csv
import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def geomint_binary():
    path = os.environ.get("GEOMINT_BINARY")
    if not path or not os.path.exists(path):
        pytest.fail("GEOMINT_BINARY must name the geomint executable (CTest sets it)")
    return path


@pytest.fixture
def run_cli(geomint_binary, tmp_path):
    """run_cli(*arguments) -> {column: [text, ...]} of the CLI's CSV output."""

    def run(*arguments):
        out = tmp_path / "cli.csv"
        subprocess.run([geomint_binary, *arguments, "--quiet", "--out", str(out)], check=True)
        with open(out, newline="") as f:
            rows = list(csv.reader(f))
        return {name: [row[k] for row in rows[1:]] for k, name in enumerate(rows[0])}

    return run
