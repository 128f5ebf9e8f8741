#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the output of fat-tree-workload: FCT slowdown (p50, p95, p99) by flow-size bucket.
Several --summary files (e.g. one per congestion control) are drawn side by side.

Usage: examples/plot-fat-tree-workload.py [--summary results/fat-tree-workload.csv ...]
                                          [--label NAME ...]
                                          [--output results/fat-tree-workload.png]
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path) as f:
        return [r for r in csv.DictReader(f) if int(r["flows"]) > 0]


def bucket_name(upper, lower):
    def size(b):
        if b == "inf":
            return "inf"
        b = int(b)
        for unit, scale in (("MB", 1e6), ("KB", 1e3)):
            if b >= scale:
                return "%g%s" % (b / scale, unit)
        return "%dB" % b
    return "%s-%s" % (size(lower), size(upper)) if lower else "<=" + size(upper)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--summary", nargs="+", default=["results/fat-tree-workload.csv"])
    ap.add_argument("--label", nargs="*", default=None)
    ap.add_argument("--output", default="results/fat-tree-workload.png")
    args = ap.parse_args()
    labels = args.label or args.summary

    fig, axes = plt.subplots(1, 3, figsize=(13, 4), sharey=False)
    for path, label in zip(args.summary, labels):
        rows = read(path)
        names = []
        previous = None
        for r in rows:
            names.append(bucket_name(r["bucket_bytes"], previous))
            previous = r["bucket_bytes"]
        for ax, q in zip(axes, ("p50", "p95", "p99")):
            ax.plot(names, [float(r[q]) for r in rows], marker="o", label=label)
    for ax, q in zip(axes, ("median", "95th percentile", "99th percentile")):
        ax.set_title("FCT slowdown, " + q)
        ax.set_xlabel("flow size")
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
        ax.tick_params(axis="x", rotation=30)
    axes[0].set_ylabel("FCT / FCT alone")
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print("wrote", args.output)


if __name__ == "__main__":
    main()
