#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Sweep the message size of scale-up-allreduce (ring all-reduce over a single-tier scale-up
pod) for several host path selectors and plot bus bandwidth against size.

The script runs the example once per (selector, size), collects the summary lines into one
CSV and draws:
  (a) bus bandwidth (NCCL's busbw = 2 (N - 1) / N x S / time) against the buffer size S:
      markers simulated, lines the analytical T = 2 (N - 1) (alpha + (S/N) / B_eff) (P planes
      per queue pair for interleave and spray, one for qp), dotted the raw P x R / 8;
  (b) simulated time over analytical T, and (dotted) the example's refinement of T that
      does not charge ACK bytes to the packets sent before a step's first ACK (variants far
      from T, like interleaving at 4 x MTU, are named there instead).

Usage: examples/plot-scale-up-allreduce.py [--exe build/examples/scale-up-allreduce]
           [--accelerators 8] [--planes 4] [--min 65536] [--max 67108864]
           [--csv results/scale-up-allreduce-sweep.csv] [--output results/scale-up-allreduce.png]
       examples/plot-scale-up-allreduce.py --replot results/scale-up-allreduce-sweep.csv
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (label, example arguments, colour, marker)
VARIANTS = [
    ("interleave G = MTU", ["--pathSelector=interleave"], "tab:blue", "o"),
    ("spray (round robin)", ["--pathSelector=spray"], "tab:green", "s"),
    ("interleave G = 4 MTU", ["--pathSelector=interleave", "--granularity=4096"], "tab:orange",
     "^"),
    ("qp (one plane per QP)", ["--pathSelector=qp"], "tab:red", "v"),
]


def run_sweep(args):
    rows = []
    size = args.min
    sizes = []
    while size <= args.max:
        sizes.append(size)
        size *= 2
    with tempfile.TemporaryDirectory() as tmp:
        for label, extra, _, _ in VARIANTS:
            for s in sizes:
                out = os.path.join(tmp, "run")
                cmd = [
                    args.exe,
                    "--accelerators=%d" % args.accelerators,
                    "--planes=%d" % args.planes,
                    "--bytes=%d" % s,
                    "--output=" + out,
                ] + extra
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
                with open(os.path.join(out, "scale-up-allreduce.csv")) as f:
                    row = next(csv.DictReader(f))
                row["variant"] = label
                rows.append(row)
                print("%-24s S = %9d B: busbw %7.2f GB/s (analytical %7.2f), time/T %.4f"
                      % (label, s, float(row["busbw_gbytes"]),
                         float(row["analytical_busbw_gbytes"]), float(row["ratio"])))
    os.makedirs(os.path.dirname(os.path.abspath(args.csv)), exist_ok=True)
    with open(args.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["variant"] + [k for k in rows[0] if k != "variant"])
        w.writeheader()
        w.writerows(rows)
    return rows


def plot(rows, output):
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(7.5, 8.5), sharex=True,
                                  gridspec_kw={"height_ratios": [3, 1.5]})
    first = rows[0]
    n, p = int(first["accelerators"]), int(first["planes"])
    rate = float(first["rate_bps"])
    drawn = set()
    off = []
    for label, _, colour, marker in VARIANTS:
        sel = [r for r in rows if r["variant"] == label]
        if not sel:
            continue
        x = [int(r["bytes"]) for r in sel]
        hollow = label.startswith("interleave G = MTU")
        ax.plot(x, [float(r["busbw_gbytes"]) for r in sel], marker, color=colour, label=label,
                markersize=10 if hollow else 6, markerfacecolor="none" if hollow else colour)
        # One analytical curve per planes-per-queue-pair (P for spreading selectors, 1 for qp).
        key = sel[0]["beff_gbps"]
        if key not in drawn:
            drawn.add(key)
            single = label.startswith("qp")
            ax.plot(x, [float(r["analytical_busbw_gbytes"]) for r in sel],
                    "k--" if single else "k-", linewidth=1,
                    label="analytical T, %s" % ("1 plane per QP" if single
                                                else "%d planes per QP" % p))
        ratio = [float(r["ratio"]) for r in sel]
        if max(ratio) < 1.2:
            ax2.plot(x, ratio, marker + "-", color=colour, label=label,
                     markersize=10 if hollow else 6,
                     markerfacecolor="none" if hollow else colour)
            ax2.plot(x, [float(r["refined_us"]) / float(r["analytical_us"]) for r in sel], ":",
                     color=colour, linewidth=1)
        else:
            off.append("%s: %.1f-%.1f x T" % (label, min(ratio), max(ratio)))
    ax.axhline(p * rate / 8 / 1e9, color="grey", linestyle=":",
               label="raw P x R = %.0f GB/s" % (p * rate / 8 / 1e9))
    ax.set_xscale("log", base=2)
    ax.set_ylabel("bus bandwidth (GB/s)")
    ax.set_title("Ring all-reduce, N = %d accelerators, P = %d planes of %.0f Gb/s,\n"
                 "link %s ns, switch %s ns (markers: simulated)"
                 % (n, p, rate / 1e9, first["link_latency_ns"], first["switch_latency_ns"]))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    if off:
        ax2.set_title("off scale: " + "; ".join(off), fontsize=8)
    ax2.set_xscale("log", base=2)
    ax2.set_xlabel("buffer size S (bytes)")
    ax2.set_ylabel("simulated / analytical T\n(dotted: refined / T)")
    ax2.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    fig.savefig(output, dpi=120)
    print("wrote", output)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exe", default=os.path.join(ROOT, "build", "examples",
                                                      "scale-up-allreduce"),
                        help="the scale-up-allreduce binary")
    parser.add_argument("--accelerators", type=int, default=8)
    parser.add_argument("--planes", type=int, default=4)
    parser.add_argument("--min", type=int, default=64 * 1024, help="smallest S, bytes")
    parser.add_argument("--max", type=int, default=64 * 1024 * 1024, help="largest S, bytes")
    parser.add_argument("--csv", default="results/scale-up-allreduce-sweep.csv")
    parser.add_argument("--output", default="results/scale-up-allreduce.png")
    parser.add_argument("--replot", help="draw an existing sweep CSV instead of running")
    args = parser.parse_args()
    if args.replot:
        with open(args.replot) as f:
            rows = list(csv.DictReader(f))
    else:
        if not os.access(args.exe, os.X_OK):
            sys.exit("no executable %s; build the examples or pass --exe" % args.exe)
        rows = run_sweep(args)
    plot(rows, args.output)


if __name__ == "__main__":
    main()
