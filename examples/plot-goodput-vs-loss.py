#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plot the output of goodput-vs-loss: efficiency (goodput over the loss-free goodput with
standard headers) against the loss probability for go-back-N, go-back-0 and SACK with
RACK-TLP, measured (markers) and analytical (lines), one panel per CSV file (e.g. one per
bandwidth-delay product).

Analytical curves, as in examples/goodput-vs-loss.cc:
  go-back-N          (1 - p) / (1 + (K - 1) p)
  selective repeat   (1 - p) h,  h = (MTU + 82) / (MTU + 98)
  go-back-0          N / (N + (1/q - 1) (E[j | loss] + K - 1)),  q = (1 - p)^N

Runs with a window congestion control (goodput-vs-loss --ccs=..., the CSV's cc column other
than RdmaFixedRate) are drawn as their own measured curve, with a dotted line at 0.9 of that
curve's loss-free goodput (the claim for selective repeat with the Falcon-like CC: at or
above it at 5 % loss).

Usage: examples/plot-goodput-vs-loss.py [--output results/goodput-vs-loss.png]
                                        results/goodput-vs-loss.csv [more.csv ...]
(a panel's CSV may be several joined with '+': a.csv+b.csv)
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SCHEMES = [
    ("gbn", "go-back-N", "tab:red", "o"),
    ("gb0", "go-back-0", "tab:purple", "s"),
    ("sack", "SACK + RACK-TLP", "tab:green", "^"),
]


def gbn(p, k):
    return (1 - p) / (1 + (k - 1) * p)


def gb0(p, k, n):
    if p <= 0:
        return 1.0
    q = (1 - p) ** n
    if q < 1e-300:
        return 0.0
    ej = sum(j * p * (1 - p) ** (j - 1) for j in range(1, int(n) + 1)) / (1 - q)
    return n / (n + (1 / q - 1) * (ej + k - 1))


def read(paths):
    """Rows of one panel: one CSV, or several joined with '+' (e.g. a run per --ccs)."""
    rows = []
    for path in paths.split("+"):
        with open(path) as f:
            rows += list(csv.DictReader(f))
    return rows


DEFAULT_CC = "RdmaFixedRate"
CC_STYLES = [("tab:blue", "D"), ("tab:orange", "v"), ("tab:olive", "P"), ("tab:cyan", "X")]


def cc_curves(ax, rows, logx):
    """Measured curves of the runs with a congestion control other than the default."""
    keys = []
    for r in rows:
        key = (r["scheme"], r.get("cc", DEFAULT_CC))
        if key[1] != DEFAULT_CC and key not in keys:
            keys.append(key)
    names = {k: label for k, label, _, _ in SCHEMES}
    for i, (scheme, cc) in enumerate(keys):
        color, marker = CC_STYLES[i % len(CC_STYLES)]
        pts = sorted((r for r in rows if r["scheme"] == scheme and r.get("cc") == cc),
                     key=lambda r: float(r["loss_rate"]))
        ax.plot([100 * float(r["loss_rate"]) for r in pts],
                [float(r["efficiency"]) for r in pts], color=color, marker=marker,
                markersize=7, linestyle="--", linewidth=1,
                label=f"{names.get(scheme, scheme)} + {cc} CC (measured)")
        free = [float(r["efficiency"]) for r in pts if float(r["loss_rate"]) == 0]
        if free:
            xs = [100 * float(r["loss_rate"]) for r in pts]
            ax.plot([min(xs) if logx else 0, max(xs)], [0.9 * free[0]] * 2, color=color,
                    linestyle=":", linewidth=1, label=f"0.9 x {cc} loss-free")


def panel(ax, rows, title_prefix, logx):
    cc_rows = rows
    default_rows = [r for r in rows if r.get("cc", DEFAULT_CC) == DEFAULT_CC]
    rows = default_rows or rows
    first = rows[0]
    k = float(first["k_analytic"])
    n = float(first["message_packets"])
    h = float(first["sack_header_efficiency"])
    pmax = max(float(r["loss_rate"]) for r in rows)
    positive = [float(r["loss_rate"]) for r in rows if float(r["loss_rate"]) > 0]
    if logx:
        pmin = min(positive) / 2
        grid = [pmin * (pmax / pmin) ** (i / 400) for i in range(401)]
        rows = [r for r in rows if float(r["loss_rate"]) > 0]
    else:
        grid = [pmax * i / 400 for i in range(401)]
    analytic = {
        "gbn": [gbn(p, k) for p in grid],
        "gb0": [gb0(p, k, n) for p in grid],
        "sack": [(1 - p) * h for p in grid],
    }
    for key, label, color, marker in SCHEMES:
        pts = [r for r in rows if r["scheme"] == key]
        if not pts:
            continue
        ax.plot([100 * p for p in grid], analytic[key], color=color, alpha=0.6, linewidth=1.5)
        if not default_rows:
            continue  # only window-CC runs: drawn by cc_curves
        ax.plot([100 * float(r["loss_rate"]) for r in pts],
                [float(r["efficiency"]) for r in pts],
                linestyle="none", marker=marker, color=color, markersize=7,
                label=f"{label} (measured; line: analytical)")
    ax.plot([100 * p for p in grid], [0.9 * (1 - p) * h for p in grid], color="tab:green",
            linestyle=":", linewidth=1, label="0.9 (1 - p) h")
    cc_curves(ax, [r for r in cc_rows if not logx or float(r["loss_rate"]) > 0], logx)
    ax.set_xlabel("packet loss probability p (%)" + (", log scale" if logx else ""))
    ax.set_ylabel("goodput / loss-free goodput")
    ax.set_ylim(0, 1.05)
    if logx:
        ax.set_xscale("log")
        ax.set_xlim(100 * grid[0], 100 * pmax * 1.2)
    else:
        ax.set_xlim(0, 100 * pmax * 1.02)
        ax.set_title(f"{title_prefix}RTT0 {float(first['rtt0_us']):.2f} us, K = {k:.0f}, "
                     f"messages of {n:.0f} packets", fontsize=10)
    ax.grid(alpha=0.3, which="both")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+",
                    help="CSV files written by goodput-vs-loss, one per panel ('+' joins several)")
    ap.add_argument("--output", default="results/goodput-vs-loss.png")
    args = ap.parse_args()

    # top row: linear loss axis; bottom row: logarithmic (the small rates)
    fig, axes = plt.subplots(2, len(args.csv), figsize=(6.5 * len(args.csv), 9), squeeze=False)
    for col, path in enumerate(args.csv):
        rows = read(path)
        delay = float(rows[0]["delay_us"])
        panel(axes[0][col], rows, f"link delay {delay:g} us: ", logx=False)
        panel(axes[1][col], rows, "", logx=True)
    axes[0][0].legend(fontsize=8, loc="lower left")
    fig.suptitle("RoCEv2 goodput against random loss, 100 Gb/s, one flow", fontsize=11)
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
