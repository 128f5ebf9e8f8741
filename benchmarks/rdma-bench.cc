/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * Benchmark scenarios of fixed size. Prints one line of key=value figures per run:
 * wall time, user CPU, peak RSS, simulator events, events per wall second, packet-hops
 * (frames serialized on any link) per wall second, simulated time per wall second, and
 * the result figures (FCT mean/p50/p99, pause frames) so that a speed-up cannot hide a
 * change in results. Run one scenario per process (peak RSS is per process);
 * benchmarks/run-benchmarks.py runs them all.
 *
 * Scenarios:
 *  - incast: 16 -> 1 through one switch, 1 MB each, 100 Gb/s, 1 us links, PFC on.
 *  - incast-credits: the same incast with InfiniBand-style credit flow control on every link
 *    (RdmaCreditFlowControl: 64-byte blocks, a credit update every 10 us per link and
 *    class for as long as the run lasts, so the run stops at the last completion).
 *  - leafspine16: two-tier leaf-spine, 4 leaves x 4 hosts, 4 spines, 100 Gb/s, 1 us
 *    links; every host WRITEs 1 MB to each host under another leaf (192 flows).
 *  - fattree8, fattree16: k = 8 (128 hosts) and k = 16 (1,024 hosts) three-tier fat-trees,
 *    100 Gb/s, 1 us links, DCQCN; a random permutation of 1 MB WRITEs (host i to pi(i),
 *    never within its own edge switch) plus a 16 -> 1 incast of 256 KB WRITEs to host 0.
 *  - fattree32: k = 32 (8,192 hosts, 1,280 switches), the same traffic, stopped after
 *    100 us of simulated time (set-up and memory at scale). Any even k works (fattree<k>);
 *    benchmarks/plot-scaling.py runs k = 4..32 for the scaling curve.
 *  - workload: WebSearch (--cdf, data/flow-size/web-search.txt) at 50 % load of every host
 *    link on a k = 4 fat-tree (16 hosts), 100 Gb/s, 1 us links, DCQCN: open-loop Poisson
 *    flows (RdmaFlowGenerator, uniform destinations) start for 1 ms, then the run drains;
 *    FCTs from RdmaFlowMonitor's per-flow records (written to a temporary file).
 *  - memory: builds a k-ary three-tier fat-tree (--memK, default 16: 1,024 hosts, 320
 *    switches) step by step and measures the heap in use (glibc mallinfo2) after each step,
 *    then prints the bytes of one host (node, NIC, its port and half of its cable), one switch
 *    (node, RdmaSwitch and MMU, its k ports and half of their cables, its share of the
 *    forwarding state) and one queue pair (--memQps connections, two queue pairs each).
 *    This is the set-up state; packets and events in flight come on top while running.
 *    A second line ("memory-agent ...") gives the bytes per outstanding RdmaMemoryAgent
 *    request: the agent's slot and the queue pair's state for one READ (and, to compare,
 *    for one WRITE), with 1,024 loads in flight (RunMemoryAgent).
 * For the other scenarios, memory per host and per node is also reported as peak RSS divided
 * by the counts (benchmarks/plot-scaling.py fits it against the host count).
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <malloc.h>
#include <memory>
#include <sys/resource.h>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("RdmaBench");

namespace
{

/// Flow bookkeeping.
struct Flow
{
    Ptr<RdmaQueuePair> qp;
    Time start;
    Time finish;
    bool done{false};
};

/// Flows not yet completed, for a scenario that stops at the last completion.
uint64_t g_flowsLeft = 0;
/// Whether the run stops at the last completion (credit refreshes never end by themselves).
bool g_stopAtLastCompletion = false;

void
Done(Flow* f, const RdmaCompletion& c)
{
    f->finish = c.completionTime;
    f->done = true;
    if (g_stopAtLastCompletion && --g_flowsLeft == 0)
    {
        Simulator::Stop();
    }
}

/// The workload scenario's completion times, microseconds, from each requester's SendComplete.
struct WorkloadFcts
{
    std::vector<double> us;

    static void FlowDone(WorkloadFcts* w, const RdmaCompletion& c)
    {
        w->us.push_back((c.completionTime - c.postTime).GetSeconds() * 1e6);
    }

    static void QueuePairCreated(WorkloadFcts* w, Ptr<RdmaQueuePair> requester, Ptr<RdmaQueuePair>)
    {
        requester->TraceConnectWithoutContext("SendComplete",
                                              MakeBoundCallback(&WorkloadFcts::FlowDone, w));
    }
};

/// Start a WRITE of bytes from requester to responder at t.
void
AddFlow(std::vector<Flow>& flows,
        RdmaHelper& rdma,
        Ptr<Node> a,
        Ptr<Node> b,
        uint64_t bytes,
        Time t)
{
    flows.emplace_back();
    Flow& f = flows.back();
    f.qp = rdma.Connect(a, b).first;
    f.start = t;
    RdmaWorkRequest wr;
    wr.length = bytes;
    Simulator::ScheduleWithContext(a->GetId(), t, &RdmaQueuePair::PostSend, f.qp, wr);
}

/// \return bytes of heap in use (glibc: arena blocks in use plus mmapped blocks)
uint64_t
HeapInUse()
{
    const struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

/// \return this process's peak resident set (VmHWM), bytes
uint64_t
PeakRssBytes()
{
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
    {
        if (line.rfind("VmHWM:", 0) == 0)
        {
            return static_cast<uint64_t>(std::stod(line.substr(6))) * 1024;
        }
    }
    return 0;
}

/**
 * The memory scenario's second part: the heap an RdmaMemoryAgent's outstanding request
 * costs. Two accelerators (one plane); agent 0 gets `outstanding` = MaxOutstanding (and its
 * queue pair that InitiatorDepth). The first load allocates the agent's slots and issue FIFO
 * and the queue pair's state for one READ; each further load (all issued at once, none
 * completes: the simulation never runs) adds only the queue pair's per-READ state. Printed
 * on a line of its own ("memory-agent ...", after the scenario line).
 * \param outstanding MaxOutstanding, loads posted
 */
void
RunMemoryAgent(uint32_t outstanding)
{
    RdmaHelper rdma;
    ScaleUpHelper pod;
    pod.SetAccelerators(2);
    pod.SetPlanes(1);
    pod.Install(rdma);
    RdmaMemoryAgentHelper agents;
    agents.SetAgentAttribute("MaxOutstanding", UintegerValue(outstanding));
    agents.Install(pod.GetAccelerators(), rdma);
    Ptr<RdmaMemoryAgent> agent = agents.Get(0);
    Ptr<RdmaQueuePair> qp = agent->GetQueuePair(1);
    // The same for WRITEs posted straight to a queue pair (what a verbs store costs).
    auto [writer, responder] = rdma.Connect(pod.GetAccelerator(0), pod.GetAccelerator(1));
    const uint64_t h0 = HeapInUse();
    agent->Load(1, 0, 256);
    const uint64_t h1 = HeapInUse();
    for (uint32_t i = 1; i < outstanding; ++i)
    {
        agent->Load(1, 256ULL * i, 256);
    }
    const uint64_t h2 = HeapInUse();
    RdmaWorkRequest wr;
    wr.length = 256;
    writer->PostSend(wr);
    const uint64_t h3 = HeapInUse();
    for (uint32_t i = 1; i < outstanding; ++i)
    {
        writer->PostSend(wr);
    }
    const uint64_t h4 = HeapInUse();
    const double qpPerRead = double(h2 - h1) / (outstanding - 1);
    const double qpPerWrite = double(h4 - h3) / (outstanding - 1);
    // The first load: the slots, the FIFO ring (fixed, 256 entries) and one READ's state.
    const double fifo = 256.0 * sizeof(RdmaMemoryOperation);
    const double slot = (double(h1 - h0) - qpPerRead - fifo) / outstanding;
    std::cout << std::fixed << std::setprecision(0) << "memory-agent outstanding=" << outstanding
              << " in_flight=" << agent->GetInFlight() << " agent_slot_bytes=" << slot
              << " agent_slot_sizeof=" << RdmaMemoryAgent::GetSlotBytes()
              << " agent_fifo_bytes=" << fifo << " qp_bytes_per_read=" << qpPerRead
              << " qp_bytes_per_write=" << qpPerWrite
              << " bytes_per_outstanding_request=" << slot + qpPerRead << std::endl;
    Simulator::Destroy();
}

/**
 * The memory scenario: a k-ary three-tier fat-tree built step by step (the same wiring as
 * FatTreeHelper::SetThreeTier), with the heap in use measured after each step, so that the
 * bytes of a host, a switch and a queue pair are reported separately.
 * \param k fat-tree arity (even, >= 4)
 * \param connections connections to open (two queue pairs each)
 * \return the exit code
 */
int
RunMemory(uint32_t k, uint32_t connections)
{
    NS_ABORT_MSG_IF(k < 4 || k % 2 != 0,
                    "--memK " << k << ": the fat-tree arity must be even and at least 4");
    const uint32_t half = k / 2;
    const uint32_t nHosts = k * half * half;
    const uint32_t nEdge = k * half;
    const uint32_t nAgg = k * half;
    const uint32_t nCore = half * half;
    const uint32_t nSwitches = nEdge + nAgg + nCore;
    NS_ABORT_MSG_IF(connections == 0, "--memQps must be at least 1");

    RdmaLinkHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    RdmaHelper rdma;
    rdma.SetCongestionControl("ns3::DcqcnCongestionControl");

    const uint64_t start = HeapInUse();
    NodeContainer hosts(nHosts);
    const uint64_t afterHosts = HeapInUse();
    NodeContainer edge(nEdge);
    NodeContainer agg(nAgg);
    NodeContainer core(nCore);
    NodeContainer switches;
    switches.Add(edge);
    switches.Add(agg);
    switches.Add(core);
    const uint64_t afterSwitches = HeapInUse();
    uint32_t links = 0;
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        link.Install(hosts.Get(h), edge.Get(h / half));
        ++links;
    }
    for (uint32_t pod = 0; pod < k; ++pod)
    {
        for (uint32_t e = 0; e < half; ++e)
        {
            for (uint32_t a = 0; a < half; ++a)
            {
                link.Install(edge.Get(pod * half + e), agg.Get(pod * half + a));
                ++links;
            }
        }
        for (uint32_t a = 0; a < half; ++a)
        {
            for (uint32_t c = 0; c < half; ++c)
            {
                link.Install(agg.Get(pod * half + a), core.Get(a * half + c));
                ++links;
            }
        }
    }
    const uint64_t afterLinks = HeapInUse();
    rdma.InstallSwitches(switches);
    const uint64_t afterSwitchStacks = HeapInUse();
    rdma.InstallHosts(hosts);
    const uint64_t afterNics = HeapInUse();
    RdmaRoutingHelper::PopulateRoutingTables();
    const uint64_t afterRoutes = HeapInUse();
    std::vector<Ptr<RdmaQueuePair>> qps;
    qps.reserve(2 * connections);
    const uint64_t beforeQps = HeapInUse();
    for (uint32_t i = 0; i < connections; ++i)
    {
        // Host i to the host half the fabric away (another pod), wrapping around.
        auto pair = rdma.Connect(hosts.Get(i % nHosts), hosts.Get((i + nHosts / 2) % nHosts));
        qps.push_back(pair.first);
        qps.push_back(pair.second);
    }
    const uint64_t afterQps = HeapInUse();

    const double link1 = double(afterLinks - afterSwitches) / links; // 2 devices + channel
    const double hostNode = double(afterHosts - start) / nHosts;
    const double switchNode = double(afterSwitches - afterHosts) / nSwitches;
    const double nic = double(afterNics - afterSwitchStacks) / nHosts;
    const double switchStack = double(afterSwitchStacks - afterLinks) / nSwitches;
    const double routes = double(afterRoutes - afterNics) / nSwitches;
    // A host has one port; a switch has k ports. Each port is charged half its cable.
    const double perHost = hostNode + nic + link1 / 2;
    const double perSwitch = switchNode + switchStack + routes + k * link1 / 2;
    const double perQp = double(afterQps - beforeQps) / (2.0 * connections);
    std::cout << std::fixed << std::setprecision(0) << "scenario=memory k=" << k
              << " hosts=" << nHosts << " switches=" << nSwitches << " links=" << links
              << " queue_pairs=" << 2 * connections << " heap_total_bytes=" << afterQps - start
              << " bytes_per_host=" << perHost << " bytes_per_switch=" << perSwitch
              << " bytes_per_qp=" << perQp << " bytes_per_link=" << link1
              << " host_node_bytes=" << hostNode << " host_nic_bytes=" << nic
              << " switch_node_bytes=" << switchNode << " switch_stack_bytes=" << switchStack
              << " switch_route_bytes=" << routes << " peak_rss_mb=" << std::setprecision(1)
              << PeakRssBytes() / 1048576.0 << std::endl;
    qps.clear();
    Simulator::Destroy();
    RunMemoryAgent(1024);
    return 0;
}

/// \return a CPU time from getrusage (possibly a difference of two), in seconds
double
CpuSeconds(const timeval& t)
{
    return t.tv_sec + t.tv_usec * 1e-6;
}

/**
 * The part of the run after --measureFrom, in a function of its own so that callgrind can
 * collect only there (--toggle-collect='*RunMeasuredPart*'): the steady state of a large
 * fabric, without the set-up and the first microseconds, when every host, port and queue is
 * touched for the first time.
 */
[[gnu::noinline]] void
RunMeasuredPart()
{
    Simulator::Run();
}

/// The frames sent by every device so far (packet-hops).
uint64_t
CountFrames(const NetDeviceContainer& devices)
{
    uint64_t frames = 0;
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        frames += DynamicCast<RdmaNetDevice>(devices.Get(i))->GetTxFrames();
    }
    return frames;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS); // 100 Gb/s frames are not whole nanoseconds
    std::string scenario = "incast";
    std::string scheduler = RdmaHelper::FASTEST_SCHEDULER;
    CommandLine cmd(__FILE__);
    cmd.AddValue(
        "scenario",
        "incast | incast-credits | pod | pod-credits | leafspine16 | fattree<k> (k even) | "
        "workload | memory",
        scenario);
    std::string cdf = "data/flow-size/web-search.txt";
    cmd.AddValue("cdf", "workload scenario: the flow-size CDF file", cdf);
    uint32_t memK = 16;
    uint32_t memQps = 1024;
    cmd.AddValue("memK", "memory scenario: fat-tree arity", memK);
    cmd.AddValue("memQps", "memory scenario: connections (two queue pairs each)", memQps);
    cmd.AddValue("scheduler", "ns-3 scheduler TypeId", scheduler);
    std::string simulator = RdmaHelper::FASTEST_SIMULATOR;
    cmd.AddValue("simulator", "ns-3 simulator implementation TypeId", simulator);
    Time stopTime(0);
    cmd.AddValue("stopTime",
                 "stop after this simulated time (0: when every flow is done; fattree32: 100us)",
                 stopTime);
    Time measureFrom(0);
    cmd.AddValue("measureFrom",
                 "run to this simulated time first, then the rest in RunMeasuredPart and print "
                 "its events and packet-hops (measured_*: callgrind's window)",
                 measureFrom);
    Time lookahead(0);
    cmd.AddValue("lookahead",
                 "RdmaSimulatorImpl's Lookahead: run events in windows this long, node by node "
                 "(at most the links' delay, 1us here; 0: global order)",
                 lookahead);
    cmd.Parse(argc, argv);

    if (scenario == "memory")
    {
        return RunMemory(memK, memQps);
    }

    RdmaHelper::SetSimulatorImplementation(simulator);
    RdmaHelper::SetScheduler(scheduler);
    if (!lookahead.IsZero())
    {
        Simulator::GetImplementation()->SetAttribute("Lookahead", TimeValue(lookahead));
    }
    const auto wallStart = std::chrono::steady_clock::now();

    RdmaLinkHelper link;
    link.SetDeviceAttribute("DataRate", StringValue("100Gbps"));
    link.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    RdmaHelper rdma;
    rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
    NodeContainer hosts;
    NodeContainer switches;
    NetDeviceContainer devices;
    std::vector<Flow> flows;
    flows.reserve(1024);
    ApplicationContainer generators; // workload
    std::unique_ptr<RdmaFlowMonitor> monitor;
    WorkloadFcts workloadFcts;

    if (scenario == "incast" || scenario == "incast-credits")
    {
        if (scenario == "incast-credits")
        {
            link.SetLinkFlowControl("ns3::RdmaCreditFlowControl");
            g_stopAtLastCompletion = true;
        }
        hosts.Create(17);
        switches.Create(1);
        for (uint32_t i = 0; i < hosts.GetN(); ++i)
        {
            devices.Add(link.Install(hosts.Get(i), switches.Get(0)));
        }
        rdma.InstallHosts(hosts);
        rdma.InstallSwitches(switches);
        RdmaRoutingHelper::PopulateRoutingTables();
        for (uint32_t i = 1; i < hosts.GetN(); ++i)
        {
            AddFlow(flows, rdma, hosts.Get(i), hosts.Get(0), 1000000, Seconds(0));
        }
    }
    else if (scenario == "pod" || scenario == "pod-credits")
    {
        // A scale-up pod (ScaleUpHelper's defaults: 8 accelerators, 4 planes of 200 Gb/s,
        // 10 ns cables, 150 ns switches; each queue pair on one plane): an all-to-all of
        // 1 MiB WRITEs, under PFC (pod) or with credits on every link (pod-credits). Both
        // stop at the last completion (credit refreshes never end).
        ScaleUpHelper pod;
        if (scenario == "pod-credits")
        {
            pod.SetLinkFlowControl("ns3::RdmaCreditFlowControl");
        }
        g_stopAtLastCompletion = true;
        pod.Install(rdma);
        hosts = pod.GetAccelerators();
        switches = pod.GetSwitches();
        devices = pod.GetDevices();
        for (uint32_t i = 0; i < hosts.GetN(); ++i)
        {
            for (uint32_t j = 0; j < hosts.GetN(); ++j)
            {
                if (i != j)
                {
                    AddFlow(flows, rdma, hosts.Get(i), hosts.Get(j), 1048576, Seconds(0));
                }
            }
        }
    }
    else if (scenario == "leafspine16")
    {
        const uint32_t leaves = 4;
        const uint32_t perLeaf = 4;
        const uint32_t spines = 4;
        hosts.Create(leaves * perLeaf);
        NodeContainer leafNodes(leaves);
        NodeContainer spineNodes(spines);
        switches.Add(leafNodes);
        switches.Add(spineNodes);
        for (uint32_t l = 0; l < leaves; ++l)
        {
            for (uint32_t h = 0; h < perLeaf; ++h)
            {
                devices.Add(link.Install(hosts.Get(l * perLeaf + h), leafNodes.Get(l)));
            }
            for (uint32_t s = 0; s < spines; ++s)
            {
                devices.Add(link.Install(leafNodes.Get(l), spineNodes.Get(s)));
            }
        }
        rdma.InstallHosts(hosts);
        rdma.InstallSwitches(switches);
        RdmaRoutingHelper::PopulateRoutingTables();
        for (uint32_t a = 0; a < hosts.GetN(); ++a)
        {
            for (uint32_t b = 0; b < hosts.GetN(); ++b)
            {
                if (a / perLeaf != b / perLeaf)
                {
                    AddFlow(flows, rdma, hosts.Get(a), hosts.Get(b), 1000000, Seconds(0));
                }
            }
        }
    }
    else if (scenario.rfind("fattree", 0) == 0 || scenario == "workload")
    {
        // fattree<k>: any even k >= 4 (FatTreeHelper validates it); workload: k = 4.
        const uint32_t k =
            scenario == "workload" ? 4 : static_cast<uint32_t>(std::stoul(scenario.substr(7)));
        NS_ABORT_MSG_IF(k < 4, "--scenario " << scenario << ": k must be at least 4 (16 hosts)");
        rdma.SetCongestionControl("ns3::DcqcnCongestionControl");
        rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(true));
        FatTreeHelper tree;
        tree.SetThreeTier(k);
        tree.SetLinkRate(FatTreeHelper::HOST_EDGE, DataRate("100Gbps"));
        tree.Install(rdma);
        hosts = tree.GetHosts();
        switches = tree.GetSwitches();
        for (auto tier : {FatTreeHelper::HOST_EDGE,
                          FatTreeHelper::EDGE_AGGREGATION,
                          FatTreeHelper::AGGREGATION_CORE})
        {
            devices.Add(tree.GetDevices(tier));
        }
        if (scenario == "workload")
        {
            RdmaFlowGeneratorHelper gen(RdmaFlowSizeReader::Read(cdf));
            gen.SetAttribute("Load", DoubleValue(0.5));
            generators = gen.Install(hosts);
            RdmaFlowGeneratorHelper::AssignStreams(generators, 1000);
            generators.Start(Seconds(0));
            generators.Stop(MilliSeconds(1));
            // The monitor runs as in a user's workload (no CSV); the FCTs come from the
            // completions directly.
            monitor = std::make_unique<RdmaFlowMonitor>();
            monitor->Watch(generators);
            for (uint32_t i = 0; i < generators.GetN(); ++i)
            {
                generators.Get(i)->TraceConnectWithoutContext(
                    "QueuePairCreated",
                    MakeBoundCallback(&WorkloadFcts::QueuePairCreated, &workloadFcts));
            }
        }
        else
        {
            // A fixed permutation (seeded, reproducible) avoiding the sender's own edge switch.
            const uint32_t n = hosts.GetN();
            Ptr<UniformRandomVariable> rv = CreateObject<UniformRandomVariable>();
            rv->SetStream(12345);
            std::vector<uint32_t> perm(n);
            for (uint32_t i = 0; i < n; ++i)
            {
                perm[i] = (i + tree.GetHostsPerEdge()) % n; // a valid start: the next edge
            }
            for (uint32_t i = n; i-- > 1;)
            {
                const uint32_t j = rv->GetInteger(0, i);
                if (tree.GetEdgeOfHost(perm[j]) != tree.GetEdgeOfHost(i) &&
                    tree.GetEdgeOfHost(perm[i]) != tree.GetEdgeOfHost(j))
                {
                    std::swap(perm[i], perm[j]);
                }
            }
            for (uint32_t i = 0; i < n; ++i)
            {
                AddFlow(flows, rdma, hosts.Get(i), hosts.Get(perm[i]), 1000000, Seconds(0));
            }
            for (uint32_t i = 1; i <= std::min<uint32_t>(16, n - 1); ++i)
            {
                AddFlow(flows, rdma, hosts.Get(n - i), hosts.Get(0), 256000, Seconds(0));
            }
        }
    }
    else
    {
        NS_ABORT_MSG(
            "unknown --scenario '"
            << scenario
            << "'; valid: incast, incast-credits, pod, pod-credits, leafspine16, fattree<k> "
               "(k even, e.g. fattree8, fattree16, fattree32), "
               "workload, memory");
    }
    rdma.AssignStreams(switches, 0);
    g_flowsLeft = flows.size();
    for (auto& f : flows)
    {
        f.qp->SetSendCompletionCallback(MakeBoundCallback(&Done, &f));
    }

    const double setupWall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    if (scenario == "fattree32" && stopTime.IsZero())
    {
        stopTime = MicroSeconds(100);
    }
    if (!measureFrom.IsZero() && (stopTime.IsZero() || measureFrom >= stopTime))
    {
        std::cerr << "--measureFrom=" << measureFrom.As(Time::US)
                  << " is not valid; valid: a time before --stopTime (" << stopTime.As(Time::US)
                  << "), which must be set" << std::endl;
        return 2;
    }
    uint64_t measuredEvents = 0;
    uint64_t measuredHops = 0;
    double measuredWall = 0;
    rusage measuredUsage{}; // the measured part's CPU time and page faults
    if (!measureFrom.IsZero())
    {
        Simulator::Stop(measureFrom);
        Simulator::Run();
        const uint64_t eventsBefore = Simulator::GetEventCount();
        const uint64_t hopsBefore = CountFrames(devices);
        rusage before{};
        getrusage(RUSAGE_SELF, &before);
        const auto measureStart = std::chrono::steady_clock::now();
        Simulator::Stop(stopTime - measureFrom);
        RunMeasuredPart();
        measuredWall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - measureStart).count();
        getrusage(RUSAGE_SELF, &measuredUsage);
        measuredUsage.ru_utime.tv_sec -= before.ru_utime.tv_sec;
        measuredUsage.ru_utime.tv_usec -= before.ru_utime.tv_usec;
        measuredUsage.ru_stime.tv_sec -= before.ru_stime.tv_sec;
        measuredUsage.ru_stime.tv_usec -= before.ru_stime.tv_usec;
        measuredUsage.ru_minflt -= before.ru_minflt;
        measuredEvents = Simulator::GetEventCount() - eventsBefore;
        measuredHops = CountFrames(devices) - hopsBefore;
    }
    else
    {
        if (!stopTime.IsZero())
        {
            Simulator::Stop(stopTime);
        }
        Simulator::Run();
    }
    const Time simulated = Simulator::Now();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    const uint64_t events = Simulator::GetEventCount();

    const uint64_t frames = CountFrames(devices);
    uint64_t pfcFrames = 0;
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        pfcFrames += DynamicCast<RdmaNetDevice>(devices.Get(i))->GetPfcFramesSent();
    }
    std::vector<double> fcts;
    for (const auto& f : flows)
    {
        if (f.done)
        {
            fcts.push_back((f.finish - f.start).GetSeconds() * 1e6);
        }
    }
    std::size_t nFlows = flows.size();
    if (monitor)
    {
        // The workload's flows: every started flow, and the FCTs of those completed.
        nFlows = 0;
        for (uint32_t i = 0; i < generators.GetN(); ++i)
        {
            nFlows += DynamicCast<RdmaFlowGenerator>(generators.Get(i))->GetFlowsStarted();
        }
        fcts = workloadFcts.us;
    }
    RdmaSampleSummary fctSummary; // percentiles by HPCC's analysis-script rule
    fctSummary.Add(fcts);
    auto pct = [&fctSummary](double p) { return fctSummary.GetIndexPercentile(p); };
    const double mean = fctSummary.GetMean();
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    const double user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6;
    // Peak RSS of this program: VmHWM (ru_maxrss would include the memory of a parent
    // that forked us, e.g. the Python harness, because Linux keeps it across exec).
    double peakKb = ru.ru_maxrss;
    {
        std::ifstream status("/proc/self/status");
        for (std::string line; std::getline(status, line);)
        {
            if (line.rfind("VmHWM:", 0) == 0)
            {
                peakKb = std::stod(line.substr(6));
            }
        }
    }

    std::cout << std::fixed << std::setprecision(3) << "scenario=" << scenario
              << " scheduler=" << scheduler << " hosts=" << hosts.GetN()
              << " switches=" << switches.GetN() << " flows=" << nFlows
              << " completed=" << fcts.size() << " setup_s=" << setupWall << " wall_s=" << wall
              << " user_s=" << user << " peak_rss_mb=" << peakKb / 1024.0 << " events=" << events
              << " events_per_s=" << std::setprecision(0) << events / wall
              << " packet_hops=" << frames << " packet_hops_per_s=" << frames / wall
              << std::setprecision(6) << " sim_s_per_wall_s=" << simulated.GetSeconds() / wall
              << std::setprecision(1) << " fct_mean_us=" << mean << " fct_p50_us=" << pct(0.5)
              << " fct_p99_us=" << pct(0.99) << " pfc_frames=" << pfcFrames << std::setprecision(0)
              << " rss_bytes_per_host=" << peakKb * 1024.0 / hosts.GetN()
              << " rss_bytes_per_node=" << peakKb * 1024.0 / (hosts.GetN() + switches.GetN());
    if (!measureFrom.IsZero())
    {
        std::cout << " measured_events=" << measuredEvents
                  << " measured_packet_hops=" << measuredHops
                  << " measured_wall_s=" << std::setprecision(3) << measuredWall
                  << " measured_events_per_s=" << std::setprecision(0)
                  << measuredEvents / measuredWall << std::setprecision(3)
                  << " measured_user_s=" << CpuSeconds(measuredUsage.ru_utime)
                  << " measured_sys_s=" << CpuSeconds(measuredUsage.ru_stime)
                  << " measured_page_faults=" << measuredUsage.ru_minflt;
    }
    std::cout << std::endl;
    Simulator::Destroy();
    return fcts.size() == nFlows || !stopTime.IsZero() ? 0 : 1;
}
