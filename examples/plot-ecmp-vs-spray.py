#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the output of ecmp-vs-spray: load balancers (ECMP, random and round-robin spraying,
flowlets, adaptive) with go-back-N and with SACK + RACK-TLP in a leaf-spine with k spines and
k flows between the two leaves, averaged over seeds.

Panels:
  (a) aggregate throughput while all flows are active over the ideal k x C (mean and standard
      error over the seeds, dots: single runs); dashed: the balls-into-bins expectation of
      ECMP, 1 - (1 - 1/k)^k; dotted: 0.95;
  (b) per-flow goodput, bytes / FCT (box: quartiles, whiskers: 5th and 95th percentiles);
  (c) utilization of leaf 0's uplinks while all flows are active, mean over uplinks and
      seeds (bars) and busy spines / k (markers);
  (d) reordering at the responders: packets first received below the highest PSN already
      received, as a fraction of the packets;
  (e) spurious retransmissions per data packet (no drop anywhere: all of them are spurious);
  (f) ECMP: distribution of the busy spines over the seeds against the exact balls-into-bins
      distribution P(b) = C(k, b) b! S(k, b) / k^k.

Usage: examples/plot-ecmp-vs-spray.py [--output results/ecmp-vs-spray.png]
                                      [--flows results/ecmp-vs-spray-flows.csv]
                                      results/ecmp-vs-spray.csv
"""
import argparse
import csv
import math
import os
import statistics

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

POLICIES = [
    ("ecmp", "ECMP"),
    ("flowlet", "flowlet"),
    ("spray", "random\nspray"),
    ("rr", "round-robin\nspray"),
    ("adaptive", "adaptive"),
]
SCHEMES = [("gbn", "go-back-N", "tab:red"), ("sack", "SACK + RACK-TLP", "tab:green")]


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def busy_distribution(k):
    """P(b non-empty bins) for k balls in k bins: C(k, b) * surjections(k -> b) / k^k."""
    p = {}
    for b in range(1, k + 1):
        surj = sum((-1) ** j * math.comb(b, j) * (b - j) ** k for j in range(b + 1))
        p[b] = math.comb(k, b) * surj / k**k
    return p


def mean_se(values):
    if not values:
        return 0.0, 0.0
    m = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return m, se


def percentile(values, q):
    s = sorted(values)
    if not s:
        return 0.0
    pos = (len(s) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", help="per-run CSV of ecmp-vs-spray (--output)")
    parser.add_argument("--flows", help="per-flow CSV (--flowOutput); default: <csv>-flows.csv")
    parser.add_argument("--output", default="results/ecmp-vs-spray.png")
    args = parser.parse_args()

    runs = read(args.csv)
    flows_path = args.flows or os.path.splitext(args.csv)[0] + "-flows.csv"
    flows = read(flows_path) if os.path.exists(flows_path) else []
    if not runs:
        raise SystemExit("no runs in " + args.csv)
    k = int(runs[0]["k"])
    expected = float(runs[0]["ecmp_expected_fraction"])
    seeds = len({r["run"] for r in runs})
    size = int(runs[0]["bytes"])
    present = {r["policy"] for r in runs}
    policies = [(p, label) for p, label in POLICIES if p in present]
    schemes = [s for s in SCHEMES if any(r["scheme"] == s[0] for r in runs)]

    def select(policy, scheme):
        return [r for r in runs if r["policy"] == policy and r["scheme"] == scheme]

    fig, axes = plt.subplots(2, 3, figsize=(16, 9))
    width = 0.8 / max(len(schemes), 1)
    xs = range(len(policies))

    def offset(i):
        return (i - (len(schemes) - 1) / 2) * width

    # (a) aggregate throughput
    ax = axes[0][0]
    for i, (scheme, label, color) in enumerate(schemes):
        for x, (policy, _) in enumerate(policies):
            values = [float(r["aggregate_fraction"]) for r in select(policy, scheme)]
            m, se = mean_se(values)
            ax.bar(x + offset(i), m, width, yerr=se, color=color, alpha=0.75, capsize=3,
                   label=label if x == 0 else None)
            jitter = [x + offset(i) + width * 0.3 * ((j % 7) / 6 - 0.5) for j in range(len(values))]
            ax.plot(jitter, values, ".", color="black", markersize=2, alpha=0.5)
            ax.text(x + offset(i), m + 0.02, f"{m:.3f}", ha="center", va="bottom", fontsize=7)
    ax.axhline(expected, color="tab:blue", ls="--", lw=1,
               label=f"ECMP expectation 1 - (1 - 1/k)^k = {expected:.3f}")
    ax.axhline(0.95, color="gray", ls=":", lw=1, label="0.95")
    ax.set_ylim(0, 1.35)
    ax.set_ylabel("aggregate throughput / ideal k x C")
    ax.set_title("(a) aggregate while all flows are active")
    ax.legend(fontsize=7, loc="upper center", ncol=2)

    # (b) per-flow goodput
    ax = axes[0][1]
    line_rate = {}
    for r in runs:
        line_rate[r["scheme"]] = float(r["line_goodput_gbps"])
    for i, (scheme, label, color) in enumerate(schemes):
        for x, (policy, _) in enumerate(policies):
            values = [float(f["goodput_gbps"]) for f in flows
                      if f["policy"] == policy and f["scheme"] == scheme and f["completed"] == "1"]
            if not values:
                continue
            pos = x + offset(i)
            q05, q25, q50, q75, q95 = (percentile(values, q) for q in (0.05, 0.25, 0.5, 0.75, 0.95))
            ax.add_patch(plt.Rectangle((pos - width * 0.4, q25), width * 0.8, q75 - q25,
                                       color=color, alpha=0.5))
            ax.plot([pos - width * 0.4, pos + width * 0.4], [q50, q50], color="black", lw=1)
            ax.plot([pos, pos], [q05, q25], color=color, lw=1)
            ax.plot([pos, pos], [q75, q95], color=color, lw=1)
    for scheme, label, color in schemes:
        if scheme in line_rate:
            ax.axhline(line_rate[scheme], color=color, ls=":", lw=1,
                       label=f"C {label}: {line_rate[scheme]:.1f} Gb/s")
    ax.set_yscale("log")
    ax.set_ylabel("per-flow goodput, bytes / FCT (Gb/s)")
    ax.set_title("(b) per-flow goodput (5-25-50-75-95 %)")
    ax.legend(fontsize=7, loc="lower right")

    # (c) uplink utilization
    ax = axes[0][2]
    for i, (scheme, label, color) in enumerate(schemes):
        for x, (policy, _) in enumerate(policies):
            sel = select(policy, scheme)
            util = [statistics.fmean(float(u) for u in r["uplink_util"].split(";")) for r in sel]
            busy = [int(r["busy_spines"]) / k for r in sel]
            m, se = mean_se(util)
            ax.bar(x + offset(i), m, width, yerr=se, color=color, alpha=0.75, capsize=3,
                   label=label if x == 0 else None)
            ax.plot(x + offset(i), statistics.fmean(busy), "k_", markersize=12,
                    label="busy spines / k" if x == 0 and i == 0 else None)
    ax.set_ylim(0, 1.15)
    ax.set_ylabel("uplink utilization (leaf 0 -> spines)")
    ax.set_title("(c) spine link utilization while all flows are active")
    ax.legend(fontsize=7, loc="upper left")

    # (d) reordering
    ax = axes[1][0]
    for i, (scheme, label, color) in enumerate(schemes):
        for x, (policy, _) in enumerate(policies):
            sel = select(policy, scheme)
            distinct = sum(int(r["distinct_packets"]) for r in sel)
            reordered = sum(float(r["reordered_fraction"]) * int(r["distinct_packets"])
                            for r in sel)
            displ = sum(float(r["mean_displacement"]) * float(r["reordered_fraction"])
                        * int(r["distinct_packets"]) for r in sel)
            frac = reordered / distinct if distinct else 0
            ax.bar(x + offset(i), frac, width, color=color, alpha=0.75,
                   label=label if x == 0 else None)
            if reordered > 0:
                ax.text(x + offset(i), frac + 0.01, f"d={displ / reordered:.1f}", ha="center",
                        va="bottom", fontsize=7)
    ax.set_ylim(0, 1)
    ax.set_ylabel("reordered packets / packets")
    ax.set_title("(d) reordering at the responders (d: mean PSN displacement)")
    ax.legend(fontsize=7, loc="upper left")

    # (e) spurious retransmissions
    ax = axes[1][1]
    drops = sum(int(r["drops"]) for r in runs)
    for i, (scheme, label, color) in enumerate(schemes):
        for x, (policy, _) in enumerate(policies):
            sel = select(policy, scheme)
            distinct = sum(int(r["distinct_packets"]) for r in sel)
            retx = sum(int(r["retransmissions"]) for r in sel)
            value = retx / distinct if distinct else 0
            ax.bar(x + offset(i), value, width, color=color, alpha=0.75,
                   label=label if x == 0 else None)
            ax.text(x + offset(i), max(value, 1.2e-4) * 1.15, f"{value:.2g}", ha="center",
                    va="bottom", fontsize=7)
    ax.set_yscale("symlog", linthresh=1e-4)
    ax.set_ylim(0, 200)
    ax.set_ylabel("retransmissions per data packet")
    ax.set_title("(e) spurious retransmissions ("
                 + ("no drop: all spurious" if drops == 0 else f"{drops} drops!") + ")")
    ax.legend(fontsize=7, loc="upper left")

    for ax in (axes[0][0], axes[0][1], axes[0][2], axes[1][0], axes[1][1]):
        ax.set_xticks(list(xs))
        ax.set_xticklabels([label for _, label in policies], fontsize=8)
        ax.grid(axis="y", alpha=0.3)

    # (f) ECMP busy-spine distribution
    ax = axes[1][2]
    p = busy_distribution(k)
    ecmp = [r for r in runs if r["policy"] == "ecmp"]
    if ecmp:
        scheme0 = ecmp[0]["scheme"]
        counts = [int(r["busy_spines"]) for r in ecmp if r["scheme"] == scheme0]
        n = len(counts)
        bs = list(range(1, k + 1))
        ax.bar(bs, [counts.count(b) / n for b in bs], 0.6, color="tab:gray", alpha=0.7,
               label=f"simulated, {n} seeds")
        ax.plot(bs, [p[b] for b in bs], "o", color="tab:blue",
                label="exact P(b), +- 2 sd of n runs")
        for b in bs:
            sd = math.sqrt(p[b] * (1 - p[b]) / n)
            ax.plot([b, b], [p[b] - 2 * sd, p[b] + 2 * sd], color="tab:blue", lw=1)
        m = statistics.fmean(counts) / k
        ax.set_title(f"(f) ECMP busy spines: mean b/k {m:.3f}, expected {expected:.3f}")
        ax.set_xticks(bs)
    ax.set_xlabel("busy spines b")
    ax.set_ylabel("fraction of runs")
    ax.legend(fontsize=7)
    ax.grid(axis="y", alpha=0.3)

    fig.suptitle(f"Leaf-spine, k = {k} spines, {k} flows of {size / 2**20:g} MiB between the "
                 f"leaves, {seeds} seeds per load balancer and loss recovery")
    fig.tight_layout()
    out_dir = os.path.dirname(args.output)
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    fig.savefig(args.output, dpi=110)
    print("wrote", args.output)


if __name__ == "__main__":
    main()
