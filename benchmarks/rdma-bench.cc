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
 *  - leafspine16: two-tier leaf-spine, 4 leaves x 4 hosts, 4 spines, 100 Gb/s, 1 us
 *    links; every host WRITEs 1 MB to each host under another leaf (192 flows).
 *  - fattree8, fattree16: k = 8 (128 hosts) and k = 16 (1,024 hosts) three-tier fat-trees,
 *    100 Gb/s, 1 us links, DCQCN; a random permutation of 1 MB WRITEs (host i to pi(i),
 *    never within its own edge switch) plus a 16 -> 1 incast of 256 KB WRITEs to host 0.
 *  - fattree32: k = 32 (8,192 hosts, 1,280 switches), the same traffic, stopped after
 *    100 us of simulated time (set-up and memory at scale). Any even k works (fattree<k>);
 *    benchmarks/plot-scaling.py runs k = 4..32 for the scaling curve.
 * Memory per host and per switch is reported as peak RSS divided by the counts; the
 * scaling runs (benchmarks/run-benchmarks.py --scaling) fit it against the host count.
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
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

void
Done(Flow* f, const RdmaCompletion& c)
{
    f->finish = c.completionTime;
    f->done = true;
}

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

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS); // 100 Gb/s frames are not whole nanoseconds
    std::string scenario = "incast";
    std::string scheduler = "ns3::PriorityQueueScheduler";
    CommandLine cmd(__FILE__);
    cmd.AddValue("scenario", "incast | leafspine16", scenario);
    cmd.AddValue("scheduler", "ns-3 scheduler TypeId", scheduler);
    Time stopTime(0);
    cmd.AddValue("stopTime",
                 "stop after this simulated time (0: when every flow is done; fattree32: 100us)",
                 stopTime);
    cmd.Parse(argc, argv);

    ObjectFactory sched(scheduler);
    Simulator::SetScheduler(sched);
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

    if (scenario == "incast")
    {
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
    else if (scenario.rfind("fattree", 0) == 0)
    {
        // fattree<k>: any even k >= 4 (FatTreeHelper validates it).
        const uint32_t k = static_cast<uint32_t>(std::stoul(scenario.substr(7)));
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
    else
    {
        NS_ABORT_MSG("unknown --scenario '" << scenario
                                            << "'; valid: incast, leafspine16, fattree<k> "
                                               "(k even, e.g. fattree8, fattree16, fattree32)");
    }
    rdma.AssignStreams(switches, 0);
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
    if (!stopTime.IsZero())
    {
        Simulator::Stop(stopTime);
    }
    Simulator::Run();
    const Time simulated = Simulator::Now();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    const uint64_t events = Simulator::GetEventCount();

    uint64_t frames = 0;
    uint64_t pfcFrames = 0;
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<RdmaNetDevice> d = DynamicCast<RdmaNetDevice>(devices.Get(i));
        frames += d->GetTxFrames();
        pfcFrames += d->GetPfcFramesSent();
    }
    std::vector<double> fcts;
    for (const auto& f : flows)
    {
        if (f.done)
        {
            fcts.push_back((f.finish - f.start).GetSeconds() * 1e6);
        }
    }
    std::sort(fcts.begin(), fcts.end());
    auto pct = [&fcts](double p) {
        return fcts.empty() ? 0.0 : fcts[std::min(fcts.size() - 1, std::size_t(p * fcts.size()))];
    };
    double mean = 0;
    for (double v : fcts)
    {
        mean += v / fcts.size();
    }
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
              << " switches=" << switches.GetN() << " flows=" << flows.size()
              << " completed=" << fcts.size() << " setup_s=" << setupWall << " wall_s=" << wall
              << " user_s=" << user << " peak_rss_mb=" << peakKb / 1024.0 << " events=" << events
              << " events_per_s=" << std::setprecision(0) << events / wall
              << " packet_hops=" << frames << " packet_hops_per_s=" << frames / wall
              << std::setprecision(6) << " sim_s_per_wall_s=" << simulated.GetSeconds() / wall
              << std::setprecision(1) << " fct_mean_us=" << mean << " fct_p50_us=" << pct(0.5)
              << " fct_p99_us=" << pct(0.99) << " pfc_frames=" << pfcFrames << std::setprecision(0)
              << " rss_bytes_per_host=" << peakKb * 1024.0 / hosts.GetN()
              << " rss_bytes_per_node=" << peakKb * 1024.0 / (hosts.GetN() + switches.GetN())
              << std::endl;
    Simulator::Destroy();
    return fcts.size() == flows.size() || !stopTime.IsZero() ? 0 : 1;
}
