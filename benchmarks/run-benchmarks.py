#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run every benchmark scenario in its own process and print one table.

Usage: benchmarks/run-benchmarks.py [--build build] [--record] [--replications N]
                                    [--schedulers [--scheduler-runs N]] [--instructions]
                                    [--scale [--scale-k 4,8,16,32] [--scale-time 50us]
                                     [--lookahead 1us]]
                                    [--huge-pages on|off]

It also runs rdma-bench --scenario=memory: the heap bytes of one host, one switch and one
queue pair, measured separately while a k = 16 fat-tree is built (--mem-k changes k).

Each scenario's result figures (completed flows, FCT mean/p50/p99, pause frames) are compared
with the ones recorded in benchmarks/recorded-results.json: a performance change must not
move them, and the script says so when it does. --record stores the current figures.
Speed is measured here, never asserted in a test.

The peer's FCT figures are one sample: its ECMP hash fixes one mapping of flows to paths, and
that mapping decides most of the FCT tail. The HPCC scenarios are therefore also run as
replications (ns-3's --RngRun 1..N, which draws both the ECN marking and the switches' ECMP
seeds): the script prints the minimum, median and maximum of FCT mean/p50/p99 over them and
the median's deviation from the peer's figure.

--instructions runs incast, hpcc-incast15 and hpcc-a2a16 once more under valgrind's callgrind
and prints the instructions each whole process executed: the noise-free speed figure (the same
on any machine load), compared with the count recorded in recorded-results.json and, for the
HPCC scenarios, with the peer simulator's count on the same inputs (../shared/bench). Event
counts are compared with the recorded ones in every run. (About 10 minutes: callgrind runs
some 50 times slower than the program.)

--schedulers compares ns-3's event schedulers (Map, Heap, PriorityQueue, Calendar) and the
module's RdmaRadixScheduler and RdmaTimingWheelScheduler on hpcc-a2a16 and fattree8: the fastest of --scheduler-runs runs each (this VM's speed varies
from one minute to the next, the minimum is the least disturbed run), and checks that the
result figures are the same under every scheduler.

--scale runs a series of k-ary fat-trees (--scale-k, default k = 4, 8, 16, 32: 16 to 8,192
hosts; the permutation traffic of the fattree scenarios) for the same simulated time
(--scale-time) and prints per k the set-up time and peak memory, and the rate of the run
after set-up: events per second and packet-hops per second, and each rate as a fraction of
the smallest k's. A change shows there its effect at scale, where per-switch state stops
fitting in the caches. It also prints the rate of the steady part alone (from 10 us on: a
k = 4 run's 50 us last some 20 ms, start-up included); a k whose steady part is shorter than
a second is run again until its steady parts add up to one, and the run of the median steady
rate is printed, with the number of runs. Every larger k runs between two runs of the
smallest, and its steady rate is also printed as a fraction of their mean: the smallest k
measured just before and just after, as farm-bench pairs two programs, where the first row
was measured minutes before on a machine whose speed drifts. Each k runs twice, alternating: in global order, then node by node in
windows of --lookahead (default 1us, the fat-trees' link delay; RdmaSimulatorImpl's Lookahead
attribute, doc/rdma.rst; 0: global order only), each rate a fraction of the smallest k's in
the same order. After the series it prints what a line from memory cost at the time
(benchmarks/memory-latency over 4 MiB, 32 MiB and 1 GiB: read dependently, independently and
prefetched ahead), the costs that bound the large fabrics' rate (doc/rdma.rst, Helpers).
With --instructions as well it runs each k once more under callgrind's cache simulation
and prints for a steady window (from 10 us on, 40 us long at k = 4 and shorter as k grows,
at least 1 us; set-up not counted; in both orders) the instructions per event and per packet-hop, each
per-event figure as a fraction of the smallest k's (the part of the rate's fall that is
instructions), and the lines read and written beyond a simulated 32 MB last level per event
and per packet-hop (the part that is memory): the cache figures beside the rates, the same on
any machine load (about 8 more minutes, most of them k = 32's).

--huge-pages (default on) runs the timed scenarios with glibc's malloc asking the kernel for
transparent huge pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, glibc 2.35 or later): 2 MB
pages instead of 4 kB, so the packets, events and per-switch state of a large fabric are
reached through fewer TLB entries. Side by side (farm-bench --vs) it ran fattree32 for 50 us
1.25x faster and fattree16 1.13x, for 8-11 % more peak memory. The callgrind runs keep the
environment as it is: instructions do not depend on the page size.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys

SCENARIOS = ["incast", "incast-credits", "pod", "pod-credits", "leafspine16", "fattree8", "fattree16", "workload"]
# The peer simulator's own inputs (copies of ../shared/bench in test/data/hpcc), run
# unchanged through examples/hpcc-compat.
HPCC_SCENARIOS = {"hpcc-a2a16": "flow_a2a16.txt", "hpcc-incast15": "flow_incast15.txt"}
RESULT_KEYS = ["completed", "fct_mean_us", "fct_p50_us", "fct_p99_us", "pfc_frames"]
FCT_KEYS = ["fct_mean_us", "fct_p50_us", "fct_p99_us"]
# The peer simulator's figures on the same inputs (../shared/bench/README.md).
PEER_FCT_US = {"hpcc-a2a16": (1447, 1436, 2047), "hpcc-incast15": (1251, 1413, 1455)}
# Instructions the peer simulator executed on them (valgrind callgrind, whole process;
# ../shared/bench/README.md).
PEER_INSTRUCTIONS = {"hpcc-a2a16": 20_144_801_367, "hpcc-incast15": 1_606_563_137}
INSTRUCTION_SCENARIOS = ["incast", "hpcc-incast15", "hpcc-a2a16"]
# An instruction count this much above the recorded one is reported as a slowdown.
INSTRUCTION_TOLERANCE = 0.01
CALLGRIND = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
# glibc's tunable for malloc to madvise its heap for transparent huge pages (glibc >= 2.35).
HUGE_PAGES_TUNABLE = "glibc.malloc.hugetlb=1"
# The environment of the timed runs (set in main from --huge-pages).
TIMED_ENV = None
HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(HERE, "recorded-results.json")
# The workload scenario's flow sizes.
WORKLOAD_CDF = os.path.join(HERE, "..", "data", "flow-size", "web-search.txt")


SCHEDULERS = [
    "MapScheduler", "HeapScheduler", "PriorityQueueScheduler", "CalendarScheduler", "RdmaRadixScheduler",
    "RdmaTimingWheelScheduler"
]


def callgrind_instructions(stderr):
    """The whole-process instruction count from callgrind's summary ("Collected : N")."""
    import re
    m = re.search(r"Collected : (\d+)", stderr)
    if not m:
        sys.exit("callgrind printed no instruction count:\n" + stderr[-2000:])
    return m.group(1)


def timed_env(huge_pages):
    """The environment of the timed runs: this one, with glibc's huge-page tunable added
    (kept apart from any tunables already set) when huge_pages is true."""
    env = dict(os.environ)
    if huge_pages:
        tunables = [t for t in env.get("GLIBC_TUNABLES", "").split(":") if t]
        tunables = [t for t in tunables if not t.startswith("glibc.malloc.hugetlb=")]
        env["GLIBC_TUNABLES"] = ":".join(tunables + [HUGE_PAGES_TUNABLE])
    return env


def transparent_huge_pages():
    """The kernel's transparent huge page mode (the bracketed word), or 'unknown'."""
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            text = f.read()
    except OSError:
        return "unknown"
    start, end = text.find("["), text.find("]")
    return text[start + 1:end] if 0 <= start < end else "unknown"


def run(exe, scenario, *extra, wrapper=()):
    proc = subprocess.run([*wrapper, exe, f"--scenario={scenario}", *extra], check=True,
                          capture_output=True, text=True, env=None if wrapper else TIMED_ENV)
    out = proc.stdout
    if wrapper:
        return {"instructions": callgrind_instructions(proc.stderr)}
    line = [l for l in out.splitlines() if l.startswith("scenario=")][-1]
    return dict(kv.split("=", 1) for kv in line.split())


def run_hpcc(build, name, flow_file, rng_run=1, *extra, wrapper=()):
    """Run hpcc-compat on the shared config with the given flow file (replication rng_run);
    parse its summary (with a wrapper, callgrind: its instruction count only)."""
    import re
    import tempfile
    data = os.path.join(HERE, "..", "test", "data", "hpcc")
    exe = os.path.join(build, "examples", "hpcc-compat")
    with tempfile.TemporaryDirectory() as tmp:
        cfg = os.path.join(tmp, "config.txt")
        with open(os.path.join(data, "config_dcqcn_a2a16.txt")) as f:
            text = f.read().replace("flow_a2a16.txt", flow_file)
        with open(cfg, "w") as f:
            f.write(text)
        proc = subprocess.run([*wrapper, exe, f"--config={cfg}", f"--dir={data}",
                               f"--outDir={tmp}/out", f"--RngRun={rng_run}", *extra],
                              check=True, capture_output=True, text=True,
                              env=None if wrapper else TIMED_ENV)
    if wrapper:
        return {"instructions": callgrind_instructions(proc.stderr)}
    out = proc.stdout
    r = {"scenario": name}
    m = re.search(r"flows completed (\d+)/(\d+); FCT mean ([\d.]+) us, p50 ([\d.]+) us, "
                  r"p99 ([\d.]+) us", out)
    r.update(completed=m.group(1), flows=m.group(2), fct_mean_us=m.group(3),
             fct_p50_us=m.group(4), fct_p99_us=m.group(5))
    m = re.search(r"pause frames (\d+)", out)
    r["pfc_frames"] = m.group(1)
    r["packet_hops"] = re.search(r"frames on links (\d+)", out).group(1)
    m = re.search(r"events (\d+), simulated ([\d.]+) s, wall ([\d.]+) s \(user CPU ([\d.]+) s\),"
                  r" peak RSS ([\d.]+) MB", out)
    events, wall = int(m.group(1)), float(m.group(3))
    r.update(events=m.group(1), wall_s=m.group(3), user_s=m.group(4), peak_rss_mb=m.group(5),
             events_per_s=f"{events / wall:.0f}", hosts="16")
    return r


def window_length_us(k):
    """The steady-state window of --scale --instructions for fattree<k>: 40 us at k = 4,
    shorter as k^2 grows, at least 1 us. Events per us grow about as the hosts, k^3 (1,700
    at k = 4, 650,000 at k = 32), so the windows hold some 70,000 (k = 4) to 650,000 (k = 32)
    events: enough for a steady figure, and k = 32's takes callgrind about five minutes."""
    return max(1, round(40 / (k / 4) ** 2))


# Where the --scale series' steady rate starts: after the first 10 us, when every host has
# started its flow and touched its state once (a k = 4 run's 50 us last some 20 ms of wall
# time, start-up included, too short for its rate after set-up alone to be steady).
SCALE_STEADY_FROM = "10us"


# A --scale run whose steady part is shorter than this is repeated until the steady parts
# add up to it, and the run of the median steady rate is printed: k = 4's 40 us of steady
# traffic take some 15 ms, in which one run measured 4.1 M and the next 5.2 M events/s in
# the same order (2026-12-05); k = 16 and 32 take seconds and run once.
SCALE_MIN_MEASURED_S = 1.0


def scale_run(exe, k, scale_time, *extra):
    """Run fattree<k> for --scale (repeated while short, SCALE_MIN_MEASURED_S); return the
    run of the median steady rate and how many runs there were."""
    runs = []
    measured = 0.0
    while measured < SCALE_MIN_MEASURED_S:
        r = run(exe, f"fattree{k}", f"--stopTime={scale_time}",
                f"--measureFrom={SCALE_STEADY_FROM}", *extra)
        runs.append(r)
        measured += float(r["measured_wall_s"])
    runs.sort(key=lambda r: float(r["measured_events_per_s"]))
    return runs[len(runs) // 2], len(runs)


def kernel_share(r):
    """The kernel's share of a run's steady part (rdma-bench's measured_sys_s against
    measured_wall_s) and its page faults: a fabric whose queues grow takes new pages then,
    which the kernel zeroes. On a VM whose host takes back freed memory (virtio-balloon free
    page reporting) a first touch also waits for the host."""
    if "measured_sys_s" not in r:
        return "-"
    share = float(r["measured_sys_s"]) / max(float(r["measured_wall_s"]), 1e-9)
    return f"{share:.2f} ({r['measured_page_faults']})"


def bracketed_run(exe, k0, k, scale_time, *extra):
    """Run fattree<k> for --scale between two runs of the reference fattree<k0> (each a
    scale_run), so that its steady rate is compared with k0's measured just before and just
    after on the machine as it then was (a rate taken minutes earlier is another occasion:
    this VM's k = 4 ran 5.3 M and 3.6 M events/s in windows within an hour). Return k's run,
    its number of runs, and the reference: the mean of k0's two steady rates."""
    before, _ = scale_run(exe, k0, scale_time, *extra)
    r, runs = scale_run(exe, k, scale_time, *extra)
    after, _ = scale_run(exe, k0, scale_time, *extra)
    reference = (float(before["measured_events_per_s"]) +
                 float(after["measured_events_per_s"])) / 2
    return r, runs, reference


# The caches callgrind simulates in the --scale window: a 48 KB 12-way first level (this
# AMD EPYC's) and a 32 MB 16-way last level, as in doc/rdma.rst's earlier figures of lines
# per hop (callgrind would otherwise take the host's whole last level, 512 MB here).
SCALE_CACHES = ["--cache-sim=yes", "--D1=49152,12,64", "--LL=33554432,16,64"]


def window_instructions(exe, k, *extra, start_us=10):
    """fattree<k> under callgrind with its cache simulation, counting only a window after
    set-up and the first start_us (rdma-bench --measureFrom; callgrind
    --toggle-collect='*RunMeasuredPart*'): the instructions, lines read and written beyond the
    last level, events and packet-hops of that window."""
    import re
    length_us = window_length_us(k)
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *SCALE_CACHES,
         "--toggle-collect=*RunMeasuredPart*", exe, f"--scenario=fattree{k}",
         f"--measureFrom={start_us}us", f"--stopTime={start_us + length_us}us", *extra],
        check=True, capture_output=True, text=True)
    # "Collected : Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw"
    m = re.search(r"Collected :((?: \d+){9})", proc.stderr)
    if not m:
        sys.exit("callgrind printed no cache counts:\n" + proc.stderr[-2000:])
    counts = [int(x) for x in m.group(1).split()]
    line = [l for l in proc.stdout.splitlines() if l.startswith("scenario=")][-1]
    r = dict(kv.split("=", 1) for kv in line.split())
    return {"window": f"{start_us}-{start_us + length_us} us", "instructions": counts[0],
            "lines_read": counts[6] + counts[7], "lines_written": counts[8],
            "events": int(r["measured_events"]), "packet_hops": int(r["measured_packet_hops"])}


def time_us(text):
    """An ns-3 time such as 50us or 1ms in microseconds, or None if it is not one."""
    import re
    m = re.fullmatch(r"([0-9]*\.?[0-9]+)(ps|ns|us|ms|s)", text.strip())
    if not m:
        return None
    scale = {"ps": 1e-6, "ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[m.group(2)]
    return float(m.group(1)) * scale


def have_valgrind(what):
    """True if valgrind is installed; otherwise say that `what` is skipped and why."""
    import shutil
    if shutil.which("valgrind"):
        return True
    print(f"{what}: valgrind not found (sudo apt-get install valgrind); skipped")
    return False


def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for l in f:
                if l.startswith("model name"):
                    cpu = l.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--record", action="store_true", help="store the result figures")
    ap.add_argument("--large", action="store_true",
                    help="also run fattree32 (8,192 hosts: set-up plus 100 us of traffic)")
    ap.add_argument("--replications", type=int, default=10,
                    help="runs (--RngRun 1..N) of each HPCC scenario for the FCT spread "
                         "(default 10; 1 disables)")
    ap.add_argument("--schedulers", action="store_true",
                    help="compare ns-3's schedulers on hpcc-a2a16 and fattree8")
    ap.add_argument("--scheduler-runs", type=int, default=3,
                    help="runs per scheduler and scenario; the fastest counts (default 3)")
    ap.add_argument("--instructions", action="store_true",
                    help="also count the instructions of incast, hpcc-incast15 and hpcc-a2a16 "
                         "under valgrind's callgrind (about 10 minutes)")
    ap.add_argument("--scale", action="store_true",
                    help="run the fat-tree series of --scale-k for --scale-time each")
    ap.add_argument("--scale-k", default="4,8,16,32",
                    help="fat-tree arities of --scale, comma-separated even numbers "
                         "(default 4,8,16,32)")
    ap.add_argument("--scale-time", default="50us",
                    help="simulated time of each --scale run (ns-3 time, default 50us; "
                         "more than 10us, where the steady rate starts)")
    ap.add_argument("--lookahead", default="1us",
                    help="--scale also runs each k node by node in windows of this length "
                         "(RdmaSimulatorImpl's Lookahead; at most the fat-trees' 1 us link "
                         "delay; 0: global order only)")
    ap.add_argument("--huge-pages", choices=["on", "off"], default="on",
                    help="run the timed scenarios with " + HUGE_PAGES_TUNABLE +
                         " (transparent huge pages for malloc; default on)")
    ap.add_argument("--mem-k", type=int, default=16,
                    help="fat-tree arity of the memory-per-object measurement (default 16)")
    args = ap.parse_args()
    if args.replications < 1:
        ap.error(f"--replications {args.replications} is not valid; valid: 1 or more")
    if args.scheduler_runs < 1:
        ap.error(f"--scheduler-runs {args.scheduler_runs} is not valid; valid: 1 or more")
    try:
        scale_k = [int(k) for k in args.scale_k.split(",")]
    except ValueError:
        scale_k = []
    if not scale_k or any(k < 2 or k % 2 for k in scale_k):
        ap.error(f"--scale-k {args.scale_k} is not valid; valid: even numbers >= 2, "
                 "comma-separated (e.g. 8,16,32)")
    if args.scale and not (time_us(args.scale_time) or 0) > time_us(SCALE_STEADY_FROM):
        ap.error(f"--scale-time {args.scale_time} is not valid; valid: an ns-3 time longer "
                 f"than {SCALE_STEADY_FROM} (e.g. 50us), where the steady rate starts")
    exe = os.path.join(args.build, "benchmarks", "rdma-bench")
    if not os.path.exists(exe):
        sys.exit(f"{exe} not found: run 'make build' first")

    global TIMED_ENV
    TIMED_ENV = timed_env(args.huge_pages == "on")
    print(f"machine: {machine()}")
    print(f"huge pages: {args.huge_pages} (GLIBC_TUNABLES="
          f"{TIMED_ENV.get('GLIBC_TUNABLES', '')!r} in the timed runs; the kernel's transparent "
          f"huge pages: {transparent_huge_pages()})")
    cols = ["scenario", "hosts", "flows", "wall_s", "user_s", "peak_rss_mb", "events",
            "events_per_s", "packet_hops_per_s", "sim_s_per_wall_s", "fct_mean_us",
            "fct_p50_us", "fct_p99_us", "pfc_frames", "rss_bytes_per_host"]
    print(" | ".join(cols))
    results = {}
    for s in SCENARIOS + (["fattree32"] if args.large else []):
        r = run(exe, s, *([f"--cdf={WORKLOAD_CDF}"] if s == "workload" else []))
        results[s] = r
        print(" | ".join(r.get(c, "") for c in cols), flush=True)
    for s, flow_file in HPCC_SCENARIOS.items():
        r = run_hpcc(args.build, s, flow_file)
        results[s] = r
        print(" | ".join(r.get(c, "") for c in cols), flush=True)

    for s, flow_file in HPCC_SCENARIOS.items() if args.replications > 1 else []:
        samples = [results[s]] + [run_hpcc(args.build, s, flow_file, r)
                                  for r in range(2, args.replications + 1)]
        parts = []
        for key, peer in zip(FCT_KEYS, PEER_FCT_US[s]):
            v = sorted(float(x[key]) for x in samples)
            median = statistics.median(v)
            parts.append(f"{key[4:-3]} {v[0]:.0f} / {median:.0f} / {v[-1]:.0f} "
                         f"(peer {peer}, median {100 * (median / peer - 1):+.1f} %)")
        print(f"{s}, {len(samples)} replications (--RngRun 1..{len(samples)}), FCT us "
              f"min / median / max: " + "; ".join(parts), flush=True)

    if args.schedulers:
        print("scheduler | hpcc-a2a16 wall_s (fastest) | fattree8 wall_s (fastest) | "
              "result figures")
        reference = None
        for sched in SCHEDULERS:
            a2a = [run_hpcc(args.build, "hpcc-a2a16", HPCC_SCENARIOS["hpcc-a2a16"], 1,
                            f"--SchedulerType=ns3::{sched}")
                   for _ in range(args.scheduler_runs)]
            ft8 = [run(exe, "fattree8", f"--scheduler=ns3::{sched}")
                   for _ in range(args.scheduler_runs)]
            # Every run of a scenario, under every scheduler, must give the same figures.
            figures = ({tuple(r[k] for k in RESULT_KEYS) for r in a2a},
                       {tuple(r[k] for k in RESULT_KEYS) for r in ft8})
            reference = reference or figures
            same = figures == reference and all(len(f) == 1 for f in figures)
            print(f"{sched} | {min(float(r['wall_s']) for r in a2a):.3f} | "
                  f"{min(float(r['wall_s']) for r in ft8):.3f} | "
                  f"{'same' if same else 'DIFFERENT'}", flush=True)

    if args.scale:
        lookahead = args.lookahead if args.lookahead not in ("0", "0us", "0s") else None
        modes = [("global order", [])]
        if lookahead:
            modes.append((f"windows of {lookahead}", [f"--lookahead={lookahead}"]))
        print(f"scale series: k-ary fat-trees, {args.scale_time} of simulated time each; rates "
              "of the run after set-up" +
              (f"; each k run in global order, then node by node in windows of {lookahead} "
               "(RdmaSimulatorImpl's Lookahead, the links' delay)" if lookahead else ""))
        print(f"k | order | runs (median steady rate's shown) | hosts | switches | setup_s | "
              f"run_s | events | events_per_s | steady events_per_s (from {SCALE_STEADY_FROM}) | "
              f"steady against k = {scale_k[0]} run just before and after (k = {scale_k[0]}'s "
              f"rate then) | packet_hops | packet_hops_per_s | peak_rss_mb | rss_bytes_per_node | "
              f"steady part's kernel time (page faults)")
        first_rate = {}
        first_steady = {}
        for k in scale_k:
            for mode, extra in modes:
                if k == scale_k[0]:
                    r, runs = scale_run(exe, k, args.scale_time, *extra)
                    around = float(r["measured_events_per_s"])
                else:
                    r, runs, around = bracketed_run(exe, scale_k[0], k, args.scale_time, *extra)
                run_s = float(r["wall_s"]) - float(r["setup_s"])
                events, hops = int(r["events"]), int(r["packet_hops"])
                first = first_rate.setdefault(mode, events / run_s)
                steady = float(r["measured_events_per_s"])
                steady_first = first_steady.setdefault(mode, steady)
                print(f"{k} | {mode} | {runs} | {r['hosts']} | {r['switches']} | {r['setup_s']} | "
                      f"{run_s:.3f} | {events} | {events / run_s:.0f} ({events / run_s / first:.2f}"
                      f" of k = {scale_k[0]}) | {steady:.0f} ({steady / steady_first:.2f}) | "
                      f"{steady / around:.2f} ({around:.0f}) | {hops} | {hops / run_s:.0f} | "
                      f"{r['peak_rss_mb']} | {r['rss_bytes_per_node']} | "
                      f"{kernel_share(r)}", flush=True)
        latency = os.path.join(args.build, "benchmarks", "memory-latency")
        if os.path.exists(latency):
            print("memory at the time of the series (benchmarks/memory-latency):", flush=True)
            table = subprocess.run([latency, "--sizes=4,32,1024",
                                    f"--hugePages={int(args.huge_pages == 'on')}"],
                                   check=True, capture_output=True, text=True).stdout
            print(table, end="", flush=True)
        if args.instructions and have_valgrind("scale instructions"):
            print("scale instructions and lines: a steady window of each k under "
                  "callgrind (set-up and the first 10 us not counted; lines from beyond a "
                  "simulated 32 MB last level)")
            print("k | order | window | events | packet_hops | instructions per event | "
                  "per packet-hop | lines read per event | per packet-hop | "
                  "lines written per packet-hop")
            first_per_event = {}
            for k in scale_k:
                for mode, extra in modes:
                    w = window_instructions(exe, k, *extra)
                    if not w["events"] or not w["packet_hops"]:
                        print(f"{k} | {mode} | {w['window']} | {w['events']} | "
                              f"{w['packet_hops']} | no traffic in the window", flush=True)
                        continue
                    per_event = w["instructions"] / w["events"]
                    first = first_per_event.setdefault(mode, per_event)
                    hops = w["packet_hops"]
                    print(f"{k} | {mode} | {w['window']} | {w['events']} | {hops} | "
                          f"{per_event:.0f} ({per_event / first:.2f} of k = {scale_k[0]}) | "
                          f"{w['instructions'] / hops:.0f} | "
                          f"{w['lines_read'] / w['events']:.1f} | "
                          f"{w['lines_read'] / hops:.1f} | {w['lines_written'] / hops:.1f}",
                          flush=True)

    m = run(exe, "memory", f"--memK={args.mem_k}", f"--memQps={args.mem_k ** 3 // 4}")
    print(f"memory (heap in use, k={m['k']} fat-tree: {m['hosts']} hosts, {m['switches']} "
          f"switches of {m['k']} ports, {m['queue_pairs']} queue pairs): "
          f"{float(m['bytes_per_host']):.0f} B per host, "
          f"{float(m['bytes_per_switch']):.0f} B per switch, "
          f"{float(m['bytes_per_qp']):.0f} B per queue pair "
          f"({float(m['bytes_per_link']):.0f} B per link: two ports and the cable)", flush=True)
    agent = subprocess.run([exe, "--scenario=memory", "--memK=4", "--memQps=16"], check=True,
                           capture_output=True, text=True, env=TIMED_ENV).stdout
    agent_line = [l for l in agent.splitlines() if l.startswith("memory-agent ")]
    if agent_line:
        a = dict(kv.split("=", 1) for kv in agent_line[-1].split()[1:])
        print(f"memory per outstanding RdmaMemoryAgent request: "
              f"{a['bytes_per_outstanding_request']} B (agent slot {a['agent_slot_bytes']} B, "
              f"queue pair per READ {a['qp_bytes_per_read']} B; per WRITE "
              f"{a['qp_bytes_per_write']} B)", flush=True)

    recorded = {}
    if os.path.exists(RECORD):
        with open(RECORD) as f:
            recorded = json.load(f)

    if args.instructions and have_valgrind("instructions"):
        print("scenario | instructions (callgrind, whole process) | per event | "
              "per packet-hop | recorded | peer")
        for s in INSTRUCTION_SCENARIOS:
            if s in HPCC_SCENARIOS:
                n = run_hpcc(args.build, s, HPCC_SCENARIOS[s], wrapper=CALLGRIND)
            else:
                n = run(exe, s, wrapper=CALLGRIND)
            results[s]["instructions"] = n["instructions"]
            count = int(n["instructions"])
            old = recorded.get(s, {}).get("instructions")
            verdict = "no record"
            if old:
                change = count / int(old) - 1
                verdict = f"{old} ({100 * change:+.2f} %"
                verdict += ", MORE INSTRUCTIONS)" if change > INSTRUCTION_TOLERANCE else ")"
            peer = PEER_INSTRUCTIONS.get(s)
            peer_text = f"{peer} ({peer / count:.2f}x ours)" if peer else ""
            events = int(results[s].get("events", 0))
            hops = int(results[s].get("packet_hops", 0))
            per_event = f"{count / events:.0f}" if events else ""
            per_hop = f"{count / hops:.0f}" if hops else ""
            print(f"{s} | {count} | {per_event} | {per_hop} | {verdict} | {peer_text}",
                  flush=True)

    moved = False
    for s, r in results.items():
        old = recorded.get(s)
        if not old:
            print(f"{s}: no recorded result figures yet")
            continue
        diffs = [f"{k} {old[k]} -> {r[k]}" for k in RESULT_KEYS if str(old.get(k)) != r.get(k)]
        if diffs:
            moved = True
            print(f"{s}: RESULT FIGURES MOVED: " + "; ".join(diffs))
        else:
            print(f"{s}: result figures unchanged")
        # Events are deterministic too; fewer or more with the same results is a speed change.
        if old.get("events") and old["events"] != r.get("events"):
            print(f"{s}: events {old['events']} -> {r.get('events')}")
    if args.record:
        merged = {}
        for s, r in results.items():
            merged[s] = {k: r[k] for k in RESULT_KEYS + ["events"]}
            instructions = r.get("instructions", recorded.get(s, {}).get("instructions"))
            if instructions:
                merged[s]["instructions"] = instructions
        with open(RECORD, "w") as f:
            json.dump(merged, f, indent=2, sort_keys=True)
            f.write("\n")
        print(f"recorded in {RECORD}")
    return 1 if moved and not args.record else 0


if __name__ == "__main__":
    sys.exit(main())
