#!/usr/bin/python3
"""Plots the CSV of bench/work_precision (log-log max error at T against wall time and against CPU
time, one line per method) and prints it as the Markdown table of bench/RESULTS.md.

    /usr/bin/python3 tools/plot_work_precision.py bench/work_precision.csv bench/work_precision.png [--title TEXT]
    /usr/bin/python3 tools/plot_work_precision.py bench/work_precision.csv --table

Exits 77 (CTest's skip code) when matplotlib is missing and a plot was asked for (Debian:
python3-matplotlib).
"""
import argparse
import csv
import sys
import textwrap


def read_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    by_method = {}
    for row in rows:
        by_method.setdefault(row["method"], []).append(row)
    for points in by_method.values():
        points.sort(key=lambda r: int(r["steps"]))
    return by_method


def print_table(by_method):
    print("| method | steps | h | wall s | CPU s (all threads) | traj-steps/s (wall) | max error at T |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for method, points in by_method.items():
        for r in points:
            print(f"| {method} | {int(r['steps'])} | {float(r['h']):.4g} | {float(r['seconds']):.3g} "
                  f"| {float(r['cpu_seconds']):.3g} | {float(r['steps_per_second']):.3g} | {float(r['max_error']):.2e} |")


def plot(by_method, png, title):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_work_precision: matplotlib is missing (Debian: python3-matplotlib); no plot", file=sys.stderr)
        return 77
    # Two panels: wall time (what a user waits) and the process's CPU time over all threads
    # (steadier on a shared machine, where the wall time depends on the other jobs' load).
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.5), sharey=True)
    for ax, column, label in ((axes[0], "seconds", "wall time (s)"),
                              (axes[1], "cpu_seconds", "CPU time, all threads (s)")):
        for method, points in by_method.items():
            seconds = [float(r[column]) for r in points]
            errors = [float(r["max_error"]) for r in points]
            style = "-" if method.startswith("geomint_") else "--"
            marker = "o" if method.startswith("geomint_") else "s"
            (line,) = ax.plot(seconds, errors, style, marker=marker, markersize=4, label=method)
            # The step counts of the first and last points, for reading the grid off the plot.
            for r, x, y in ((points[0], seconds[0], errors[0]), (points[-1], seconds[-1], errors[-1])):
                ax.annotate(r["steps"], (x, y), textcoords="offset points", xytext=(4, 3), fontsize=6,
                            color=line.get_color())
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(label)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("max over trajectories of max(|dq|, |dp|) at T")
    axes[1].legend(fontsize=8)
    fig.suptitle(textwrap.fill(title, 160), fontsize=9)
    fig.tight_layout()
    fig.savefig(png, dpi=110, metadata={"Software": None})
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("png", nargs="?")
    parser.add_argument("--title", default="work-precision: pendulum ensemble")
    parser.add_argument("--table", action="store_true", help="print the Markdown table")
    args = parser.parse_args()
    by_method = read_rows(args.csv)
    if args.table:
        print_table(by_method)
    if args.png:
        return plot(by_method, args.png, args.title)
    return 0


if __name__ == "__main__":
    sys.exit(main())
