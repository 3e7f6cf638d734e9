#!/usr/bin/env python3
"""Reproduces the spin figures of the paper (math §2.5) by running `geomint spin`:
order plots of the top and of the chain (error against step size for every scheme, each with its
own colour and marker, its own time span and step range so that it stays above round-off over at
least a decade of h, with labelled reference slopes) and the energy error of the top against time up to t = 1000 (DRG schemes
against the implicit midpoint rule). Writes PNG files into the output folder (default figures/).

    python3 tools/figures.py [--geomint build/geomint] [--out figures] [--quick]
"""
import argparse
import csv
import math
import os
import re
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

# Every scheme its own colour and marker, the same in every figure: matplotlib's default cycle has
# ten colours for thirteen schemes.
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf", "#000000", "#393b79", "#b5cf6b"]
MARKERS = ["o", "s", "^", "v", "D", "<", ">", "p", "h", "*", "X", "P", "d"]
STYLE = {scheme: (COLOURS[k], MARKERS[k]) for k, scheme in enumerate(CHAIN_SCHEMES)}


def steps_for(t_end, hs):
    return [round(t_end / h) for h in hs]


# Per scheme: the time span T and the step counts. A scheme of high order reaches round-off
# (about 1e-15 at T = 1, growing with T as round-off accumulates) within a few halvings of h, so
# its curve is drawn over a longer T and from the largest h its Newton solve still converges to
# the right root (about 2 on the top): each curve then stays above round-off over at least a decade
# of h (checked below, after dropping points within 3x of the measured round-off).
DOUBLING = [4, 8, 16, 32, 64, 128, 256]
GEOMETRIC = [2.0, 1.6, 1.25, 1.0, 0.8, 0.625, 0.5, 0.4, 0.3125, 0.25, 0.2, 0.16, 0.125]
TOP_PLANS = {scheme: (1.0, DOUBLING) for scheme in TOP_SCHEMES}
TOP_PLANS.update({"compsia": (1.0, [2] + DOUBLING[:5]), "comp4": (1.0, [2] + DOUBLING[:5]),
                  "coll4": (10.0, [4, 8, 16, 32, 64, 128]),
                  "coll6": (1000.0, steps_for(1000.0, GEOMETRIC[:12])),
                  "coll8": (3000.0, steps_for(3000.0, GEOMETRIC[:11]))})
CHAIN_PLANS = {scheme: (1.0, DOUBLING) for scheme in CHAIN_SCHEMES}
CHAIN_PLANS.update({"coll4": (1.0, DOUBLING[:6]), "coll6": (10.0, steps_for(10.0, GEOMETRIC)),
                    "coll8": (10.0, steps_for(10.0, [2.5] + GEOMETRIC[:10]))})


def run(geomint, args, scratch):
    """Runs geomint spin with `args`; returns the rows of its CSV as dicts."""
    out = os.path.join(scratch, "run.csv")
    subprocess.run([geomint, "spin", "--quiet", "--backend", "cpu", "--out", out] + args, check=True)
    with open(out, newline="") as f:
        return list(csv.DictReader(f))


def scheme_orders(geomint):
    """{scheme: order} of the spin registry, from `geomint list`."""
    text = subprocess.run([geomint, "list"], check=True, capture_output=True, text=True).stdout
    spin = text[text.index("geomint spin"):]
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^  (\w+) +order (\d+)", spin, re.M)}


def spins(row, d):
    return [[float(row[f"{c}{i}"]) for c in "xyz"] for i in range(1, d + 1)]


def distance(a, b):
    return max(math.dist(u, v) for u, v in zip(a, b))


def top_energy(s):
    j = [1.0 / i for i in INERTIA]
    return sum(0.5 * jk * sk * sk + jk * sk ** 3 / 3.0 for jk, sk in zip(j, s))


def above_roundoff(hs, errors, floor):
    """The points more than 3x above the round-off floor (and solved: a failed run gives NaN)."""
    kept = [(h, e) for h, e in zip(hs, errors) if e == e and e > 3 * floor]
    return [h for h, _ in kept], [e for _, e in kept]


def order_plot(ax, title, curves, orders):
    """curves: {scheme: (T, hs, errors)} above round-off. One reference slope per order, labelled,
    through the middle of the first curve of that order and offset above it."""
    drawn_curves = {}
    for scheme, (t_end, hs, errors) in curves.items():
        colour, marker = STYLE[scheme]
        # A curve drawn over an earlier one that it matches to 6 digits, hiding it (sia over mmp,
        # implicit_midpoint over mp on the spin wave), says so.
        same = [other for other, (t, h, e) in drawn_curves.items()
                if t == t_end and h == hs and all(abs(a - b) <= 1e-6 * abs(b) for a, b in zip(errors, e))]
        label = f"{scheme} (order {orders[scheme]}, T = {t_end:g})" + (f", on {same[0]}" if same else "")
        ax.loglog(hs, errors, marker=marker, color=colour, markersize=4, linewidth=1, label=label)
        drawn_curves[scheme] = (t_end, hs, errors)
    drawn = set()
    for scheme, (_, hs, errors) in curves.items():
        p = orders[scheme]
        if p in drawn or len(hs) < 2:
            continue
        drawn.add(p)
        middle = len(hs) // 2
        line = [3 * errors[middle] * (h / hs[middle]) ** p for h in (hs[0], hs[-1])]
        ax.loglog([hs[0], hs[-1]], line, "k--", linewidth=0.8)
        # At the line's small-h end, left of it: the high orders' lines start far apart there.
        ax.annotate(f"slope {p}", (hs[-1], line[1]), textcoords="offset points", xytext=(-4, 0), fontsize=8,
                    ha="right", va="center")
    ax.set_xlabel("step size h")
    ax.set_ylabel("max distance to reference at T")
    ax.set_title(title)
    # Beside the axes, so that no curve is hidden behind it.
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)


def span_failures(name, curves):
    """The curves that stay above round-off over less than a decade of h."""
    failures = []
    for scheme, (_, hs, _) in curves.items():
        span = max(hs) / min(hs) if hs else 0
        print(f"figures: {name} {scheme}: {len(hs)} points above round-off, h from {max(hs, default=0):g} "
              f"to {min(hs, default=0):g} ({span:.1f}x)")
        if span < 10 - 1e-9:
            failures.append(f"{name} {scheme}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--geomint", default="build/geomint", help="the geomint binary")
    parser.add_argument("--out", default="figures", help="folder for the PNG files")
    parser.add_argument("--quick", action="store_true", help="fewer points (a smoke run)")
    options = parser.parse_args()
    if not os.access(options.geomint, os.X_OK):
        sys.exit(f"figures: error: --geomint: '{options.geomint}' is not an executable (build first)")
    os.makedirs(options.out, exist_ok=True)
    orders = scheme_orders(options.geomint)
    top_plans, chain_plans = TOP_PLANS, CHAIN_PLANS
    if options.quick:  # a smoke run: the low-order plans on a shorter list
        top_plans = {s: (1.0, DOUBLING[:4]) for s in TOP_SCHEMES}
        chain_plans = {s: (1.0, DOUBLING[:4]) for s in CHAIN_SCHEMES}

    with tempfile.TemporaryDirectory() as scratch:
        def top_final(scheme, t_end, n):
            rows = run(options.geomint, ["--system", "top", "--s0", TOP_S0, "--scheme", scheme, "--steps", str(n),
                                         "--t-end", repr(t_end)], scratch)
            return spins(rows[0], 1) if rows[0]["status"] == "ok" else None

        # Top: the reference is coll8 at h = 0.05 (order 8, math §2.4: its truncation error is far
        # below round-off); the floor is its distance to coll8 at h = 0.04, pure round-off.
        top_curves, references = {}, {}
        for scheme in TOP_SCHEMES:
            t_end, steps_list = top_plans[scheme]
            if t_end not in references:
                reference = top_final("coll8", t_end, round(t_end * 20))
                references[t_end] = (reference, distance(reference, top_final("coll8", t_end, round(t_end * 25))))
            reference, floor = references[t_end]
            errors = []
            for n in steps_list:
                final = top_final(scheme, t_end, n)
                errors.append(distance(final, reference) if final else float("nan"))
            top_curves[scheme] = (t_end, *above_roundoff([t_end / n for n in steps_list], errors, floor))

        # Chain: the exact spin wave (math §2), d = 8; the floor is coll8's error at h = 0.05.
        def chain_error(scheme, t_end, n):
            row = run(options.geomint, ["--system", "chain", "--spins", "8", "--wave", repr(math.pi / 3), "--scheme",
                                        scheme, "--steps", str(n), "--t-end", repr(t_end), "--exact"], scratch)[0]
            return float(row["error"]) if row["status"] == "ok" else float("nan")

        chain_curves, floors = {}, {}
        for scheme in CHAIN_SCHEMES:
            t_end, steps_list = chain_plans[scheme]
            if t_end not in floors:
                floors[t_end] = chain_error("coll8", t_end, round(t_end * 20))
            errors = [chain_error(scheme, t_end, n) for n in steps_list]
            chain_curves[scheme] = (t_end, *above_roundoff([t_end / n for n in steps_list], errors, floors[t_end]))

        for name, curves in (("top", top_curves), ("chain", chain_curves)):
            fig, ax = plt.subplots(figsize=(10.5, 6))
            order_plot(ax, f"{name}: error at T against step size h", curves, orders)
            fig.tight_layout()
            fig.savefig(os.path.join(options.out, f"order_{name}.png"), dpi=130)
            plt.close(fig)
        failures = [] if options.quick else span_failures("top", top_curves) + span_failures("chain", chain_curves)

        # Energy of the top against time, h = 0.1 (math §2.5), up to t = 1000.
        h = 0.1
        times = [50 * k for k in range(1, 21)] if not options.quick else [100, 200]
        fig, ax = plt.subplots(figsize=(8.5, 4.8))
        e0 = top_energy([c / math.sqrt(3) for c in (-1.0, -1.0, 1.0)])
        for scheme in DRG_SCHEMES + ["implicit_midpoint"]:
            errors = []
            for t in times:
                row = run(options.geomint, ["--system", "top", "--s0", TOP_S0, "--scheme", scheme,
                                            "--steps", str(round(t / h)), "--dt", str(h)], scratch)[0]
                errors.append(max(abs(top_energy(spins(row, 1)[0]) - e0), 1e-17))
            colour, marker = STYLE[scheme]
            ax.semilogy(times, errors, marker=marker, color=colour, markersize=4, label=scheme)
        ax.set_xlabel("t")
        ax.set_ylabel("|H(t) - H(0)|")
        ax.set_title("top, h = 0.1: energy error, DRG schemes and the implicit midpoint rule")
        ax.legend(fontsize=7, ncol=3, loc="center right")
        fig.tight_layout()
        fig.savefig(os.path.join(options.out, "energy_top.png"), dpi=130)
        plt.close(fig)
    print(f"figures: wrote order_top.png, order_chain.png, energy_top.png in {options.out}")
    if failures:
        sys.exit(f"figures: error: less than a decade of h above round-off: {', '.join(failures)}")


if __name__ == "__main__":
    main()
