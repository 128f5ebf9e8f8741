#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the output of dcqcn-convergence.

Single run: per-flow DCQCN rate (thin) and throughput averaged over --smooth samples
(thick) against the fair share C/N, and the bottleneck queue against the fixed point of
the DCQCN fluid model (read from the summary file).

  examples/plot-dcqcn-convergence.py [--csv results/dcqcn-convergence.csv]
      [--summary results/dcqcn-convergence-summary.csv] [--output results/dcqcn-convergence.png]

Fixed-point comparison: the steady state of several runs (their summary files: mean and
99th-percentile queue, mean alpha, CNPs per flow and millisecond) beside the fluid model's
fixed point (q*, alpha*, a*/tau), one group per number of flows.

  examples/plot-dcqcn-convergence.py --queue-summaries s2.csv s4.csv s10.csv --output q.png

Needs matplotlib (Debian: python3-matplotlib; run with /usr/bin/python3).
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_summary(path):
    with open(path) as f:
        return {row["key"]: row["value"] for row in csv.DictReader(f)}


def plot_run(args):
    with open(args.csv) as f:
        rows = list(csv.DictReader(f))
    summary = read_summary(args.summary) if args.summary else {}
    t = [float(r["time_us"]) / 1e3 for r in rows]
    n = sum(1 for k in rows[0] if k.startswith("rate_gbps_"))
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(8, 7), sharex=True,
                                   gridspec_kw={"height_ratios": [3, 2]})
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    k = max(1, args.smooth)
    for i in range(n):
        c = colors[i % len(colors)]
        rate = [float(r[f"rate_gbps_{i}"]) for r in rows]
        tput = [float(r[f"tput_gbps_{i}"]) for r in rows]
        avg = [sum(tput[max(0, j - k + 1):j + 1]) / len(tput[max(0, j - k + 1):j + 1])
               for j in range(len(tput))]
        ax1.plot(t, rate, color=c, linewidth=0.5, alpha=0.5)
        ax1.plot(t, avg, color=c, linewidth=1.5, label=f"flow {i}")
    if "fair_share_gbps" in summary:
        fair = float(summary["fair_share_gbps"])
        ax1.axhline(fair, color="black", linestyle="--", linewidth=1,
                    label=f"C/N = {fair:.2f} Gb/s")
    ax1.set_ylabel("Gb/s (thin: DCQCN rate RC,\nthick: throughput)")
    ax1.set_ylim(bottom=0)
    ax1.legend(loc="upper right", fontsize=8, ncol=2)
    title = f"DCQCN, {n} flow{'s' if n > 1 else ''}"
    if "jain" in summary:
        title += f": Jain index {float(summary['jain']):.4f}"
        conv = float(summary.get("converged_after_us", -1))
        if conv >= 0:
            title += f", converged to 10 % of C/N in {conv / 1e3:.1f} ms"
    ax1.set_title(title)

    q = [int(r["queue_bytes"]) / 1e3 for r in rows]
    ax2.plot(t, q, color="tab:blue", linewidth=0.6, label="bottleneck queue")
    if "queue_mean_bytes" in summary:
        t0 = float(summary["measure_from_us"]) / 1e3
        ax2.hlines(float(summary["queue_mean_bytes"]) / 1e3, t0, t[-1], color="tab:green",
                   linewidth=1.5, label="mean (steady state)")
    if "fixed_point_queue_bytes" in summary:
        ax2.axhline(float(summary["fixed_point_queue_bytes"]) / 1e3, color="tab:red",
                    linestyle="--", linewidth=1.2, label="fluid model fixed point q*")
    ax2.set_xlabel("time (ms)")
    ax2.set_ylabel("queue (KB)")
    ax2.set_ylim(bottom=0)
    if args.queue_max and max(q) > args.queue_max:
        peak = max(q)
        ax2.set_ylim(0, args.queue_max)
        ax2.annotate(f"clipped: peak {peak:.0f} KB at {t[q.index(peak)]:.2f} ms",
                     xy=(t[q.index(peak)], args.queue_max), xytext=(0.25, 0.9),
                     textcoords="axes fraction", fontsize=8,
                     arrowprops={"arrowstyle": "->", "color": "gray"})
    ax2.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print(f"wrote {args.output}")


def plot_queues(args):
    groups = [read_summary(p) for p in args.queue_summaries]
    groups.sort(key=lambda s: int(s["flows"]))
    labels = [f"N = {s['flows']}" for s in groups]
    x = list(range(len(groups)))
    w = 0.27
    fig, (axq, axa, axc) = plt.subplots(1, 3, figsize=(12, 4))

    def val(key, scale=1.0):
        return [float(s[key]) * scale for s in groups]

    axq.bar([i - w for i in x], val("queue_mean_bytes", 1e-3), w, label="simulated mean",
            color="tab:green")
    axq.bar(x, val("fixed_point_queue_bytes", 1e-3), w, label="fixed point q*",
            color="tab:red")
    axq.bar([i + w for i in x], val("queue_p99_bytes", 1e-3), w, label="simulated p99",
            color="tab:gray")
    axq.set_ylabel("bottleneck queue (KB)")
    axq.set_title("queue")
    for ax, key, fp_key, title, ylabel in (
            (axa, "alpha_mean", "fixed_point_alpha", "alpha", "alpha"),
            (axc, "cnp_per_ms", "fixed_point_cnp_per_ms", "CNPs per flow", "CNPs / ms")):
        ax.bar([i - w / 2 for i in x], val(key), w, label="simulated", color="tab:green")
        ax.bar([i + w / 2 for i in x], val(fp_key), w, label="fixed point", color="tab:red")
        ax.set_title(title)
        ax.set_ylabel(ylabel)
    for ax in (axq, axa, axc):
        ax.set_xticks(x)
        ax.set_xticklabels(labels)
        ax.legend(fontsize=8)
    rate = float(groups[0]["line_rate_gbps"])
    fig.suptitle(f"DCQCN at {rate:g} Gb/s, steady state: simulation vs the fluid model's "
                 "fixed point")
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print(f"wrote {args.output}")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--csv", default="results/dcqcn-convergence.csv")
    ap.add_argument("--summary", default="results/dcqcn-convergence-summary.csv")
    ap.add_argument("--output", default="results/dcqcn-convergence.png")
    ap.add_argument("--smooth", type=int, default=20,
                    help="samples averaged for the thick throughput lines")
    ap.add_argument("--queue-max", type=float, default=0,
                    help="clip the queue axis at this many KB (0: no clipping)")
    ap.add_argument("--queue-summaries", nargs="+",
                    help="summary files of several runs: plot queues against q*")
    args = ap.parse_args()
    if args.queue_summaries:
        plot_queues(args)
    else:
        plot_run(args)


if __name__ == "__main__":
    main()
