/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * Little's law for an accelerator's remote loads: achieved bandwidth against the bytes in
 * flight (outstanding requests N x request size S) for two accelerator generations, with
 * the analytical line and the knee where the link saturates (issue 17).
 *
 * <b>Scenario.</b> A scale-up pod of two accelerators on one plane (ScaleUpHelper, roce
 * profile); accelerator 0's RdmaMemoryAgent keeps N loads of S bytes (READs) to
 * accelerator 1 in flight (MaxOutstanding = N: a new load is submitted as one completes)
 * until 20 N + 200 have completed; the bandwidth is measured after the first 5 N + 50
 * completions (start-up) over a whole number k of cycles: k N loads of S bytes over the
 * time from completion i to completion i + k N (completion i + N answers the load issued at
 * completion i).
 *
 * <b>Analytical.</b> A load's unloaded round trip on the modelled path is
 *   RTT(S) = 2 (Q + P(S)) 8 / R + 2 D,
 * with Q = 98 wire bytes of READ Request (Ethernet 14, IPv4 20, UDP 8, BTH 12, RETH 16,
 * ICRC 4, FCS 4, preamble 8, IFG 12), P(S) = S + 86 of READ Response (AETH 4 instead of the
 * RETH), each serialized by the NIC and by the plane switch at the port rate R, and the path
 * delay D = 2 x link latency + switch latency each way. The response direction is the
 * bottleneck: it carries at most the goodput G(S) = R S / P(S). A closed loop of N
 * deterministic requests carries (Little's law: throughput = customers / cycle time)
 *   B = min(N S / RTT(S), G(S)),
 * the knee at N* = G(S) RTT(S) / S outstanding requests, i.e. G(S) RTT(S) bytes in flight.
 *
 * <b>Generations</b> (assumptions, chosen to reproduce the Little's-law figures,
 * Hopper ~32 KB and Blackwell ~64 KB in flight, on a one-link path): "hopper" 200 Gb/s
 * (one NVLink 4 link per direction, H100 whitepaper), link latency 250 ns and switch
 * latency 150 ns (RTT about 1.34 us: the link latency stands for the cable plus both
 * ends' fixed pipeline and memory latency); "blackwell" 400 Gb/s (NVLink 5 doubles the
 * per-GPU bandwidth), link latency 240 ns, switch 150 ns. Every value is a CommandLine
 * option.
 *
 * <b>Output.</b> A table per generation on stdout (measured and analytical bandwidth, their
 * ratio, the knee); --output DIR gets littles-law.csv, one line per (generation, S, N).
 * examples/plot-littles-law.py draws it.
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("LittlesLawExample");

namespace
{

/// READ Request wire bytes: Ethernet 14, IPv4 20, UDP 8, BTH 12, RETH 16, ICRC 4, FCS 4,
/// preamble/SFD 8, IFG 12.
constexpr double READ_REQUEST_WIRE = 98;
/// READ Response Only wire bytes besides its payload (AETH 4 in place of the RETH).
constexpr double READ_RESPONSE_OVERHEAD = 86;

/// One accelerator generation.
struct Generation
{
    std::string name;   //!< label
    std::string rate;   //!< port rate
    Time linkLatency;   //!< cable (plus fixed endpoint latency)
    Time switchLatency; //!< plane switch
};

/// A closed loop of loads and its completion times.
struct LoadLoop
{
    Ptr<RdmaMemoryAgent> agent;
    uint32_t size{0};
    uint64_t total{0};
    uint64_t submitted{0};
    std::vector<Time> done;

    void Submit()
    {
        // Consecutive, size-aligned addresses in a 1 MiB window.
        agent->Load(1, (submitted * size) % (1 << 20), size);
        ++submitted;
    }

    void Completed(const RdmaMemoryOperation& op)
    {
        done.push_back(op.completionTime);
        if (submitted < total)
        {
            Submit();
        }
    }

    void Start(uint32_t outstanding)
    {
        for (uint32_t i = 0; i < outstanding && submitted < total; ++i)
        {
            Submit();
        }
    }
};

/// Result of one run.
struct Point
{
    double measuredBps{0};
    Time singleRtt; //!< the first load's round trip (alone on the path at N = 1)
};

/// Run N outstanding loads of S bytes on a generation; return the bandwidth.
Point
RunOne(const Generation& g, uint32_t n, uint32_t size, uint32_t mtu)
{
    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(mtu));
    rdma.SetCongestionControl("ns3::RdmaFixedRateCongestionControl"); // line rate
    ScaleUpHelper pod;
    pod.SetProfile("roce");
    pod.SetAccelerators(2);
    pod.SetPlanes(1);
    pod.SetLinkRate(DataRate(g.rate));
    pod.SetLinkLatency(g.linkLatency);
    pod.SetSwitchLatency(g.switchLatency);
    pod.Install(rdma);
    RdmaMemoryAgentHelper agents;
    agents.SetAgentAttribute("MaxOutstanding", UintegerValue(n));
    agents.Install(pod.GetAccelerators(), rdma);

    LoadLoop loop;
    loop.agent = agents.Get(0);
    loop.size = size;
    loop.total = 20ULL * n + 200;
    loop.done.reserve(loop.total);
    loop.agent->SetCompletionCallback(MakeCallback(&LoadLoop::Completed, &loop));
    Simulator::ScheduleWithContext(pod.GetAccelerator(0)->GetId(),
                                   Seconds(0),
                                   &LoadLoop::Start,
                                   &loop,
                                   n);
    Simulator::Run();
    Point p;
    const uint64_t warm = 5ULL * n + 50;
    if (loop.done.size() == loop.total)
    {
        // Whole cycles only: completion i + N answers the load issued at completion i, so
        // k N completions span exactly k cycles (a partial cycle would catch part of a
        // burst of back-to-back responses and bias the rate by up to 3 %).
        const uint64_t span = (loop.total - 1 - warm) / n * n;
        p.measuredBps =
            double(span) * size * 8 / (loop.done[warm + span] - loop.done[warm]).GetSeconds();
        p.singleRtt = loop.done.front();
    }
    Simulator::Destroy();
    return p;
}

/// Parse a comma-separated list of unsigned numbers.
std::vector<uint32_t>
ParseList(const std::string& option, const std::string& text)
{
    std::vector<uint32_t> values;
    for (const std::string& item : RdmaOptionChecker::SplitList(text))
    {
        char* end = nullptr;
        const unsigned long v = std::strtoul(item.c_str(), &end, 10);
        RdmaOptionChecker::Require(!item.empty() && *end == '\0' && v > 0 && v < (1UL << 20),
                                   option,
                                   text,
                                   "a comma-separated list of positive integers");
        values.push_back(static_cast<uint32_t>(v));
    }
    RdmaOptionChecker::Require(!values.empty(), option, text, "at least one value");
    return values;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    RdmaHelper::UseFastestSimulator();

    Generation hopper{"hopper", "200Gbps", NanoSeconds(250), NanoSeconds(150)};
    Generation blackwell{"blackwell", "400Gbps", NanoSeconds(240), NanoSeconds(150)};
    std::string outstanding = "1,2,4,8,16,32,64,128,256,512";
    std::string sizes = "64,128,256";
    uint32_t mtu = 1024;
    std::string output = "results";

    CommandLine cmd(__FILE__);
    cmd.Usage("Remote-load bandwidth against outstanding requests x request size for two "
              "accelerator generations, with Little's law B = min(N S / RTT, line goodput).");
    cmd.AddValue("hopperRate", "first generation: port rate", hopper.rate);
    cmd.AddValue("hopperLinkLatency", "first generation: link latency", hopper.linkLatency);
    cmd.AddValue("hopperSwitchLatency", "first generation: switch latency", hopper.switchLatency);
    cmd.AddValue("blackwellRate", "second generation: port rate", blackwell.rate);
    cmd.AddValue("blackwellLinkLatency", "second generation: link latency", blackwell.linkLatency);
    cmd.AddValue("blackwellSwitchLatency",
                 "second generation: switch latency",
                 blackwell.switchLatency);
    cmd.AddValue("outstanding", "outstanding requests N, comma-separated", outstanding);
    cmd.AddValue("sizes", "request sizes S in bytes, comma-separated (64, 128, 256)", sizes);
    cmd.AddValue("mtu", "RoCE path MTU", mtu);
    cmd.AddValue("output", "directory for littles-law.csv (created if needed)", output);
    cmd.Parse(argc, argv);

    using Check = RdmaOptionChecker;
    for (const Generation* g : {&hopper, &blackwell})
    {
        Check::Rate(g->name + "Rate", g->rate);
        Check::NonNegative(g->name + "LinkLatency", g->linkLatency);
        Check::NonNegative(g->name + "SwitchLatency", g->switchLatency);
    }
    const std::vector<uint32_t> ns = ParseList("outstanding", outstanding);
    const std::vector<uint32_t> ss = ParseList("sizes", sizes);
    for (uint32_t s : ss)
    {
        Check::Require(s >= RdmaMemoryAgent::MIN_ACCESS_BYTES &&
                           s <= RdmaMemoryAgent::MAX_ACCESS_BYTES && (s & (s - 1)) == 0,
                       "sizes",
                       std::to_string(s),
                       "64, 128 or 256 (RdmaMemoryAgent's load sizes)");
    }
    Check::Attribute("mtu", std::to_string(mtu), "ns3::RdmaNic", "Mtu");
    Check::OutputDirectory("output", output);

    std::ofstream csv(output + "/littles-law.csv");
    csv << std::fixed;
    csv << "generation,rate_bps,size,outstanding,inflight_bytes,rtt_ns,measured_rtt_ns,"
           "measured_gbps,analytical_gbps,ratio,goodput_gbps,knee_outstanding,knee_bytes\n";
    std::cout << std::fixed;
    double worst = 0;
    for (const Generation& g : {hopper, blackwell})
    {
        const double r = DataRate(g.rate).GetBitRate();
        const Time d = 2 * g.linkLatency + g.switchLatency;
        std::cout << "littles-law: " << g.name << ", " << g.rate << ", path delay "
                  << d.As(Time::NS) << " each way\n";
        for (uint32_t s : ss)
        {
            const double response = s + READ_RESPONSE_OVERHEAD;
            const double rtt = 2 * (READ_REQUEST_WIRE + response) * 8 / r + 2 * d.GetSeconds();
            const double goodput = r * s / response;
            const double kneeN = goodput * rtt / (8.0 * s);
            std::cout << "  S = " << s << " B: RTT " << std::setprecision(1) << rtt * 1e9
                      << " ns, line goodput " << std::setprecision(2) << goodput / 1e9
                      << " Gb/s, knee at N = " << kneeN << " (" << std::setprecision(0) << kneeN * s
                      << " B in flight)\n";
            std::cout << "       N   in flight(B)  measured(Gb/s)  analytical(Gb/s)   ratio\n";
            for (uint32_t n : ns)
            {
                const Point p = RunOne(g, n, s, mtu);
                const double analytical = std::min(n * s * 8.0 / rtt, goodput);
                const double ratio = p.measuredBps / analytical;
                worst = std::max(worst, std::fabs(ratio - 1));
                std::cout << std::setw(8) << n << std::setw(15) << n * s << std::setw(16)
                          << std::setprecision(2) << p.measuredBps / 1e9 << std::setw(18)
                          << analytical / 1e9 << std::setw(10) << std::setprecision(4) << ratio
                          << "\n";
                csv << g.name << "," << r << "," << s << "," << n << "," << n * s << ","
                    << std::setprecision(3) << rtt * 1e9 << ","
                    << (n == 1 ? p.singleRtt.GetSeconds() * 1e9 : NAN) << "," << p.measuredBps / 1e9
                    << "," << analytical / 1e9 << "," << std::setprecision(5) << ratio << ","
                    << std::setprecision(3) << goodput / 1e9 << "," << kneeN << "," << kneeN * s
                    << "\n";
            }
        }
    }
    std::cout << "largest deviation from min(N S / RTT, goodput): " << std::setprecision(2)
              << worst * 100 << " %\n";
    std::cout << "csv: " << output << "/littles-law.csv\n";
    return 0;
}
