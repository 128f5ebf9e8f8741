#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Scaling curve: peak memory and wall time against the number of hosts.

Runs rdma-bench --scenario=fattree<k> for k = 4, 8, 16, 32 (16 to 8,192 hosts), each in its own
process, building the fabric and simulating --stopTime of the permutation + incast traffic
(default 10 us), fits memory = a + b x hosts by least squares, prints the table and the bytes per
host, and draws the PNG.

Usage: benchmarks/plot-scaling.py [--build build] [--stopTime 10us] [--output scaling.png]
"""
import argparse
import os
import subprocess

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--stopTime", default="10us")
    ap.add_argument("--ks", default="4,8,16,32")
    ap.add_argument("--output", default="results/scaling.png")
    args = ap.parse_args()
    exe = os.path.join(args.build, "benchmarks", "rdma-bench")
    rows = []
    print("k | hosts | switches | setup_s | wall_s | peak_rss_mb | events")
    for k in [int(x) for x in args.ks.split(",")]:
        out = subprocess.run([exe, f"--scenario=fattree{k}", f"--stopTime={args.stopTime}"],
                             check=True, capture_output=True, text=True).stdout
        line = [l for l in out.splitlines() if l.startswith("scenario=")][-1]
        r = dict(kv.split("=", 1) for kv in line.split())
        rows.append((k, int(r["hosts"]), int(r["switches"]), float(r["setup_s"]),
                     float(r["wall_s"]), float(r["peak_rss_mb"]), int(r["events"])))
        print(" | ".join(str(x) for x in rows[-1]), flush=True)

    hosts = [r[1] for r in rows]
    rss = [r[5] * 2**20 for r in rows]
    n = len(rows)
    mx, my = sum(hosts) / n, sum(rss) / n
    b = sum((x - mx) * (y - my) for x, y in zip(hosts, rss)) / sum((x - mx) ** 2 for x in hosts)
    a = my - b * mx
    print(f"memory ~= {a / 2**20:.1f} MB + {b / 1024:.1f} KB per host "
          f"(fat-tree: 5/32 switch per host and 1 queue pair end per host for the permutation)")

    fig, ax1 = plt.subplots(figsize=(7, 4.5))
    ax1.loglog(hosts, [r[5] for r in rows], "o-", color="tab:blue", label="peak RSS (MB)")
    ax1.loglog(hosts, [(a + b * h) / 2**20 for h in hosts], ":", color="tab:blue",
               label=f"fit: {a / 2**20:.0f} MB + {b / 1024:.0f} KB/host")
    ax1.set_xlabel("hosts (k-ary fat-tree, k = " + ", ".join(str(r[0]) for r in rows) + ")")
    ax1.set_ylabel("peak RSS (MB)", color="tab:blue")
    ax2 = ax1.twinx()
    ax2.loglog(hosts, [r[4] for r in rows], "s-", color="tab:red",
               label=f"wall time, set-up + {args.stopTime} (s)")
    ax2.set_ylabel("wall time (s)", color="tab:red")
    lines = ax1.get_legend_handles_labels()
    lines2 = ax2.get_legend_handles_labels()
    ax1.legend(lines[0] + lines2[0], lines[1] + lines2[1], loc="upper left", fontsize=8)
    ax1.set_title("rdma: memory and time against fabric size")
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
