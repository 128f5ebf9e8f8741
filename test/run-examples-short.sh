#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run every example of the module in a short mode (small sizes, a few milliseconds of simulated
# time; seconds each in a Release build) and fail if any exits non-zero. `make sanitize` runs it
# on the ASan+UBSan build, where any sanitizer report also stops the example.
#   test/run-examples-short.sh <build dir> [output dir, default <build dir>/examples-short]
set -uo pipefail

build=${1:?usage: run-examples-short.sh <build dir> [output dir]}
out=${2:-$build/examples-short}
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ex="$build/examples"
mkdir -p "$out"
status=0

run() {
    local name=$1
    shift
    local start=$SECONDS
    if "$ex/$name" "$@" >"$out/$name.log" 2>&1; then
        echo "examples-short: $name ok ($((SECONDS - start)) s)"
    else
        echo "examples-short: $name FAILED (exit $?), log $out/$name.log:" >&2
        tail -n 30 "$out/$name.log" >&2
        status=1
    fi
}

run rdma-minimal --size=100000
run rdma-incast --senders=4 --size=200000 --output="$out/incast.csv" \
    --queueOutput="$out/incast-queue.csv"
run goodput-vs-loss --schemes=gbn,gb0,sack --lossRates=0,0.01 --bytes=1000000 \
    --messageSize=500000 --output="$out/loss.csv"
run dcqcn-convergence --flows=2 --duration=3ms --output="$out/dcqcn.csv" \
    --summaryOutput="$out/dcqcn-summary.csv"
run ecmp-vs-spray --k=2 --seeds=1 --bytes=200000 --output="$out/spray.csv" \
    --flowOutput="$out/spray-flows.csv"
run pfc-storm --k=4 --size=100000 --stormStart=50us --stormDuration=100us --window=20us \
    --stopTime=2ms --output="$out/storm.csv" --seriesOutput="$out/storm-series.csv"
run scale-up-allreduce --accelerators=4 --planes=2 --bytes=400000 --output="$out/scale-up"
run llr-vs-e2e --messages=3 --bers=1e-6 --schemes=llr,gbn,sack --output="$out/llr-vs-e2e.csv"
run cc-convergence --cc=hpcc --flows=2 --interval=200us --outputDir="$out/cc-convergence"
run cc-convergence --cc=falcon --flows=2 --interval=200us --outputDir="$out/cc-convergence"
run incast-window-vs-rate --senders=8 --size=20000 --victimSize=100000 --cc=dctcp \
    --outputDir="$out/incast-window-vs-rate"
run incast-window-vs-rate --senders=8 --size=20000 --victimSize=100000 --cc=swift --pfc=false \
    --lossRecovery=sack --outputDir="$out/incast-window-vs-rate"
run fat-tree-workload --duration=300us --cdf="$src/data/flow-size/web-search.txt" \
    --output="$out/workload-flows.csv" --summary="$out/workload.csv" \
    --portSeries="$out/workload-ports.csv"
run collective-interference --allReduceBytes=262144 --allToAllBytes=65536 --load=0.2 \
    --iterations=1 --jobStart=50us --cdf="$src/data/flow-size/web-search.txt" \
    --output="$out/collective-interference.csv"
run credits-vs-pfc --senders=4 --size=100000 --victimSize=200000 --output="$out/credits-vs-pfc.csv"
run kingman --rhos=0.5,0.9 --packets=20000 --output="$out/kingman.csv"
run littles-law --outstanding=1,64 --sizes=64,256 --output="$out"
run memory-semantics --sizes=64,4096 --transfers=20 --output="$out"
# hpcc-compat: the 2 -> 1 incast of the shared configuration with small flows.
mkdir -p "$out/hpcc"
printf '4 1 3\n3\n0 3 100Gbps 0.001ms 0\n1 3 100Gbps 0.001ms 0\n2 3 100Gbps 0.001ms 0\n' \
    >"$out/hpcc/topo.txt"
printf '2\n1 0 3 100 100000 2.0\n2 0 3 100 100000 2.0\n' >"$out/hpcc/flows.txt"
sed -e 's|^TOPOLOGY_FILE .*|TOPOLOGY_FILE topo.txt|' -e 's|^FLOW_FILE .*|FLOW_FILE flows.txt|' \
    -e 's|^TRACE_FILE .*|TRACE_FILE trace.txt|' \
    "$src/test/data/hpcc/config_dcqcn_a2a16.txt" >"$out/hpcc/config.txt"
run hpcc-compat --config="$out/hpcc/config.txt" --outDir="$out/hpcc"
exit $status
