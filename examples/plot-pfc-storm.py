#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the time series of pfc-storm: the aggregate goodput, and the transmit queues of the
RoCE class paused by PFC in each tier of the fat-tree, with the storm shaded.

Usage: examples/plot-pfc-storm.py [--series results/pfc-storm-series.csv]
                                  [--output results/pfc-storm.png]
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TIERS = [("paused_host_ports", "host ports"), ("paused_edge_ports", "edge switch ports"),
         ("paused_agg_ports", "aggregation switch ports"), ("paused_core_ports", "core switch ports")]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--series", default="results/pfc-storm-series.csv")
    ap.add_argument("--output", default="results/pfc-storm.png")
    args = ap.parse_args()

    with open(args.series) as f:
        rows = list(csv.DictReader(f))
    t = [float(r["time_us"]) for r in rows]
    storm = [t[i] for i, r in enumerate(rows) if r["storm_active"] == "1"]

    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    for ax in (ax1, ax2):
        if storm:
            ax.axvspan(min(storm), max(storm), color="tab:red", alpha=0.1,
                       label="broken NIC sends pauses")
    ax1.plot(t, [float(r["goodput_gbps"]) for r in rows], color="tab:blue",
             label="aggregate goodput")
    ax1.set_ylabel("goodput (Gb/s)")
    ax1.set_title("PFC pause storm: one broken NIC stalls the fat-tree")
    ax1.legend(loc="upper right")
    for key, label in TIERS:
        ax2.step(t, [int(r[key]) for r in rows], where="post", label=label)
    ax2.set_xlabel("time (us)")
    ax2.set_ylabel("paused queues (RoCE class)")
    ax2.legend(loc="upper right")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
