#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the output of littles-law: remote-load bandwidth against the bytes in flight
(outstanding requests N x request size S), measured (markers) and Little's law
min(N S / RTT(S), line goodput G(S)) (lines), one panel per accelerator generation, one colour
per request size; the knee G(S) RTT(S) is marked with a dotted line.

Usage: examples/plot-littles-law.py [--output results/littles-law.png] results/littles-law.csv
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLOURS = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv")
    parser.add_argument("--output", default="results/littles-law.png")
    args = parser.parse_args()
    rows = list(csv.DictReader(open(args.csv)))
    gens = list(dict.fromkeys(r["generation"] for r in rows))
    fig, axes = plt.subplots(1, len(gens), figsize=(5.5 * len(gens), 4.2), squeeze=False)
    for ax, gen in zip(axes[0], gens):
        g_rows = [r for r in rows if r["generation"] == gen]
        sizes = sorted({int(r["size"]) for r in g_rows})
        for colour, size in zip(COLOURS, sizes):
            pts = sorted((r for r in g_rows if int(r["size"]) == size),
                         key=lambda r: int(r["outstanding"]))
            x = [int(r["inflight_bytes"]) / 1024 for r in pts]
            ax.plot(x, [float(r["measured_gbps"]) for r in pts], "o", color=colour,
                    label=f"S = {size} B, measured")
            ax.plot(x, [float(r["analytical_gbps"]) for r in pts], "-", color=colour,
                    label=f"min(N S / RTT, G), RTT {float(pts[0]['rtt_ns']):.0f} ns")
            ax.axvline(float(pts[0]["knee_bytes"]) / 1024, ls=":", color=colour)
        rate = float(g_rows[0]["rate_bps"]) / 1e9
        ax.set_xscale("log", base=2)
        ax.set_xlabel("bytes in flight N x S (KiB)")
        ax.set_ylabel("useful bandwidth (Gb/s)")
        ax.set_title(f"{gen}: {rate:.0f} Gb/s port (dotted: knee G x RTT)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(args.output)


if __name__ == "__main__":
    main()
