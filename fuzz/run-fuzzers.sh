#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run each libFuzzer harness of the HPCC readers for a bounded time and print, per reader, the
# executions, the corpus size and the findings. Called by `make fuzz`.
#   fuzz/run-fuzzers.sh <build dir with fuzz/hpcc-*-fuzzer> [seconds per reader, default 60]
# Seed corpora: the HPCC inputs of test/data/hpcc/. Per reader, <build>/fuzz/<reader>/ keeps the
# growing corpus (corpus/), the findings (findings/: crash-*, leak-*, timeout-*, oom-*) and
# libFuzzer's log (log.txt). Exit status 1 if any reader has a finding.
#
# What is a finding: the harness catches the reader's own refusal (HpccInputError); anything
# else is one: a sanitizer report (ASan/UBSan, no recovery), a signal, an exception escaping the
# reader (std::terminate -> abort), an input taking longer than -timeout, a single allocation
# above -malloc_limit_mb or a process above -rss_limit_mb.
set -uo pipefail

build=${1:?usage: run-fuzzers.sh <build dir> [seconds]}
seconds=${2:-60}
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="$src/test/data/hpcc"
status=0

for reader in topology flow config; do
    exe="$build/fuzz/hpcc-$reader-fuzzer"
    if [ ! -x "$exe" ]; then
        echo "fuzz: $exe not built (configure with -DRDMA_FUZZ=ON, see make fuzz)" >&2
        exit 2
    fi
    work="$build/fuzz/$reader"
    mkdir -p "$work/corpus" "$work/findings"
    case $reader in
    topology) seeds="$data/fattree_k4.txt" ;;
    flow) seeds="$data/flow_a2a16.txt $data/flow_incast15.txt" ;;
    config) seeds="$data/config_dcqcn_a2a16.txt" ;;
    esac
    for s in $seeds; do
        cp -n "$s" "$work/corpus/seed-$(basename "$s")"
    done
    before=$(find "$work/findings" -type f | wc -l)
    "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 \
        -print_final_stats=1 -artifact_prefix="$work/findings/" "$work/corpus" \
        >"$work/log.txt" 2>&1
    rc=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/log.txt" | grep -o '[0-9]*$')
    corpus=$(find "$work/corpus" -type f | wc -l)
    findings=$(($(find "$work/findings" -type f | wc -l) - before))
    echo "fuzz hpcc-$reader-reader: ${runs:-0} executions in ${seconds} s, corpus $corpus inputs," \
        "findings $findings (exit $rc)"
    if [ "$rc" -ne 0 ] || [ "$findings" -ne 0 ]; then
        status=1
        echo "--- $work/log.txt (last 30 lines); findings in $work/findings/" >&2
        tail -n 30 "$work/log.txt" >&2
    fi
done
exit $status
