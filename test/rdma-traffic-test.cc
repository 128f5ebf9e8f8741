/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Traffic and measurement: flow-size CDFs (RdmaFlowSizeDistribution, RdmaFlowSizeReader),
// the open-loop generator (RdmaFlowGenerator) and the flow monitor (RdmaFlowMonitor),
// against first principles: the CDF's mean, the arrival rate the load implies, the
// completion time of a flow alone, conservation of bytes.

#include "rdma-test-utils.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>

namespace ns3
{
namespace rdmatest
{
namespace
{

/// A shipped CDF file.
std::string
DataFile(const std::string& name)
{
    return std::string(RDMA_SOURCE_DIR) + "/data/flow-size/" + name;
}

/// Parse a CDF text; the error message if it is refused, else "".
std::string
ParseError(const std::string& text)
{
    std::istringstream in(text);
    try
    {
        RdmaFlowSizeReader::ParseOrThrow(in, "cdf.txt");
    }
    catch (const RdmaFlowSizeReader::Error& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST(RdmaTraffic, ShippedCdfsNameTheirSourceAndHaveThePublishedMeans)
{
    // Each file's first line names its source; the means are those of the HPCC simulator's
    // generator (custom_rand.py getAvg: sum of segment midpoints x probability), e.g.
    // WebSearch: 5000 x 0.15 + 15000 x 0.05 + 25000 x 0.1 + 40000 x 0.1 + 65000 x 0.13
    // + 140000 x 0.07 + 600000 x 0.1 + 1.5e6 x 0.1 + 3.5e6 x 0.1 + 7.5e6 x 0.07
    // + 2e7 x 0.03 = 1,711,250 B.
    const std::map<std::string, std::pair<std::size_t, double>> expected{
        {"web-search.txt", {12, 1711250.0}},
        {"fb-hadoop.txt", {20, 120420.75}},
        {"ali-storage.txt", {9, 40869.8}},
        {"google-rpc.txt", {843, 2891.62125}},
    };
    for (const auto& [name, figures] : expected)
    {
        std::ifstream in(DataFile(name));
        std::string header;
        std::getline(in, header);
        EXPECT_EQ(header.rfind("# ", 0), 0u) << name;
        EXPECT_NE(header.find("SIGCOMM"), std::string::npos) << name << ": " << header;
        const RdmaFlowSizeDistribution d = RdmaFlowSizeReader::Read(DataFile(name));
        EXPECT_EQ(d.GetPoints().size(), figures.first) << name;
        EXPECT_NEAR(d.GetMean(), figures.second, 1e-6 * figures.second) << name;
    }
}

TEST(RdmaTraffic, SizesAreInterpolatedBetweenPoints)
{
    // (0, 0), (10000, 0.15), (20000, 0.2): u = 0.15 is 10000 B, u = 0.175 half way to
    // 20000; a point mass at the first point (CDF 0.5 at 6 B) takes every u <= 0.5.
    RdmaFlowSizeDistribution d({{0, 0}, {10000, 0.15}, {20000, 0.2}, {30000, 1}});
    EXPECT_DOUBLE_EQ(d.Quantile(0.15), 10000);
    EXPECT_DOUBLE_EQ(d.Quantile(0.175), 15000);
    EXPECT_DOUBLE_EQ(d.Quantile(0.6), 25000);
    EXPECT_DOUBLE_EQ(d.Quantile(1), 30000);
    EXPECT_EQ(d.Sample(0), 1u); // 0 bytes is no flow
    RdmaFlowSizeDistribution mass({{6, 0.5}, {10, 1}});
    EXPECT_DOUBLE_EQ(mass.Quantile(0.3), 6);
    EXPECT_DOUBLE_EQ(mass.Quantile(0.75), 8);
    EXPECT_DOUBLE_EQ(mass.GetMean(), 0.5 * 6 + 0.5 * 8);
    // Uniform on [6, 10] with probability 0.5: E[X^2] = 0.5 x 36 + 0.5 x (36 + 60 + 100) / 3.
    EXPECT_NEAR(mass.GetVariance(), 0.5 * 36 + 0.5 * 196 / 3.0 - 49, 1e-12);
}

TEST(RdmaTraffic, SampleMeanMatchesTheCdfMean)
{
    // For every shipped CDF the sample mean of n sizes is within 3 % of the CDF's mean,
    // with n from the CLT: the sample mean has relative standard deviation cv / sqrt(n),
    // so n >= (z cv / 0.03)^2 flows put 3 % at z = 3 standard deviations (WebSearch: cv 2.32,
    // n = 53,723; Google RPC's heavy tail, cv 22.6, needs 5.1 million). Rounding to whole
    // bytes moves the mean by less than 0.5 B.
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(11);
    for (const char* name :
         {"web-search.txt", "fb-hadoop.txt", "ali-storage.txt", "google-rpc.txt"})
    {
        const RdmaFlowSizeDistribution d = RdmaFlowSizeReader::Read(DataFile(name));
        const double cv = std::sqrt(d.GetVariance()) / d.GetMean();
        const auto n = static_cast<uint64_t>(std::ceil(std::pow(3 * cv / 0.03, 2)));
        long double sum = 0;
        for (uint64_t i = 0; i < n; ++i)
        {
            sum += d.Sample(u->GetValue());
        }
        const double mean = static_cast<double>(sum / n);
        EXPECT_NEAR(mean / d.GetMean(), 1.0, 0.03) << name << ": " << n << " samples, cv " << cv;
        std::cout << name << ": cv " << cv << ", " << n << " samples, mean " << mean
                  << " B against " << d.GetMean() << " B (" << (mean / d.GetMean() - 1) * 100
                  << " %)\n";
    }
}

TEST(RdmaTraffic, MalformedCdfFilesNameFileLineAndValue)
{
    EXPECT_EQ(ParseError("# source\n0 0\n100 1\n"), "");
    EXPECT_EQ(ParseError("0 0\n100 0.5 7\n"),
              "cdf.txt:2: '100 0.5 7' has 3 fields; valid: exactly 2 (size in bytes, CDF in "
              "[0, 1])");
    EXPECT_EQ(ParseError("0 0\nabc 0.5\n"), "cdf.txt:2: size 'abc' is not a number");
    EXPECT_EQ(ParseError("0 0\n10 x\n"), "cdf.txt:2: CDF 'x' is not a number");
    EXPECT_EQ(ParseError("# c\n0 0\n200 0.5\n100 1\n"),
              "cdf.txt:4: size 100 is below the previous point's 200; valid: sizes in "
              "non-decreasing order");
    EXPECT_EQ(ParseError("0 0\n100 0.6\n200 0.5\n300 1\n"),
              "cdf.txt:3: CDF 0.5 is below the previous point's 0.6; valid: a non-decreasing CDF");
    EXPECT_EQ(ParseError("0 0\n100 0.9\n"),
              "cdf.txt:2: the last CDF value is 0.9; valid: exactly 1");
    EXPECT_EQ(ParseError("0 0\n100 -0.1\n"), "cdf.txt:2: CDF -0.1 is not in [0, 1]");
    EXPECT_EQ(ParseError("0 0\n100 100\n"),
              "cdf.txt:2: CDF 100 is not in [0, 1] (a CDF in percent, as in the HPCC simulator's "
              "traffic_gen files? divide it by 100)");
    EXPECT_EQ(ParseError("0 0\n-5 1\n"),
              "cdf.txt:2: size -5 is invalid; valid: a finite size >= 0 bytes");
    EXPECT_EQ(ParseError("# only a comment\n"),
              "cdf.txt:1: 0 points; valid: at least 2 (size, CDF) points");
    EXPECT_DEATH(RdmaFlowSizeReader::Read(DataFile("no-such-file.txt")),
                 "no-such-file.txt' cannot be opened");
}

namespace
{

/// The slowdown of one WRITE alone from host `src` to host `dst` of a fat-tree.
struct Alone
{
    double slowdown{0};
    Time fct;
    Time ideal;
};

Alone
OneFlowAlone(FatTreeHelper& ft, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t mtu)
{
    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(mtu));
    ft.Install(rdma);
    auto [qp, peer] = rdma.Connect(ft.GetHost(src), ft.GetHost(dst));
    RdmaFlowMonitor monitor;
    monitor.Watch(qp, peer);
    CompletionLog log;
    log.Attach(qp, peer);
    PostWriteAt(qp, ft.GetHost(src), Seconds(0), bytes);
    Simulator::Run();
    Alone a;
    if (log.sends.size() == 1)
    {
        a.fct = log.sends[0].completionTime - log.sends[0].postTime;
        a.ideal = RdmaFlowMonitor::GetIdealFct(
            monitor.GetPath(qp->GetLocalAddress(), qp->GetRemoteAddress()),
            bytes,
            mtu);
        a.slowdown = monitor.GetMinSlowdown();
        EXPECT_EQ(monitor.GetFlows(), 1u);
        EXPECT_EQ(monitor.GetBytesReceived(), bytes);
    }
    Simulator::Destroy();
    return a;
}

} // namespace

TEST(RdmaTraffic, AFlowAloneHasSlowdownOne)
{
    // The ideal FCT is the model's own FCT of a flow alone, to 0.1 %: across pods of a k = 4
    // fat-tree (6 links), sizes from one byte (one packet, padded to 4: BTH PadCnt) through
    // two packets and an odd tail to many; on
    // equal links, and with a 25 Gb/s core (the bottleneck in the middle of the path) and a
    // 40 Gb/s host link (at the start). The 100 kB, MTU 1000 case is the figure of
    // RdmaTopology.WriteAcrossPodsCompletes: 100 packets of 1082 wire bytes (+16 RETH),
    // 5 more first-packet times (1098 B) of store-and-forward, 6 ACK times (86 B) and
    // 12 us of propagation: 21137.76 ns.
    struct Case
    {
        uint64_t bytes;
        uint32_t mtu;
        std::string core;
        std::string host;
    };

    const std::vector<Case> cases{{100000, 1000, "100Gbps", "100Gbps"},
                                  {1, 1000, "100Gbps", "100Gbps"},
                                  {4099, 1024, "100Gbps", "100Gbps"},
                                  {1500, 1000, "100Gbps", "100Gbps"},
                                  {1000000, 1024, "100Gbps", "100Gbps"},
                                  {300000, 1024, "25Gbps", "100Gbps"},
                                  {2500, 1024, "25Gbps", "100Gbps"},
                                  {300000, 4096, "100Gbps", "40Gbps"}};
    for (const Case& c : cases)
    {
        FatTreeHelper ft;
        ft.SetThreeTier(4);
        ft.SetLinkRate(FatTreeHelper::AGGREGATION_CORE, DataRate(c.core));
        ft.SetLinkRate(FatTreeHelper::HOST_EDGE, DataRate(c.host));
        const Alone a = OneFlowAlone(ft, 0, 15, c.bytes, c.mtu);
        EXPECT_EQ(a.fct, a.ideal) << c.bytes << " B, MTU " << c.mtu; // to the picosecond
        EXPECT_NEAR(a.slowdown, 1.0, 0.001)
            << c.bytes << " B, MTU " << c.mtu << ", core " << c.core << ", host " << c.host
            << ": FCT " << a.fct.As(Time::NS) << ", ideal " << a.ideal.As(Time::NS);
        std::cout << c.bytes << " B, MTU " << c.mtu << ", core " << c.core << ", host " << c.host
                  << ": FCT " << a.fct.GetPicoSeconds() << " ps, ideal " << a.ideal.GetPicoSeconds()
                  << " ps\n";
        if (c.bytes == 100000)
        {
            EXPECT_EQ(a.ideal, PicoSeconds(21137760));
        }
    }
}

namespace
{

/// A loaded run of the generator on a star, with the monitor and conservation counters.
struct LoadedRun
{
    uint64_t flowsStarted{0};
    uint64_t bytesOffered{0};
    uint64_t bytesReceived{0};
    uint64_t bytesCompleted{0};
    uint64_t flowsMonitored{0};
    uint64_t queuePairs{0};
    double minSlowdown{0};
    double meanSize{0};
    double lambda{0};
    int64_t imbalance{-1};
    uint64_t dropped{0};
    std::vector<RdmaFlowMonitor::Bucket> summary;
};

LoadedRun
RunLoaded(const RdmaFlowSizeDistribution& d,
          uint32_t hosts,
          double load,
          Time duration,
          const std::string& csv)
{
    Star star(hosts, "100Gbps", MicroSeconds(1));
    star.Install();
    RdmaConservationMonitor conservation;
    conservation.Install(NodeContainer(star.hosts, NodeContainer(star.switchNode)));
    RdmaFlowGeneratorHelper gen(d);
    gen.SetAttribute("Load", DoubleValue(load));
    ApplicationContainer apps = gen.Install(star.hosts);
    RdmaFlowGeneratorHelper::AssignStreams(apps, 100);
    apps.Start(Seconds(0));
    apps.Stop(duration);
    RdmaFlowMonitor monitor(csv);
    monitor.Watch(apps);
    Simulator::Run(); // drains: the generators stop at `duration`, the flows then finish
    LoadedRun r;
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        Ptr<RdmaFlowGenerator> g = DynamicCast<RdmaFlowGenerator>(apps.Get(i));
        r.flowsStarted += g->GetFlowsStarted();
        r.bytesOffered += g->GetBytesOffered();
        r.bytesCompleted += g->GetBytesCompleted();
        r.queuePairs += g->GetQueuePairsCreated();
        r.meanSize = g->GetMeanFlowSize();
        r.lambda = g->GetArrivalRate();
    }
    r.bytesReceived = monitor.GetBytesReceived();
    r.flowsMonitored = monitor.GetFlows();
    r.minSlowdown = monitor.GetMinSlowdown();
    r.summary = monitor.GetSummary();
    r.imbalance = conservation.GetImbalance();
    r.dropped = conservation.GetDropped();
    Simulator::Destroy();
    return r;
}

} // namespace

TEST(RdmaTraffic, GeneratorHitsTheLoadAndTheMeanAndConservesBytes)
{
    // Sizes uniform on [1000, 4000] B (mean 2500 B, cv = 3000 / sqrt(12) / 2500 = 0.346),
    // 8 hosts at 100 Gb/s, load 0.6 of payload bytes: lambda = 0.6 x 1e11 / (8 x 2500)
    // = 3 M flows/s per host. The offered bytes over T are a compound Poisson sum with
    // relative standard deviation sqrt((1 + cv^2) / n) for n expected flows, so the load is
    // within 2 % at z = 3 once n >= 9 x 1.12 / 0.02^2 = 25,200; the mean size within 3 % once
    // n >= (3 cv / 0.03)^2 = 1,200. T = n / (8 lambda).
    const RdmaFlowSizeDistribution d({{1000, 0}, {4000, 1}});
    const double cv = std::sqrt(d.GetVariance()) / d.GetMean();
    const double z = 3;
    const double n = std::max(z * z * (1 + cv * cv) / (0.02 * 0.02), std::pow(z * cv / 0.03, 2));
    const uint32_t hosts = 8;
    const double load = 0.6;
    const double lambda = load * 100e9 / (8 * d.GetMean());
    const Time duration = Seconds(std::ceil(n) / (hosts * lambda));
    const LoadedRun r = RunLoaded(d, hosts, load, duration, OutputDir() + "/flows.csv");

    EXPECT_DOUBLE_EQ(r.meanSize, 2500);
    EXPECT_NEAR(r.lambda, 3e6, 1e-6);
    const double offeredLoad = r.bytesOffered * 8.0 / (duration.GetSeconds() * hosts * 100e9);
    EXPECT_NEAR(offeredLoad / load, 1.0, 0.02) << r.flowsStarted << " flows";
    const double meanSize = static_cast<double>(r.bytesOffered) / r.flowsStarted;
    EXPECT_NEAR(meanSize / d.GetMean(), 1.0, 0.03);
    // Conservation, message level: everything offered was delivered (the run drains; PFC:
    // nothing dropped) and every flow completed and was recorded; packet level: sent =
    // delivered + dropped + in flight, no byte dropped.
    EXPECT_EQ(r.bytesReceived, r.bytesOffered);
    EXPECT_EQ(r.bytesCompleted, r.bytesOffered);
    EXPECT_EQ(r.flowsMonitored, r.flowsStarted);
    // State is given back when a flow completes: a queue pair serves flow after flow, so a
    // generator connects, per destination, only as many as were busy to it at once (by
    // Little's law lambda x mean FCT ~ 3e6/s x 5 us ~ 15 flows per host in progress, spread
    // over 7 destinations, each pool at its own peak), not one per flow (measured: 515 for
    // 25,146 flows).
    EXPECT_LT(r.queuePairs * 20, r.flowsStarted) << r.queuePairs << " queue pairs";
    EXPECT_EQ(r.imbalance, 0);
    EXPECT_EQ(r.dropped, 0u);
    // No flow beats the fabric alone (the ideal is exact to the picosecond; 1e-9 absorbs
    // the division).
    EXPECT_GE(r.minSlowdown, 1.0 - 1e-9);
    std::cout << r.flowsStarted << " flows in " << duration.As(Time::US) << ": load " << offeredLoad
              << " (asked " << load << "), mean " << meanSize << " B (CDF " << d.GetMean()
              << "), min slowdown " << r.minSlowdown << ", p99 " << r.summary[0].p99 << ", "
              << r.queuePairs << " queue pairs\n";
    // The CSV has one line per flow after its header, and its slowdowns give the same
    // percentiles as the monitor's histogram (bins 0.1 % wide): every flow is in the first
    // bucket (<= 10 kB); nearest rank over the sorted column.
    std::ifstream in(OutputDir() + "/flows.csv");
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "src,dst,size_bytes,start_us,finish_us,fct_us,ideal_fct_us,slowdown");
    std::vector<double> slowdowns;
    while (std::getline(in, line))
    {
        slowdowns.push_back(std::stod(line.substr(line.rfind(',') + 1)));
    }
    ASSERT_EQ(slowdowns.size(), r.flowsStarted);
    std::sort(slowdowns.begin(), slowdowns.end());
    ASSERT_EQ(r.summary[0].flows, r.flowsStarted);
    const std::vector<std::pair<double, double>> percentiles{{0.50, r.summary[0].p50},
                                                             {0.95, r.summary[0].p95},
                                                             {0.99, r.summary[0].p99}};
    for (const auto& [q, fromHistogram] : percentiles)
    {
        const double exact =
            slowdowns[static_cast<std::size_t>(std::ceil(q * slowdowns.size())) - 1];
        EXPECT_NEAR(fromHistogram / exact, 1.0, 0.001) << "percentile " << q;
    }
    // The CSV carries 12 significant digits.
    EXPECT_NEAR(r.summary[0].max, slowdowns.back(), 1e-9 * slowdowns.back());
    EXPECT_NEAR(r.summary[0].min, slowdowns.front(), 1e-9 * slowdowns.front());
}

TEST(RdmaTrafficDeathTest, BadGeneratorInputIsRefusedBeforeTheRun)
{
    const RdmaFlowSizeDistribution d({{1000, 0}, {4000, 1}});
    auto install = [&d](uint32_t hosts, const std::string& name, const AttributeValue& value) {
        Star star(hosts, "100Gbps", MicroSeconds(1));
        star.Install();
        RdmaFlowGeneratorHelper gen(d);
        gen.SetAttribute(name, value);
        gen.Install(star.hosts);
    };
    // A pattern with one more attribute, on 4 hosts.
    auto installPattern =
        [&d](const std::string& pattern, const std::string& name, const AttributeValue& value) {
            Star star(4, "100Gbps", MicroSeconds(1));
            star.Install();
            RdmaFlowGeneratorHelper gen(d);
            gen.SetAttribute("Pattern", StringValue(pattern));
            gen.SetAttribute(name, value);
            gen.Install(star.hosts);
        };
    EXPECT_DEATH(install(4, "Load", DoubleValue(0)),
                 "Load 0 is invalid; valid: a fraction in \\(0, 1\\]");
    EXPECT_DEATH(install(4, "Load", DoubleValue(1.5)), "Load 1.5 is invalid");
    EXPECT_DEATH(install(4, "Load", DoubleValue(-0.2)), "Load -0.2 is invalid");
    EXPECT_DEATH(install(1, "Load", DoubleValue(0.5)),
                 "pattern Uniform needs at least 2 hosts; there are 1");
    EXPECT_DEATH(installPattern("Incast", "Target", UintegerValue(4)),
                 "pattern Incast: Target 4 is invalid; valid: a host index in \\[0, 3\\]");
    EXPECT_DEATH(installPattern("HotSpot", "Target", UintegerValue(9)),
                 "pattern HotSpot: Target 9 needs 10 hosts; there are 4");
    EXPECT_DEATH(installPattern("RackLocal", "RackSize", UintegerValue(4)),
                 "pattern RackLocal: RackSize 4 with 4 hosts leaves no host outside the rack");
    EXPECT_DEATH(install(4, "Fraction", DoubleValue(1.2)), "Fraction 1.2 is invalid");
}

TEST(RdmaTraffic, SampleSummaryFollowsItsTwoNamedRules)
{
    // Five values added out of order. Index rule (HPCC's get_pctl): sorted[min(4, floor(5 q))];
    // nearest rank: the ceil(5 q)-th smallest. They differ only where 5 q is an integer:
    // q = 0.4 -> index 2 (value 3) against rank 2 (value 2); q = 0.5 -> index 2 and rank 3,
    // both the value 3; q = 0.99 -> index 4 and rank 5, both 5; q = 1 -> the largest; q = 0 ->
    // the smallest. The mean is 3.
    RdmaSampleSummary s;
    s.Add(std::vector<double>{5, 1, 4});
    s.Add(2);
    s.Add(3);
    EXPECT_EQ(s.GetCount(), 5u);
    EXPECT_DOUBLE_EQ(s.GetMean(), 3.0);
    EXPECT_EQ(s.GetIndexPercentile(0.4), 3);
    EXPECT_EQ(s.GetNearestRankPercentile(0.4), 2);
    EXPECT_EQ(s.GetIndexPercentile(0.5), 3);
    EXPECT_EQ(s.GetNearestRankPercentile(0.5), 3);
    EXPECT_EQ(s.GetIndexPercentile(0.99), 5);
    EXPECT_EQ(s.GetNearestRankPercentile(0.99), 5);
    EXPECT_EQ(s.GetIndexPercentile(1), 5);
    EXPECT_EQ(s.GetNearestRankPercentile(1), 5);
    EXPECT_EQ(s.GetIndexPercentile(0), 1);
    EXPECT_EQ(s.GetNearestRankPercentile(0), 1);
    s.Add(0); // after a percentile: sorted again
    EXPECT_EQ(s.GetIndexPercentile(0), 0);
    EXPECT_DOUBLE_EQ(s.GetMean(), 2.5);
    const RdmaSampleSummary empty;
    EXPECT_EQ(empty.GetIndexPercentile(0.5), 0);
    EXPECT_EQ(empty.GetNearestRankPercentile(0.5), -1);
    EXPECT_EQ(empty.GetMean(), 0);
}

TEST(RdmaTrafficDeathTest, SampleSummaryRefusesAQuantileOutsideZeroToOne)
{
    RdmaSampleSummary s;
    s.Add(1);
    EXPECT_DEATH(s.GetIndexPercentile(1.5), "quantile 1.5 outside \\[0, 1\\]");
    EXPECT_DEATH(s.GetNearestRankPercentile(-0.1), "quantile -0.1 outside \\[0, 1\\]");
}

namespace
{

/// A periodic event that never ends by itself (as an example's queue sampler).
void
Tick(uint64_t* ticks)
{
    ++*ticks;
    Simulator::Schedule(MicroSeconds(1), &Tick, ticks);
}

} // namespace

TEST(RdmaTraffic, FlowCallbackGivesEachRecordAndStopAfterFlowsEndsTheRun)
{
    // Three senders WRITE 10, 20 and 30 kB to one receiver, posted at 0, 1 and 2 us. The
    // monitor's per-flow callback must see each flow once with the figures of its CSV line
    // (FCT = finish - start, slowdown = FCT / ideal, wrId as posted), and SetStopAfterFlows(2)
    // must end a run that a never-ending sampler would otherwise carry to its 1 s stop: the
    // run ends at the second completion, and the third flow is not recorded.
    Star star(4, "100Gbps", MicroSeconds(1));
    star.Install();
    const std::string dir = OutputDir() + "/flow-callback";
    RdmaFlowMonitor monitor(dir + "/flows.csv");
    std::vector<RdmaFlowMonitor::FlowRecord> records;
    std::vector<Ptr<RdmaQueuePair>> qps;
    monitor.ConnectFlowComplete(Callback<void, const RdmaFlowMonitor::FlowRecord&>(
        [&records](const RdmaFlowMonitor::FlowRecord& r) { records.push_back(r); }));
    monitor.SetStopAfterFlows(2);
    for (uint32_t i = 1; i <= 3; ++i)
    {
        auto [qp, peer] = star.rdma.Connect(star.hosts.Get(i), star.hosts.Get(0));
        monitor.Watch(qp, peer);
        PostWriteAt(qp, star.hosts.Get(i), MicroSeconds(i - 1), 10000 * i, 100 + i);
        qps.push_back(qp);
    }
    uint64_t ticks = 0;
    Simulator::Schedule(Seconds(0), &Tick, &ticks);
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    const Time end = Simulator::Now();
    Simulator::Destroy();
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(monitor.GetFlows(), 2u);
    EXPECT_EQ(end, records[1].finish) << "the run must stop at the second completion";
    EXPECT_LT(ticks, 100u);
    for (const auto& r : records)
    {
        const uint32_t i = r.wrId - 100; // the sender's index
        ASSERT_GE(i, 1u);
        ASSERT_LE(i, 3u);
        EXPECT_EQ(r.requester, qps[i - 1]);
        EXPECT_EQ(r.bytes, 10000u * i);
        EXPECT_EQ(r.start, MicroSeconds(i - 1));
        EXPECT_GT(r.finish, r.start);
        EXPECT_EQ(r.GetFct(), r.finish - r.start);
        EXPECT_DOUBLE_EQ(r.slowdown, r.GetFct().GetSeconds() / r.idealFct.GetSeconds());
        EXPECT_GE(r.slowdown, 1.0);
    }
    monitor.Flush();
    std::ifstream csv(dir + "/flows.csv");
    std::string line;
    uint32_t lines = 0;
    while (std::getline(csv, line))
    {
        ++lines;
    }
    EXPECT_EQ(lines, 3u); // header + the two flows the callback saw
}

TEST(RdmaTraffic, AnIdleQueuePairGivesBackTheStateOfItsLargestFlow)
{
    // A workload's memory must follow the flows in progress, not the largest flow each
    // pooled queue pair ever carried. Two senders WRITE 1 MB each at line rate (fixed rate)
    // into one port: the bottleneck queue holds about half a megabyte, so each sender has
    // hundreds of 1 KB packets in flight and its ring of send times grows from 64 slots.
    // Once its WRITE completes and nothing is in flight, the ring must be back to 64 slots
    // (8 B each: up to 32 KB per queue pair otherwise, kept for the rest of the run).
    Star star(3, "100Gbps", MicroSeconds(1));
    star.rdma.SetCongestionControl("ns3::RdmaFixedRateCongestionControl");
    star.Install();
    std::vector<Ptr<RdmaQueuePair>> qps;
    std::vector<std::size_t> peakSlots(2, 0);
    for (uint32_t i = 1; i <= 2; ++i)
    {
        auto [qp, peer] = star.rdma.Connect(star.hosts.Get(i), star.hosts.Get(0));
        qps.push_back(qp);
        PostWriteAt(qp, star.hosts.Get(i), Seconds(0), 1000000);
    }
    for (uint32_t t = 1; t < 100; ++t)
    {
        Simulator::Schedule(MicroSeconds(t), [&qps, &peakSlots]() {
            for (std::size_t i = 0; i < qps.size(); ++i)
            {
                peakSlots[i] = std::max(peakSlots[i], qps[i]->GetSendTimeSlots());
            }
        });
    }
    Simulator::Run();
    for (std::size_t i = 0; i < qps.size(); ++i)
    {
        EXPECT_GE(peakSlots[i], 256u) << "sender " << i << ": the ring did not grow";
        EXPECT_EQ(qps[i]->GetSendTimeSlots(), 64u) << "sender " << i << " idle";
    }
    Simulator::Destroy();
}

namespace
{

/// ns-3's map scheduler that also counts the events it holds (cancelled ones included: ns-3
/// cancels lazily, so a cancelled event keeps its memory until its time comes).
class CountingScheduler : public MapScheduler
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::rdmatest::CountingScheduler")
                                .SetParent<MapScheduler>()
                                .SetGroupName("Rdma")
                                .AddConstructor<CountingScheduler>();
        return tid;
    }

    void Insert(const Event& ev) override
    {
        MapScheduler::Insert(ev);
        s_peak = std::max(s_peak, ++s_held);
    }

    Event RemoveNext() override
    {
        --s_held;
        return MapScheduler::RemoveNext();
    }

    void Remove(const Event& ev) override
    {
        --s_held;
        MapScheduler::Remove(ev);
    }

    static uint64_t s_held; //!< events held now
    static uint64_t s_peak; //!< most events held at once
};

uint64_t CountingScheduler::s_held = 0;
uint64_t CountingScheduler::s_peak = 0;

} // namespace

TEST(RdmaTraffic, FlowsThatCompleteLeaveNoEventsBehind)
{
    // A long workload's memory must not grow with the flows run. One queue pair WRITEs 400
    // messages of 1 KB, one every 5 us (each completes in about 3 us, so the queue pair is
    // idle in between, as a pooled queue pair of a workload between its flows). Each message
    // arms the retransmission timer (4.096 us x 2^14 = 67 ms); when the timer was cancelled
    // at every completion and armed anew for the next message, the cancelled events stayed
    // in the scheduler until their 67 ms were up: 400 of them at once. The timer now stays
    // armed while idle and re-arms when it fires, so the scheduler holds a few events at any
    // time (the packets on the wire, one timer per queue pair), whatever the number of
    // messages.
    ObjectFactory scheduler;
    scheduler.SetTypeId(CountingScheduler::GetTypeId());
    Simulator::SetScheduler(scheduler);
    CountingScheduler::s_held = 0;
    CountingScheduler::s_peak = 0;
    Star star(2, "100Gbps", MicroSeconds(1));
    star.Install();
    auto [qp, peer] = star.rdma.Connect(star.hosts.Get(1), star.hosts.Get(0));
    RdmaFlowMonitor monitor;
    monitor.Watch(qp, peer);
    const uint64_t before = CountingScheduler::s_held; // the set-up's own events
    for (uint32_t i = 0; i < 400; ++i)
    {
        PostWriteAt(qp, star.hosts.Get(1), MicroSeconds(5 * i), 1000, i);
    }
    const uint64_t posts = CountingScheduler::s_held - before;
    Simulator::Stop(MilliSeconds(10)); // long before the first timer's 67 ms
    Simulator::Run();
    EXPECT_EQ(monitor.GetFlows(), 400u);
    EXPECT_EQ(posts, 400u);
    // At most the set-up's, the 400 posts, Stop, and a few of the first message's events.
    EXPECT_LT(CountingScheduler::s_peak, before + 400u + 30u) << "events held at once";
    EXPECT_LT(CountingScheduler::s_held, 30u) << "events held after the last completion";
    Simulator::Destroy();
}

TEST(RdmaTraffic, DestinationPatterns)
{
    // Each pattern's destinations, counted from the FlowStart trace over ~2000 flows per run
    // (small flows, load 0.1, 8 hosts): a permutation sends each host to one other host and
    // every host receives from exactly one; incast sends everything to the target; rack-local
    // with racks of 4 and Fraction 0.75 keeps 3/4 of the flows in the rack (binomial
    // standard deviation sqrt(0.75 x 0.25 / 2000) ~ 1 %: 4 % tolerance); hot-spot with
    // Fraction 0.5 sends half of the other hosts' flows to host 2 plus 1/7 of the rest.
    const RdmaFlowSizeDistribution d({{100, 0}, {200, 1}});

    struct Counts
    {
        std::map<std::pair<uint32_t, uint32_t>, uint64_t> pairs; //!< (src, dst) address
        uint64_t flows{0};
    };

    auto run =
        [&d](const std::string& pattern,
             const std::vector<std::pair<std::string, std::shared_ptr<AttributeValue>>>& attrs) {
            Star star(8, "100Gbps", MicroSeconds(1));
            star.Install();
            RdmaFlowGeneratorHelper gen(d);
            gen.SetAttribute("Load", DoubleValue(0.1));
            gen.SetAttribute("Pattern", StringValue(pattern));
            gen.SetAttribute("MaxFlows", UintegerValue(300));
            for (const auto& [name, value] : attrs)
            {
                gen.SetAttribute(name, *value);
            }
            ApplicationContainer apps = gen.Install(star.hosts);
            RdmaFlowGeneratorHelper::AssignStreams(apps, 7);
            Counts counts;
            for (uint32_t i = 0; i < apps.GetN(); ++i)
            {
                apps.Get(i)->TraceConnectWithoutContext(
                    "FlowStart",
                    MakeBoundCallback(
                        +[](Counts* c, Ptr<RdmaQueuePair> qp, uint64_t) {
                            ++c->pairs[{qp->GetLocalAddress().Get() & 0xff,
                                        qp->GetRemoteAddress().Get() & 0xff}];
                            ++c->flows;
                        },
                        &counts));
            }
            apps.Start(Seconds(0));
            Simulator::Run();
            Simulator::Destroy();
            return counts;
        };
    // Hosts are 10.0.0.1 .. 10.0.0.8: address byte = index + 1.
    {
        const Counts c = run("Permutation", {});
        std::set<uint32_t> sources;
        std::set<uint32_t> destinations;
        for (const auto& [pair, n] : c.pairs)
        {
            EXPECT_NE(pair.first, pair.second);
            sources.insert(pair.first);
            destinations.insert(pair.second);
        }
        EXPECT_EQ(c.pairs.size(), 8u);
        EXPECT_EQ(sources.size(), 8u);
        EXPECT_EQ(destinations.size(), 8u);
    }
    {
        const Counts c = run("Incast", {{"Target", std::make_shared<UintegerValue>(3)}});
        for (const auto& [pair, n] : c.pairs)
        {
            EXPECT_EQ(pair.second, 4u);
        }
        EXPECT_EQ(c.flows, 7u * 300);
    }
    {
        const Counts c = run("RackLocal",
                             {{"RackSize", std::make_shared<UintegerValue>(4)},
                              {"Fraction", std::make_shared<DoubleValue>(0.75)}});
        uint64_t local = 0;
        for (const auto& [pair, n] : c.pairs)
        {
            EXPECT_NE(pair.first, pair.second);
            local += (pair.first - 1) / 4 == (pair.second - 1) / 4 ? n : 0;
        }
        EXPECT_NEAR(static_cast<double>(local) / c.flows, 0.75, 0.04);
    }
    {
        const Counts c = run("HotSpot",
                             {{"Target", std::make_shared<UintegerValue>(2)},
                              {"Fraction", std::make_shared<DoubleValue>(0.5)}});
        uint64_t hot = 0;
        uint64_t fromOthers = 0;
        for (const auto& [pair, n] : c.pairs)
        {
            EXPECT_NE(pair.first, pair.second);
            if (pair.first != 3)
            {
                fromOthers += n;
                hot += pair.second == 3 ? n : 0;
            }
        }
        EXPECT_NEAR(static_cast<double>(hot) / fromOthers, 0.5 + 0.5 / 7, 0.04);
    }
}

} // namespace rdmatest
} // namespace ns3
