/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup rdma
 * A datacenter workload on a k-ary fat-tree: every host runs an RdmaFlowGenerator (Poisson
 * flow arrivals at --load of its link, payload bytes; sizes from --cdf, WebSearch by
 * default; destinations uniform over the other hosts), and RdmaFlowMonitor reports the FCT
 * slowdown (FCT / FCT of the flow alone in the fabric) by flow-size bucket: the figure
 * congestion controls are compared by (HPCC, SIGCOMM 2019, Fig. 11 and its successors).
 *
 * --topology=hpcc320 runs on the HPCC paper's fat-tree instead (FatTreeHelper::SetHpcc320:
 * 320 hosts under 20 ToRs, 5 pods, 16 cores; 100 Gb/s host links, 400 Gb/s fabric links,
 * 1 us each, as the HPCC simulator's simulation/mix/fat.txt); --k, --rate and --delay are
 * then those of the preset.
 *
 * The generators stop at --duration; the run continues until every flow has completed
 * (or --stopTime), so every started flow is measured and bytes are conserved.
 *
 * Output: a summary on stdout; one CSV line per flow in --output; the slowdown percentiles
 * by size bucket in --summary; with --portSeries, every switch port's utilisation, queue
 * and PFC-paused time each --portPeriod until --duration (RdmaPortMonitor).
 * examples/plot-fat-tree-workload.py draws --summary as a PNG.
 */

#include "ns3/command-line.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-module.h"

#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("FatTreeWorkloadExample");

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    RdmaHelper::UseFastestSimulator();

    std::string topology = "kary";
    uint32_t k = 4;
    double load = 0.5;
    std::string cdf = "data/flow-size/web-search.txt";
    std::string rate = "100Gbps";
    Time delay = MicroSeconds(1);
    uint32_t mtu = 1024;
    std::string congestionControl = "ns3::DcqcnCongestionControl";
    bool ecn = true;
    std::string loadBalancer = "ns3::RdmaEcmpLoadBalancer";
    std::string pattern = "Uniform";
    Time duration = MilliSeconds(5);
    Time stopTime = Seconds(1);
    uint32_t seed = 0;
    uint32_t run = 0;
    std::string output = "results/fat-tree-workload-flows.csv";
    std::string summary = "results/fat-tree-workload.csv";
    std::string portSeries;
    Time portPeriod = MicroSeconds(10);

    CommandLine cmd(__FILE__);
    cmd.Usage("Open-loop flows from an empirical size CDF on a k-ary fat-tree; FCT slowdown "
              "by flow size.");
    cmd.AddValue("topology",
                 "kary (a k-ary fat-tree of --k, --rate, --delay) or hpcc320 (the HPCC paper's "
                 "320-host fat-tree, FatTreeHelper::SetHpcc320)",
                 topology);
    cmd.AddValue("k", "fat-tree arity (even; k^3/4 hosts)", k);
    cmd.AddValue("load", "offered load of every host link, payload bytes, in (0, 1]", load);
    cmd.AddValue("cdf", "flow-size CDF file (data/flow-size/*.txt format)", cdf);
    cmd.AddValue("rate", "rate of every link", rate);
    cmd.AddValue("delay", "propagation delay of every link", delay);
    cmd.AddValue("mtu", "RoCE path MTU (payload bytes per packet)", mtu);
    cmd.AddValue("cc", "congestion control TypeId", congestionControl);
    cmd.AddValue("ecn", "ECN marking at the switches", ecn);
    cmd.AddValue("lb", "switch load balancer TypeId", loadBalancer);
    cmd.AddValue("pattern",
                 "destinations: Uniform, Permutation, Incast, RackLocal, HotSpot "
                 "(ns3::RdmaFlowGenerator::Pattern)",
                 pattern);
    cmd.AddValue("duration", "flows start during this time", duration);
    cmd.AddValue("stopTime",
                 "simulation stop time (flows still running are not measured)",
                 stopTime);
    cmd.AddValue("seed", "random seed (0: ns-3's --RngSeed)", seed);
    cmd.AddValue("run", "random run number (0: ns-3's --RngRun)", run);
    cmd.AddValue("output", "CSV of per-flow records", output);
    cmd.AddValue("summary", "CSV of slowdown percentiles by size bucket", summary);
    cmd.AddValue("portSeries",
                 "CSV of the switch ports' utilisation, queue and paused time every "
                 "--portPeriod while flows arrive (RdmaPortMonitor; empty: none)",
                 portSeries);
    cmd.AddValue("portPeriod", "sampling period of --portSeries", portPeriod);
    cmd.Parse(argc, argv);

    RdmaOptionChecker::Require(topology == "kary" || topology == "hpcc320",
                               "topology",
                               topology,
                               "kary, hpcc320");
    RdmaOptionChecker::Range<uint32_t>("k", k, 2, 64);
    RdmaOptionChecker::Require(k % 2 == 0, "k", k, "an even number >= 2");
    RdmaOptionChecker::Require(load > 0 && load <= 1, "load", load, "a fraction in (0, 1]");
    RdmaOptionChecker::Rate("rate", rate);
    RdmaOptionChecker::NonNegative("delay", delay);
    RdmaOptionChecker::Attribute("mtu", std::to_string(mtu), "ns3::RdmaNic", "Mtu");
    RdmaOptionChecker::Attribute("pattern", pattern, "ns3::RdmaFlowGenerator", "Pattern");
    RdmaOptionChecker::Positive("duration", duration);
    RdmaOptionChecker::Positive("stopTime", stopTime);
    RdmaOptionChecker::OutputFile("output", output);
    RdmaOptionChecker::OutputFile("summary", summary);
    if (!portSeries.empty())
    {
        RdmaOptionChecker::OutputFile("portSeries", portSeries);
        RdmaOptionChecker::Positive("portPeriod", portPeriod);
    }
    RdmaOptionChecker::Seed(seed, run);
    std::ifstream cdfFile(cdf);
    if (!cdfFile)
    {
        RdmaOptionChecker::Fail("cdf", cdf, "a readable flow-size CDF file (data/flow-size/*.txt)");
    }
    std::optional<RdmaFlowSizeDistribution> parsed;
    try
    {
        parsed = RdmaFlowSizeReader::ParseOrThrow(cdfFile, cdf);
    }
    catch (const RdmaFlowSizeReader::Error& e)
    {
        RdmaOptionChecker::Fail("cdf", cdf, e.what());
    }
    const RdmaFlowSizeDistribution& sizes = *parsed;

    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(mtu));
    rdma.SetCongestionControl(congestionControl);
    rdma.SetLoadBalancer(loadBalancer);
    rdma.SetSwitchAttribute("EcnEnabled", BooleanValue(ecn));
    FatTreeHelper ft;
    if (topology == "hpcc320")
    {
        ft.SetHpcc320();
        k = ft.GetK();
        rate = "100Gbps"; // the host links (Load's reference)
        delay = MicroSeconds(1);
    }
    else
    {
        ft.SetThreeTier(k);
        for (auto tier : {FatTreeHelper::HOST_EDGE,
                          FatTreeHelper::EDGE_AGGREGATION,
                          FatTreeHelper::AGGREGATION_CORE})
        {
            ft.SetLinkRate(tier, DataRate(rate));
            ft.SetLinkDelay(tier, delay);
        }
    }
    ft.Install(rdma);
    rdma.AssignStreams(ft.GetSwitches(), 0);

    RdmaFlowGeneratorHelper gen(sizes);
    gen.SetAttribute("Load", DoubleValue(load));
    gen.SetAttribute("Pattern", StringValue(pattern));
    ApplicationContainer apps = gen.Install(ft.GetHosts());
    RdmaFlowGeneratorHelper::AssignStreams(apps, 1000);
    apps.Start(Seconds(0));
    apps.Stop(duration);

    RdmaFlowMonitor monitor(output); // one line per flow, streamed
    monitor.Watch(apps);
    RdmaConservationMonitor conservation;
    conservation.Install(ft.GetNodes());
    std::unique_ptr<RdmaPortMonitor> ports; // samples until the arrivals stop
    if (!portSeries.empty())
    {
        ports = std::make_unique<RdmaPortMonitor>(portSeries, portPeriod, duration);
        ports->Install(ft.GetSwitches());
    }

    Simulator::Stop(stopTime);
    Simulator::Run();

    uint64_t started = 0;
    uint64_t offered = 0;
    uint32_t qps = 0;
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        Ptr<RdmaFlowGenerator> g = DynamicCast<RdmaFlowGenerator>(apps.Get(i));
        started += g->GetFlowsStarted();
        offered += g->GetBytesOffered();
        qps += g->GetQueuePairsCreated();
    }
    std::cout << "fat-tree-workload: "
              << (topology == "hpcc320" ? "HPCC's fat-tree, 400 Gb/s fabric links, " : "")
              << "k = " << k << ", " << ft.GetNPods() << " pods (" << ft.GetNHosts() << " hosts), "
              << rate << ", delay " << delay.As(Time::US) << ", MTU " << mtu << ", "
              << congestionControl << (ecn ? " with ECN" : "") << ", " << loadBalancer << ", "
              << cdf << "\n";
    RdmaFlowGeneratorHelper::PrintSummary(apps, std::cout);
    const double offeredLoad =
        offered * 8.0 / (duration.GetSeconds() * ft.GetNHosts() * DataRate(rate).GetBitRate());
    // The offered bytes are a compound Poisson sum: relative standard deviation
    // sqrt((1 + cv^2) / n) for n flows of size coefficient of variation cv.
    const double cv = std::sqrt(sizes.GetVariance()) / sizes.GetMean();
    const double sigma = started ? std::sqrt((1 + cv * cv) / started) : 1;
    std::cout << "started " << started << " flows (" << offered << " B) in "
              << duration.As(Time::MS) << ": offered load " << std::setprecision(4) << offeredLoad
              << " (asked " << load << "; one standard deviation at " << started << " flows of cv "
              << cv << ": " << sigma * 100 << " %)\n"
              << "completed " << monitor.GetFlows() << " flows, the last at "
              << monitor.GetLastCompletion().As(Time::MS) << "; " << qps
              << " queue pairs connected (the most flows in progress at once, summed over "
                 "destinations)\n";
    monitor.PrintSummary(std::cout);
    monitor.WriteSummary(summary);
    monitor.Flush();
    conservation.Print(std::cout, offered, monitor.GetBytesReceived());
    std::cout << "output: " << output << ", " << summary
              << (ports ? ", " + portSeries + " (" + std::to_string(ports->GetSamples()) +
                              " port samples)"
                        : std::string())
              << "\n";
    Simulator::Destroy();
    return 0;
}
