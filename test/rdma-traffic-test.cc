/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Traffic and measurement: flow-size CDFs (RdmaFlowSizeDistribution, RdmaFlowSizeReader)
// and the open-loop generator (RdmaFlowGenerator) against first principles: the CDF's mean,
// interpolation between points, destination patterns, clear errors.

#include "rdma-test-utils.h"

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
    EXPECT_DEATH(install(4, "Load", DoubleValue(0)),
                 "Load 0 is invalid; valid: a fraction in \\(0, 1\\]");
    EXPECT_DEATH(install(4, "Load", DoubleValue(1.5)), "Load 1.5 is invalid");
    EXPECT_DEATH(install(4, "Load", DoubleValue(-0.2)), "Load -0.2 is invalid");
    EXPECT_DEATH(install(1, "Load", DoubleValue(0.5)),
                 "pattern Uniform needs at least 2 hosts; there are 1");
    EXPECT_DEATH(
        {
            Star star(4, "100Gbps", MicroSeconds(1));
            star.Install();
            RdmaFlowGeneratorHelper gen(d);
            gen.SetAttribute("Pattern", StringValue("Incast"));
            gen.SetAttribute("Target", UintegerValue(4));
            gen.Install(star.hosts);
        },
        "pattern Incast: Target 4 is invalid; valid: a host index in \\[0, 3\\]");
    EXPECT_DEATH(
        {
            Star star(4, "100Gbps", MicroSeconds(1));
            star.Install();
            RdmaFlowGeneratorHelper gen(d);
            gen.SetAttribute("Pattern", StringValue("HotSpot"));
            gen.SetAttribute("Target", UintegerValue(9));
            gen.Install(star.hosts);
        },
        "pattern HotSpot: Target 9 needs 10 hosts; there are 4");
    EXPECT_DEATH(
        {
            Star star(4, "100Gbps", MicroSeconds(1));
            star.Install();
            RdmaFlowGeneratorHelper gen(d);
            gen.SetAttribute("Pattern", StringValue("RackLocal"));
            gen.SetAttribute("RackSize", UintegerValue(4));
            gen.Install(star.hosts);
        },
        "pattern RackLocal: RackSize 4 with 4 hosts leaves no host outside the rack");
    EXPECT_DEATH(install(4, "Fraction", DoubleValue(1.2)), "Fraction 1.2 is invalid");
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
