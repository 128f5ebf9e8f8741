#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot incast-window-vs-rate: one bar chart comparing the runs in runs.csv (incast FCT mean
and p99 and last completion against the bottleneck bound, victim slowdown, bottleneck queue,
pauses and drops) and, for each run, the time series of its queues and deliveries.

Run the example once per congestion control / PFC / loss-recovery setting (each run appends
a row to runs.csv), then:

Usage: examples/plot-incast-window-vs-rate.py [--dir results/incast-window-vs-rate]
"""
import argparse
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def latest_runs(path):
    """Rows of runs.csv, the last row of each label (reruns replace earlier ones)."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    by_label = {}
    for r in rows:
        by_label[r["label"]] = r
    return list(by_label.values())


def plot_comparison(runs, output):
    labels = [r["label"] for r in runs]
    x = range(len(runs))
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    ax = axes[0][0]
    w = 0.27
    ax.bar([i - w for i in x], [float(r["incast_fct_mean_us"]) for r in runs], w,
           label="incast FCT mean")
    ax.bar(list(x), [float(r["incast_fct_p99_us"]) for r in runs], w, label="incast FCT p99")
    ax.bar([i + w for i in x], [float(r["last_completion_us"]) for r in runs], w,
           label="last completion")
    ax.axhline(float(runs[0]["bound_us"]), color="k", ls="--", lw=1,
               label="bound N x wire(size) / C")
    ax.set_yscale("log")  # lossy runs wait for retransmission timeouts
    ax.set_ylabel("time (us)")
    ax.set_title("incast completion")
    ax.legend(fontsize=8)
    ax = axes[0][1]
    slow = []
    for r in runs:
        alone = float(r["victim_alone_us"])
        slow.append(float(r["victim_fct_us"]) / alone if alone > 0 else 0)
    ax.bar(list(x), slow, color="tab:purple")
    ax.axhline(1.0, color="k", ls="--", lw=1)
    ax.set_ylabel("victim FCT / alone FCT")
    ax.set_title("victim slowdown (shares only the trunk)")
    ax = axes[1][0]
    ax.bar([i - 0.2 for i in x], [float(r["queue_peak_bytes"]) / 1e3 for r in runs], 0.4,
           label="peak")
    ax.bar([i + 0.2 for i in x], [float(r["queue_mean_bytes"]) / 1e3 for r in runs], 0.4,
           label="mean")
    ax.set_ylabel("bottleneck queue (KB)")
    ax.set_title("queue at B -> receiver")
    ax.legend(fontsize=8)
    ax = axes[1][1]
    w = 0.2
    for k, (key, name) in enumerate([("xoff_b", "XOFF by B"), ("xoff_leaves", "XOFF by leaves"),
                                      ("switch_drops", "drops"),
                                      ("retransmissions", "retransmissions")]):
        ax.bar([i + (k - 1.5) * w for i in x], [max(float(r[key]), 0.5) for r in runs], w,
               label=name)
    ax.set_yscale("log")
    ax.set_title("pauses, drops, retransmissions")
    ax.legend(fontsize=8)
    for a in axes.flat:
        a.set_xticks(list(x))
        a.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    r0 = runs[0]
    fig.suptitle(f"{r0['senders']} x {r0['size']} B incast + {r0['victim_size']} B victim, "
                 f"{float(r0['rate_gbps']):g} Gb/s hosts")
    fig.tight_layout()
    fig.savefig(output, dpi=110)
    plt.close(fig)
    print(f"wrote {output}")


def plot_series(path, label, output):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return
    t = [float(r["time_us"]) for r in rows]
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    ax1.plot(t, [float(r["bottleneck_queue_bytes"]) / 1e3 for r in rows],
             label="B -> receiver (bottleneck)")
    ax1.plot(t, [float(r["trunk_queue_bytes"]) / 1e3 for r in rows], label="A -> B (trunk)")
    paused = [t[i] for i, r in enumerate(rows) if r["trunk_paused"] == "1"]
    for p in paused:
        ax1.axvspan(p, p + (t[1] - t[0] if len(t) > 1 else 1), color="tab:red", alpha=0.05,
                    lw=0)
    ax1.set_ylabel("queue (KB)")
    ax1.set_title(f"{label}: queues (red: trunk paused)")
    ax1.legend(fontsize=8, loc="upper right")
    ax2.plot(t, [float(r["incast_delivered_bytes"]) / 1e6 for r in rows], label="incast")
    ax2.plot(t, [float(r["victim_delivered_bytes"]) / 1e6 for r in rows], label="victim")
    ax2.set_xlabel("time (us)")
    ax2.set_ylabel("delivered (MB)")
    ax2.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(output, dpi=110)
    plt.close(fig)
    print(f"wrote {output}")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", default="results/incast-window-vs-rate")
    args = ap.parse_args()
    runs = latest_runs(os.path.join(args.dir, "runs.csv"))
    plot_comparison(runs, os.path.join(args.dir, "comparison.png"))
    for r in runs:
        series = os.path.join(args.dir, f"queue-{r['label']}.csv")
        if os.path.exists(series):
            plot_series(series, r["label"], os.path.join(args.dir, f"queue-{r['label']}.png"))


if __name__ == "__main__":
    main()
