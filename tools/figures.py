#!/usr/bin/env python3
"""Reproduces the spin figures of the paper (math §2.5) by running `geomint spin`:
order plots of the top and of the chain (error against step size for every scheme, with
reference slopes) and the energy error of the top against time up to t = 1000 (DRG schemes
against the implicit midpoint rule). Writes PNG files into the output folder (default figures/).

    python3 tools/figures.py [--geomint build/geomint] [--out figures] [--quick]
"""
import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TOP_SCHEMES = ["avf", "mp", "ia", "sia", "comp2", "compsia", "comp4", "coll4", "coll6", "coll8",
               "implicit_midpoint", "spherical_midpoint"]
CHAIN_SCHEMES = TOP_SCHEMES[:2] + ["mmp"] + TOP_SCHEMES[2:]
DRG_SCHEMES = ["avf", "mp", "ia", "sia", "comp2", "compsia", "comp4", "coll4"]
TOP_S0 = "-1,-1,1"  # math §2.5
INERTIA = (1.0, 2.0, 4.0)


def run(geomint, args, scratch):
    """Runs geomint spin with `args`; returns the rows of its CSV as dicts."""
    out = os.path.join(scratch, "run.csv")
    subprocess.run([geomint, "spin", "--quiet", "--backend", "cpu", "--out", out] + args, check=True)
    with open(out, newline="") as f:
        return list(csv.DictReader(f))


def spins(row, d):
    return [[float(row[f"{c}{i}"]) for c in "xyz"] for i in range(1, d + 1)]


def distance(a, b):
    return max(math.dist(u, v) for u, v in zip(a, b))


def top_energy(s):
    j = [1.0 / i for i in INERTIA]
    return sum(0.5 * jk * sk * sk + jk * sk ** 3 / 3.0 for jk, sk in zip(j, s))


def order_plot(ax, title, steps_list, t_end, errors_by_scheme, slopes):
    hs = [t_end / n for n in steps_list]
    for scheme, errors in errors_by_scheme.items():
        ax.loglog(hs, errors, marker="o", markersize=3, label=scheme)
    for order in slopes:  # reference slopes through the middle of the data
        e0 = 1e-3 if order < 5 else 1e-6
        ax.loglog(hs, [e0 * (h / hs[0]) ** order for h in hs], "k--", linewidth=0.7)
        ax.annotate(f"h^{order}", (hs[-1], e0 * (hs[-1] / hs[0]) ** order), fontsize=7)
    ax.set_xlabel("step size h")
    ax.set_ylabel("max distance to reference at T")
    ax.set_title(title)
    ax.legend(fontsize=6, ncol=2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--geomint", default="build/geomint", help="the geomint binary")
    parser.add_argument("--out", default="figures", help="folder for the PNG files")
    parser.add_argument("--quick", action="store_true", help="fewer points (a smoke run)")
    options = parser.parse_args()
    if not os.access(options.geomint, os.X_OK):
        sys.exit(f"figures: error: --geomint: '{options.geomint}' is not an executable (build first)")
    os.makedirs(options.out, exist_ok=True)
    # From h = 1/4: the order-6 and -8 schemes reach round-off near h = 1/40 on these problems.
    steps_list = [4, 8, 16, 32] if options.quick else [4, 8, 16, 32, 64, 128]

    with tempfile.TemporaryDirectory() as scratch:
        # Top: reference from coll8 with a much smaller step (order 8, math §2.4).
        t_end = 1.0
        reference = spins(run(options.geomint, ["--system", "top", "--s0", TOP_S0, "--scheme", "coll8",
                                                "--steps", "2000", "--t-end", str(t_end)], scratch)[0], 1)
        top_errors = {}
        for scheme in TOP_SCHEMES:
            top_errors[scheme] = [
                distance(spins(run(options.geomint, ["--system", "top", "--s0", TOP_S0, "--scheme", scheme,
                                                     "--steps", str(n), "--t-end", str(t_end)], scratch)[0], 1),
                         reference) for n in steps_list]
        # Chain: the exact spin wave (math §2), d = 8, T = 1.
        chain_errors = {}
        for scheme in CHAIN_SCHEMES:
            chain_errors[scheme] = [
                float(run(options.geomint, ["--system", "chain", "--spins", "8", "--wave", str(math.pi / 3),
                                            "--scheme", scheme, "--steps", str(n), "--t-end", str(t_end),
                                            "--exact"], scratch)[0]["error"]) for n in steps_list]
        for name, errors in (("top", top_errors), ("chain", chain_errors)):
            fig, ax = plt.subplots(figsize=(6, 5))
            order_plot(ax, f"{name}: error against step size (T = {t_end:g})", steps_list, t_end, errors,
                       [1, 2, 4, 6, 8])
            fig.tight_layout()
            fig.savefig(os.path.join(options.out, f"order_{name}.png"), dpi=130)
            plt.close(fig)

        # Energy of the top against time, h = 0.1 (math §2.5), up to t = 1000.
        h = 0.1
        times = [50 * k for k in range(1, 21)] if not options.quick else [100, 200]
        fig, ax = plt.subplots(figsize=(7, 4.5))
        e0 = top_energy([c / math.sqrt(3) for c in (-1.0, -1.0, 1.0)])
        for scheme in DRG_SCHEMES + ["implicit_midpoint"]:
            errors = []
            for t in times:
                row = run(options.geomint, ["--system", "top", "--s0", TOP_S0, "--scheme", scheme,
                                            "--steps", str(round(t / h)), "--dt", str(h)], scratch)[0]
                errors.append(max(abs(top_energy(spins(row, 1)[0]) - e0), 1e-17))
            ax.semilogy(times, errors, marker=".", label=scheme)
        ax.set_xlabel("t")
        ax.set_ylabel("|H(t) - H(0)|")
        ax.set_title("top, h = 0.1: energy error (DRG schemes against the implicit midpoint rule)")
        ax.legend(fontsize=6, ncol=3)
        fig.tight_layout()
        fig.savefig(os.path.join(options.out, "energy_top.png"), dpi=130)
        plt.close(fig)
    print(f"figures: wrote order_top.png, order_chain.png, energy_top.png in {options.out}")


if __name__ == "__main__":
    main()
