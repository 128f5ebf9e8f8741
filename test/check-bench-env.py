#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check how benchmarks/run-benchmarks.py builds the environment of its timed runs.

--huge-pages on adds glibc's malloc huge-page tunable (glibc.malloc.hugetlb=1) to
GLIBC_TUNABLES, keeping every other tunable already set and replacing an earlier hugetlb
setting; --huge-pages off leaves the environment as it is. The callgrind runs never get it.
--scale repeats a run whose steady part is short until the steady parts add up to
SCALE_MIN_MEASURED_S, and prints the run of the median steady rate.

Usage: check-bench-env.py [MODULE_DIR]   (default: the folder above this script)
Exit status 0 when every check holds, 1 otherwise (each failure named).
"""

import importlib.util
import os
import sys


def load(module_dir):
    path = os.path.join(module_dir, "benchmarks", "run-benchmarks.py")
    spec = importlib.util.spec_from_file_location("run_benchmarks", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    module_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    bench = load(module_dir)
    failures = []

    def expect(name, got, want):
        if got != want:
            failures.append(f"{name}: GLIBC_TUNABLES {got!r}, expected {want!r}")

    saved = os.environ.get("GLIBC_TUNABLES")
    try:
        os.environ.pop("GLIBC_TUNABLES", None)
        expect("none set, on", bench.timed_env(True).get("GLIBC_TUNABLES"),
               "glibc.malloc.hugetlb=1")
        expect("none set, off", bench.timed_env(False).get("GLIBC_TUNABLES"), None)
        os.environ["GLIBC_TUNABLES"] = "glibc.malloc.arena_max=2"
        expect("another tunable kept, on", bench.timed_env(True).get("GLIBC_TUNABLES"),
               "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1")
        expect("another tunable kept, off", bench.timed_env(False).get("GLIBC_TUNABLES"),
               "glibc.malloc.arena_max=2")
        os.environ["GLIBC_TUNABLES"] = "glibc.malloc.hugetlb=0:glibc.malloc.arena_max=2"
        expect("earlier hugetlb replaced", bench.timed_env(True).get("GLIBC_TUNABLES"),
               "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1")
    finally:
        if saved is None:
            os.environ.pop("GLIBC_TUNABLES", None)
        else:
            os.environ["GLIBC_TUNABLES"] = saved
    if bench.transparent_huge_pages() not in ("always", "madvise", "never", "unknown"):
        failures.append(f"transparent_huge_pages() gave {bench.transparent_huge_pages()!r}")

    # --scale's repetition: fake runs of 0.3 s steady parts (rates 5, 1, 4, 2) need four
    # runs to add up to 1 s, and the median's run (the upper middle of four) is shown; a run
    # of 2 s is not repeated.
    rates = iter([5, 1, 4, 2])
    real_run = bench.run
    try:
        bench.run = lambda *a, **k: {"measured_wall_s": "0.3",
                                      "measured_events_per_s": str(next(rates))}
        r, runs = bench.scale_run("exe", 4, "50us")
        if (runs, r["measured_events_per_s"]) != (4, "4"):
            failures.append(f"scale_run of short runs: {runs} runs, rate "
                            f"{r['measured_events_per_s']}; expected 4 runs, rate 4")
        bench.run = lambda *a, **k: {"measured_wall_s": "2.0", "measured_events_per_s": "7"}
        r, runs = bench.scale_run("exe", 32, "50us")
        if runs != 1:
            failures.append(f"scale_run of a long run: {runs} runs, expected 1")
        # A larger k runs between two runs of the smallest, against whose mean it is
        # compared: fake k = 4 runs at 6 and then 2 (the machine slowed), k = 32 at 2.
        fake = iter([("4", 6), ("32", 2), ("4", 2)])

        def fake_run(exe, scenario, *args, **kwargs):
            k, rate = next(fake)
            if scenario != "fattree" + k:
                failures.append(f"bracketed_run ran {scenario}, expected fattree{k}")
            return {"measured_wall_s": "2.0", "measured_events_per_s": str(rate)}

        bench.run = fake_run
        r, runs, around = bench.bracketed_run("exe", 4, 32, "50us")
        if (r["measured_events_per_s"], runs, around) != ("2", 1, 4.0):
            failures.append(f"bracketed_run: rate {r['measured_events_per_s']}, {runs} runs, "
                            f"reference {around}; expected rate 2, 1 run, reference 4.0")
    finally:
        bench.run = real_run

    # The kernel's share of a steady part: its system time over its wall time, and its page
    # faults; "-" from an rdma-bench that does not report them.
    share = bench.kernel_share({"measured_sys_s": "0.5", "measured_wall_s": "2.0",
                                "measured_page_faults": "41"})
    if share != "0.25 (41)":
        failures.append(f"kernel_share of 0.5 s in 2.0 s, 41 faults: {share!r}")
    if bench.kernel_share({"measured_wall_s": "2.0"}) != "-":
        failures.append("kernel_share without measured_sys_s is not '-'")

    for f in failures:
        print(f"FAIL {f}")
    print("check-bench-env: " + (f"{len(failures)} failure(s)" if failures else "all checks hold"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
