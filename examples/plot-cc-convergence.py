#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot cc-convergence: for each run, the per-flow goodput, the congestion control's rate and
window, and the bottleneck queue over time (series-<label>.csv), with Jain's index per phase
(phases-<label>.csv); and one chart comparing the runs in runs.csv.

Usage: examples/plot-cc-convergence.py [--dir results/cc-convergence]
"""
import argparse
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def plot_run(directory, label):
    rows = read(os.path.join(directory, f"series-{label}.csv"))
    phases = read(os.path.join(directory, f"phases-{label}.csv"))
    if not rows:
        return
    n = sum(1 for k in rows[0] if k.startswith("tput_gbps_"))
    t = [float(r["time_us"]) / 1e3 for r in rows]
    fig, axes = plt.subplots(4, 1, figsize=(9, 10), sharex=True)
    for i in range(n):
        axes[0].plot(t, [float(r[f"tput_gbps_{i}"]) for r in rows], lw=0.8, label=f"flow {i}")
        axes[1].plot(t, [float(r[f"rate_gbps_{i}"]) for r in rows], lw=0.8)
        axes[2].plot(t, [float(r[f"window_bytes_{i}"]) / 1e3 for r in rows], lw=0.8)
    for p in phases:
        k = int(p["active_flows"])
        s, e = float(p["start_us"]) / 1e3, float(p["end_us"]) / 1e3
        axes[0].hlines(float(p["fair_gbps"]), s, e, colors="k", linestyles="--", lw=0.8)
        axes[0].text((s + e) / 2, 2, f"J={float(p['jain']):.3f}" if k > 1 else "",
                     ha="center", fontsize=7)
    axes[0].set_ylabel("goodput (Gb/s)")
    axes[0].set_title(f"{label}: goodput per flow (dashed: fair share; J: Jain's index)")
    axes[0].legend(fontsize=7, ncol=4)
    axes[1].set_ylabel("CC rate (Gb/s)")
    axes[2].set_ylabel("CC window (KB)")
    axes[3].plot(t, [float(r["queue_bytes"]) / 1e3 for r in rows], color="tab:red", lw=0.8)
    axes[3].set_ylabel("bottleneck queue (KB)")
    axes[3].set_xlabel("time (ms)")
    fig.tight_layout()
    out = os.path.join(directory, f"convergence-{label}.png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    print(f"wrote {out}")


def plot_comparison(directory, runs):
    labels = [r["label"] for r in runs]
    x = list(range(len(runs)))
    fig, axes = plt.subplots(1, 3, figsize=(12, 4))
    axes[0].bar(x, [float(r["jain_mean"]) for r in runs], label="mean")
    axes[0].plot(x, [float(r["jain_min"]) for r in runs], "kv", label="min")
    axes[0].set_ylim(0, 1.05)
    axes[0].set_title("Jain's index (phases of 2+ flows)")
    axes[0].legend(fontsize=8)
    axes[1].bar(x, [float(r["utilisation_mean"]) for r in runs])
    axes[1].set_ylim(0, 1.05)
    axes[1].set_title("utilisation (goodput / link goodput)")
    axes[2].bar(x, [float(r["queue_mean_bytes"]) / 1e3 for r in runs])
    axes[2].set_title("bottleneck queue mean (KB)")
    for a in axes:
        a.set_xticks(x)
        a.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    fig.tight_layout()
    out = os.path.join(directory, "comparison.png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    print(f"wrote {out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", default="results/cc-convergence")
    args = ap.parse_args()
    by_label = {}
    for r in read(os.path.join(args.dir, "runs.csv")):
        by_label[r["label"]] = r
    runs = list(by_label.values())
    for r in runs:
        if os.path.exists(os.path.join(args.dir, f"series-{r['label']}.csv")):
            plot_run(args.dir, r["label"])
    plot_comparison(args.dir, runs)


if __name__ == "__main__":
    main()
