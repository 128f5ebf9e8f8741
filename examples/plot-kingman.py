#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the output of kingman: the mean queueing delay Wq at one switch egress port against
its utilisation rho, measured (markers, with the batch-means 95 % interval) and
Pollaczek-Khinchine's Wq = rho E[S^2] / (2 E[S] (1 - rho)) (lines), one colour per size
distribution (deterministic = fixed-size FLITs/frames, M/D/1; exponential, M/M/1-like;
bimodal small/large), in units of the mean service time E[S]; right panel: the 99th
percentile of Wq, measured, with M/M/1's E[S] ln(100 rho) / (1 - rho) for the exponential.

Usage: examples/plot-kingman.py [--output results/kingman.png] results/kingman.csv
"""
import argparse
import csv
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {
    "deterministic": ("fixed size (M/D/1)", "tab:blue", "o"),
    "exponential": ("exponential (M/M/1)", "tab:red", "s"),
    "bimodal": ("bimodal small/large", "tab:green", "^"),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv")
    parser.add_argument("--output", default="results/kingman.png")
    args = parser.parse_args()
    rows = list(csv.DictReader(open(args.csv)))
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for dist, (label, colour, marker) in STYLE.items():
        pts = sorted((r for r in rows if r["dist"] == dist), key=lambda r: float(r["rho"]))
        if not pts:
            continue
        rho = [float(r["rho"]) for r in pts]
        es = [float(r["mean_service_ns"]) for r in pts]
        wq = [float(r["wq_mean_ns"]) / s for r, s in zip(pts, es)]
        ci = [float(r["wq_ci95_ns"]) / s for r, s in zip(pts, es)]
        pk = [float(r["wq_pk_ns"]) / s for r, s in zip(pts, es)]
        cs2 = float(pts[0]["cs2"])
        left.errorbar(rho, wq, yerr=ci, fmt=marker, color=colour,
                      label=f"{label}, measured (cs² = {cs2:.2f})")
        left.plot(rho, pk, "-", color=colour, label=f"{label}, Pollaczek-Khinchine")
        p99 = [float(r["wq_p99_ns"]) / s for r, s in zip(pts, es)]
        right.plot(rho, p99, marker, color=colour, label=f"{label}, measured")
        mm1 = [float(r["wq_p99_mm1_ns"]) / s for r, s in zip(pts, es)]
        if not any(math.isnan(x) for x in mm1):
            right.plot(rho, mm1, "-", color=colour, label="M/M/1 closed form")
    for ax, title in ((left, "mean queueing delay"), (right, "99th percentile")):
        ax.set_yscale("log")
        ax.set_xlabel("utilisation ρ of the egress port")
        ax.set_ylabel("Wq / E[S]")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"plot-kingman: wrote {args.output}")


if __name__ == "__main__":
    main()
