/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * Collective interference: an all-reduce job and an all-to-all job (RdmaCollective) share a
 * k-ary fat-tree with background datacenter traffic (RdmaFlowGenerator). Each job's iteration
 * time is measured alone in the fabric and then shared, and the ratio printed: the
 * interference a job suffers from its neighbours, the question multi-tenant AI clusters ask
 * (e.g. Rajasekaran et al., "CASSINI", NSDI 2024; the MLPerf-on-shared-fabric studies).
 *
 * Placement: --placement=interleaved puts the all-reduce on the even hosts and the all-to-all
 * on the odd ones, so both share every edge switch and the whole core; "split" gives the
 * all-reduce the first half of the hosts (its own pods) and the all-to-all the second half.
 * Background: every host runs an RdmaFlowGenerator at --load (payload bytes of its link, 0
 * for none) with sizes from --cdf and uniform destinations, from time 0; the jobs start at
 * --jobStart, once the background has filled the fabric, and run --iterations each; the run
 * stops when both jobs are done.
 *
 * Alone on a non-blocking fat-tree a ring all-reduce of S bytes on p hosts takes about
 * 2 (p - 1) (alpha + S/(p B)) and the all-to-all (p - 1) S/(p B) + alpha (doc/traffic.rst),
 * except for ECMP collisions in the core, which the isolated run measures too.
 *
 * Output: a summary on stdout (isolated and shared iteration time, slowdown, bus bandwidth per
 * job; background flows and their slowdown) and one CSV line per job in --output;
 * examples/plot-collective-interference.py draws it.
 */

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("CollectiveInterferenceExample");

namespace
{

/// The options of one run.
struct Options
{
    uint32_t k{4};
    std::string rate{"100Gbps"};
    Time delay{MicroSeconds(1)};
    uint32_t mtu{1024};
    std::string cc{"ns3::DcqcnCongestionControl"};
    std::string lb{"ns3::RdmaEcmpLoadBalancer"};
    std::string placement{"interleaved"};
    std::string allReduceAlgorithm{"ns3::RdmaRingCollectiveAlgorithm"};
    uint64_t allReduceBytes{1 << 20};
    uint64_t allToAllBytes{256 << 10};
    uint64_t chunkBytes{0};
    uint32_t iterations{2};
    double load{0.3};
    Time jobStart{MicroSeconds(200)};
    Time stopTime{Seconds(1)};
    std::optional<RdmaFlowSizeDistribution> sizes;
};

/// What one run measured.
struct Outcome
{
    Time allReduce{0};        //!< mean iteration, 0 if not run
    Time allToAll{0};         //!< mean iteration, 0 if not run
    double allReduceBusBw{0}; //!< bytes/s
    double allToAllBusBw{0};  //!< bytes/s
    bool complete{true};
    uint64_t backgroundFlows{0};
    double backgroundP50{0};
    double backgroundP99{0};
    uint64_t drops{0};
};

/// Stops the run when every job is done.
struct Finish
{
    std::vector<Ptr<RdmaCollective>> jobs;

    static void IterationDone(Finish* f, uint32_t, Time)
    {
        for (const auto& job : f->jobs)
        {
            if (!job->IsComplete())
            {
                return;
            }
        }
        Simulator::Stop();
    }
};

Outcome
Run(const Options& c, bool allReduce, bool allToAll, bool background)
{
    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(c.mtu));
    rdma.SetCongestionControl(c.cc);
    rdma.SetLoadBalancer(c.lb);
    FatTreeHelper ft;
    ft.SetThreeTier(c.k);
    for (auto tier : {FatTreeHelper::HOST_EDGE,
                      FatTreeHelper::EDGE_AGGREGATION,
                      FatTreeHelper::AGGREGATION_CORE})
    {
        ft.SetLinkRate(tier, DataRate(c.rate));
        ft.SetLinkDelay(tier, c.delay);
    }
    ft.Install(rdma);
    rdma.AssignStreams(ft.GetSwitches(), 0);

    const NodeContainer hosts = ft.GetHosts();
    const uint32_t n = hosts.GetN();
    NodeContainer arHosts;
    NodeContainer a2aHosts;
    for (uint32_t i = 0; i < n; ++i)
    {
        const bool first = c.placement == "split" ? i < n / 2 : i % 2 == 0;
        (first ? arHosts : a2aHosts).Add(hosts.Get(i));
    }

    Finish finish;
    Ptr<RdmaCollective> ar;
    Ptr<RdmaCollective> a2a;
    if (allReduce)
    {
        RdmaCollectiveHelper helper;
        helper.SetAlgorithm(c.allReduceAlgorithm);
        helper.SetAttribute("Operation", StringValue("AllReduce"));
        helper.SetAttribute("Bytes", UintegerValue(c.allReduceBytes));
        helper.SetAttribute("ChunkBytes", UintegerValue(c.chunkBytes));
        helper.SetAttribute("Iterations", UintegerValue(c.iterations));
        ar = helper.Install(arHosts, rdma);
        finish.jobs.push_back(ar);
    }
    if (allToAll)
    {
        RdmaCollectiveHelper helper;
        helper.SetAlgorithm("ns3::RdmaDirectCollectiveAlgorithm");
        helper.SetAttribute("Operation", StringValue("AllToAll"));
        helper.SetAttribute("Bytes", UintegerValue(c.allToAllBytes));
        helper.SetAttribute("Iterations", UintegerValue(c.iterations));
        a2a = helper.Install(a2aHosts, rdma);
        finish.jobs.push_back(a2a);
    }
    for (const auto& job : finish.jobs)
    {
        job->TraceConnectWithoutContext("IterationComplete",
                                        MakeBoundCallback(&Finish::IterationDone, &finish));
        job->Start(c.jobStart);
    }

    ApplicationContainer apps;
    std::optional<RdmaFlowMonitor> monitor;
    if (background)
    {
        RdmaFlowGeneratorHelper gen(*c.sizes);
        gen.SetAttribute("Load", DoubleValue(c.load));
        apps = gen.Install(hosts);
        RdmaFlowGeneratorHelper::AssignStreams(apps, 1000);
        apps.Start(Seconds(0));
        monitor.emplace();
        monitor->Watch(apps);
    }

    Simulator::Stop(c.stopTime);
    Simulator::Run();

    Outcome o;
    if (ar)
    {
        o.complete &= ar->IsComplete();
        o.allReduce = ar->GetMeanIterationTime();
        o.allReduceBusBw = ar->GetBusBandwidth();
    }
    if (a2a)
    {
        o.complete &= a2a->IsComplete();
        o.allToAll = a2a->GetMeanIterationTime();
        o.allToAllBusBw = a2a->GetBusBandwidth();
    }
    if (monitor)
    {
        o.backgroundFlows = monitor->GetFlows();
        uint64_t flows = 0;
        for (const auto& b : monitor->GetSummary())
        {
            // The flow-weighted p50 and the largest p99 of the buckets.
            o.backgroundP50 += b.p50 * b.flows;
            o.backgroundP99 = std::max(o.backgroundP99, b.p99);
            flows += b.flows;
        }
        o.backgroundP50 = flows ? o.backgroundP50 / flows : 0;
    }
    for (uint32_t i = 0; i < ft.GetSwitches().GetN(); ++i)
    {
        o.drops += ft.GetSwitches().Get(i)->GetObject<RdmaSwitch>()->GetTotalDrops();
    }
    Simulator::Destroy();
    return o;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    RdmaHelper::UseFastestSimulator();

    Options c;
    std::string cdf = "data/flow-size/web-search.txt";
    uint32_t seed = 0;
    uint32_t run = 0;
    std::string output = "results/collective-interference.csv";

    CommandLine cmd(__FILE__);
    cmd.Usage("An all-reduce job and an all-to-all job on a fat-tree, alone and together with "
              "background traffic: each job's iteration time and its slowdown from sharing.");
    cmd.AddValue("k", "fat-tree arity (even; k^3/4 hosts, half for each job)", c.k);
    cmd.AddValue("rate", "rate of every link", c.rate);
    cmd.AddValue("delay", "propagation delay of every link", c.delay);
    cmd.AddValue("mtu", "RoCE path MTU (payload bytes per packet)", c.mtu);
    cmd.AddValue("cc", "congestion control TypeId", c.cc);
    cmd.AddValue("lb", "switch load balancer TypeId", c.lb);
    cmd.AddValue("placement",
                 "interleaved (jobs share edge switches) or split (own pods)",
                 c.placement);
    cmd.AddValue("allReduceAlgorithm", "all-reduce algorithm TypeId", c.allReduceAlgorithm);
    cmd.AddValue("allReduceBytes", "all-reduce buffer, bytes", c.allReduceBytes);
    cmd.AddValue("allToAllBytes", "all-to-all send buffer per rank, bytes", c.allToAllBytes);
    cmd.AddValue("chunkBytes", "all-reduce pipelining chunk, bytes (0: none)", c.chunkBytes);
    cmd.AddValue("iterations", "iterations of each job", c.iterations);
    cmd.AddValue("load", "background load of every host link, payload bytes (0: none)", c.load);
    cmd.AddValue("cdf", "background flow-size CDF file (data/flow-size/*.txt format)", cdf);
    cmd.AddValue("jobStart", "when the jobs start (the background starts at 0)", c.jobStart);
    cmd.AddValue("stopTime", "simulated-time limit of each run", c.stopTime);
    cmd.AddValue("seed", "random seed (0: ns-3's --RngSeed)", seed);
    cmd.AddValue("run", "random run number (0: ns-3's --RngRun)", run);
    cmd.AddValue("output", "CSV, one line per job", output);
    cmd.Parse(argc, argv);

    RdmaOptionChecker::Range<uint32_t>("k", c.k, 2, 64);
    RdmaOptionChecker::Require(c.k % 2 == 0, "k", c.k, "an even number >= 2");
    RdmaOptionChecker::Rate("rate", c.rate);
    RdmaOptionChecker::NonNegative("delay", c.delay);
    RdmaOptionChecker::Attribute("mtu", std::to_string(c.mtu), "ns3::RdmaNic", "Mtu");
    RdmaOptionChecker::Require(c.placement == "interleaved" || c.placement == "split",
                               "placement",
                               c.placement,
                               "interleaved or split");
    RdmaOptionChecker::Attribute("allReduceAlgorithm",
                                 c.allReduceAlgorithm,
                                 "ns3::RdmaCollective",
                                 "Algorithm");
    RdmaOptionChecker::Require(c.iterations >= 1, "iterations", c.iterations, "at least 1");
    RdmaOptionChecker::Require(c.load >= 0 && c.load <= 1,
                               "load",
                               c.load,
                               "a fraction in [0, 1] (0: no background)");
    RdmaOptionChecker::Positive("jobStart", c.jobStart);
    RdmaOptionChecker::Positive("stopTime", c.stopTime);
    RdmaOptionChecker::OutputFile("output", output);
    RdmaOptionChecker::Seed(seed, run);
    const uint32_t half = c.k * c.k * c.k / 8;
    RdmaOptionChecker::Require(c.allReduceBytes >= half,
                               "allReduceBytes",
                               c.allReduceBytes,
                               "at least the job's ranks, " + std::to_string(half));
    RdmaOptionChecker::Require(c.allToAllBytes >= half,
                               "allToAllBytes",
                               c.allToAllBytes,
                               "at least the job's ranks, " + std::to_string(half));
    if (c.load > 0)
    {
        std::ifstream cdfFile(cdf);
        if (!cdfFile)
        {
            RdmaOptionChecker::Fail("cdf",
                                    cdf,
                                    "a readable flow-size CDF file (data/flow-size/*.txt)");
        }
        try
        {
            c.sizes = RdmaFlowSizeReader::ParseOrThrow(cdfFile, cdf);
        }
        catch (const RdmaFlowSizeReader::Error& e)
        {
            RdmaOptionChecker::Fail("cdf", cdf, e.what());
        }
    }

    const Outcome arAlone = Run(c, true, false, false);
    const Outcome a2aAlone = Run(c, false, true, false);
    const Outcome shared = Run(c, true, true, c.load > 0);

    const uint32_t hosts = c.k * c.k * c.k / 4;
    std::cout << "collective-interference: k = " << c.k << " (" << hosts << " hosts, " << hosts / 2
              << " per job, " << c.placement << "), " << c.rate << ", delay "
              << c.delay.As(Time::US) << ", MTU " << c.mtu << ", " << c.cc << ", " << c.lb << "\n"
              << "background: "
              << (c.load > 0 ? std::to_string(c.load) + " load of " + cdf : std::string("none"))
              << "; " << c.iterations << " iteration(s) per job from " << c.jobStart.As(Time::US)
              << "\n";
    auto us = [](Time t) { return t.GetSeconds() * 1e6; };
    std::cout << std::fixed << std::setprecision(2);
    std::cout << "job                    bytes  alone_us  shared_us  slowdown  busbw_alone_Gbps  "
                 "busbw_shared_Gbps\n";
    std::ofstream csv(output);
    csv << "job,bytes,ranks,alone_us,shared_us,slowdown,busbw_alone_gbps,busbw_shared_gbps\n";
    auto line = [&](const std::string& name,
                    uint64_t bytes,
                    Time alone,
                    Time together,
                    double bwAlone,
                    double bwShared) {
        const double slowdown = us(together) / us(alone);
        std::cout << std::left << std::setw(20) << name << std::right << std::setw(9) << bytes
                  << std::setw(10) << us(alone) << std::setw(11) << us(together) << std::setw(10)
                  << slowdown << std::setw(18) << bwAlone * 8e-9 << std::setw(19) << bwShared * 8e-9
                  << "\n";
        csv << name << "," << bytes << "," << hosts / 2 << "," << us(alone) << "," << us(together)
            << "," << slowdown << "," << bwAlone * 8e-9 << "," << bwShared * 8e-9 << "\n";
    };
    line("all-reduce",
         c.allReduceBytes,
         arAlone.allReduce,
         shared.allReduce,
         arAlone.allReduceBusBw,
         shared.allReduceBusBw);
    line("all-to-all",
         c.allToAllBytes,
         a2aAlone.allToAll,
         shared.allToAll,
         a2aAlone.allToAllBusBw,
         shared.allToAllBusBw);
    if (c.load > 0)
    {
        std::cout << "background: " << shared.backgroundFlows
                  << " flows completed while the jobs ran; FCT slowdown p50 "
                  << shared.backgroundP50 << ", worst bucket p99 " << shared.backgroundP99 << "\n";
    }
    std::cout << "switch drops: " << arAlone.drops + a2aAlone.drops + shared.drops << "\n";
    if (!arAlone.complete || !a2aAlone.complete || !shared.complete)
    {
        std::cout << "WARNING: a job did not complete by --stopTime; raise it\n";
    }
    std::cout << "output: " << output << "\n";
    return arAlone.complete && a2aAlone.complete && shared.complete ? 0 : 1;
}
