#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the output of collective-interference: each job's iteration time alone and shared
(bars), with the slowdown written above the shared bar.

Usage: examples/plot-collective-interference.py [--input results/collective-interference.csv]
                                                [--output results/collective-interference.png]
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--input", default="results/collective-interference.csv")
    ap.add_argument("--output", default="results/collective-interference.png")
    args = ap.parse_args()
    with open(args.input) as f:
        rows = list(csv.DictReader(f))
    jobs = [r["job"] for r in rows]
    alone = [float(r["alone_us"]) for r in rows]
    shared = [float(r["shared_us"]) for r in rows]
    x = range(len(jobs))
    width = 0.38
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.bar([i - width / 2 for i in x], alone, width, label="alone")
    bars = ax.bar([i + width / 2 for i in x], shared, width, label="shared + background")
    for bar, r in zip(bars, rows):
        ax.annotate("%.2fx" % float(r["slowdown"]), (bar.get_x() + bar.get_width() / 2,
                                                      bar.get_height()),
                    ha="center", va="bottom")
    ax.set_xticks(list(x))
    ax.set_xticklabels(["%s\n%s B, %s ranks" % (r["job"], r["bytes"], r["ranks"]) for r in rows])
    ax.set_ylabel("iteration time (us)")
    ax.set_title("Collective interference")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print("wrote", args.output)


if __name__ == "__main__":
    main()
