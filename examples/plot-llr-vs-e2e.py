#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the output of llr-vs-e2e: goodput and p99 FCT against the bit error rate, one curve
per scheme (link-level retry with an unreliable end-to-end transport; end-to-end go-back-N
and SACK without LLR).

Usage: examples/plot-llr-vs-e2e.py [--output results/llr-vs-e2e.png] results/llr-vs-e2e.csv
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SCHEMES = [
    ("llr", "LLR + unreliable e2e", "tab:blue", "o"),
    ("gbn", "e2e go-back-N", "tab:red", "s"),
    ("sack", "e2e SACK + RACK-TLP", "tab:green", "^"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv", help="llr-vs-e2e --output file")
    parser.add_argument("--output", default="results/llr-vs-e2e.png", help="PNG to write")
    args = parser.parse_args()
    with open(args.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    fig, (ax_g, ax_f) = plt.subplots(1, 2, figsize=(11, 4.2))
    for key, label, color, marker in SCHEMES:
        pts = sorted(
            (float(r["ber"]), float(r["goodput_gbps"]), float(r["p99_fct_us"]))
            for r in rows
            if r["scheme"] == key and float(r["ber"]) > 0
        )
        if not pts:
            continue
        bers = [p[0] for p in pts]
        ax_g.plot(bers, [p[1] for p in pts], marker=marker, color=color, label=label)
        ax_f.plot(bers, [p[2] for p in pts], marker=marker, color=color, label=label)
    for ax in (ax_g, ax_f):
        ax.set_xscale("log")
        ax.set_xlabel("bit error rate")
        ax.grid(True, which="both", alpha=0.3)
    ax_g.set_ylabel("goodput (Gb/s)")
    ax_g.set_title("goodput of the pod")
    ax_f.set_ylabel("p99 FCT (us)")
    ax_f.set_yscale("log")
    ax_f.set_title("99th-percentile message completion time")
    ax_g.legend()
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print("wrote", args.output)


if __name__ == "__main__":
    main()
