#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the output of rdma-incast: bottleneck queue and paused senders over time, and the
per-flow completion times against the bottleneck bound.

Usage: examples/plot-rdma-incast.py [--flows results/rdma-incast.csv]
                                    [--queue results/rdma-incast-queue.csv]
                                    [--output results/rdma-incast.png]
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--flows", default="results/rdma-incast.csv")
    ap.add_argument("--queue", default="results/rdma-incast-queue.csv")
    ap.add_argument("--output", default="results/rdma-incast.png")
    args = ap.parse_args()

    flows = read(args.flows)
    queue = read(args.queue)
    t = [float(r["time_us"]) for r in queue]
    q = [int(r["bottleneck_queue_bytes"]) / 1e3 for r in queue]
    paused = [int(r["paused_senders"]) for r in queue]

    fig, (ax1, ax3) = plt.subplots(2, 1, figsize=(8, 7))
    ax1.plot(t, q, color="tab:blue", label="bottleneck queue (class 3)")
    ax1.set_xlabel("time (us)")
    ax1.set_ylabel("queue (KB)", color="tab:blue")
    ax2 = ax1.twinx()
    ax2.step(t, paused, where="post", color="tab:red", alpha=0.6, label="paused senders")
    ax2.set_ylabel("senders paused by PFC", color="tab:red")
    ax2.set_ylim(0, max(paused + [1]) + 1)
    ax1.set_title(f"{len(flows)} -> 1 incast: switch queue and PFC")

    fct = [float(r["fct_us"]) for r in flows]
    ax3.bar([int(r["sender"]) for r in flows], fct, color="tab:green")
    ax3.set_xlabel("sender")
    ax3.set_ylabel("flow completion time (us)")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
