#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the output of memory-semantics: for verbs WRITEs with completion polling and for
stores with a flag (put with signal) and flag polling, against the transfer size: the latency
(p50 markers, p99 bars), the operations per second when every transfer is requested at once,
and the wire bytes per useful byte.

Usage: examples/plot-memory-semantics.py [--output results/memory-semantics.png]
       results/memory-semantics.csv
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {"verbs": ("verbs WRITE + CQ polling", "tab:blue", "o"),
         "stores": ("stores + flag (put with signal)", "tab:red", "s")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv")
    parser.add_argument("--output", default="results/memory-semantics.png")
    args = parser.parse_args()
    rows = list(csv.DictReader(open(args.csv)))
    fig, (lat, ops, wire) = plt.subplots(1, 3, figsize=(15, 4.2))
    for mode, (label, colour, marker) in STYLE.items():
        pts = sorted((r for r in rows if r["mode"] == mode), key=lambda r: int(r["size"]))
        if not pts:
            continue
        x = [int(r["size"]) for r in pts]
        p50 = [float(r["p50_ns"]) / 1000 for r in pts]
        p99 = [float(r["p99_ns"]) / 1000 for r in pts]
        lat.errorbar(x, p50, yerr=[[0] * len(x), [b - a for a, b in zip(p50, p99)]],
                     fmt=marker + "-", color=colour, capsize=3, label=f"{label} (p50, bar to p99)")
        ops.plot(x, [float(r["ops_per_s"]) / 1e6 for r in pts], marker + "-", color=colour,
                 label=label)
        wire.plot(x, [float(r["wire_per_useful"]) for r in pts], marker + "-", color=colour,
                  label=label)
    for ax, ylabel in ((lat, "latency, request to seen (us)"),
                       (ops, "transfers per second (millions)"),
                       (wire, "wire bytes per useful byte")):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("transfer size (bytes)")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    lat.set_yscale("log")
    ops.set_yscale("log")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(args.output)


if __name__ == "__main__":
    main()
